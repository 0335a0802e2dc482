package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/store/sqlite"
)

// backupCmd is "backup [--data DIR] FILE": an online copy of the SQLite
// database "arbiter serve" keeps in DIR.
//
// For docs/server.md, the PostgreSQL path: the server's database is
// backed up with PostgreSQL's own tools while servers run,
//
//	pg_dump --format=custom --file=arbiter.dump 'postgres://user@host/arbiter'
//
// and restored into a new, empty database with
//
//	pg_restore --dbname='postgres://user@host/arbiter' arbiter.dump
//
// before the servers start on it (they find the schema in place).
func backupCmd() *cobra.Command {
	var data string
	cmd := &cobra.Command{
		Use:   "backup [--data DIR] FILE",
		Short: "Copy the server's SQLite database to a new file, even while it runs",
		Long: `backup writes a consistent copy of the SQLite database that "arbiter serve"
keeps in its data folder to FILE, a new file (it never overwrites one), while
the server goes on. To restore, stop the server and put the copy in the data
folder as arbiter.db, removing arbiter.db-wal and arbiter.db-shm there.
A server on PostgreSQL is backed up with pg_dump instead.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := dataDir(data)
			if err != nil {
				return err
			}
			db := filepath.Join(dir, sqlite.FileName)
			if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("backup: no database in %s (no %s); give --data the folder arbiter serve uses", dir, sqlite.FileName)
			} else if err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			s, err := sqlite.Open(cmd.Context(), dir)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := s.Backup(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s\n", db, args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "the server's data folder (default: arbiter under the user's data directory)")
	allow(cmd, "data", "a folder holding arbiter.db")
	return cmd
}

// dataDir is the --data folder, or the default one.
func dataDir(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	dir, err := sqlite.DefaultDir()
	if err != nil {
		return "", fmt.Errorf("--data: %w", err)
	}
	return dir, nil
}
