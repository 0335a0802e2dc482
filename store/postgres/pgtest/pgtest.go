// Package pgtest runs a throwaway PostgreSQL server for a test binary: a
// new cluster in a temporary folder, on a free port of 127.0.0.1, with
// fsync off (for tests only: it trades durability for speed), stopped
// and removed when the tests end.
//
// It uses PostgreSQL's own binaries (Debian's postgresql package puts
// them in /usr/lib/postgresql/15/bin; $ARBITER_PGBIN names another
// folder). initdb refuses to run as root, so as root the cluster belongs
// to the postgres user and its commands run through runuser.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultBin is where Debian installs PostgreSQL 15.
const DefaultBin = "/usr/lib/postgresql/15/bin"

// ErrNoPostgres says the binaries are missing: tests skip.
var ErrNoPostgres = errors.New("no PostgreSQL binaries in " + DefaultBin + " (nor in $ARBITER_PGBIN); install the postgresql package to run the PostgreSQL tests")

// ErrShort says the run is -short and did not ask for PostgreSQL: tests
// skip.
var ErrShort = errors.New("-short: no PostgreSQL unless ARBITER_TEST_STORE=postgres asks for it (the full run starts one)")

// Wanted reports whether the tests are to start PostgreSQL: always in a
// full run, and under -short only when ARBITER_TEST_STORE=postgres asks
// for it (as .ci/run does). It reads the -short flag, so a TestMain calls
// flag.Parse first.
func Wanted() bool {
	return !testing.Short() || os.Getenv("ARBITER_TEST_STORE") == "postgres"
}

// StartIfWanted is Start when Wanted, else it gives ErrShort.
func StartIfWanted() (*Server, error) {
	if !Wanted() {
		return nil, ErrShort
	}
	return Start()
}

// Skip reports whether err, from StartIfWanted or Start, means the
// PostgreSQL tests skip (with err as the reason) rather than fail.
func Skip(err error) bool {
	return errors.Is(err, ErrNoPostgres) || errors.Is(err, ErrShort)
}

// Server is a running test cluster.
type Server struct {
	bin, dir string
	owner    string // the user the cluster runs as, "" for the current one
	port     int
	dbs      atomic.Int64
}

// Start initialises and starts a cluster.
func Start() (*Server, error) {
	bin := DefaultBin
	if b := os.Getenv("ARBITER_PGBIN"); b != "" {
		bin = b
	}
	if _, err := os.Stat(filepath.Join(bin, "pg_ctl")); err != nil {
		return nil, ErrNoPostgres
	}
	dir, err := os.MkdirTemp("", "arbiter-pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir}
	if err := s.start(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start() error {
	if os.Geteuid() == 0 {
		if err := s.giveToPostgres(); err != nil {
			return err
		}
	}
	data := filepath.Join(s.dir, "data")
	if err := s.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"); err != nil {
		return err
	}
	var err error
	if s.port, err = freePort(); err != nil {
		return err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", s.port, s.dir)
	return s.run("pg_ctl", "start", "-D", data, "-w", "-t", "60", "-l", filepath.Join(s.dir, "log"), "-o", opts)
}

// giveToPostgres hands the folder to the postgres user, since initdb
// refuses root.
func (s *Server) giveToPostgres() error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("pgtest: running as root needs a postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(s.dir, uid, gid); err != nil {
		return err
	}
	s.owner = "postgres"
	return nil
}

// run runs one of the cluster's commands as its owner.
func (s *Server) run(name string, args ...string) error {
	path := filepath.Join(s.bin, name)
	cmd := exec.Command(path, args...)
	if s.owner != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.owner, "--", path}, args...)...)
	}
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pgtest: %s: %v\n%s", name, err, out.Bytes())
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// URL is the address of database db on the server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// NewDatabase creates an empty database for one test and gives its URL.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("test_%d", s.dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" STRATEGY FILE_COPY"); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return s.URL(name)
}

// Stop stops the server at once and removes its folder.
func (s *Server) Stop() error {
	var err error
	if _, statErr := os.Stat(filepath.Join(s.dir, "data", "postmaster.pid")); statErr == nil {
		err = s.run("pg_ctl", "stop", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w")
	}
	return errors.Join(err, os.RemoveAll(s.dir))
}
