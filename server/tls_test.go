package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// selfSigned is a certificate for 127.0.0.1, and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "arbiter test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, pool
}

// signUp creates an account through c and returns the answer's status,
// its session cookie's Set-Cookie and its Strict-Transport-Security.
func signUp(t *testing.T, c *http.Client, base, name string, headers http.Header) (code int, cookie, hsts string) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/api/accounts", strings.NewReader(`{"name":"`+name+`","password":"correct-horse-`+name+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Set-Cookie"), resp.Header.Get("Strict-Transport-Security")
}

// secure reports whether a Set-Cookie has the Secure attribute.
func secure(setCookie string) bool {
	for attr := range strings.SplitSeq(setCookie, ";") {
		if strings.EqualFold(strings.TrimSpace(attr), "Secure") {
			return true
		}
	}
	return false
}

// TestTLSMakesCookiesSecureAndSetsHSTS: served over TLS, the session
// cookie is Secure and every answer carries Strict-Transport-Security;
// over plain HTTP neither (a browser would drop a Secure cookie there).
func TestTLSMakesCookiesSecureAndSetsHSTS(t *testing.T) {
	cert, pool := selfSigned(t)
	params := cheapHash
	srv, addr := served(t, siteConfig{PasswordHash: &params, TLS: &tls.Config{Certificates: []tls.Certificate{cert}}})
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	code, cookie, sts := signUp(t, c, "https://"+addr, "ada", nil)
	if code != http.StatusCreated || !secure(cookie) || sts != hsts {
		t.Errorf("sign-up over TLS: %d, Set-Cookie %q, Strict-Transport-Security %q; want 201, Secure, %q", code, cookie, sts, hsts)
	}
	resp, err := c.Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Strict-Transport-Security"); got != hsts || resp.TLS == nil || resp.ProtoMajor != 1 {
		t.Errorf("GET /healthz over TLS: %s, Strict-Transport-Security %q", resp.Proto, got)
	}
	// A connection held open is counted. (The client's kept-alive one may
	// already be closed by now, so it proves nothing.)
	held, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	waitFor(t, 10*time.Second, "the TLS connection counted", func() bool { return srv.connStats().open > 0 })
	// The same address refuses plain HTTP.
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("plain HTTP answered 200 on the TLS address")
		}
	}

	plain := newTestServer(t, siteConfig{PasswordHash: &params})
	code, cookie, sts = signUp(t, plain.http.Client(), plain.http.URL, "bob", http.Header{"X-Forwarded-Proto": {"https"}})
	if code != http.StatusCreated || secure(cookie) || sts != "" {
		t.Errorf("sign-up over HTTP (X-Forwarded-Proto from no proxy): %d, Set-Cookie %q, Strict-Transport-Security %q; want 201, not Secure, none", code, cookie, sts)
	}
}

// TestForwardedHeadersCountOnlyFromTrustedProxies: behind a trusted
// proxy, X-Forwarded-For names the client (the rightmost hop that is not
// a trusted proxy: what the client wrote itself further left is never
// read) and X-Forwarded-Proto its scheme; from any other address both
// headers are ignored.
func TestForwardedHeadersCountOnlyFromTrustedProxies(t *testing.T) {
	params := cheapHash
	limits := Limits{ReadsPerSecond: 1, ReadBurst: 2}
	read := func(ts *testServer, xff string) int {
		code, _ := ts.doWith("GET", "/api/games", "", http.Header{"X-Forwarded-For": {xff}}, nil)
		return code
	}
	t.Run("trusted", func(t *testing.T) {
		ts := newTestServer(t, siteConfig{Now: newTestClock().Now, Limits: limits, PasswordHash: &params,
			TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")}})
		for _, c := range []struct {
			xff  string
			want int
		}{
			{"203.0.113.1", http.StatusOK},
			{"198.51.100.7, 203.0.113.1", http.StatusOK}, // the left hop is the client's own word
			{"203.0.113.1", http.StatusTooManyRequests},
			{"203.0.113.2", http.StatusOK},                       // another client
			{"203.0.113.3, 10.1.2.3", http.StatusOK},             // through two proxies
			{"203.0.113.3,10.9.9.9", http.StatusOK},              // the same client
			{"203.0.113.3", http.StatusTooManyRequests},          // its budget is spent
			{"2001:db8:7:7::1", http.StatusOK},                   // IPv6: by /64
			{"[2001:db8:7:7::2]:5555", http.StatusOK},            // with a port
			{"2001:db8:7:7:ffff::9", http.StatusTooManyRequests}, // the same /64
			{"not-an-address", http.StatusOK},                    // the proxy's own budget
			{"203.0.113.1, junk", http.StatusOK},                 // a hop not an address: the proxy's
			{"", http.StatusTooManyRequests},                     // no header: the proxy's, spent
		} {
			if got := read(ts, c.xff); got != c.want {
				t.Errorf("X-Forwarded-For %q: %d, want %d", c.xff, got, c.want)
			}
		}
		code, cookie, sts := signUp(t, ts.http.Client(), ts.http.URL, "ada", http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-For": {"203.0.113.9"}})
		if code != http.StatusCreated || !secure(cookie) || sts != hsts {
			t.Errorf("sign-up through a TLS proxy: %d, Set-Cookie %q, Strict-Transport-Security %q; want 201, Secure, %q", code, cookie, sts, hsts)
		}
		code, cookie, sts = signUp(t, ts.http.Client(), ts.http.URL, "bob", http.Header{"X-Forwarded-Proto": {"https, http"}, "X-Forwarded-For": {"203.0.113.10"}})
		if code != http.StatusCreated || secure(cookie) || sts != "" {
			t.Errorf("sign-up through a proxy reached over http: %d, Set-Cookie %q, Strict-Transport-Security %q; want 201, not Secure, none", code, cookie, sts)
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		ts := newTestServer(t, siteConfig{Now: newTestClock().Now, Limits: limits, PasswordHash: &params,
			TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
		for _, c := range []struct {
			xff  string
			want int
		}{
			{"203.0.113.1", http.StatusOK},
			{"203.0.113.2", http.StatusOK},
			{"203.0.113.3", http.StatusTooManyRequests}, // all are 127.0.0.1
		} {
			if got := read(ts, c.xff); got != c.want {
				t.Errorf("X-Forwarded-For %q from an untrusted peer: %d, want %d", c.xff, got, c.want)
			}
		}
		code, cookie, sts := signUp(t, ts.http.Client(), ts.http.URL, "ada", http.Header{"X-Forwarded-Proto": {"https"}})
		if code != http.StatusCreated || secure(cookie) || sts != "" {
			t.Errorf("X-Forwarded-Proto https from an untrusted peer: %d, Set-Cookie %q, Strict-Transport-Security %q; want 201, not Secure, none", code, cookie, sts)
		}
	})
}
