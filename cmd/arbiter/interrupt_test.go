package main

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPlayCtrlCStopsTheAI: Ctrl-C (SIGINT) while the AI thinks ends play at
// once, with exit status 0 and the game as it was saved.
func TestPlayCtrlCStopsTheAI(t *testing.T) {
	save := t.TempDir() + "/g.pdn"
	cmd := arbiterCmd("play", "pommel", "--black", "ab", "--movetime", "60s", "--save", save)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	in.Write([]byte("a1-a3\n"))
	thinking := make(chan bool, 1)
	var transcript strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			transcript.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "is thinking") {
				thinking <- true
			}
		}
	}()
	select {
	case <-thinking:
	case <-time.After(20 * time.Second):
		t.Fatal("the AI never started thinking")
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	waited := make(chan error, 1)
	go func() { <-done; waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not stop play")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Ctrl-C took %s to stop play", took)
	}
	if !strings.Contains(transcript.String(), "Interrupted; leaving.") {
		t.Errorf("transcript:\n%s", transcript.String())
	}
	data, err := os.ReadFile(save)
	if err != nil || !strings.Contains(string(data), "1. a1-a3 *") {
		t.Errorf("saved game: %v\n%s", err, data)
	}
}
