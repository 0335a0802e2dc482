// Package notifytest holds the real components the notification tests
// talk to: an SMTP server (go-smtp) on a loopback port that keeps every
// mail it is given, and a push service (httptest) that keeps every push
// and holds its one browser's keys, with the browser's side of RFC 8291
// (the decryption of an aes128gcm push) and of RFC 8292 (the check of a
// push's VAPID signature), written here from the RFCs.
package notifytest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mailbox is an SMTP server on a loopback port.
type Mailbox struct {
	addr string
	// Mails are the mails received, in order.
	Mails chan Mail
}

// Mail is one mail as the server received it, parsed (its body decoded).
type Mail struct {
	From, To string
	Header   mail.Header
	Body     string
}

// NewMailbox starts an SMTP server for the test.
func NewMailbox(t *testing.T) *Mailbox {
	t.Helper()
	mb := &Mailbox{Mails: make(chan Mail, 64)}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{mb: mb}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 1 << 20
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mb.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return mb
}

// URL is the mailbox as notify.ParseSMTP takes it.
func (mb *Mailbox) URL() string { return "smtp://" + mb.addr }

// Next is the next mail, or fails the test after a while.
func (mb *Mailbox) Next(t *testing.T) Mail {
	t.Helper()
	select {
	case m := <-mb.Mails:
		return m
	case <-time.After(20 * time.Second):
		t.Fatal("no mail came")
	}
	return Mail{}
}

// None fails the test if a mail waits.
func (mb *Mailbox) None(t *testing.T, why string) {
	t.Helper()
	select {
	case m := <-mb.Mails:
		t.Errorf("%s: a mail came: %q", why, m.Header.Get("Subject"))
	default:
	}
}

type smtpSession struct {
	mb       *Mailbox
	from, to string
}

func (s *smtpSession) Reset()        { s.from, s.to = "", "" }
func (s *smtpSession) Logout() error { return nil }
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = to
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(m.Body)
	if err != nil {
		return err
	}
	text := string(body)
	switch strings.ToLower(m.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		out, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(text)))
		if err != nil {
			return err
		}
		text = string(out)
	case "base64":
		out, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(text))
		if err != nil {
			return err
		}
		text = string(out)
	}
	s.mb.Mails <- Mail{From: s.from, To: s.to, Header: m.Header, Body: text}
	return nil
}

// LinkAfter is the first line of body that starts with prefix.
func LinkAfter(t *testing.T, body, prefix string) string {
	t.Helper()
	for line := range strings.SplitSeq(body, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, prefix) {
			return line
		}
	}
	t.Fatalf("no line starting %q in the mail:\n%s", prefix, body)
	return ""
}

// PushService is a push service that keeps every push; the test holds
// the private keys of its one browser.
type PushService struct {
	// URL is the service's address.
	URL  string
	srv  *httptest.Server
	key  *ecdh.PrivateKey
	auth []byte
	mu   sync.Mutex
	// answer is the status the next pushes get (201 by default).
	answer []int
	got    chan Pushed
}

// Pushed is one push as the service received it: the path of the
// subscription's endpoint, the headers, the encrypted body.
type Pushed struct {
	Path   string
	Header http.Header
	Body   []byte
}

// NewPushService starts a push service for the test.
func NewPushService(t *testing.T) *PushService {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ps := &PushService{key: key, auth: make([]byte, 16), got: make(chan Pushed, 64)}
	rand.Read(ps.auth)
	ps.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ps.mu.Lock()
		code := http.StatusCreated
		if len(ps.answer) > 0 {
			code, ps.answer = ps.answer[0], ps.answer[1:]
		}
		ps.mu.Unlock()
		if code == http.StatusCreated {
			ps.got <- Pushed{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(ps.srv.Close)
	ps.URL = ps.srv.URL
	return ps
}

// AnswerNext makes the next pushes answered with codes.
func (ps *PushService) AnswerNext(codes ...int) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.answer = append(ps.answer, codes...)
}

// Subscription is the browser's subscription at the service's path, as
// its page sends it: the endpoint, and its public key and authentication
// secret in base64url.
func (ps *PushService) Subscription(path string) (endpoint, p256dh, auth string) {
	enc := base64.RawURLEncoding
	return ps.srv.URL + path, enc.EncodeToString(ps.key.PublicKey().Bytes()), enc.EncodeToString(ps.auth)
}

// Next is the next push received, or fails the test after a while.
func (ps *PushService) Next(t *testing.T) Pushed {
	t.Helper()
	select {
	case p := <-ps.got:
		return p
	case <-time.After(20 * time.Second):
		t.Fatal("no push came")
	}
	return Pushed{}
}

// Pushes are the pushes received, in order.
func (ps *PushService) Pushes() <-chan Pushed { return ps.got }

// None fails the test if a push waits.
func (ps *PushService) None(t *testing.T, why string) {
	t.Helper()
	select {
	case p := <-ps.got:
		t.Errorf("%s: a push came (%d bytes)", why, len(p.Body))
	default:
	}
}

// Message is what the site's pushes carry (notify's pushMessage).
type Message struct {
	Title, Body, URL, Tag string
}

// Open decrypts a push as the browser does, per RFC 8291 over RFC
// 8188's aes128gcm, and checks its VAPID signature (RFC 8292) against
// the site's public key vapid: it gives the message.
func (ps *PushService) Open(t *testing.T, p Pushed, vapid string) Message {
	t.Helper()
	CheckVAPID(t, p.Header.Get("Authorization"), vapid, ps.srv.URL)
	if p.Header.Get("Content-Encoding") != "aes128gcm" {
		t.Fatalf("Content-Encoding %q, want aes128gcm", p.Header.Get("Content-Encoding"))
	}
	if p.Header.Get("TTL") == "" {
		t.Error("no TTL header")
	}
	plain, err := Decrypt(ps.key, ps.auth, p.Body)
	if err != nil {
		t.Fatalf("decrypting the push: %v", err)
	}
	var msg Message
	if err := json.Unmarshal(plain, &msg); err != nil {
		t.Fatalf("the push's message %q: %v", plain, err)
	}
	return msg
}

// hmacSHA256 is HMAC-SHA-256(key, parts...).
func hmacSHA256(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// Decrypt is RFC 8291's decryption by the user agent of its private
// key ua and authentication secret auth: the aes128gcm header (salt,
// record size, the application server's key), the shared secret by
// ECDH, IKM by HKDF with "WebPush: info" || 0x00 || ua_public ||
// as_public, then RFC 8188's content-encryption key and nonce, and the
// one record's padding.
func Decrypt(ua *ecdh.PrivateKey, auth, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, errors.New("the key id is not a P-256 point")
	}
	asPublic, ciphertext := body[21:21+idlen], body[21+idlen:]
	if rs < 18 || len(ciphertext) > int(rs) {
		return nil, errors.New("more than one record, or a bad record size")
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	secret, err := ua.ECDH(as)
	if err != nil {
		return nil, err
	}
	// HKDF-Extract(auth, ecdh_secret), then Expand with the key info
	// for one block (32 bytes: the IKM).
	keyInfo := append(append([]byte("WebPush: info\x00"), ua.PublicKey().Bytes()...), asPublic...)
	ikm := hmacSHA256(hmacSHA256(auth, secret), keyInfo, []byte{1})
	prk := hmacSHA256(salt, ikm)
	cek := hmacSHA256(prk, []byte("Content-Encoding: aes128gcm\x00"), []byte{1})[:16]
	nonce := hmacSHA256(prk, []byte("Content-Encoding: nonce\x00"), []byte{1})[:12] // record 0: XOR with 0
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, err
	}
	// The last record ends with 0x02, then zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// CheckVAPID checks an Authorization header "vapid t=JWT, k=KEY": k is
// the site's key, the JWT's ES256 signature is that key's, its audience
// the push service's origin, its expiry within a day, its subject set.
func CheckVAPID(t *testing.T, header, vapid, origin string) {
	t.Helper()
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		t.Fatalf("Authorization %q, want vapid t=..., k=...", header)
	}
	var jwt, k string
	for part := range strings.SplitSeq(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			jwt = v
		}
		if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	if k != vapid {
		t.Fatalf("VAPID k=%q, want the site's key %q", k, vapid)
	}
	segs := strings.Split(jwt, ".")
	if len(segs) != 3 {
		t.Fatalf("VAPID token %q is no JWT", jwt)
	}
	enc := base64.RawURLEncoding
	point, err := enc.DecodeString(k)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		t.Fatalf("the VAPID key: %v", err)
	}
	sig, err := enc.DecodeString(segs[2])
	if err != nil || len(sig) != 64 {
		t.Fatalf("the JWT's signature is not ES256's r||s: %v", err)
	}
	digest := sha256.Sum256([]byte(segs[0] + "." + segs[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the VAPID JWT's signature is not the site's key's")
	}
	var head struct{ Alg, Typ string }
	var claims struct {
		Aud string
		Exp int64
		Sub string
	}
	for i, v := range []any{&head, &claims} {
		data, err := enc.DecodeString(segs[i])
		if err != nil || json.Unmarshal(data, v) != nil {
			t.Fatalf("JWT segment %d: %q", i, data)
		}
	}
	exp := time.Unix(claims.Exp, 0)
	if head.Alg != "ES256" || claims.Aud != origin || claims.Sub == "" || time.Until(exp) <= 0 || time.Until(exp) > 24*time.Hour {
		t.Errorf("VAPID header %+v claims %+v; want ES256, aud %s, a sub, exp within a day", head, claims, origin)
	}
}
