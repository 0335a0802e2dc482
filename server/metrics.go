package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (no global state: two servers in one process count apart).
type metrics struct {
	reg          *prometheus.Registry
	gamesCreated prometheus.Counter
	moves        *prometheus.CounterVec
	aiQueue      prometheus.Gauge
	sockets      prometheus.Gauge
	moveLatency  prometheus.Histogram
}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		gamesCreated: prometheus.NewCounter(prometheus.CounterOpts{Name: "arbiter_games_created_total",
			Help: "Games created through this server."}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiter_moves_total",
			Help: "Moves stored by this server, by who played them (human or ai)."}, []string{"by"}),
		aiQueue: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_ai_queue_depth",
			Help: "AI turns waiting for a worker."}),
		sockets: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_websockets_open",
			Help: "Websockets open."}),
		moveLatency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arbiter_move_latency_seconds",
			Help:    "Time from a move's request to its acknowledgement (stored durably).",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2}}),
	}
	live := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "arbiter_games_live",
		Help: "Ongoing games this server holds in memory."}, func() float64 { return float64(s.liveGames()) })
	m.reg.MustRegister(m.gamesCreated, m.moves, m.aiQueue, m.sockets, m.moveLatency, live,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	m.moves.WithLabelValues("human")
	m.moves.WithLabelValues("ai")
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// liveGames counts the ongoing games held in memory.
func (s *Server) liveGames() int {
	n := 0
	for _, e := range s.held() {
		if e.mu.TryLock() {
			if e.loaded && !e.over() {
				n++
			}
			e.mu.Unlock()
		} else {
			n++ // busy with a change: it is live
		}
	}
	return n
}
