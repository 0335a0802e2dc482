package cli

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer that a process's output and the test may
// use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// certFiles writes a self-signed certificate for 127.0.0.1 and its key
// as PEM files in dir, and returns their paths and a pool that trusts
// the certificate.
func certFiles(t *testing.T, dir string) (certPath, keyPath string, pool *x509.CertPool) {
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
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certPath, keyPath, pool
}

func TestServeRefusesBadTLSAndProxyFlags(t *testing.T) {
	dir := t.TempDir()
	cert, key, _ := certFiles(t, dir)
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 60_000)
	many := strings.TrimSuffix(strings.Repeat("10.0.0.1,", 65), ",")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", cert}, "--tls-cert and --tls-key: give both"},
		{[]string{"--tls-key", key}, "--tls-cert and --tls-key: give both"},
		{[]string{"--tls-cert", cert, "--tls-key", filepath.Join(dir, "missing.pem")}, "missing.pem"},
		{[]string{"--tls-cert", filepath.Join(dir, long), "--tls-key", key}, "--tls-cert and --tls-key"},
		{[]string{"--tls-cert", notPEM, "--tls-key", key}, "--tls-cert and --tls-key"},
		{[]string{"--tls-cert", key, "--tls-key", cert}, "--tls-cert and --tls-key"},
		{[]string{"--trusted-proxy", "proxy.example"}, `--trusted-proxy "proxy.example": want an address or a CIDR prefix`},
		{[]string{"--trusted-proxy", "10.0.0.0/33"}, `--trusted-proxy "10.0.0.0/33"`},
		{[]string{"--trusted-proxy", "fe80::1%eth0"}, `--trusted-proxy "fe80::1%eth0"`},
		{[]string{"--trusted-proxy", "0.0.0.0/0"}, `--trusted-proxy "0.0.0.0/0": wider than /8`},
		{[]string{"--trusted-proxy", "10.0.0.0/7"}, "wider than /8"},
		{[]string{"--trusted-proxy", "::/0"}, `--trusted-proxy "::/0": wider than /32`},
		{[]string{"--trusted-proxy", "2001:db8::/31"}, "wider than /32"},
		{[]string{"--trusted-proxy", "::ffff:0.0.0.0/96"}, "wider than /8"},
		{[]string{"--trusted-proxy", many}, "--trusted-proxy: 65 given, at most 64"},
		{[]string{"--trusted-proxy", long}, "--trusted-proxy"},
		{[]string{"--trusted-proxy", "10.0.0.1,"}, "--trusted-proxy"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(append([]string{"serve", "--addr", "127.0.0.1:0"}, c.args...), strings.NewReader(""), &out, &errOut)
		line := strings.TrimSpace(errOut.String())
		shown := fmt.Sprintf("%.200q", c.args)
		if code == 0 || !strings.Contains(line, c.want) || strings.Contains(line, "\n") || len(line) > 400 ||
			strings.Contains(line, strings.Repeat("x", 81)) {
			t.Errorf("serve %s: exit %d, %.500q; want one short line with %q", shown, code, line, c.want)
		}
	}
}

// startServeWith runs "arbiter serve" with args on a free port, with the
// log in JSON at debug level, and returns the first line it prints and
// its log.
func startServeWith(t *testing.T, args ...string) (first string, logs *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(),
		"--log-format", "json", "--log-level", "debug"}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs = &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %s", logs)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return lines.Text(), logs
}

// TestServeTLSAndTrustedProxy: with --tls-cert and --tls-key serve
// answers HTTPS, with Strict-Transport-Security; with --trusted-proxy the
// client a request from that proxy counts as is the one X-Forwarded-For
// names, and without it the remote address.
func TestServeTLSAndTrustedProxy(t *testing.T) {
	cert, key, pool := certFiles(t, t.TempDir())
	for _, c := range []struct {
		name       string
		args       []string
		wantClient string
	}{
		{"trusted", []string{"--trusted-proxy", "127.0.0.1,10.0.0.0/8"}, "203.0.113.5"},
		{"untrusted", []string{"--trusted-proxy", "10.0.0.0/8"}, "127.0.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			first, logs := startServeWith(t, append([]string{"--tls-cert", cert, "--tls-key", key}, c.args...)...)
			var base string
			if _, err := fmt.Sscanf(first, "serving on %s", &base); err != nil || !strings.HasPrefix(base, "https://127.0.0.1:") {
				t.Fatalf("first line %q, want serving on https://127.0.0.1:PORT/", first)
			}
			client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
			req, err := http.NewRequest("GET", base+"healthz", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-Forwarded-For", "203.0.113.5")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Strict-Transport-Security") == "" {
				t.Errorf("GET /healthz over TLS: %d, Strict-Transport-Security %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
			}
			want := `"path":"/healthz","status":200`
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(logs.String(), want) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			for line := range strings.Lines(logs.String()) {
				if strings.Contains(line, want) && !strings.Contains(line, `"client":"`+c.wantClient+`"`) {
					t.Errorf("the request was logged as %s, want client %s", line, c.wantClient)
				}
			}
			if !strings.Contains(logs.String(), want) {
				t.Errorf("no request logged: %s", logs)
			}
		})
	}
}
