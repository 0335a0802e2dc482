package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// storeTarget is --data or --db of a command that writes into the
// store "arbiter serve" keeps: neither given, it writes nothing there.
type storeTarget struct{ data, db string }

func (t *storeTarget) addFlags(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&t.data, "data", "", "also store "+what+" in the SQLite database arbiter serve keeps in this folder")
	cmd.Flags().StringVar(&t.db, "db", "", "also store "+what+" in this PostgreSQL database (postgres://...)")
}

func (t *storeTarget) check() error {
	switch {
	case t.data != "" && t.db != "":
		return errors.New("--data and --db: give one; --data is for SQLite, --db for PostgreSQL")
	case t.db != "" && !strings.HasPrefix(t.db, "postgres://") && !strings.HasPrefix(t.db, "postgresql://"):
		return errors.New("--db: want a PostgreSQL URL, postgres://USER@HOST/DB")
	}
	return nil
}

func (t *storeTarget) wanted() bool { return t.data != "" || t.db != "" }

func (t *storeTarget) open(ctx context.Context) (store.Store, error) {
	if t.db != "" {
		st, err := postgres.Open(ctx, t.db)
		if err != nil {
			return nil, fmt.Errorf("--db: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, t.data)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	return st, nil
}

// storeLevels writes each measured level's rating in game into its
// account (made if the server has not made it yet), replacing the rating
// the account has there: the server's AI levels then start from the
// measurement.
func storeLevels(ctx context.Context, st store.Store, game string, levels map[string]rating.LevelRating, now time.Time) error {
	for key, lr := range levels {
		n, err := strconv.Atoi(key)
		if err != nil || n < 1 || n > hall.Levels {
			return fmt.Errorf("level %q: want 1 to %d", key, hall.Levels)
		}
		id := hall.LevelAccount(n)
		if err := st.EnsureLevel(ctx, store.Account{ID: id, Name: id, Kind: store.AILevel, Created: now}, nil); err != nil {
			return err
		}
		r := store.Rating{Game: game, Rating: lr.Rating, RD: lr.RD, Volatility: lr.Volatility, Games: lr.Games, Updated: now}
		if err := st.SetRating(ctx, id, r); err != nil {
			return err
		}
	}
	return nil
}
