package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// adminStore opens the SQLite store of dir, closed when the test ends or
// when the returned func is called, whichever is first.
func adminStore(t *testing.T, dir string) (*sqlite.Store, func()) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("sqlite.Open(%s): %v", dir, err)
	}
	closed := false
	done := func() {
		if !closed {
			closed = true
			if err := st.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	}
	t.Cleanup(done)
	return st, done
}

// adminAccount reads the account named name from the store of dir, and
// its audit log, newest first.
func adminAccount(t *testing.T, dir, name string) (store.Account, []store.ModAction) {
	t.Helper()
	ctx := context.Background()
	st, done := adminStore(t, dir)
	defer done()
	a, err := st.AccountByName(ctx, name)
	if err != nil {
		t.Fatalf("AccountByName(%s): %v", name, err)
	}
	log, err := st.ModActions(ctx, a.ID, 0)
	if err != nil {
		t.Fatalf("ModActions(%s): %v", name, err)
	}
	return a, log
}

func TestAdminGrantRevoke(t *testing.T) {
	dir := t.TempDir()
	st, done := adminStore(t, dir)
	ctx := context.Background()
	for _, name := range []string{"ada", "bob"} {
		if err := st.CreateAccount(ctx, store.Account{ID: "id-" + name, Name: name, Password: "x", Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	done()

	if out := runOK(t, "admin", "grant", "ada", "--data", dir); out != "ada is a moderator now\n" {
		t.Errorf("admin grant printed %q, want %q", out, "ada is a moderator now\n")
	}
	a, log := adminAccount(t, dir, "ada")
	if !a.Standing.Admin {
		t.Fatalf("ada is not a moderator after admin grant")
	}
	if len(log) != 1 || log[0].Action != store.ActionGrant || log[0].Moderator != "" || log[0].Account != a.ID {
		t.Fatalf("the audit log after admin grant %+v, want one grant of ada from the command line", log)
	}
	if b, _ := adminAccount(t, dir, "bob"); b.Standing.Admin {
		t.Errorf("admin grant ada made bob a moderator too")
	}

	// The name is found ignoring case.
	if out := runOK(t, "admin", "revoke", "ADA", "--data", dir); out != "ADA is no longer a moderator\n" {
		t.Errorf("admin revoke printed %q, want %q", out, "ADA is no longer a moderator\n")
	}
	a, log = adminAccount(t, dir, "ada")
	if a.Standing.Admin {
		t.Fatalf("ada is still a moderator after admin revoke")
	}
	if len(log) != 2 || log[0].Action != store.ActionRevoke || log[0].Moderator != "" {
		t.Fatalf("the audit log after admin revoke %+v, want the revoke first", log)
	}
}

func TestAdminRefuses(t *testing.T) {
	dir := t.TempDir()
	st, done := adminStore(t, dir)
	if err := st.CreateAccount(context.Background(), store.Account{ID: "id-ada", Name: "ada", Password: "x", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	done()

	tests := []struct {
		name string
		args []string
		want []string // parts of the message
	}{
		{"an unknown name", []string{"admin", "grant", "nobody", "--data", dir}, []string{"admin", `"nobody"`}},
		{"an unknown name to revoke", []string{"admin", "revoke", "nobody", "--data", dir}, []string{`"nobody"`}},
		{"--data and --db", []string{"admin", "grant", "ada", "--data", dir, "--db", "postgres://u@h/d"}, []string{"--data and --db"}},
		{"--db not PostgreSQL", []string{"admin", "grant", "ada", "--db", "mysql://u@h/d"}, []string{"--db", "postgres://"}},
		{"no name", []string{"admin", "grant", "--data", dir}, []string{"accepts 1 arg", "usage: arbiter admin grant NAME"}},
		{"two names", []string{"admin", "revoke", "ada", "bob", "--data", dir}, []string{"accepts 1 arg", "usage: arbiter admin revoke NAME"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.args...)
			if r.code == 0 {
				t.Errorf("exit status 0, want non-zero")
			}
			if r.out != "" {
				t.Errorf("stdout %q, want nothing", r.out)
			}
			if !strings.HasPrefix(r.errOut, "arbiter: ") || !strings.HasSuffix(r.errOut, "\n") {
				t.Errorf("stderr %q, want \"arbiter: ...\\n\"", r.errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.errOut, w) {
					t.Errorf("stderr %q does not say %q", r.errOut, w)
				}
			}
		})
	}
	if a, log := adminAccount(t, dir, "ada"); a.Standing.Admin || len(log) != 0 {
		t.Errorf("after refused commands ada is %+v, the log %+v; want both untouched", a.Standing, log)
	}
}
