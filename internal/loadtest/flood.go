package loadtest

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// FloodReport is what the flood of reads saw: requests for the lobby
// (GET /api/games) and for held games (GET /api/games/{id}) sent as fast
// as the workers could, all from one source address.
type FloodReport struct {
	// Workers is the number of workers, each one request at a time.
	Workers int
	// From is the flood's source address ("" for the system's choice,
	// shared with the games).
	From string
	// Lobby and Game count the requests sent of each kind.
	Lobby, Game int
	// OK counts the 200s, Limited the 429s; Other the other statuses by
	// status.
	OK, Limited int
	Other       map[int]int
	// Errors counts the requests that got no answer, by cause.
	Errors map[string]*ErrorCount
	// Elapsed is how long the flood ran.
	Elapsed time.Duration
}

// Requests is the number of requests sent.
func (f *FloodReport) Requests() int { return f.Lobby + f.Game }

// PerSecond is the requests sent a second.
func (f *FloodReport) PerSecond() float64 { return perSecond(f.Requests(), f.Elapsed) }

// floodPause is a worker's pause after a request that got no answer, so
// that a server that refuses connections is not spun against.
const floodPause = 100 * time.Millisecond

// maxFloodBody bounds the part of an answer a worker reads; the rest is
// dropped with the connection.
const maxFloodBody = 16 << 20

// floodRun is the flood under way; wait ends it and reports.
type floodRun struct {
	wg      sync.WaitGroup
	workers []*floodWorker
	rep     *FloodReport
}

// floodWorker is one worker's counts, merged at the end.
type floodWorker struct {
	lobby, game, ok, limited int
	other                    map[int]int
	errors                   map[string]*ErrorCount
}

// flood starts cfg.Flood workers reading until ctx ends.
func (r *run) flood(ctx context.Context) *floodRun {
	f := &floodRun{}
	if r.cfg.Flood == 0 {
		return f
	}
	src := r.sideAddr(floodAddr)
	c := newClient(r.target, src)
	t := c.http.Transport.(*http.Transport)
	t.MaxIdleConnsPerHost, t.MaxConnsPerHost = r.cfg.Flood, r.cfg.Flood
	f.rep = &FloodReport{Workers: r.cfg.Flood}
	if src.IsValid() {
		f.rep.From = src.String()
	}
	for n := range r.cfg.Flood {
		w := &floodWorker{other: map[int]int{}, errors: map[string]*ErrorCount{}}
		f.workers = append(f.workers, w)
		rng := rand.New(rand.NewPCG(r.cfg.Seed, 1<<32+uint64(n)))
		f.wg.Go(func() { r.floodWorker(ctx, c, w, rng) })
	}
	go func() {
		<-ctx.Done()
		f.wg.Wait()
		c.close()
	}()
	return f
}

// floodWorker sends its requests one after the other until ctx ends:
// the lobby and a random held game in turn.
func (r *run) floodWorker(ctx context.Context, c *client, w *floodWorker, rng *rand.Rand) {
	for i := 0; ctx.Err() == nil; i++ {
		path, lobby := "/api/games", true
		if id := r.randomID(rng); i%2 == 1 && id != "" {
			path, lobby = path+"/"+id, false
		}
		status, err := c.read(ctx, path)
		switch {
		case err != nil && ctx.Err() != nil:
			// the flood's end, not the server's answer: not counted
			return
		case lobby:
			w.lobby++
		default:
			w.game++
		}
		switch {
		case err != nil:
			kind := errorKind("flood", err)
			if w.errors[kind] == nil {
				w.errors[kind] = &ErrorCount{First: err.Error()}
			}
			w.errors[kind].N++
			sleep(ctx, floodPause)
		case status == http.StatusOK:
			w.ok++
		case status == http.StatusTooManyRequests:
			w.limited++
		default:
			w.other[status]++
		}
	}
}

// randomID is the current game of a random slot, "" when it has none.
func (r *run) randomID(rng *rand.Rand) string {
	if len(r.ids) == 0 {
		return ""
	}
	if id := r.ids[rng.IntN(len(r.ids))].Load(); id != nil {
		return *id
	}
	return ""
}

// read sends a GET and reads its answer, answering its status.
func (c *client) read(ctx context.Context, path string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, io.LimitReader(resp.Body, maxFloodBody)); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// wait waits for the workers, which stop when the flood's context ends,
// and merges their counts; elapsed is the time the flood ran, from the
// start of the games to their end (not counting the wait).
func (f *floodRun) wait(elapsed time.Duration) *FloodReport {
	if f.rep == nil {
		return nil
	}
	f.wg.Wait()
	rep := f.rep
	rep.Elapsed = elapsed
	rep.Other, rep.Errors = map[int]int{}, map[string]*ErrorCount{}
	for _, w := range f.workers {
		rep.Lobby += w.lobby
		rep.Game += w.game
		rep.OK += w.ok
		rep.Limited += w.limited
		for s, n := range w.other {
			rep.Other[s] += n
		}
		for k, e := range w.errors {
			if rep.Errors[k] == nil {
				rep.Errors[k] = &ErrorCount{First: e.First}
			}
			rep.Errors[k].N += e.N
		}
	}
	return rep
}
