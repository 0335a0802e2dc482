package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewFlagsRefused: arbiter work and serve's review flags refuse
// what cannot work before anything opens, in one line naming the flag.
func TestReviewFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothing.db")
	long := strings.Repeat("q", 5000)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"work"}, "--queue is missing"},
		{[]string{"work", "--queue", ""}, "--queue is empty"},
		{[]string{"work", "--queue", "mysql://x/y"}, "want a postgres:// URL"},
		{[]string{"work", "--queue", long}, "longer than 2048 bytes"},
		{[]string{"work", "--queue", missing}, "no such file: give the queue file of a site"},
		{[]string{"work", "--queue", dir}, "is a folder"},
		{[]string{"work", "--queue", missing, "--workers", "0"}, "--workers 0"},
		{[]string{"work", "--queue", missing, "--workers", "-3"}, "--workers -3"},
		{[]string{"work", "--queue", missing, "--workers", "100000"}, "--workers 100000"},
		{[]string{"work", "--queue", missing, "--workers", "many"}, "--workers"},
		{[]string{"work", "--queue", missing, "--tables", filepath.Join(dir, "none")}, "--tables"},
		{[]string{"serve", "--addr", "nowhere", "--review-workers", "-1"}, "--review-workers -1"},
		{[]string{"serve", "--addr", "nowhere", "--review-workers", "257"}, "--review-workers 257"},
		{[]string{"serve", "--addr", "nowhere", "--review-nodes", "-1"}, "--review-nodes -1"},
		{[]string{"serve", "--addr", "nowhere", "--review-nodes", "99999999999"}, "--review-nodes 99999999999"},
		{[]string{"serve", "--addr", "nowhere", "--review-pending", "-2"}, "--review-pending -2"},
		{[]string{"serve", "--addr", "nowhere", "--review-per-hour", "2000000"}, "--review-per-hour 2000000"},
		{[]string{"serve", "--addr", "nowhere", "--review-queue", "x"}, "--review-queue"},
		{[]string{"serve", "--addr", "nowhere", "--review-rescue-after", "1ms"}, "--review-rescue-after"},
	} {
		r := run(t, "", c.args...)
		line := strings.TrimSpace(r.errOut)
		if r.code == 0 || !strings.Contains(line, c.want) || strings.Contains(line, "\n") || strings.Contains(line, strings.Repeat("q", 81)) {
			t.Errorf("arbiter %.100s: exit %d, %.300q; want one line with %q", strings.Join(c.args, " "), r.code, line, c.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a worker made the queue file it was given: %v", err)
	}
}
