package server

import (
	"context"
	"sync"
	"time"
)

// healthEvery is how long a store check answers GET /healthz: a flood of
// health checks, from one address or many, costs the store at most one
// write (the check writes a row and reads it back) a second.
const healthEvery = time.Second

// healthTimeout bounds one store check.
const healthTimeout = 5 * time.Second

// health keeps the last store check. Its lock is held through a check,
// so that the requests that come meanwhile wait for that check's answer
// instead of starting their own.
type health struct {
	mu      sync.Mutex
	checked time.Time // when the last check ended; zero before the first
	err     error     // its result
}

// check is the store's health as of at most healthEvery ago, checked
// anew through check when older (or when the clock went back).
func (h *health) check(ctx context.Context, now func() time.Time, check func(context.Context) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if age := now().Sub(h.checked); !h.checked.IsZero() && age >= 0 && age < healthEvery {
		return h.err
	}
	// The check answers every request waiting, so it must not end with
	// the one client that started it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healthTimeout)
	defer cancel()
	h.err = check(ctx)
	h.checked = now()
	return h.err
}

// checkStore checks the store through the hall, logging a failure once
// per check, not once per request answered with it.
func (s *Server) checkStore(ctx context.Context) error {
	err := s.hall.Check(ctx)
	if err != nil {
		s.log.Error("health check", "err", err)
	}
	return err
}
