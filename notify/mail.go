package notify

import (
	"context"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Mail is one mail to send: plain text, with its one-click unsubscribe
// link (RFC 8058; an https URL), which Send puts in the List-Unsubscribe
// header; the body carries it too.
type Mail struct {
	To          string
	Subject     string
	Text        string
	Unsubscribe string
	// Date is the mail's date (the service's clock).
	Date time.Time
}

// Mailer sends mails: SMTP's, or a test's.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// TLS modes of an SMTP server.
const (
	// TLSStartTLS: STARTTLS, required (smtp://); to a loopback host, used
	// when offered (a local relay often has none, and its traffic stays
	// on the machine).
	TLSStartTLS = "starttls"
	// TLSImplicit: TLS from the first byte (smtps://, port 465).
	TLSImplicit = "tls"
)

// SMTPConfig is an SMTP server to send through, as ParseSMTP reads it
// from a URL.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	TLS      string // TLSStartTLS or TLSImplicit
	// From is the mails' sender, "Name <addr>" or addr.
	From string
}

// ParseSMTP reads an SMTP server's URL, smtp://[USER[:PASS]@]HOST[:PORT]
// (STARTTLS, port 587) or smtps://... (TLS, port 465), and the sender
// from. The password is never quoted back.
func ParseSMTP(raw, from string) (SMTPConfig, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
		return SMTPConfig{}, errors.New("want smtp://[USER[:PASSWORD]@]HOST[:PORT] or smtps://...")
	}
	c := SMTPConfig{Host: u.Hostname(), From: from}
	switch u.Scheme {
	case "smtp":
		c.TLS, c.Port = TLSStartTLS, 587
	case "smtps":
		c.TLS, c.Port = TLSImplicit, 465
	default:
		return SMTPConfig{}, fmt.Errorf("scheme %s: want smtp (STARTTLS) or smtps (TLS)", clip.Quote(u.Scheme))
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return SMTPConfig{}, fmt.Errorf("port %s: want 1 to 65535", clip.Quote(p))
		}
		c.Port = n
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if from == "" {
		return SMTPConfig{}, errors.New("the mails need a sender (--mail-from)")
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return SMTPConfig{}, fmt.Errorf("sender %s: want name@example.org or Name <name@example.org>", clip.Quote(from))
	}
	return c, nil
}

// smtpMailer sends through an SMTP server with go-mail, one connection
// a mail (notifications come one at a time, minutes apart).
type smtpMailer struct{ cfg SMTPConfig }

// NewSMTP is the Mailer of an SMTP server.
func NewSMTP(cfg SMTPConfig) (Mailer, error) {
	if cfg.Host == "" || cfg.From == "" {
		return nil, errors.New("notify: an SMTP server needs a host and a sender")
	}
	return smtpMailer{cfg: cfg}, nil
}

// loopbackHost reports whether host is this machine.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

func (m smtpMailer) Send(ctx context.Context, msg Mail) error {
	opts := []mail.Option{mail.WithPort(m.cfg.Port), mail.WithTimeout(sendTimeout)}
	switch {
	case m.cfg.TLS == TLSImplicit:
		opts = append(opts, mail.WithSSL())
	case loopbackHost(m.cfg.Host):
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if m.cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(m.cfg.Username), mail.WithPassword(m.cfg.Password))
	}
	c, err := mail.NewClient(m.cfg.Host, opts...)
	if err != nil {
		return err
	}
	out, err := compose(m.cfg.From, msg)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, out)
}

// compose is msg as go-mail sends it: plain text, dated, with its
// one-click unsubscribe headers (List-Unsubscribe with the https link,
// List-Unsubscribe-Post: List-Unsubscribe=One-Click) and
// Auto-Submitted, which tells a mail server not to answer it.
func compose(from string, msg Mail) (*mail.Msg, error) {
	m := mail.NewMsg()
	if err := m.From(from); err != nil {
		return nil, err
	}
	if err := m.To(msg.To); err != nil {
		return nil, err
	}
	m.Subject(msg.Subject)
	m.SetDateWithValue(msg.Date)
	m.SetMessageID()
	m.SetGenHeader(mail.Header("Auto-Submitted"), "auto-generated")
	if err := m.SetListUnsubscribeOneClick(msg.Unsubscribe); err != nil {
		return nil, err
	}
	m.SetBodyString(mail.TypeTextPlain, msg.Text)
	return m, nil
}

// maxAddress bounds an e-mail address (RFC 5321's path, less its <>).
const maxAddress = 254

// mailAddress checks an address a player gives: a bare addr-spec
// (local@domain), no name, no comments, a domain with a dot, and within
// maxAddress. It gives the address as written.
func mailAddress(text string) (string, error) {
	if text == "" {
		return "", errors.New("no address")
	}
	if len(text) > maxAddress {
		return "", fmt.Errorf("%d characters; at most %d", len(text), maxAddress)
	}
	if strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }) || strings.ContainsAny(text, " <>()[],;:\"\\") {
		return "", errors.New("want a bare address, name@example.org")
	}
	local, domain, ok := strings.Cut(text, "@")
	if !ok || local == "" || strings.Contains(domain, "@") || len(local) > 64 {
		return "", errors.New("want name@example.org")
	}
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", errors.New("the domain needs a dot: name@example.org")
	}
	for _, label := range strings.Split(domain, ".") {
		if len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return "", errors.New("not a domain name")
		}
	}
	if _, err := netip.ParseAddr(domain); err == nil || net.ParseIP(strings.Trim(domain, "[]")) != nil {
		return "", errors.New("a domain name, not an address")
	}
	return text, nil
}
