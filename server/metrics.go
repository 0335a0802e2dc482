package server

import (
	"net/http"
	"net/http/pprof"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/arbiter-games/arbiter/hall"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (no global state: two servers in one process count apart).
type metrics struct {
	reg         *prometheus.Registry
	sockets     prometheus.Gauge
	limited     prometheus.Counter
	moveLatency prometheus.Histogram
}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		sockets: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_websockets_open",
			Help: "Websockets open."}),
		limited: prometheus.NewCounter(prometheus.CounterOpts{Name: "arbiter_requests_limited_total",
			Help: "Requests refused 429 (a client over one of its limits)."}),
		moveLatency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arbiter_move_latency_seconds",
			Help:    "Time from a move's request to its acknowledgement (stored durably).",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2}}),
	}
	stat := func(f func(hall.Stats) float64) func() float64 {
		return func() float64 { return f(s.hall.Stats()) }
	}
	counter := func(name, help string, f func(hall.Stats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, stat(f))
	}
	gauge := func(name, help string, f func(hall.Stats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, stat(f))
	}
	moves := prometheus.NewDesc("arbiter_moves_total", "Moves stored by this server, by who played them (human or ai).", []string{"by"}, nil)
	m.reg.MustRegister(m.sockets, m.limited, m.moveLatency,
		counter("arbiter_games_created_total", "Games created through this server.", func(st hall.Stats) float64 { return float64(st.Created) }),
		counter("arbiter_games_aborted_total", "Games aborted because nobody played the first move in time.", func(st hall.Stats) float64 { return float64(st.Aborted) }),
		counter("arbiter_ai_failures_total", "AI turns that failed (the game was marked as needing attention).", func(st hall.Stats) float64 { return float64(st.AIFailures) }),
		gauge("arbiter_games_live", "Ongoing games this server holds in memory.", func(st hall.Stats) float64 { return float64(st.Live) }),
		gauge("arbiter_ai_queue_depth", "AI turns waiting for a worker.", func(st hall.Stats) float64 { return float64(st.AIQueued) }),
		counter("arbiter_engines_evicted_total", "Games whose engines were let go to make room in the AI memory.", func(st hall.Stats) float64 { return float64(st.EnginesEvicted) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "arbiter_analysis_queue_depth", Help: "Analysis searches waiting for an analysis worker."},
			func() float64 { waiting, _ := s.analysis.Load(); return float64(waiting) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "arbiter_analysis_running", Help: "Analysis searches running."},
			func() float64 { _, running := s.analysis.Load(); return float64(running) }),
		gauge("arbiter_ai_running", "AI searches running.", func(st hall.Stats) float64 { return float64(st.AIRunning) }),
		gauge("arbiter_ai_memory_bytes", "Memory the engines of the games in memory may hold.", func(st hall.Stats) float64 { return float64(st.EngineBytes) }),
		gauge("arbiter_ai_memory_budget_bytes", "The bound of arbiter_ai_memory_bytes (--ai-memory).", func(st hall.Stats) float64 { return float64(st.EngineBudget) }),
		movesCollector{desc: moves, s: s},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "arbiter_connections_open", Help: "Connections open to the API's address."},
			func() float64 { return float64(s.connStats().open) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "arbiter_clients_tracked", Help: "Clients whose limiters the server keeps (at most Limits.Clients without a socket open)."},
			func() float64 { return float64(s.clients.size()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "arbiter_connections_refused_total", Help: "Connections closed at once for passing a bound (per address or overall)."},
			func() float64 { return float64(s.connStats().refused) }),
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// movesCollector reports the hall's move counts by who played them.
type movesCollector struct {
	desc *prometheus.Desc
	s    *Server
}

func (c movesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c movesCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.s.hall.Stats()
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(st.HumanMoves), "human")
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(st.AIMoves), "ai")
}

// handler serves /metrics and, with withPprof (serve --pprof), Go's
// profiles under /debug/pprof/ for the operator. /debug/pprof/cmdline is
// never served: the command line holds --db, whose URL may hold the
// database's password (pprof.Index answers it 404, as an unknown profile).
func (m *metrics) handler(withPprof bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	if withPprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux
}

type connStats struct {
	open    int
	refused uint64
}

// connStats reads Serve's connection counts (zero before Serve).
func (s *Server) connStats() connStats {
	l := s.listener.Load()
	if l == nil {
		return connStats{}
	}
	return connStats{open: l.Open(), refused: l.Refused()}
}
