package cli

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// serveFlags are the flags of "arbiter serve".
type serveFlags struct {
	addr, data, db, logFormat, metricsAddr string
	logLevel                               slog.Level
	origins                                []string
	workers, aiGamePlies, connsPerAddr     int
	analysisThreads, analysisWorkers       int
	conns                                  int
	aiMemoryMiB                            int64
	allowAIGames, pprof                    bool
	aiMoveTime, grace, abortAfter, idle    time.Duration
	aiGamePace                             time.Duration
	checks                                 checks
	// tableDirs are the --tables folders; tables, the tables check
	// opened from them.
	tableDirs []string
	tables    []*endgame.Tables
	// tlsCert and tlsKey are the --tls-cert and --tls-key files; tls,
	// the configuration check made of them (nil without).
	tlsCert, tlsKey string
	tls             *tls.Config
	// proxies are the --trusted-proxy values; trusted, the prefixes
	// check parsed them into.
	proxies []string
	trusted []netip.Prefix
	// The reviews: their workers here, search, rescue time, limits, and
	// whether rated games are reviewed when they end.
	reviewWorkers, reviewPending, reviewPerHour, reviewQueue int
	reviewNodes                                              int64
	reviewRescueAfter                                        time.Duration
	reviewPuzzles                                            bool
	autoReview                                               bool
	// The notifications: the site's public URL (for mailed links), the
	// SMTP server and the mails' sender (none: no e-mail; check parses
	// them into smtp), the quiet period of a turn.
	publicURL, smtpURL, mailFrom string
	smtp                         *notify.SMTPConfig
	turnQuiet                    time.Duration
}

func serveCmd() *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve games over HTTP: a JSON API, live updates, AI seats",
		Long: `serve keeps games in embedded SQLite under --data (or in PostgreSQL with
--db) and serves them over HTTP until SIGINT or SIGTERM: the API of
docs/server.md, websockets with every move, AI seats that move by
themselves. It stops taking moves, finishes those in flight, closes the
sockets and the store before it exits.

Computer reviews of finished games are jobs on a River queue: in the --db
database, or in DIR/queue.db beside the SQLite store. --review-workers of
this server do them, and so do 'arbiter work --queue ...' processes.

With --tls-cert and --tls-key it serves HTTPS itself. Behind a reverse
proxy, name the proxy's addresses with --trusted-proxy: from them, and
only from them, X-Forwarded-For names the client (for its limits) and
X-Forwarded-Proto says whether it came over HTTPS. Over HTTPS the session
cookie is Secure and every answer carries Strict-Transport-Security.

Players are told of their turns in correspondence games (--turn-quiet
after a move, if it is still their turn), challenges, seeks taken and
games ended: by their browsers (Web Push, keys kept in the store), and,
with --smtp, --mail-from and --public-url, by mail to a verified address,
which also mails password resets (docs/server.md, "Notifications").`,
		Args: withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := sf.check(cmd); err != nil {
				return err
			}
			oversubscribe()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return sf.run(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&sf.addr, "addr", "127.0.0.1:8080", "address to listen on, HOST:PORT")
	allow(cmd, "addr", "HOST:PORT, such as 127.0.0.1:8080 or :8080")
	f.StringVar(&sf.data, "data", "", "folder of the SQLite database (default: arbiter under the user's data folder)")
	f.StringVar(&sf.db, "db", "", "PostgreSQL URL, postgres://..., instead of SQLite")
	f.StringVar(&sf.logFormat, "log-format", "text", "log format: text or json")
	allow(cmd, "log-format", "text or json")
	f.Var(levelValue{&sf.logLevel}, "log-level", "least level logged: debug (every request too), info, warn or error")
	allow(cmd, "log-level", "debug, info, warn or error")
	f.StringArrayVar(&sf.origins, "origin", nil, "another host whose pages may open websockets, such as games.example.org or *.example.org (repeatable)")
	sf.checks.intVar(cmd, &sf.workers, "ai-workers", 0, intRange{lo: 1, hi: maxWorkers, zero: "one per core"}, "AI searches at once")
	sf.checks.intVar(cmd, &sf.analysisWorkers, "analysis-workers", 0, intRange{lo: 1, hi: maxWorkers, zero: "half the cores, at least one"},
		"analysis searches at once, on workers of their own: an analysis never waits for, nor delays, an AI seat's turn in a game")
	sf.checks.intVar(cmd, &sf.analysisThreads, "analysis-threads", 1, intRange{lo: 1, hi: ai.MaxThreads},
		"threads of one analysis search, taken from the analysis workers free when it starts (at most --analysis-workers)")
	sf.checks.durationVar(cmd, &sf.aiMoveTime, "ai-movetime", time.Second, durationRange{min: 10 * time.Millisecond, max: time.Minute}, "time per move of an engine without a level (ab, mcts) when no clock says less")
	sf.checks.int64Var(cmd, &sf.aiMemoryMiB, "ai-memory", 0, intRange{lo: 16, hi: 1 << 20, zero: "a quarter of the machine's memory"}, "memory in MiB that the engines of all games may hold; a game whose engines would pass it is refused")
	f.BoolVar(&sf.allowAIGames, "allow-ai-games", false, "let games with no person in them play to their own ply limit (without it they end drawn at --ai-game-plies)")
	sf.checks.intVar(cmd, &sf.aiGamePlies, "ai-game-plies", 0, intRange{lo: 1, hi: 1_000_000, zero: "200"}, "ply ceiling of a game with no person in it, without --allow-ai-games")
	sf.checks.durationVar(cmd, &sf.aiGamePace, "ai-game-pace", 0, durationRange{min: 10 * time.Millisecond, max: time.Hour, zero: "1s"}, "least time between two moves of a game with no person in it")
	sf.checks.durationVar(cmd, &sf.abortAfter, "abort-after", 0, durationRange{min: time.Second, max: 24 * time.Hour, zero: "5m"}, "how long a game with a real-time clock waits for its first move before it is aborted")
	sf.checks.intVar(cmd, &sf.connsPerAddr, "conns-per-addr", 0, intRange{lo: 1, hi: 100_000, zero: "64"}, "connections one client address (an IPv6 /64) may hold open")
	sf.checks.intVar(cmd, &sf.conns, "max-conns", 0, intRange{lo: 16, hi: 1_000_000, zero: "90% of the open-file limit, less 64"}, "connections open at once, overall")
	sf.checks.durationVar(cmd, &sf.idle, "idle-after", 0, durationRange{min: time.Second, max: 24 * time.Hour, zero: "10m"}, "how long a game nothing needs stays in memory before it is read from the store again when asked for")
	f.StringVar(&sf.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://HOST:PORT/metrics (off when empty; keep it private)")
	allow(cmd, "metrics-addr", "HOST:PORT, such as 127.0.0.1:9090")
	f.BoolVar(&sf.pprof, "pprof", false, "serve Go's profiles under /debug/pprof/ on --metrics-addr too (never the command line, which holds --db)")
	f.StringVar(&sf.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM, the chain after it), with --tls-key; cookies are then Secure and answers carry HSTS")
	allow(cmd, "tls-cert", "a PEM certificate file")
	f.StringVar(&sf.tlsKey, "tls-key", "", "the private key (PEM) of --tls-cert")
	allow(cmd, "tls-key", "a PEM private key file")
	f.StringSliceVar(&sf.proxies, "trusted-proxy", nil, "a reverse proxy's address or CIDR whose X-Forwarded-For and X-Forwarded-Proto are believed (repeatable, or comma-separated)")
	allow(cmd, "trusted-proxy", "addresses or CIDR prefixes, such as 127.0.0.1 or 10.0.0.0/8")
	f.StringArrayVar(&sf.tableDirs, "tables", nil, "folder of endgame tables (arbiter solve) the analysis answers from; its manifest names the game and rules (repeatable, one folder for each)")
	sf.checks.intVar(cmd, &sf.reviewWorkers, "review-workers", 1, intRange{lo: 0, hi: reviews.MaxWorkers},
		"reviews computed at once by this server, on workers of their own, at the queue's lowest priority (0: none; arbiter work does them)")
	sf.checks.int64Var(cmd, &sf.reviewNodes, "review-nodes", 0, intRange{lo: 1, hi: reviews.MaxNodes, zero: fmt.Sprint(reviews.DefaultNodes)},
		"search of each position of a review, in nodes")
	sf.checks.durationVar(cmd, &sf.reviewRescueAfter, "review-rescue-after", reviews.DefaultRescueAfter,
		durationRange{min: reviews.MinRescueAfter, max: reviews.MaxRescueAfter}, "the longest a review may take; a dead worker's review is done again by another after it")
	sf.checks.intVar(cmd, &sf.reviewPending, "review-pending", 0, intRange{lo: 1, hi: 1_000_000, zero: fmt.Sprint(reviews.DefaultPending)},
		"reviews one account, and one client address (an IPv6 /64), may have waiting at once")
	sf.checks.intVar(cmd, &sf.reviewPerHour, "review-per-hour", 0, intRange{lo: 1, hi: 1_000_000, zero: fmt.Sprint(reviews.DefaultPerHour)},
		"reviews one account, and one client address, may ask for in an hour")
	sf.checks.intVar(cmd, &sf.reviewQueue, "review-queue", 0, intRange{lo: 1, hi: 1_000_000, zero: fmt.Sprint(reviews.DefaultQueue)},
		"reviews waiting at once, overall")
	f.BoolVar(&sf.autoReview, "auto-review", false, "review every rated game when it ends")
	f.BoolVar(&sf.reviewPuzzles, "review-puzzles", true, "find puzzles in every game reviewed, for the puzzle pages (docs/puzzles.md)")
	f.StringVar(&sf.publicURL, "public-url", "", "the site's address as players reach it, https://HOST, for the links mailed (needed with --smtp)")
	allow(cmd, "public-url", "https://HOST or https://HOST/PATH")
	f.StringVar(&sf.smtpURL, "smtp", "", "mail notifications and password resets through this SMTP server: smtp://USER:PASSWORD@HOST:PORT (STARTTLS) or smtps://... (TLS); off when empty")
	allow(cmd, "smtp", "smtp://USER:PASSWORD@HOST:PORT or smtps://...")
	f.StringVar(&sf.mailFrom, "mail-from", "", "the sender of the mails, games@example.org or \"arbiter <games@example.org>\" (with --smtp)")
	allow(cmd, "mail-from", "an address, such as games@example.org")
	sf.checks.durationVar(cmd, &sf.turnQuiet, "turn-quiet", notify.DefaultQuiet, durationRange{min: time.Second, max: 24 * time.Hour},
		"how long after a move in a correspondence game its opponent is told it is their turn, if it still is (a live game sends nothing)")
	sf.checks.durationVar(cmd, &sf.grace, "grace", 10*time.Second, durationRange{min: 100 * time.Millisecond, max: 10 * time.Minute}, "time given to the requests in flight at shutdown")
	return cmd
}

// check refuses every flag value that cannot work, before anything opens.
func (sf *serveFlags) check(cmd *cobra.Command) error {
	if err := sf.checks.run(); err != nil {
		return err
	}
	if err := checkAddr("addr", sf.addr); err != nil {
		return err
	}
	if sf.metricsAddr != "" {
		if err := checkAddr("metrics-addr", sf.metricsAddr); err != nil {
			return err
		}
	}
	if err := sf.checkTLS(); err != nil {
		return err
	}
	var err error
	if sf.trusted, err = parseProxies(sf.proxies); err != nil {
		return err
	}
	if sf.pprof && sf.metricsAddr == "" {
		return errors.New("--pprof needs --metrics-addr: the profiles are served on the metrics' address")
	}
	if sf.logFormat != "text" && sf.logFormat != "json" {
		return fmt.Errorf("--log-format %q: want text or json", sf.logFormat)
	}
	if cmd.Flags().Changed("data") && sf.db != "" {
		return errors.New("--data and --db: give one; --data is for SQLite, --db for PostgreSQL")
	}
	if cmd.Flags().Changed("data") && sf.data == "" {
		return errors.New("--data needs a folder")
	}
	if sf.db != "" && !strings.HasPrefix(sf.db, "postgres://") && !strings.HasPrefix(sf.db, "postgresql://") {
		return errors.New("--db: want a PostgreSQL URL, postgres://USER@HOST/DB")
	}
	if workers := cmp.Or(sf.analysisWorkers, max(1, runtime.GOMAXPROCS(0)/2)); sf.analysisThreads > workers {
		return fmt.Errorf("--analysis-threads %d: at most the analysis workers (%d, --analysis-workers)", sf.analysisThreads, workers)
	}
	for _, o := range sf.origins {
		if _, err := path.Match(o, ""); err != nil || o == "" || strings.Contains(o, "/") {
			return fmt.Errorf("--origin %q: want a host or a host pattern, such as games.example.org or *.example.org", o)
		}
	}
	if err := sf.checkMail(); err != nil {
		return err
	}
	return sf.openTables()
}

// checkMail reads --smtp, --mail-from and --public-url, which mail
// needs together; the SMTP URL's password is never quoted back.
func (sf *serveFlags) checkMail() error {
	if sf.publicURL != "" {
		u, err := url.Parse(sf.publicURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("--public-url %s: want https://HOST or https://HOST/PATH", clip.Quote(sf.publicURL))
		}
	}
	if sf.smtpURL == "" {
		if sf.mailFrom != "" {
			return errors.New("--mail-from needs --smtp: the server mails through it")
		}
		return nil
	}
	if sf.publicURL == "" {
		return errors.New("--smtp needs --public-url: the mails' links (a verification, a reset, unsubscribing) name the site")
	}
	c, err := notify.ParseSMTP(sf.smtpURL, sf.mailFrom)
	if err != nil {
		return fmt.Errorf("--smtp: %v", err)
	}
	sf.smtp = &c
	return nil
}

// notifyConfig is the notification service's configuration of the
// flags: push always, e-mail with --smtp.
func (sf *serveFlags) notifyConfig() (*notify.Config, error) {
	c := &notify.Config{PublicURL: sf.publicURL, Quiet: sf.turnQuiet}
	if sf.smtp != nil {
		m, err := notify.NewSMTP(*sf.smtp)
		if err != nil {
			return nil, err
		}
		c.Mailer = m
	}
	return c, nil
}

// checkTLS loads --tls-cert and --tls-key, which come together.
func (sf *serveFlags) checkTLS() error {
	if (sf.tlsCert == "") != (sf.tlsKey == "") {
		return errors.New("--tls-cert and --tls-key: give both, the certificate and its key, or neither")
	}
	if sf.tlsCert == "" {
		return nil
	}
	cert, err := tls.LoadX509KeyPair(sf.tlsCert, sf.tlsKey)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("--tls-cert and --tls-key: %s: %v", clip.Quote(pe.Path), pe.Err)
		}
		return fmt.Errorf("--tls-cert and --tls-key: %s", clip.Bare(err.Error()))
	}
	sf.tls = &tls.Config{Certificates: []tls.Certificate{cert}}
	return nil
}

// maxProxies bounds --trusted-proxy: each request's client is looked up
// in them.
const maxProxies = 64

// parseProxies reads --trusted-proxy: addresses (a /32 or /128) or CIDR
// prefixes, none so wide that any client could pass for a proxy.
func parseProxies(values []string) ([]netip.Prefix, error) {
	if len(values) > maxProxies {
		return nil, fmt.Errorf("--trusted-proxy: %d given, at most %d", len(values), maxProxies)
	}
	var out []netip.Prefix
	for _, v := range values {
		v = strings.TrimSpace(v)
		p, err := netip.ParsePrefix(v)
		if err != nil {
			ip, ierr := netip.ParseAddr(v)
			if ierr != nil || ip.Zone() != "" {
				return nil, fmt.Errorf("--trusted-proxy %s: want an address or a CIDR prefix, such as 127.0.0.1, ::1 or 10.0.0.0/8", clip.Quote(v))
			}
			p = netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen())
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		least := 32 // an IPv6 /32 is a whole provider's
		if p.Addr().Is4() {
			least = 8
		}
		if p.Bits() < least {
			return nil, fmt.Errorf("--trusted-proxy %s: wider than /%d; every client in it could name itself any address", clip.Quote(v), least)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// checkAddr refuses an address that is not HOST:PORT with a port number.
func checkAddr(flag, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		var n int
		if n, err = strconv.Atoi(port); err == nil && (n < 0 || n > 65535) {
			err = errors.New("port out of range")
		}
	}
	if err != nil {
		return fmt.Errorf("--%s %s: want HOST:PORT with a port from 0 to 65535, such as 127.0.0.1:8080", flag, clip.Quote(addr))
	}
	return nil
}

func (sf *serveFlags) logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: sf.logLevel}
	if sf.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// levelValue is the --log-level flag: one of slog's four levels, by
// name.
type levelValue struct{ level *slog.Level }

func (v levelValue) String() string {
	if v.level == nil {
		return "info"
	}
	return strings.ToLower(v.level.String())
}

func (v levelValue) Set(name string) error {
	for _, l := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
		if strings.EqualFold(name, l.String()) {
			*v.level = l
			return nil
		}
	}
	return errors.New("not a level")
}

func (levelValue) Type() string { return "level" }

// openStore opens the store the flags name.
func (sf *serveFlags) openStore(ctx context.Context) (store.Store, string, error) {
	if sf.db != "" {
		st, err := postgres.Open(ctx, sf.db)
		if err != nil {
			return nil, "", fmt.Errorf("--db: %w", err)
		}
		return st, "PostgreSQL", nil
	}
	dir := sf.data
	if dir == "" {
		var err error
		if dir, err = sqlite.DefaultDir(); err != nil {
			return nil, "", fmt.Errorf("--data: %w", err)
		}
	}
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		return nil, "", err
	}
	return st, dir, nil
}

func (sf *serveFlags) run(ctx context.Context, out, errOut io.Writer) (err error) {
	log := sf.logger(errOut)
	st, where, err := sf.openStore(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the store: %w", cerr)
		}
	}()
	nc, err := sf.notifyConfig()
	if err != nil {
		return err
	}
	srv, err := site.New(site.Config{Store: st, Logger: log, Notify: nc,
		Hall: hall.Config{Workers: sf.workers, AIMoveTime: sf.aiMoveTime, AIMemory: sf.aiMemoryMiB << 20,
			AllowAIGames: sf.allowAIGames, AIGamePlies: sf.aiGamePlies, AIGamePace: sf.aiGamePace,
			AbortAfter: sf.abortAfter, IdleAfter: sf.idle},
		Analysis: analysis.Config{Workers: sf.analysisWorkers, Threads: sf.analysisThreads, Tables: sf.tables},
		Reviews: &reviews.Config{Queue: sf.reviewQueueTarget(where), Workers: sf.reviewWorkers, Nodes: sf.reviewNodes, Puzzles: sf.reviewPuzzles,
			RescueAfter: sf.reviewRescueAfter, Limits: reviews.Limits{Pending: sf.reviewPending, PerHour: sf.reviewPerHour, Queue: sf.reviewQueue}},
		AutoReview: sf.autoReview,
		Server: server.Config{Origins: sf.origins, ConnsPerAddr: sf.connsPerAddr, Conns: sf.conns, Pprof: sf.pprof,
			TLS: sf.tls, TrustedProxies: sf.trusted}})
	if err != nil {
		return err
	}
	ln, mln, err := sf.listen()
	if err != nil {
		return err
	}
	// The first line printed says where the server listens: the
	// listeners are open, so it is true before the games are resumed,
	// which logs and may take a while; connections wait meanwhile.
	scheme := "http"
	if sf.tls != nil {
		scheme = "https"
	}
	fmt.Fprintf(out, "serving on %s://%s/ (data in %s)\n", scheme, ln.Addr(), where)
	if mln != nil {
		fmt.Fprintf(out, "metrics on http://%s/metrics\n", mln.Addr())
		if sf.pprof {
			fmt.Fprintf(out, "profiles on http://%s/debug/pprof/\n", mln.Addr())
		}
	}
	if err := srv.Start(ctx); err != nil {
		ln.Close()
		if mln != nil {
			mln.Close()
		}
		return err
	}
	if mln != nil {
		go func() {
			if err := srv.ServeMetrics(ctx, mln); err != nil {
				log.Error("metrics", "err", err)
			}
		}()
	}
	return srv.Serve(ctx, ln, sf.grace)
}

// reviewQueueTarget is the reviews' queue: River's tables in the site's
// PostgreSQL database, or an SQLite file beside the store's in dir.
func (sf *serveFlags) reviewQueueTarget(dir string) riverdb.Target {
	if sf.db != "" {
		return riverdb.Target{Postgres: true, Address: sf.db}
	}
	return riverdb.Target{Address: filepath.Join(dir, "queue.db")}
}

// listen opens the API's address and, with --metrics-addr, the metrics'
// (nil without).
func (sf *serveFlags) listen() (api, metrics net.Listener, err error) {
	api, err = net.Listen("tcp", sf.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--addr %s: %w", sf.addr, err)
	}
	if sf.metricsAddr == "" {
		return api, nil, nil
	}
	metrics, err = net.Listen("tcp", sf.metricsAddr)
	if err != nil {
		api.Close()
		return nil, nil, fmt.Errorf("--metrics-addr %s: %w", sf.metricsAddr, err)
	}
	return api, metrics, nil
}
