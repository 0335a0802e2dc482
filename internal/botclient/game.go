package botclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// gameFull is the first line of a game's stream.
type gameFull struct {
	Type string `json:"type"`
	Game struct {
		ID       string            `json:"id"`
		Game     string            `json:"game"`
		Options  map[string]string `json:"options"`
		StartFEN string            `json:"startFen"`
		You      *int              `json:"you"`
	} `json:"game"`
	State gameState `json:"state"`
}

// gameState is the game after a change.
type gameState struct {
	Type   string   `json:"type"`
	Ply    int      `json:"ply"`
	Moves  []string `json:"moves"`
	FEN    string   `json:"fen"`
	ToMove int      `json:"toMove"`
	Clock  *struct {
		Kind        string  `json:"kind"`
		IncrementMs int64   `json:"incrementMs"`
		LeftMs      []int64 `json:"leftMs"`
	} `json:"clock"`
	Status string  `json:"status"`
	Result *result `json:"result"`
}

// player plays one game: its rules, its seat, its engine (started at the
// first move), and the last ply it moved at.
type player struct {
	b        *Bot
	id       string
	rules    game.Game
	startFEN string
	seat     int
	engine   Engine
	moved    int // the ply of the move last played, -1 for none
}

// engineTries is how many times one move is asked of an engine, a new
// one each time it fails, before the bot resigns the game rather than
// let its clock run out with nobody there.
const engineTries = 3

// play plays game id until it ends or ctx does, opening its stream again
// after a wait whenever it drops.
func (b *Bot) play(ctx context.Context, id string) {
	p := &player{b: b, id: id, moved: -1}
	defer p.closeEngine()
	wait := b.backoff()
	for ctx.Err() == nil {
		over, err := p.follow(ctx, wait)
		if over {
			return
		}
		if refused(err) {
			b.log.Warn("the game's stream was refused", "game", id, "err", err)
			return
		}
		if ctx.Err() == nil {
			b.log.Warn("the game's stream dropped; opening it again", "game", id, "err", err, "wait", wait.now)
		}
		if !wait.sleep(ctx) {
			return
		}
	}
}

// follow reads the game's stream, moving at each of the bot's turns,
// until the game is over (over) or the stream ends (err).
func (p *player) follow(ctx context.Context, wait *backoff) (over bool, err error) {
	s, err := p.b.api.stream(ctx, "/api/bot/game/stream/"+url.PathEscape(p.id), p.b.cfg.Silence)
	if err != nil {
		return false, err
	}
	defer s.close()
	line, err := s.next()
	if err != nil {
		return false, err
	}
	var full gameFull
	if err := decodeLine(line, &full); err != nil {
		return false, err
	}
	if full.Type != "gameFull" || full.Game.You == nil {
		return false, fmt.Errorf("the game's stream began with %q, not the game whole", full.Type)
	}
	if p.rules == nil {
		rules, err := game.New(full.Game.Game, full.Game.Options)
		if err != nil {
			return true, fmt.Errorf("game %s: %w", p.id, err) // a game this build cannot play
		}
		p.rules, p.startFEN, p.seat = rules, full.Game.StartFEN, *full.Game.You
		p.b.log.Info("playing", "game", p.id, "rules", full.Game.Game, "seat", p.seat)
	}
	wait.reset()
	state := full.State
	for {
		if state.Status != "started" {
			p.b.log.Info("the game ended", "game", p.id, "status", state.Status, "result", state.Result)
			return true, nil
		}
		if state.ToMove == p.seat && state.Ply > p.moved {
			if err := p.move(ctx, state, time.Now()); err != nil {
				p.b.log.Warn("a move", "game", p.id, "ply", state.Ply, "err", err)
			}
		}
		line, err := s.next()
		if err != nil {
			return false, err
		}
		state = gameState{}
		if err := decodeLine(line, &state); err != nil {
			return false, err
		}
	}
}

// move asks the engine for the move of state, read at seen, and plays it.
func (p *player) move(ctx context.Context, state gameState, seen time.Time) error {
	st, err := p.position(state)
	if err != nil {
		return err
	}
	for try := 1; ; try++ {
		info, err := p.search(ctx, st, p.limits(state, seen))
		if err == nil {
			text := info.Move.Text(p.rules.Board())
			return p.send(ctx, text, state.Ply)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.b.log.Warn("the engine failed; starting it again", "game", p.id, "try", try, "err", err)
		p.closeEngine()
		if try == engineTries {
			p.b.log.Warn("resigning: the engine fails", "game", p.id)
			return p.b.api.post(ctx, "/api/bot/game/"+url.PathEscape(p.id)+"/resign", nil)
		}
	}
}

// search runs the engine, started if need be.
func (p *player) search(ctx context.Context, st game.State, lim ai.Limits) (ai.Info, error) {
	if p.engine == nil {
		e, err := p.b.cfg.NewEngine()
		if err != nil {
			return ai.Info{}, err
		}
		p.engine = e
	}
	info := p.engine.Search(ctx, st, lim, nil)
	if info.Err == nil && info.Move.Len() == 0 {
		info.Err = errors.New("the engine named no move")
	}
	return info, info.Err
}

// send plays text at ply, trying again when the site does not answer;
// a refusal (the game moved on, a move the site finds illegal) is the
// error, which the game's next state settles.
func (p *player) send(ctx context.Context, text string, ply int) error {
	path := fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", url.PathEscape(p.id), url.PathEscape(text), ply)
	wait := p.b.backoff()
	for try := 1; ; try++ {
		err := p.b.api.post(ctx, path, nil)
		if err == nil {
			p.moved = ply
			return nil
		}
		if refused(err) || try == engineTries || !wait.sleep(ctx) {
			if status(err) == http.StatusConflict {
				p.moved = ply // played already (a resend), or the game moved on
			}
			return err
		}
	}
}

// position is the game of state: from its start, each move played, so
// that an engine searching in process knows the history (repetitions);
// from its FEN alone when a move is not one this build reads.
func (p *player) position(state gameState) (game.State, error) {
	st := p.rules.Start()
	if p.startFEN != "" {
		var err error
		if st, err = p.rules.ParseFEN(p.startFEN); err != nil {
			return p.rules.ParseFEN(state.FEN)
		}
	}
	for _, text := range state.Moves {
		m, err := game.ParseMove(st, text)
		if err != nil {
			return p.rules.ParseFEN(state.FEN)
		}
		st.Play(m)
	}
	return st, nil
}

// limits are the search's: Config.Limits, and on a real-time clock the
// time the bot has left, less what passed since the state was read and
// the overhead of sending the move. A correspondence game's days are no
// clock to plan by: its searches take Config.Limits alone.
func (p *player) limits(state gameState, seen time.Time) ai.Limits {
	lim := p.b.cfg.Limits
	c := state.Clock
	if c == nil || c.Kind != "fischer" || p.seat >= len(c.LeftMs) {
		return lim
	}
	left := time.Duration(c.LeftMs[p.seat])*time.Millisecond - time.Since(seen) - p.b.cfg.Overhead
	lim.Clock = ai.MoverClock{Left: max(left, 10*time.Millisecond), Increment: time.Duration(c.IncrementMs) * time.Millisecond}
	return lim
}

func (p *player) closeEngine() {
	if p.engine != nil {
		if err := p.engine.Close(); err != nil {
			p.b.log.Debug("closing the engine", "game", p.id, "err", err)
		}
		p.engine = nil
	}
}
