package server

import (
	"context"
	"net/http"
	"net/netip"
	"strings"

	"github.com/arbiter-games/arbiter/internal/netlimit"
)

// peer is who a request comes from, resolved once by the middleware:
// the client's key (see clientKey) and whether the client reached the
// server over TLS, directly or through a trusted proxy.
type peer struct {
	key string
	tls bool
}

// peerKey is the request context's key of the peer.
type peerKey struct{}

// hsts is the Strict-Transport-Security of an answer over TLS: a year,
// for this host only (the operator's other hosts are theirs to decide).
const hsts = "max-age=31536000"

// withPeer is r with its peer in its context.
func (s *Server) withPeer(r *http.Request) (*http.Request, peer) {
	p := s.resolvePeer(r)
	return r.WithContext(context.WithValue(r.Context(), peerKey{}, p)), p
}

// resolvePeer names the client of r. A request from a trusted proxy
// (Config.TrustedProxies) is the client's that X-Forwarded-For names
// last before the trusted hops (each proxy appends the address it was
// reached from; what a client writes itself is further left, and never
// read), over TLS when the last X-Forwarded-Proto says https. From any
// other address those headers are ignored: the client is the remote
// address, over TLS when the connection is.
func (s *Server) resolvePeer(r *http.Request) peer {
	remote := addrOf(r.RemoteAddr)
	p := peer{key: remoteKey(r.RemoteAddr), tls: r.TLS != nil}
	if !s.trusted(remote) {
		return p
	}
	if client, ok := s.forwardedFor(r.Header.Values("X-Forwarded-For")); ok {
		p.key, _ = netlimit.ClientKey(client)
	}
	if proto, ok := lastValue(r.Header.Values("X-Forwarded-Proto")); ok {
		p.tls = strings.EqualFold(proto, "https")
	}
	return p
}

// trusted reports whether ip is one of the trusted proxies'.
func (s *Server) trusted(ip netip.Addr) bool {
	if !ip.IsValid() {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// forwardedFor is the rightmost address of X-Forwarded-For that is not a
// trusted proxy's (the leftmost, if all are), and false when the header
// is missing or a hop on the way is not an address (a proxy that writes
// otherwise is misconfigured, and the remote address counts instead).
func (s *Server) forwardedFor(values []string) (netip.Addr, bool) {
	hops := strings.Split(strings.Join(values, ","), ",")
	var client netip.Addr
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		ip := addrOf(strings.Trim(hop, "[]"))
		if !ip.IsValid() {
			ip = addrOf(hop) // [v6]:port
		}
		if !ip.IsValid() {
			return netip.Addr{}, false
		}
		client = ip
		if !s.trusted(ip) {
			break
		}
	}
	return client, client.IsValid()
}

// lastValue is the last comma-separated value of a header, trimmed: the
// one the nearest proxy wrote.
func lastValue(values []string) (string, bool) {
	if len(values) == 0 {
		return "", false
	}
	last := values[len(values)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	last = strings.TrimSpace(last)
	return last, last != ""
}

// overTLS reports whether the client reached the server over TLS,
// directly or through a trusted proxy: its cookies are then Secure.
func overTLS(r *http.Request) bool {
	if p, ok := r.Context().Value(peerKey{}).(peer); ok {
		return p.tls
	}
	return r.TLS != nil
}
