// Package botclient brings an engine onto an arbiter site as a bot
// account, through the site's bot API (docs/server.md, "Bots"): it
// follows the bot's event stream, accepts the challenges its engine can
// play and declines the others, follows each game's stream, and when it
// is the bot's turn asks the engine for a move, within the clock's time
// left, and plays it. A stream that drops is opened again, after a wait
// that doubles up to a bound. Any program that speaks arbiter's engine
// protocol is an engine (UCI, through package uci); so is any ai.Engine.
//
// It knows the site only by its HTTP API: it imports no server package.
package botclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// Engine searches the moves of one game at a time: uci.Client is one.
type Engine interface {
	Search(ctx context.Context, s game.State, lim ai.Limits, report func(ai.Info)) ai.Info
	Close() error
}

// Config is what a bot runs with.
type Config struct {
	// Site is the site's address ("https://example.org"); Token the bot
	// account's API token.
	Site, Token string
	// NewEngine starts an engine for one game; each game has its own.
	NewEngine func() (Engine, error)
	// Games are the game ids the engine plays (its handshake's); a
	// challenge to another is declined. Nil: every game.
	Games []string
	// MaxGames bounds the games the bot plays at once (0: 2); a challenge
	// past it is declined.
	MaxGames int
	// Limits caps every search (a move time, nodes, a depth); the clock
	// of a real-time game is added to it at each move.
	Limits ai.Limits
	// Overhead is the time a move takes to reach the site, kept off the
	// clock the engine is given (0: 300 ms).
	Overhead time.Duration
	// MinWait and MaxWait bound the wait before a dropped stream is
	// opened again, doubling from the first to the second (0: 500 ms and
	// 30 s). Silence is how long a stream may send nothing, not even its
	// empty line, before it is taken for dropped (0: 30 s).
	MinWait, MaxWait, Silence time.Duration
	// HTTP is the client of every request (nil: one of its own).
	HTTP *http.Client
	// Logger receives what the bot does; nil discards it.
	Logger *slog.Logger
}

func (cfg Config) withDefaults() Config {
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 2
	}
	if cfg.Overhead <= 0 {
		cfg.Overhead = 300 * time.Millisecond
	}
	if cfg.MinWait <= 0 {
		cfg.MinWait = 500 * time.Millisecond
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 30 * time.Second
	}
	if cfg.Silence <= 0 {
		cfg.Silence = 30 * time.Second
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Site = strings.TrimRight(cfg.Site, "/")
	return cfg
}

// Bot is one bot at work: Run it.
type Bot struct {
	cfg  Config
	api  *api
	log  *slog.Logger
	name string

	mu sync.Mutex
	// playing are the games being played, and accepting the challenges
	// accepted whose games have not started yet: both count against
	// MaxGames.
	playing   map[string]bool
	accepting int
	games     sync.WaitGroup
}

// New makes a bot of cfg.
func New(cfg Config) (*Bot, error) {
	if cfg.Site == "" || cfg.Token == "" || cfg.NewEngine == nil {
		return nil, errors.New("botclient: a site, a token and an engine are needed")
	}
	cfg = cfg.withDefaults()
	return &Bot{cfg: cfg, api: &api{site: cfg.Site, token: cfg.Token, http: cfg.HTTP}, log: cfg.Logger, playing: map[string]bool{}}, nil
}

// Run plays until ctx ends, or the site refuses the token (not a bot's,
// revoked: no wait mends that); a stream that drops, or a site that does
// not answer, is tried again. The games in play end with ctx too; Run
// returns once they have.
func (b *Bot) Run(ctx context.Context) error {
	defer b.games.Wait()
	wait := b.backoff()
	for {
		err := b.connect(ctx, wait)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if refused(err) {
			return err
		}
		b.log.Warn("the event stream failed; trying again", "err", err, "wait", wait.now)
		if !wait.sleep(ctx) {
			return ctx.Err()
		}
	}
}

// connect checks the token, then follows the event stream until it
// ends; a stream that opened resets the wait.
func (b *Bot) connect(ctx context.Context, wait *backoff) error {
	var me struct {
		Name string `json:"name"`
		Bot  bool   `json:"bot"`
	}
	if err := b.api.get(ctx, "/api/bot/account", &me); err != nil {
		return err
	}
	if !me.Bot {
		return &APIError{Status: http.StatusForbidden, Code: "forbidden",
			Message: me.Name + " is not a bot: turn the account into one first (POST /api/bot/account/upgrade)"}
	}
	if b.name == "" {
		b.log.Info("connected", "bot", me.Name, "site", b.cfg.Site)
	}
	b.name = me.Name
	s, err := b.api.stream(ctx, "/api/bot/stream/event", b.cfg.Silence)
	if err != nil {
		return err
	}
	defer s.close()
	wait.reset()
	for {
		line, err := s.next()
		if err != nil {
			return err
		}
		if err := b.event(ctx, line); err != nil {
			b.log.Warn("an event", "err", err)
		}
	}
}

// eventLine is a line of the event stream.
type eventLine struct {
	Type      string     `json:"type"`
	Challenge *challenge `json:"challenge"`
	Game      *struct {
		ID     string  `json:"id"`
		Game   string  `json:"game"`
		Result *result `json:"result"`
	} `json:"game"`
}

// challenge is a challenge to the bot, as the event stream tells it.
type challenge struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Rated   bool              `json:"rated"`
	By      string            `json:"by"`
	Seats   int               `json:"seats"`
}

// result is how a game ended.
type result struct {
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
}

func (b *Bot) event(ctx context.Context, data []byte) error {
	var ev eventLine
	if err := decodeLine(data, &ev); err != nil {
		return err
	}
	switch {
	case ev.Type == "challenge" && ev.Challenge != nil:
		b.answer(ctx, *ev.Challenge)
	case ev.Type == "gameStart" && ev.Game != nil:
		b.start(ctx, ev.Game.ID)
	case ev.Type == "gameFinish" && ev.Game != nil:
		b.log.Info("game over", "game", ev.Game.ID, "result", ev.Game.Result)
	}
	return nil
}

// answer accepts a challenge the engine plays while the bot has room for
// a game, and declines any other.
func (b *Bot) answer(ctx context.Context, c challenge) {
	why := b.refusal(c)
	if why == "" {
		b.mu.Lock()
		if len(b.playing)+b.accepting >= b.cfg.MaxGames {
			why = fmt.Sprintf("it plays %d games already", b.cfg.MaxGames)
		} else {
			b.accepting++
		}
		b.mu.Unlock()
	}
	if why != "" {
		b.log.Info("declining a challenge", "challenge", c.ID, "by", c.By, "game", c.Game, "why", why)
		if err := b.api.post(ctx, "/api/challenge/"+c.ID+"/decline", nil); err != nil {
			b.log.Warn("declining", "challenge", c.ID, "err", err)
		}
		return
	}
	var started struct {
		Game string `json:"game"`
	}
	err := b.api.post(ctx, "/api/challenge/"+c.ID+"/accept", &started)
	b.mu.Lock()
	b.accepting--
	b.mu.Unlock()
	switch {
	case err == nil:
		b.log.Info("accepted a challenge", "challenge", c.ID, "by", c.By, "game", c.Game, "rated", c.Rated)
		if started.Game != "" {
			b.start(ctx, started.Game)
		}
	case refused(err) || status(err) == http.StatusTooManyRequests:
		// The site's own bounds (games at once, an hour's challenges), or
		// a challenge gone: the challenger is told at once rather than
		// left waiting.
		b.log.Info("the site refused the accept; declining", "challenge", c.ID, "err", err)
		_ = b.api.post(ctx, "/api/challenge/"+c.ID+"/decline", nil)
	default:
		b.log.Warn("accepting", "challenge", c.ID, "err", err)
	}
}

// refusal says why the bot declines c whatever its load ("" for none).
func (b *Bot) refusal(c challenge) string {
	if _, ok := game.Lookup(c.Game); !ok {
		return "no such game here"
	}
	if b.cfg.Games != nil && !slices.Contains(b.cfg.Games, c.Game) {
		return "the engine does not play " + c.Game
	}
	return ""
}

// start plays game id, unless it is played already.
func (b *Bot) start(ctx context.Context, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.playing[id] {
		return
	}
	b.playing[id] = true
	b.games.Go(func() {
		defer func() {
			b.mu.Lock()
			delete(b.playing, id)
			b.mu.Unlock()
		}()
		b.play(ctx, id)
	})
}

// Playing lists the games being played, for a caller that reports.
func (b *Bot) Playing() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id := range b.playing {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// backoff is a doubling wait between tries.
type backoff struct {
	min, max, now time.Duration
}

func (b *Bot) backoff() *backoff {
	return &backoff{min: b.cfg.MinWait, max: b.cfg.MaxWait, now: b.cfg.MinWait}
}

// sleep waits the current wait, then doubles it; false when ctx ended
// first.
func (w *backoff) sleep(ctx context.Context) bool {
	t := time.NewTimer(w.now)
	defer t.Stop()
	w.now = min(2*w.now, w.max)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (w *backoff) reset() { w.now = w.min }
