package account

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func mustCheck(t *testing.T, th *Throttle, name, addr string, now time.Time, wantOK bool, wantWait time.Duration) {
	t.Helper()
	mustCheckDevice(t, th, name, addr, "", now, wantOK, wantWait)
}

func mustCheckDevice(t *testing.T, th *Throttle, name, addr, device string, now time.Time, wantOK bool, wantWait time.Duration) {
	t.Helper()
	wait, ok := th.Check(name, addr, device, now)
	if ok != wantOK || wait != wantWait {
		t.Errorf("Check(%s, %s, %q, t0+%v) = %v, %v; want %v, %v", name, addr, device, now.Sub(t0), wait, ok, wantWait, wantOK)
	}
}

// TestThrottleName: 5 failures for a name from one address, then one try
// every 3 minutes; another address is not slowed by them; a success
// clears the name's count from that address.
func TestThrottleName(t *testing.T) {
	th := NewThrottle(DefaultThrottleConfig())
	for range 5 {
		mustCheck(t, th, "bob", "192.0.2.1", t0, true, 0)
		th.Fail("bob", "192.0.2.1", "", t0)
	}
	mustCheck(t, th, "bob", "192.0.2.1", t0, false, 3*time.Minute)
	mustCheck(t, th, "bob", "192.0.2.1", t0.Add(time.Minute), false, 2*time.Minute)
	mustCheck(t, th, "bob", "192.0.2.9", t0, true, 0)   // the owner elsewhere is not locked out
	mustCheck(t, th, "alice", "192.0.2.1", t0, true, 0) // another name is not slowed
	mustCheck(t, th, "bob", "192.0.2.1", t0.Add(3*time.Minute), true, 0)
	th.Fail("bob", "192.0.2.1", "", t0.Add(3*time.Minute))
	mustCheck(t, th, "bob", "192.0.2.1", t0.Add(4*time.Minute), false, 2*time.Minute)

	th.Succeed("bob", "192.0.2.1", "")
	mustCheck(t, th, "bob", "192.0.2.1", t0.Add(4*time.Minute), true, 0)
	for range 4 {
		th.Fail("bob", "192.0.2.1", "", t0.Add(4*time.Minute))
	}
	mustCheck(t, th, "bob", "192.0.2.1", t0.Add(4*time.Minute), true, 0) // a fresh count of 5
}

// TestThrottleNameWide: failures at a name from many addresses lock it
// for unknown devices, one try a minute after 50; a known device of the
// name is not slowed by them, and its own failures count against it alone.
func TestThrottleNameWide(t *testing.T) {
	th := NewThrottle(DefaultThrottleConfig())
	for i := range 50 {
		th.Fail("bob", fmt.Sprintf("198.51.100.%d", i), "", t0)
	}
	mustCheck(t, th, "bob", "192.0.2.9", t0, false, time.Minute)
	mustCheckDevice(t, th, "bob", "192.0.2.9", "laptop", t0, true, 0)
	mustCheckDevice(t, th, "bob", "198.51.100.1", "laptop", t0, true, 0)
	for range 5 {
		th.Fail("bob", "192.0.2.9", "laptop", t0)
	}
	mustCheckDevice(t, th, "bob", "192.0.2.9", "laptop", t0, false, 3*time.Minute)
	mustCheckDevice(t, th, "bob", "192.0.2.9", "phone", t0, true, 0)
	mustCheck(t, th, "", "192.0.2.9", t0, true, 0) // a login by no name counts by address alone
	th.Succeed("bob", "192.0.2.9", "laptop")
	mustCheckDevice(t, th, "bob", "192.0.2.9", "laptop", t0, true, 0)
}

// TestThrottleAddr: 20 failures from an address, whatever the names, then
// one every 30 s; a success does not clear the address's count.
func TestThrottleAddr(t *testing.T) {
	th := NewThrottle(DefaultThrottleConfig())
	for i := range 20 {
		mustCheck(t, th, fmt.Sprint("name", i), "198.51.100.7", t0, true, 0)
		th.Fail(fmt.Sprint("name", i), "198.51.100.7", "", t0)
	}
	mustCheck(t, th, "fresh", "198.51.100.7", t0, false, 30*time.Second)
	mustCheck(t, th, "fresh", "198.51.100.7:4242", t0, false, 30*time.Second) // the port does not matter
	mustCheck(t, th, "fresh", "198.51.100.8", t0, true, 0)
	th.Succeed("fresh", "198.51.100.7", "")
	mustCheck(t, th, "fresh", "198.51.100.7", t0.Add(10*time.Second), false, 20*time.Second)
	mustCheck(t, th, "fresh", "198.51.100.7", t0.Add(30*time.Second), true, 0)
}

// TestThrottleIPv6: the addresses of one /64 count together.
func TestThrottleIPv6(t *testing.T) {
	th := NewThrottle(DefaultThrottleConfig())
	for i := range 20 {
		th.Fail(fmt.Sprint("name", i), fmt.Sprintf("2001:db8:1:2::%x", i+1), "", t0)
	}
	mustCheck(t, th, "fresh", "2001:db8:1:2:ffff::1", t0, false, 30*time.Second)
	mustCheck(t, th, "fresh", "[2001:db8:1:2::99]:443", t0, false, 30*time.Second)
	mustCheck(t, th, "fresh", "2001:db8:1:3::1", t0, true, 0)
}

func TestAddrKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"192.0.2.1:8080", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::1]:80", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
		{string(make([]byte, 100)), string(make([]byte, 64))},
	} {
		if got := AddrKey(tc.in); got != tc.want {
			t.Errorf("AddrKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestThrottleBounded: past MaxKeys, the entry that failed least recently
// is forgotten; entries that have had time to fill up are swept (here the
// names from one address, whose burst is 1).
func TestThrottleBounded(t *testing.T) {
	c := DefaultThrottleConfig()
	c.MaxKeys = 3
	c.NameBurst = 1
	th := NewThrottle(c)
	for i, name := range []string{"n1", "n2", "n3"} {
		th.Fail(name, "192.0.2.1", "", t0.Add(time.Duration(i)*time.Second))
	}
	th.Fail("n1", "192.0.2.1", "", t0.Add(5*time.Second)) // n1 is now the latest: n2 is the oldest
	th.Fail("n4", "192.0.2.1", "", t0.Add(6*time.Second))
	if n := th.names.len(); n != 3 {
		t.Errorf("%d names remembered, want 3", n)
	}
	now := t0.Add(7 * time.Second)
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"n1", false}, {"n2", true}, {"n3", false}, {"n4", false}} {
		if _, ok := th.Check(tc.name, "192.0.2.1", "", now); ok != tc.ok {
			t.Errorf("Check(%s) ok = %v, want %v", tc.name, ok, tc.ok)
		}
	}
	// After a full refill (1 × 3 minutes) every entry is swept by the next failure.
	th.Fail("n5", "192.0.2.1", "", t0.Add(10*time.Minute))
	if n, a := th.names.len(), th.addrs.len(); n != 1 || a != 1 {
		t.Errorf("after the sweep: %d names, %d addresses remembered, want 1 and 1", n, a)
	}
}

// TestThrottleConcurrent: failures counted from many goroutines at once
// are all counted (run with -race), and the tables stay within MaxKeys.
func TestThrottleConcurrent(t *testing.T) {
	c := DefaultThrottleConfig()
	c.MaxKeys = 50
	th := NewThrottle(c)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				th.Fail("shared", fmt.Sprintf("192.0.%d.%d", g, i), "", t0)
				th.Check(fmt.Sprint("n", i), "192.0.2.1", "", t0)
			}
		})
	}
	wg.Wait()
	mustCheck(t, th, "shared", "192.0.2.250", t0, false, time.Minute) // the name from everywhere
	if n, w, a := th.names.len(), th.wide.len(), th.addrs.len(); n != 50 || w != 1 || a != 50 {
		t.Errorf("%d names by address, %d names, %d addresses remembered; want 50, 1 and 50", n, w, a)
	}
}

// TestThrottleConfigDefaults: zero fields take the defaults.
func TestThrottleConfigDefaults(t *testing.T) {
	th := NewThrottle(ThrottleConfig{})
	d := DefaultThrottleConfig()
	if th.names.burst != d.NameBurst || th.names.every != d.NameEvery || th.addrs.burst != d.AddrBurst ||
		th.addrs.every != d.AddrEvery || th.names.max != d.MaxKeys || th.addrs.max != d.MaxKeys ||
		th.wide.burst != d.NameWideBurst || th.wide.every != d.NameWideEvery || th.devices.burst != d.NameBurst {
		t.Errorf("NewThrottle(zero) = %+v / %+v, want the defaults %+v", th.names, th.addrs, d)
	}
}

// BenchmarkThrottleMemory fills a Throttle of the default size with
// distinct names and IPv4 addresses, and reports the heap it holds.
func BenchmarkThrottleMemory(b *testing.B) {
	c := DefaultThrottleConfig()
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		th := NewThrottle(c)
		for i := range c.MaxKeys {
			th.Fail(fmt.Sprintf("name-%08d", i), fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255), "", t0)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB")
		runtime.KeepAlive(th)
	}
}

// BenchmarkThrottleFail is one failure counted in a full Throttle, each
// from a new name and address: the flood case, where each evicts.
func BenchmarkThrottleFail(b *testing.B) {
	c := DefaultThrottleConfig()
	th := NewThrottle(c)
	i := 0
	for b.Loop() {
		th.Fail(fmt.Sprint("n", i), fmt.Sprint("10.0.", i>>8&255, ".", i&255), "", t0)
		i++
	}
}
