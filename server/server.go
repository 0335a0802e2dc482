// Package server is arbiter's HTTP transport: the JSON API, websockets
// with every change, the browser's pages, limits per client and overall,
// and metrics. The games themselves are hosted by package hall, and the
// seeks by package lobby, which know no HTTP: a handler decodes a
// request, hands it to the hall or the lobby, and writes what it gets
// back or the refusal (errors.go maps their refusals to HTTP statuses in
// one table).
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/i18n"
	"github.com/arbiter-games/arbiter/internal/netlimit"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/puzzles"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/watch"
)

// Limits bound what one client may ask of the server; zero fields take
// the defaults of DefaultLimits.
type Limits struct {
	// Body bounds a request body, in bytes.
	Body int64
	// MovesPerSecond and MoveBurst bound the moves (and other game
	// commands, and a socket's auth messages) one client sends.
	MovesPerSecond float64
	MoveBurst      int
	// ReadsPerSecond and ReadBurst bound the API reads (GET /api/...) of
	// one client.
	ReadsPerSecond float64
	ReadBurst      int
	// GamesPerHour bounds the games one client creates or joins.
	GamesPerHour int
	// Sockets bounds the websockets one client holds open at once; the
	// bot API's streams count among them.
	Sockets int
	// BotStreams bounds the bot API's streams (NDJSON: a bot's events,
	// its games) one account holds open at once, and Streams those of
	// every account together.
	BotStreams, Streams int
	// Clients bounds the clients whose limiters are kept: one more
	// forgets the one seen least recently that has no socket open.
	Clients int
}

// DefaultLimits are the limits a server keeps when its Config gives none.
var DefaultLimits = Limits{Body: 64 << 10, MovesPerSecond: 10, MoveBurst: 20, ReadsPerSecond: 20, ReadBurst: 40,
	GamesPerHour: 60, Sockets: 32, BotStreams: 12, Streams: 2000, Clients: 100_000}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Body > 0 {
		d.Body = l.Body
	}
	if l.MovesPerSecond > 0 {
		d.MovesPerSecond = l.MovesPerSecond
	}
	if l.MoveBurst > 0 {
		d.MoveBurst = l.MoveBurst
	}
	if l.ReadsPerSecond > 0 {
		d.ReadsPerSecond = l.ReadsPerSecond
	}
	if l.ReadBurst > 0 {
		d.ReadBurst = l.ReadBurst
	}
	if l.GamesPerHour > 0 {
		d.GamesPerHour = l.GamesPerHour
	}
	if l.Sockets > 0 {
		d.Sockets = l.Sockets
	}
	if l.Clients > 0 {
		d.Clients = l.Clients
	}
	if l.BotStreams > 0 {
		d.BotStreams = l.BotStreams
	}
	if l.Streams > 0 {
		d.Streams = l.Streams
	}
	return d
}

// Config is what a server runs with: the services it serves, made over
// one store by the caller (internal/site: the store, then the hall, then
// the lobby, the accounts and the analysis), and the transport's own
// settings. The server starts and closes the hall, the lobby's reader and
// the analysis; the caller closes the store.
type Config struct {
	// Hall hosts the games; Lobby the seeks (started through Hall);
	// Accounts the accounts, their sessions and profiles; Analysis the
	// analysis board's searches and the endgame tables. All are needed.
	Hall     *hall.Hall
	Lobby    *lobby.Lobby
	Accounts *accounts.Service
	Analysis *analysis.Service
	// Reviews takes and answers the computer reviews of finished games;
	// nil: this server reviews none (POST /api/games/{id}/review answers
	// 503). The server starts and closes it.
	Reviews *reviews.Service
	// Puzzles serves the puzzles and their ratings; nil: this server has
	// none (GET /api/puzzles answers 503).
	Puzzles *puzzles.Service
	// Community keeps the games' chats, the blocks, the reports and the
	// moderators' actions. Needed.
	Community *community.Service
	// Tournaments runs the tournaments; nil: this server has none (their
	// API answers 503). The server starts its loop and stops it.
	Tournaments *tournament.Service
	// Notify tells players of their turns, challenges and games by push
	// and e-mail, keeps their choices, their address and its
	// verification, and mails the password resets; nil: this server
	// sends no notifications (their endpoints answer 503). The server
	// starts and closes it.
	Notify *notify.Service
	// Watch chooses the top game, which the home page's box and /tv
	// follow; nil: GET /api/tv shows none.
	Watch *watch.Service
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Now is the time (nil: time.Now); the services keep their own.
	Now func() time.Time
	// Origins are the extra origins (host patterns, as
	// websocket.AcceptOptions takes them) whose pages may open websockets
	// and send changes; the server's own host is always allowed.
	Origins []string
	Limits  Limits
	// Timeouts bound each connection; zero fields take DefaultTimeouts.
	Timeouts Timeouts
	// ConnsPerAddr and Conns bound the connections Serve keeps open from
	// one client address (an IPv6 /64) and overall; 0 takes
	// netlimit.DefaultConfig's (64 an address, 90% of the open-file
	// limit less 64 overall). A connection over a bound is
	// answered 503 and closed.
	ConnsPerAddr, Conns int
	// TrustedProxies are the addresses of the reverse proxies in front of
	// the server: from them, and only from them, X-Forwarded-For names
	// the client and X-Forwarded-Proto its scheme (see resolvePeer), and
	// Serve does not cap their connections per address.
	TrustedProxies []netip.Prefix
	// TLS, when not nil, makes Serve answer over TLS (HTTP/1.1) with it:
	// its certificates, at least TLS 1.2.
	TLS *tls.Config
	// Pprof serves Go's profiles (net/http/pprof) under /debug/pprof/ on
	// MetricsHandler, for the operator; off, they are 404. The command
	// line (/debug/pprof/cmdline) is never served, since it may hold the
	// database's password.
	Pprof bool
}

// Timeouts are the connection deadlines: a client that sends its request
// slower than Read (its header slower than ReadHeader), or reads its
// answer slower than Write, or keeps an idle connection open longer than
// Idle, is cut off. A websocket is hijacked from these deadlines and
// keeps its own: a ping every Ping, which the client must answer within
// Pong. A stream of the bot API leaves them too: it sends an empty line
// every KeepAlive, each line written within writeWait.
type Timeouts struct {
	ReadHeader, Read, Write, Idle, Ping, Pong, KeepAlive time.Duration
}

// DefaultTimeouts are the deadlines a server keeps when its Config gives
// none.
var DefaultTimeouts = Timeouts{ReadHeader: 5 * time.Second, Read: 15 * time.Second, Write: 30 * time.Second,
	Idle: 60 * time.Second, Ping: 30 * time.Second, Pong: 10 * time.Second, KeepAlive: 5 * time.Second}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	for _, f := range []struct{ got, def *time.Duration }{{&t.ReadHeader, &d.ReadHeader}, {&t.Read, &d.Read},
		{&t.Write, &d.Write}, {&t.Idle, &d.Idle}, {&t.Ping, &d.Ping}, {&t.Pong, &d.Pong}, {&t.KeepAlive, &d.KeepAlive}} {
		if *f.got > 0 {
			*f.def = *f.got
		}
	}
	return d
}

// Server serves the API. Make one with New, serve Handler (or call
// Serve), and Start it to resume AI turns and clocks and to follow the
// store's events.
type Server struct {
	cfg      Config
	hall     *hall.Hall
	log      *slog.Logger
	limits   Limits
	timeouts Timeouts
	now      func() time.Time
	handler  http.Handler
	metrics  *metrics
	clients  *clients
	// analysis runs the analyses, apart from the AI seats.
	analysis *analysis.Service
	// reviews is Config.Reviews (nil: none).
	reviews *reviews.Service
	puzzles *puzzles.Service
	// health is the last store check, which GET /healthz answers.
	health     health
	rulesPages rulesCache
	// sockets are the open websockets, closed with a going-away status
	// when the server stops; streams the bot API's streams, ended then.
	sockets socketSet
	streams streamSet
	// presence is which seats have a page open (presence.go).
	presence presence
	closing  atomic.Bool
	// listener is Serve's, for the connection metrics.
	listener atomic.Pointer[netlimit.Listener]
	accounts *accounts.Service
	lobby    *lobby.Lobby
	// community is Config.Community: chat, blocks, reports, moderation.
	community *community.Service
	// notify is Config.Notify (nil: none).
	notify *notify.Service
	// stopLobby ends the lobby's reader, which Start starts.
	stopLobby context.CancelFunc
	// assets are the pages' files, compressed once; shells the pages
	// that name them.
	assets *assetSet
	shells map[string]*shells
	// langs are the pages' languages (languages.go).
	langs *i18n.Catalogs
	// events encodes each of the hall's events once for all its sockets.
	events eventWires
	// stacks run the sockets' deep work, so that their goroutines stay
	// small.
	stacks *stackWorkers
}

// New makes a server of cfg's services.
func New(cfg Config) (*Server, error) {
	if cfg.Hall == nil || cfg.Lobby == nil || cfg.Accounts == nil || cfg.Analysis == nil || cfg.Community == nil {
		return nil, errors.New("server: a hall, a lobby, an account service, an analysis service and a community service are needed")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, hall: cfg.Hall, log: log, limits: cfg.Limits.withDefaults(), timeouts: cfg.Timeouts.withDefaults(),
		now: cfg.Now, analysis: cfg.Analysis, reviews: cfg.Reviews, puzzles: cfg.Puzzles, accounts: cfg.Accounts, lobby: cfg.Lobby, community: cfg.Community, notify: cfg.Notify, stopLobby: func() {}}
	if s.now == nil {
		s.now = time.Now
	}
	s.clients = newClients(s.limits, s.now)
	s.stacks = newStackWorkers(maxStackWorkers, stackWorkerIdle, log)
	s.metrics = newMetrics(s)
	var err error
	if s.assets, err = siteAssets(); err != nil {
		return nil, err
	}
	if s.langs, err = siteCatalogs(); err != nil {
		return nil, err
	}
	s.shells = newShells(s.assets, s.langs)
	if s.handler, err = s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}

// Hall is the hall the server hosts its games in.
func (s *Server) Hall() *hall.Hall { return s.hall }

// Handler is the server's HTTP handler: the API, /healthz and the pages,
// with the security headers on every answer. /metrics is served apart,
// by MetricsHandler, on an address of the operator's choice.
func (s *Server) Handler() http.Handler { return s.handler }

// MetricsHandler serves the server's metrics in Prometheus's format, and
// Go's profiles under /debug/pprof/ when Config.Pprof says so.
func (s *Server) MetricsHandler() http.Handler { return s.metrics.handler(s.cfg.Pprof) }

// Start resumes the games that wait on the server (an AI to move, a clock
// running), follows the store's events, so that changes made by other
// processes reach this one's viewers, and sweeps idle games from memory.
func (s *Server) Start(ctx context.Context) error {
	if err := s.hall.Start(ctx); err != nil {
		return err
	}
	if s.reviews != nil {
		if err := s.reviews.Start(ctx); err != nil {
			return err
		}
	}
	if s.notify != nil {
		if err := s.notify.Start(ctx); err != nil {
			return err
		}
	}
	lobbyCtx, stop := context.WithCancel(context.Background())
	s.stopLobby = stop
	go s.lobby.Run(lobbyCtx)
	go s.community.Run(lobbyCtx) // the chats of other servers, stopped with the lobby
	if s.puzzles != nil {
		go s.puzzles.Run(lobbyCtx) // the found puzzles' feed stops with the lobby
	}
	if s.cfg.Tournaments != nil {
		go s.cfg.Tournaments.Run(lobbyCtx) // stopped with the lobby
	}
	return nil
}

// Close stops the server's own work: new moves are refused, AI searches
// and clocks stop (a search cut short is resumed by the next start),
// every websocket is closed with a going-away status. It does not close
// the store.
func (s *Server) Close() {
	s.closing.Store(true)
	s.stopLobby()
	s.sockets.closeAll()
	s.streams.closeAll()
	s.analysis.Close()
	s.hall.Close()
	if s.reviews != nil {
		s.reviews.Close()
	}
	if s.notify != nil {
		s.notify.Close()
	}
}

// Serve answers on ln (over TLS with Config.TLS) until ctx ends, then
// shuts down in order: stop taking moves, close the sockets with a
// going-away status, finish the requests in flight (for up to grace),
// stop the AI. The caller closes
// the store after, and bounds ln's connections (netlimit).
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	limited := netlimit.Listen(ln, s.connLimits())
	s.listener.Store(limited)
	ln = limited
	s.log.Info("connections", "per_address", limited.Config().PerAddr, "total", limited.Config().Total)
	if s.cfg.TLS != nil {
		// Counted connections, then TLS over them: a handshake is
		// bounded by the http.Server's header and read timeouts.
		ln = tls.NewListener(ln, serveTLS(s.cfg.TLS))
	}
	srv := s.httpServer(s.handler)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	s.closing.Store(true)
	s.sockets.closeAll()
	s.streams.closeAll()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	s.Close()
	<-errc
	if err != nil {
		return fmt.Errorf("server: requests still running after %s: %w", grace, err)
	}
	s.log.Info("stopped")
	return nil
}

// connLimits are the bounds of Serve's connections.
func (s *Server) connLimits() netlimit.Config {
	soft, _, err := netlimit.FDLimit()
	if err != nil {
		soft = 0
	}
	cfg := netlimit.DefaultConfig(soft)
	if s.cfg.ConnsPerAddr > 0 {
		cfg.PerAddr = s.cfg.ConnsPerAddr
	}
	if s.cfg.Conns > 0 {
		cfg.Total = s.cfg.Conns
	}
	cfg.Log = s.log
	cfg.Exempt = s.cfg.TrustedProxies
	return cfg
}

// serveTLS is c for Serve: HTTP/1.1 only (an HTTP/2 connection would
// carry many requests past the per-connection bounds, and websockets
// ride HTTP/1.1), TLS 1.2 at least.
func serveTLS(c *tls.Config) *tls.Config {
	c = c.Clone()
	c.NextProtos = []string{"http/1.1"}
	c.MinVersion = max(c.MinVersion, tls.VersionTLS12)
	return c
}

// httpServer is an http.Server for h with the connection timeouts.
func (s *Server) httpServer(h http.Handler) *http.Server {
	t := s.timeouts
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read,
		WriteTimeout: t.Write, IdleTimeout: t.Idle, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
}

// ServeMetrics serves MetricsHandler on ln until ctx ends.
func (s *Server) ServeMetrics(ctx context.Context, ln net.Listener) error {
	srv := s.httpServer(s.MetricsHandler())
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// socketSet holds the open websockets' close functions.
type socketSet struct {
	mu     sync.Mutex
	closed bool
	open   map[*socket]struct{}
}

func (ss *socketSet) add(sk *socket) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return false
	}
	if ss.open == nil {
		ss.open = map[*socket]struct{}{}
	}
	ss.open[sk] = struct{}{}
	return true
}

func (ss *socketSet) remove(sk *socket) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.open, sk)
}

// closeAll tells every socket the server is going away.
func (ss *socketSet) closeAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.closed = true
	for sk := range ss.open {
		sk.goingAway()
	}
}
