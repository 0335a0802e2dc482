package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// floodAnalysis loops 5 s analysis searches from n loopback addresses
// (127.0.0.2 on) until ctx ends, as the attack of issue 35 did; it
// returns when every loop has stopped.
func (ts *testServer) floodAnalysis(ctx context.Context, n int) (wait func()) {
	var wg sync.WaitGroup
	for i := range n {
		client := clientFrom(fmt.Sprintf("127.0.0.%d", i+2))
		client.Timeout = 0
		wg.Go(func() {
			for ctx.Err() == nil {
				req, err := http.NewRequestWithContext(ctx, "POST", ts.http.URL+"/api/analysis/eximo/best", bytes.NewReader([]byte(`{"movetime":5000}`)))
				if err != nil {
					return
				}
				req.Header.Set("Content-Type", "application/json")
				if resp, err := client.Do(req); err == nil {
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						time.Sleep(50 * time.Millisecond) // refused: try again soon, as an attacker would
					}
				}
			}
		})
	}
	return wg.Wait
}

// TestAnalysisFloodLeavesTheAIAlone: eight addresses looping 5 s analyses
// hold every analysis worker, and a person's level-1 reply still comes at
// once, and level 6 in a clocked game neither waits nor flags. When
// analyses shared the AI's workers, the reply waited for a 5 s search (9
// to 10 s with eight addresses) and level 6 lost 15s+0 on time.
func TestAnalysisFloodLeavesTheAIAlone(t *testing.T) {
	ts := newTestServer(t, siteConfig{Workers: 2, AnalysisWorkers: 1})
	ctx, stop := context.WithCancel(context.Background())
	wait := ts.floodAnalysis(ctx, 8)
	defer wait()
	defer stop()
	waitFor(t, 10*time.Second, "the flood to hold the analysis worker and queue", func() bool {
		waiting, running := ts.srv.analysis.Load()
		return running == 1 && waiting >= 2
	})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	for ply := 0; ply < 6; ply += 2 {
		if code, ec := ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move: %d %s", code, ec)
		}
		start := time.Now()
		waitFor(t, 30*time.Second, "the AI's reply", func() bool { return ts.game(g.ID).Ply == ply+2 })
		// A level-1 reply is a one-ply search, microseconds; 3 s is
		// far below the 5 s of one analysis it once waited behind.
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("ply %d: the level-1 reply took %s during the flood", ply+1, took)
		}
	}
	six := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=6"}, "clock": "15s+0s"})
	for ply := 0; ply < 6; ply += 2 {
		if code, ec := ts.move(six.ID, six.Seats[0].Token, ts.game(six.ID).Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move against level 6: %d %s", code, ec)
		}
		waitFor(t, 60*time.Second, "level 6's reply", func() bool {
			v := ts.game(six.ID)
			return v.Ply == ply+2 || v.Result != nil
		})
		if v := ts.game(six.ID); v.Result != nil {
			t.Fatalf("the game against level 6 ended at ply %d during the flood: %s", v.Ply, v.Description)
		}
	}
}
