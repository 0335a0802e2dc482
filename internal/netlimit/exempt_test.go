package netlimit

import (
	"net"
	"net/netip"
	"testing"
)

// TestExemptAddressesAreCappedOnlyOverall: a trusted reverse proxy brings
// the connections of many clients, so it is not held to PerAddr, only to
// Total; other addresses still are.
func TestExemptAddressesAreCappedOnlyOverall(t *testing.T) {
	l := serve(t, Config{PerAddr: 2, Total: 6, Exempt: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	var held []net.Conn
	for range 5 {
		c := dial(t, l, "127.0.0.1")
		if refused(t, c, false) {
			t.Fatal("a connection from the exempt proxy refused under Total")
		}
		held = append(held, c)
	}
	waitFor(t, "5 open", func() bool { return l.Open() == 5 })
	if l.OpenFrom(ip1) != 0 {
		t.Errorf("the exempt address counted per address: %d", l.OpenFrom(ip1))
	}
	held = append(held, dial(t, l, "127.0.0.2"))
	waitFor(t, "6 open", func() bool { return l.Open() == 6 })
	if c := dial(t, l, "127.0.0.1"); !refused(t, c, true) {
		t.Error("the exempt address passed Total")
	}
	held[0].Close()
	waitFor(t, "5 open", func() bool { return l.Open() == 5 })
	held = append(held, dial(t, l, "127.0.0.2"))
	waitFor(t, "6 open", func() bool { return l.Open() == 6 })
	held[1].Close()
	waitFor(t, "5 open", func() bool { return l.Open() == 5 })
	if c := dial(t, l, "127.0.0.2"); !refused(t, c, true) {
		t.Error("a third connection from 127.0.0.2 passed PerAddr 2")
	}
}

func TestClientKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
	} {
		if got, ok := ClientKey(netip.MustParseAddr(tc.in)); !ok || got != tc.want {
			t.Errorf("ClientKey(%s) = %q %v, want %s", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := ClientKey(netip.Addr{}); ok {
		t.Error("the zero Addr got a key")
	}
}
