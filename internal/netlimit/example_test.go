package netlimit_test

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/arbiter-games/arbiter/internal/netlimit"
)

// The server's wiring: read the descriptor limit, derive the caps, wrap
// the listener before http.Server sees it.
func Example() {
	log := slog.Default()
	soft, hard, err := netlimit.FDLimit()
	if err != nil {
		log.Warn("no descriptor limit", "err", err)
	}
	cfg := netlimit.DefaultConfig(soft)
	cfg.Log = log
	log.Info("connection caps", "fd_soft", soft, "fd_hard", hard, "per_addr", cfg.PerAddr, "total", cfg.Total)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Error("listen", "err", err)
		return
	}
	l := netlimit.Listen(ln, cfg)
	srv := &http.Server{Handler: http.NotFoundHandler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	// Metrics: l.Open(), l.Refused(), l.AcceptErrors().
	srv.Close()
}
