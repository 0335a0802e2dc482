package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/terminal"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// playFlags are play's own flags, besides the position and the seats.
type playFlags struct {
	save, load string
	gameNo     int
	clock      string
	names      []string
	view       string
	color      string
	// noTakebacks turns undo off, as a game created with "takebacks":
	// false on the server.
	noTakebacks bool
}

func playCmd() *cobra.Command {
	var p position
	var pf playFlags
	var sf seatFlags
	cmd := &cobra.Command{
		Use:   "play GAME",
		Short: "Play a game at this terminal, against the AI or people taking turns",
		Long: `play shows the board and the legal moves, and reads one move per line.
It also understands: moves [CELL], undo [N], history, hint, draw, resign,
flip, board, fen, help, quit (type help in the game).

Any seat may be an engine. For people, ai:level=1 to ai:level=6: level 1
searches one ply and plays half its moves at random, level 2 one ply and a
fifth at random, levels 3, 4 and 5 search 2, 3 and 4 plies, and level 6
searches a million positions (at most 3s, or --movetime when less). With
three players the levels have a table of their own: level 1 plays at
random, levels 2 to 4 search one ply with fewer moves at random, level 5
searches 2 plies and level 6 5 plies (at most 3s).
Each level beats the one below (docs/strength.md). Type quit or press Ctrl-C to
stop the AI at once.

The board is drawn from the side of the person to move (of the only person
when one plays the AI); --view fixes a seat, and flip turns it.

With --clock 5m+3s every seat has 5 minutes and gains 3 seconds a move
(Fischer); a person whose time runs out loses the game on time.

undo takes back at once: the people at this keyboard agree there and
then. It keeps the server's rules otherwise: --no-takebacks refuses it
(as a game created without take-backs), and so does a game of three
played by two or three people. The clocks go back to their readings
before the moves taken back.

With --save FILE the game is added to the record file FILE (PDN style) and
the file is rewritten after every move, keeping the other games in it; a
file that is not a record file is refused before the game starts.
With --load FILE the last game of FILE (or --game N) is replayed and play
goes on from its last move. It is saved back in its place only while
nothing saved is lost (the game was unfinished and keeps every move it was
loaded with); taking back a loaded move or going on from a finished game
saves the new line as a new game at the end of the file (or of --save
FILE), and the original game stays as it was. Looking at a game writes
nothing. GAME may be omitted with --load.`,
		Args: withUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pf.check(cmd, &p); err != nil {
				return err
			}
			cfg, err := pf.config(cmd, &p, &sf, args)
			if err != nil {
				return err
			}
			pg, err := play.New(cfg)
			if err != nil {
				return err
			}
			opt, err := pf.options(pg.Game(), cmd.OutOrStdout())
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return terminal.Run(ctx, pg, cmd.InOrStdin(), cmd.OutOrStdout(), opt)
		},
	}
	p.addFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&pf.save, "save", "", "add the game to this record file and keep it saved after every move")
	f.StringVar(&pf.load, "load", "", "resume a game from this record file")
	f.IntVar(&pf.gameNo, "game", 0, "with --load: which game of the file (1 is the first; default the last)")
	f.StringVar(&pf.clock, "clock", "", "time control for every seat: "+timecontrol.Allowed+"; "+timecontrol.Bounds)
	f.StringArrayVar(&pf.names, "name", nil, "a player's name for the record, SEAT=NAME such as white=Ann (repeatable)")
	f.StringVar(&pf.view, "view", "", "draw the board from this seat's side (default: the person to move)")
	f.BoolVar(&pf.noTakebacks, "no-takebacks", false, "refuse undo: no move is taken back (as a server game created without take-backs)")
	f.StringVar(&pf.color, "color", "auto", "colour: auto (when the output is a terminal and NO_COLOR is unset), always, never")
	sf.add(cmd)
	return cmd
}

// check refuses flags that contradict each other, before anything is
// read or written.
func (pf *playFlags) check(cmd *cobra.Command, p *position) error {
	changed := cmd.Flags().Changed
	if pf.load == "" {
		if changed("game") {
			return fmt.Errorf("--game %d: say which file with --load", pf.gameNo)
		}
	} else {
		for _, flag := range []string{"from", "option"} {
			if changed(flag) {
				return fmt.Errorf("--%s cannot be used with --load: the record says the game, its options and its position", flag)
			}
		}
		if changed("game") && pf.gameNo < 1 {
			return fmt.Errorf("--game %d: want the number of a game in the file, 1 or more", pf.gameNo)
		}
	}
	switch pf.color {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("--color %q: want auto, always or never", pf.color)
	}
	if changed("clock") {
		if _, err := timecontrol.Parse(pf.clock); err != nil {
			return fmt.Errorf("--clock %w", err)
		}
	}
	if pf.save != "" {
		if err := savefile.CheckDestination(pf.save); err != nil {
			return fmt.Errorf("--save: %w", err)
		}
	}
	return nil
}

// config builds the game to play: a new one, or one loaded from a record
// file, with its seats, clock and record file.
func (pf *playFlags) config(cmd *cobra.Command, p *position, sf *seatFlags, args []string) (play.Config, error) {
	cfg := play.Config{Date: time.Now().Format("2006.01.02"), NoTakebacks: pf.noTakebacks}
	var err error
	if pf.load != "" {
		err = pf.loadGame(&cfg, args)
	} else {
		err = pf.newGame(&cfg, p, args)
	}
	if err != nil {
		return cfg, err
	}
	g := cfg.Start.Game()
	engines, lim, err := sf.seats(g)
	if err != nil {
		return cfg, err
	}
	names, err := pf.seatNames(g)
	if err != nil {
		return cfg, err
	}
	cfg.Limits = lim
	cfg.Seats = make([]play.Seat, g.Players())
	for i := range cfg.Seats {
		cfg.Seats[i] = play.Seat{Name: names[i], Engine: engines[i]}
		if engines[i] != nil {
			cfg.Seats[i].Name = engines[i].Name()
		}
	}
	if cfg.Record == nil {
		for i := range cfg.Seats {
			if cfg.Seats[i].Name == "" {
				cfg.Seats[i].Name = "?"
			}
		}
	}
	if pf.clock != "" {
		tc, _ := timecontrol.Parse(pf.clock)
		cfg.Clock = &tc
	}
	return cfg, nil
}

// newGame sets up a game from the start or --from, saved with --save.
func (pf *playFlags) newGame(cfg *play.Config, p *position, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("play: name the game to play (see 'arbiter games'), or --load a record")
	}
	s, err := p.state(args[0], nil, false)
	if err != nil {
		return err
	}
	cfg.Start = s
	if p.cmd.Flags().Changed("from") {
		cfg.StartFEN = s.FEN()
	}
	if pf.save != "" {
		cfg.Keeper = terminal.NewGameFile(pf.save)
	}
	return nil
}

// loadGame replays game --game of the --load file and saves on as the
// record file decides, or as a new game of --save.
func (pf *playFlags) loadGame(cfg *play.Config, args []string) error {
	recs, err := savefile.ReadRecords(pf.load)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s holds no game", pf.load)
	}
	n := pf.gameNo
	if n == 0 {
		n = len(recs)
	}
	if n > len(recs) {
		return fmt.Errorf("--game %d: %s holds %s", n, pf.load, plural(len(recs), "game"))
	}
	r := recs[n-1]
	if len(args) == 1 && args[0] != r.Get("Game") {
		return fmt.Errorf("game %d of %s is %s, not %s", n, pf.load, r.Get("Game"), args[0])
	}
	s, err := r.Replay(n)
	if err != nil {
		return fmt.Errorf("%s: %w", pf.load, err)
	}
	cfg.Start, cfg.Record = s, r
	if pf.save != "" {
		cfg.Keeper = terminal.NewGameFile(pf.save)
	} else {
		cfg.Keeper = terminal.LoadedGameFile(pf.load, n-1, r)
	}
	return nil
}

// seatNames reads the --name flags: SEAT=NAME, one per seat at most.
func (pf *playFlags) seatNames(g game.Game) ([]string, error) {
	names := make([]string, g.Players())
	for _, v := range pf.names {
		seat, name, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--name %q: write SEAT=NAME, such as %s=Ann", v, g.Seat(0).Key)
		}
		if strings.ContainsAny(name, "\"\\\n\r") || len(name) > 100 {
			return nil, fmt.Errorf("--name %q: a name is at most 100 characters, without quotes, backslashes or line breaks", v)
		}
		p, err := seatByName(g, seat, "--name")
		if err != nil {
			return nil, err
		}
		if names[p] != "" {
			return nil, fmt.Errorf("--name: %s is named twice", g.PlayerName(p))
		}
		names[p] = name
	}
	return names, nil
}

// seatByName finds a seat by its key ("white") or its name in any case
// ("White").
func seatByName(g game.Game, name, flag string) (game.Player, error) {
	if p, ok := game.FindSeat(g, name); ok {
		return p, nil
	}
	return 0, fmt.Errorf("%s %q: %s has the seats %s", flag, name, g.ID(), strings.Join(game.SeatKeys(g), ", "))
}

// options are how the game is shown: --view, --color, and a live line
// for the AI's thinking on a real terminal.
func (pf *playFlags) options(g game.Game, out io.Writer) (terminal.Options, error) {
	opt := terminal.Options{Color: pf.useColor(out), Live: isTerminal(out)}
	if pf.view != "" {
		view, err := seatByName(g, pf.view, "--view")
		if err != nil {
			return opt, err
		}
		opt.View = &view
	}
	return opt, nil
}

// useColor decides whether to draw in colour.
func (pf *playFlags) useColor(out io.Writer) bool {
	switch pf.color {
	case "always":
		return true
	case "never":
		return false
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	return !noColor && os.Getenv("TERM") != "dumb" && isTerminal(out)
}

// isTerminal reports whether out is a terminal (not a pipe or a file).
func isTerminal(out io.Writer) bool {
	f, ok := out.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
