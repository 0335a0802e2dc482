package loadtest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// Resolver finds the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Target resolves addr (HOST:PORT) and refuses it unless every address the
// host has is a loopback address (127.0.0.0/8 or ::1): a load test must
// never reach another machine. It returns the address to dial, an IPv4 one
// when the host has both, so that the dial goes where the check looked
// whatever the name resolves to later. A nil r is net.DefaultResolver.
func Target(ctx context.Context, addr string, r Resolver) (netip.AddrPort, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("address %q: want HOST:PORT on this machine, such as 127.0.0.1:8080", addr)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil || port == 0 {
		return netip.AddrPort{}, fmt.Errorf("address %q: want a port from 1 to 65535", addr)
	}
	if host == "" {
		return netip.AddrPort{}, fmt.Errorf("address %q: no host; want a loopback host: 127.0.0.1, ::1 or localhost", addr)
	}
	ips, err := resolve(ctx, host, r)
	if err != nil {
		return netip.AddrPort{}, err
	}
	return netip.AddrPortFrom(pick(ips), uint16(port)), nil
}

// resolve lists the host's addresses and refuses any that is not
// loopback.
func resolve(ctx context.Context, host string, r Resolver) ([]netip.Addr, error) {
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		if r == nil {
			r = net.DefaultResolver
		}
		if ips, err = r.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, fmt.Errorf("host %q: cannot resolve it (%v); want a loopback host: 127.0.0.1, ::1 or localhost", host, err)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("host %q has no address; want a loopback host: 127.0.0.1, ::1 or localhost", host)
		}
	}
	var bad []string
	for i, ip := range ips {
		ips[i] = ip.Unmap()
		if !ips[i].IsLoopback() {
			bad = append(bad, ip.String())
		}
	}
	if len(bad) > 0 {
		what := "host " + host + " resolves to " + strings.Join(bad, ", ")
		if len(ips) == 1 && ips[0].String() == host {
			what = host
		}
		return nil, fmt.Errorf("%s: not a loopback address; loadtest only runs against this machine (127.0.0.0/8 or ::1)", what)
	}
	return ips, nil
}

// pick prefers an IPv4 address, from which the games can come from
// addresses of their own (see clientAddr).
func pick(ips []netip.Addr) netip.Addr {
	for _, ip := range ips {
		if ip.Is4() {
			return ip
		}
	}
	return ips[0]
}

// clientAddr is the source address of the connections of the run's n-th
// game (n from 1; 0 is the probe's): each game its own address from 127.1.0.1 up, so that
// the server, which keeps its limits per client address, sees one client
// per game as it would with players on different machines. Only IPv4
// loopback has addresses to spare; 127.0.0.0/8 holds 16 million, and a
// run creates far fewer games.
func clientAddr(n int) netip.Addr {
	n = n%(254<<16) + 1 // not 127.1.0.0, a network address to some systems
	return netip.AddrFrom4([4]byte{127, byte(1 + n>>16), byte(n >> 8), byte(n)})
}

// The source addresses of the flood and of the slow connections: one
// each, below the games' (127.1.0.1 and up) and apart from the system's
// own 127.0.0.1, so that the server sees each as one client of its own,
// and the games' limits are not theirs.
var (
	floodAddr = netip.AddrFrom4([4]byte{127, 0, 1, 1})
	slowAddr  = netip.AddrFrom4([4]byte{127, 0, 1, 2})
)

// sideAddr is the flood's or the slow connections' source address, or the
// system's choice (the zero Addr) when the run cannot bind addresses of
// its own (see probe).
func (r *run) sideAddr(a netip.Addr) netip.Addr {
	if !r.spread {
		return netip.Addr{}
	}
	return a
}
