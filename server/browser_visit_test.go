package server

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserVisitCost measures what a visit to a game page against the
// AI moves over the network, in the real Chromium at 1280x800: the first
// visit, in a browser context of its own (a cold cache), and a second one
// in the same context. The first fetches the bundle under its hashed
// names, gzipped; the second takes it from the cache without asking the
// server (transferSize 0), as the hashed names are sent "immutable". With
// -measure it prints the bytes by kind, the figures of docs/server.md.
func TestBrowserVisitCost(t *testing.T) {
	b := newBrowser(t)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	ctx := b.sized(t, screens[0])
	coldCache(t, ctx)
	net := &netLog{}
	if err := chromedp.Listen(ctx, net.add); err != nil {
		t.Fatal(err)
	}
	visit := func(page string) (visitBytes, map[string][]float64) {
		if *measure {
			defer func() {
				for _, r := range net.list() {
					t.Logf("  %s", r)
				}
			}()
		}
		t.Helper()
		run(t, ctx, chromedp.Navigate("about:blank"))
		net.reset()
		run(t, ctx, chromedp.Navigate(page))
		poll[bool](t, ctx, "the game page", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0 &&
			document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		waitFor(t, 20*time.Second, "the page's requests finished", net.settled)
		return net.bytes(), bundleEntries(t, ctx)
	}
	first, firstBundle := visit(b.url(g.Seats[0].URL))
	// The token has moved to the browser's storage: the plain link is the
	// player's now.
	second, secondBundle := visit(b.url("/play/" + g.ID))
	for _, name := range []string{"app.js", "app.css"} {
		hashed := hashedAsset(t, name)
		one, two := firstBundle[hashed], secondBundle[hashed]
		if one == nil || two == nil {
			t.Fatalf("%s not loaded by both visits: the first loaded %v, the second %v", hashed, firstBundle, secondBundle)
		}
		if one[0] <= 0 || one[0] > one[1]/2 {
			t.Errorf("first visit: %s moved %.0f bytes for %.0f: want it gzipped", hashed, one[0], one[1])
		}
		if two[0] != 0 || two[1] != one[1] {
			t.Errorf("second visit: %s moved %.0f bytes (%.0f decoded): want none, the browser's cached copy", hashed, two[0], two[1])
		}
	}
	if second.assets != 0 || first.assets <= 0 {
		t.Errorf("bytes under /assets/: %d on the first visit, %d on the second, want none on the second: %s", first.assets, second.assets, second)
	}
	if first.kinds["Document"].bytes <= 0 || second.kinds["Document"].bytes <= 0 {
		t.Errorf("a visit moved no page: first %s, second %s", first, second)
	}
	if *measure {
		t.Logf("first visit:  %s", first)
		t.Logf("second visit: %s", second)
	}
}

// bundleEntries are the page's resources under /assets/ by path: the
// bytes moved (transferSize: headers and body, 0 from the cache) and the
// bytes decoded.
func bundleEntries(t *testing.T, ctx context.Context) map[string][]float64 {
	t.Helper()
	return poll[map[string][]float64](t, ctx, "the resources", `Object.fromEntries(performance.getEntriesByType("resource")
		.filter((e) => new URL(e.name).pathname.startsWith("/assets/"))
		.map((e) => [new URL(e.name).pathname, [e.transferSize, e.decodedBodySize]]))`)
}

// netLog gathers a tab's network events: each request's kind (Chromium's
// resource type: Document, Script, Fetch...) and the bytes it received
// (EncodedDataLength: headers and body as sent, compressed), and the
// websocket's frames apart. fn of chromedp.Listen: it only records.
type netLog struct {
	mu       sync.Mutex
	requests map[network.RequestID]*netRequest
	wsFrames int
	wsBytes  int
}

type netRequest struct {
	url, kind string
	bytes     float64
	done      bool
}

func (l *netLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests, l.wsFrames, l.wsBytes = map[network.RequestID]*netRequest{}, 0, 0
}

func (l *netLog) add(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.requests == nil {
		return
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if strings.HasPrefix(ev.Request.URL, "http") {
			l.requests[ev.RequestID] = &netRequest{url: ev.Request.URL, kind: string(ev.Type)}
		}
	case *network.EventResponseReceived:
		if r := l.requests[ev.RequestID]; r != nil {
			r.kind = string(ev.Type)
		}
	case *network.EventLoadingFinished:
		if r := l.requests[ev.RequestID]; r != nil {
			r.bytes, r.done = ev.EncodedDataLength, true
		}
	case *network.EventLoadingFailed:
		if r := l.requests[ev.RequestID]; r != nil {
			r.done = true
		}
	case *network.EventWebSocketFrameReceived:
		l.wsFrames++
		l.wsBytes += len(ev.Response.PayloadData)
	}
}

// settled reports whether every request the log saw has finished.
func (l *netLog) settled() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.requests {
		if !r.done {
			return false
		}
	}
	return true
}

// list is each request of the log: its kind, path and bytes.
func (l *netLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.requests {
		out = append(out, fmt.Sprintf("%s %s: %.0f B", r.kind, r.url, r.bytes))
	}
	sort.Strings(out)
	return out
}

// bytes sums the log by kind of request.
func (l *netLog) bytes() visitBytes {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := visitBytes{kinds: map[string]kindBytes{}, wsFrames: l.wsFrames, wsBytes: l.wsBytes}
	for _, r := range l.requests {
		if u, err := url.Parse(r.url); err == nil && strings.HasPrefix(u.Path, "/assets/") {
			v.assets += int(r.bytes)
		}
		k := v.kinds[r.kind]
		k.requests++
		k.bytes += int(r.bytes)
		v.kinds[r.kind] = k
	}
	return v
}

// visitBytes is what one visit received: by kind of request, and the
// websocket's frames (their payloads; a websocket is no request here);
// assets counts the requests under /assets/ (the icon is of kind Other).
type visitBytes struct {
	kinds             map[string]kindBytes
	assets            int
	wsFrames, wsBytes int
}

type kindBytes struct{ requests, bytes int }

func (v visitBytes) String() string {
	var parts []string
	total := 0
	for kind, k := range v.kinds {
		parts = append(parts, fmt.Sprintf("%s %d B in %d", kind, k.bytes, k.requests))
		total += k.bytes
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d B in all (%s); the websocket's %d frames %d B apart", total, strings.Join(parts, ", "), v.wsFrames, v.wsBytes)
}
