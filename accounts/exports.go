package accounts

import (
	"context"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// maxExport bounds the games one export holds.
const maxExport = 5000

// exportWait is the Retry-After of an export refused while another of
// the account runs: an export takes seconds.
const exportWait = 5 * time.Second

// Export is an export begun: the ids of the account's games, newest
// first (at most 5,000), which the caller writes out, and Done, which
// the caller calls when it has (it may be called more than once).
type Export struct {
	Games []string
	Done  func()
}

// StartExport begins an export of the account id's games; an account
// runs one export at a time (TooMany while another runs).
func (s *Service) StartExport(ctx context.Context, id string) (Export, error) {
	if !s.exports.take(id) {
		e := refuse(TooMany, "an export of this account is running already; wait for it to end")
		e.RetryAfter = exportWait
		return Export{}, e
	}
	var once sync.Once
	done := func() { once.Do(func() { s.exports.done(id) }) }
	ids, err := s.exportGames(ctx, id)
	if err != nil {
		done()
		return Export{}, err
	}
	return Export{Games: ids, Done: done}, nil
}

// exportGames are the ids of the account's games, newest first, at most
// maxExport of them.
func (s *Service) exportGames(ctx context.Context, account string) ([]string, error) {
	var all []string
	f := store.GameFilter{Limit: 1000}
	for len(all) < maxExport {
		headers, err := s.store.PlayerGames(ctx, account, f)
		if err != nil {
			return nil, err
		}
		for _, h := range headers {
			all = append(all, h.ID)
		}
		if len(headers) < f.Limit {
			break
		}
		f.Before = headers[len(headers)-1].Created
	}
	return all[:min(len(all), maxExport)], nil
}

// exportGate lets each account run one export at a time.
type exportGate struct {
	mu      sync.Mutex
	running map[string]bool
}

func newExportGate() *exportGate { return &exportGate{running: map[string]bool{}} }

// take claims the account's export, false when one runs already.
func (g *exportGate) take(account string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[account] {
		return false
	}
	g.running[account] = true
	return true
}

func (g *exportGate) done(account string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, account)
}
