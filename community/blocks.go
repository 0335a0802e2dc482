package community

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// Block makes account block the account named name: neither sees the
// other's seeks or chat messages, and neither may challenge the other or
// chat in a game between them. It gives the blocked account's id.
func (s *Service) Block(ctx context.Context, account, name string) (string, error) {
	a, err := s.account(ctx, account)
	if err != nil {
		return "", err
	}
	other, err := s.accountByName(ctx, name)
	if err != nil {
		return "", err
	}
	if other.ID == a.ID {
		return "", refuse(Invalid, "you cannot block yourself")
	}
	err = s.store.Block(ctx, a.ID, other.ID, s.limits.MaxBlocks, s.now())
	if errors.Is(err, store.ErrTooManyBlocks) {
		return "", refuse(TooMany, "you block %d accounts already, the most allowed; unblock one first", s.limits.MaxBlocks)
	}
	if err != nil {
		return "", err
	}
	s.blockedLive(a.ID, other.ID)
	return other.ID, nil
}

// Unblock undoes account's block of the account named name.
func (s *Service) Unblock(ctx context.Context, account, name string) error {
	other, err := s.accountByName(ctx, name)
	if err != nil {
		return err
	}
	if err := s.store.Unblock(ctx, account, other.ID); err != nil {
		return err
	}
	s.unblockedLive(ctx, account, other.ID)
	return nil
}

// BlockedAccount is an account another blocks, as its list shows it.
type BlockedAccount struct {
	Name string
	At   time.Time
}

// Blocks lists the accounts account blocks, newest first.
func (s *Service) Blocks(ctx context.Context, account string) ([]BlockedAccount, error) {
	list, err := s.store.Blocks(ctx, account)
	if err != nil {
		return nil, err
	}
	out := make([]BlockedAccount, len(list))
	for i, b := range list {
		out[i] = BlockedAccount{Name: b.Name, At: b.At}
	}
	return out, nil
}

// Blocking reports whether a block stands between accounts a and b,
// either way.
func (s *Service) Blocking(ctx context.Context, a, b string) (bool, error) {
	if a == "" || b == "" || a == b {
		return false, nil
	}
	return s.store.Blocking(ctx, a, b)
}
