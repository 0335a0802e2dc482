package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"time"
)

// ServerSample is the server's resident memory and open files at one
// moment, read from /proc (Linux).
type ServerSample struct {
	// Label says when: "start" (before the games are created), the time
	// since the games started playing, "end" (after every game's socket
	// and connection closed) and "end+10s" (ten seconds later, to see
	// what the server let go of).
	Label string
	At    time.Time
	// RSS is the resident memory (VmRSS) in bytes; FDs the open files.
	RSS int64
	FDs int
	// Err is why the sample could not be taken ("" when it was).
	Err string
}

// SampleServer reads process pid's resident memory and counts its open
// files.
func SampleServer(pid int) (ServerSample, error) {
	s := ServerSample{At: time.Now()}
	dir := "/proc/" + strconv.Itoa(pid)
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return s, fmt.Errorf("cannot read its memory: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	found := false
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) != 2 || string(fields[1]) != "kB" {
			break
		}
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			break
		}
		s.RSS, found = kb<<10, true
	}
	if !found {
		return s, fmt.Errorf("no VmRSS in %s/status", dir)
	}
	fds, err := os.ReadDir(dir + "/fd")
	if err != nil {
		return s, fmt.Errorf("cannot list its open files: %w", err)
	}
	s.FDs = len(fds)
	return s, nil
}

// addSample samples the server, keeping the error in the sample when it
// fails (the server may have died).
func (r *run) addSample(label string) {
	s, err := SampleServer(r.cfg.ServerPID)
	s.Label = label
	if err != nil {
		s.Err = err.Error()
	}
	r.samples = append(r.samples, s)
}

// sample samples the server every SampleEvery until ctx ends; the channel
// closes when it stopped.
func (r *run) sample(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	if r.cfg.ServerPID == 0 {
		close(done)
		return done
	}
	every := r.sampleEvery()
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				r.addSample(time.Since(r.start).Round(time.Second).String())
			case <-ctx.Done():
				return
			}
		}
	}()
	return done
}

func (r *run) sampleEvery() time.Duration {
	if r.cfg.SampleEvery == 0 {
		return time.Minute
	}
	return r.cfg.SampleEvery
}
