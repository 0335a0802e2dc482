package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSolveCtrlCKeepsMaterials: Ctrl-C (SIGINT) during a build stops it
// within seconds with a one-line error, keeps the materials finished, and
// the same command then finishes the tables.
func TestSolveCtrlCKeepsMaterials(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Pommel's tables of 3 pieces (seconds)")
	}
	dir := filepath.Join(t.TempDir(), "tables")
	args := []string{"solve", "pommel", "--pieces", "3", "--out", dir, "--workers", "1", "-q"}
	cmd := arbiterCmd(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The manifest appears once the first material is done.
	manifest := filepath.Join(dir, "manifest.json")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(manifest); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no material was finished in 20 s")
		}
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if err == nil {
		t.Skip("the build finished before the signal reached it")
	}
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Ctrl-C took %s to stop the build", took)
	}
	if got := stderr.String(); !strings.Contains(got, "stopped: the materials finished are kept in") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q, want one line saying the build stopped", got)
	}
	if data, err := os.ReadFile(manifest); err != nil || !strings.Contains(string(data), `"material": "KvK"`) {
		t.Errorf("the manifest after the stop does not keep KvK: %v\n%s", err, data)
	}
	out, err := arbiterCmd(args...).Output()
	if err != nil || !strings.Contains(string(out), "16 materials of pommel, up to 3 pieces") {
		t.Errorf("the build after the stop: %v\n%s", err, out)
	}
}
