package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/lab"
)

// plotFolder makes the folder that --svg names, with its parents, before
// anything is written: a user who names a new folder wants it made. A
// path that is a file is refused.
func plotFolder(dir string) error {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("--svg %s: a file, not a folder", clip.Quote(dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--svg %s: %w", clip.Quote(dir), err)
	}
	return nil
}

// writingNote is what the lab says once the games are played, while it
// measures them and writes the outputs: on a large run that takes a while,
// and a silent terminal after 100% looks hung.
const writingNote = "measuring the games; writing games.pdn, summary.json, games.csv, plies.csv, report.html and its plots…"

// labProgress is a run's progress bar on w, labelled id, followed by
// writingNote when the last game ends (or at once when no game is left to
// play). quiet shows nothing.
func labProgress(w io.Writer, id string, quiet bool) lab.Progress {
	var bar *progressbar.ProgressBar
	return func(played, total int) {
		if quiet {
			return
		}
		if total == 0 {
			fmt.Fprintln(w, writingNote)
			return
		}
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(id), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w); fmt.Fprintln(w, writingNote) }))
		}
		bar.Set(played)
	}
}
