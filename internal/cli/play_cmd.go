package cli

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/record"
	"github.com/spf13/cobra"
)

func playCmd() *cobra.Command {
	var p position
	var save, load string
	var gameNo int
	var sf seatFlags
	cmd := &cobra.Command{
		Use:   "play GAME",
		Short: "Play a game at this terminal, people taking turns",
		Long: `play shows the board and the legal moves, and reads one move per line.
It also understands: undo, moves, board, fen, help, quit.

Any seat may be an engine. For people, ai:level=1 to ai:level=6: level 1
searches one ply and plays half its moves at random, level 2 one ply and a
fifth at random, levels 3, 4 and 5 search 2, 3 and 4 plies, and level 6
searches with all the time it has (--movetime, 3s if not given). Each
level beats the one below (docs/strength.md).

With --save FILE the game is added to the record file FILE (PDN style) and
the file is rewritten after every move, keeping the other games in it.
With --load FILE the last game of FILE (or --game N) is replayed and play
goes on from its last move, saving back into the same place of the file.
GAME may be omitted with --load.`,
		Args: withUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if load != "" {
				return resume(cmd, load, gameNo, args, &sf)
			}
			if len(args) != 1 {
				return fmt.Errorf("play: name the game to play (see 'arbiter games'), or --load a record")
			}
			s, err := p.state(args[0], nil, false)
			if err != nil {
				return err
			}
			ss := &Session{State: s, Index: -1}
			if ss.Seats, ss.Limits, err = sf.seats(s.Game()); err != nil {
				return err
			}
			if save != "" {
				fen := ""
				if p.cmd.Flags().Changed("from") {
					fen = s.FEN()
				}
				ss.Record, ss.Path = record.New(s.Game(), fen, sf.names(s.Game()), time.Now().Format("2006.01.02")), save
			}
			return ss.Run(cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	p.addFlags(cmd)
	cmd.Flags().StringVar(&save, "save", "", "add the game to this record file and keep it saved after every move")
	cmd.Flags().StringVar(&load, "load", "", "resume a game from this record file")
	cmd.Flags().IntVar(&gameNo, "game", 0, "with --load: which game of the file (1 is the first; default the last)")
	sf.add(cmd)
	return cmd
}

// resume loads a game from a record file and plays on, saving back to it.
func resume(cmd *cobra.Command, path string, gameNo int, args []string, sf *seatFlags) error {
	recs, err := readRecords(path)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s holds no game", path)
	}
	if gameNo == 0 {
		gameNo = len(recs)
	}
	if gameNo < 1 || gameNo > len(recs) {
		return fmt.Errorf("%s holds %d games; there is no game %d", path, len(recs), gameNo)
	}
	r := recs[gameNo-1]
	if len(args) == 1 && args[0] != r.Get("Game") {
		return fmt.Errorf("game %d of %s is %s, not %s", gameNo, path, r.Get("Game"), args[0])
	}
	s, err := r.Replay(gameNo)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	ss := &Session{State: s, Record: r, Path: path, Index: gameNo - 1}
	if ss.Seats, ss.Limits, err = sf.seats(s.Game()); err != nil {
		return err
	}
	return ss.Run(cmd.InOrStdin(), cmd.OutOrStdout())
}
