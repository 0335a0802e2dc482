package notify

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/arbiter-games/arbiter/store"
)

// vapidKeys are the site's Web Push key pair (RFC 8292), as webpush-go
// takes them: the P-256 private scalar and the uncompressed public point,
// in unpadded base64url.
type vapidKeys struct{ private, public string }

// loadVAPID reads the site's key pair from the store, or makes it on the
// first start of a database: every server signs with the one key, which
// every browser's subscription names.
func loadVAPID(ctx context.Context, st store.Store) (vapidKeys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return vapidKeys{}, err
	}
	enc := base64.RawURLEncoding
	candidate := enc.EncodeToString(k.Bytes()) + "." + enc.EncodeToString(k.PublicKey().Bytes())
	v, err := st.Secret(ctx, "vapid", candidate)
	if err != nil {
		return vapidKeys{}, fmt.Errorf("notify: the Web Push keys: %w", err)
	}
	priv, pub, ok := strings.Cut(v, ".")
	if !ok {
		return vapidKeys{}, errors.New("notify: the stored Web Push keys are malformed")
	}
	return vapidKeys{private: priv, public: pub}, nil
}

// loadKey reads (or makes) a 32-byte secret of the site's.
func loadKey(ctx context.Context, st store.Store, name string) ([]byte, error) {
	b := make([]byte, 32)
	rand.Read(b)
	v, err := st.Secret(ctx, name, hex.EncodeToString(b))
	if err != nil {
		return nil, fmt.Errorf("notify: the %s key: %w", name, err)
	}
	return hex.DecodeString(v)
}

// The bounds of a subscription.
const (
	maxEndpoint = 1024
	p256Len     = 65 // an uncompressed P-256 point
	authLen     = 16 // RFC 8291's authentication secret
)

// NewSubscription is a browser's PushSubscription as its toJSON gives
// it: the endpoint, and the keys in base64url.
type NewSubscription struct {
	Endpoint string
	P256dh   string
	Auth     string
}

// Subscribe keeps a browser's push subscription for account, at most
// MaxSubscriptions an account (the same endpoint again replaces its
// keys). The endpoint is an https URL with a host name (never an address
// on the site's own network, see checkEndpoint); p256dh a P-256 public
// key, auth a 16-byte secret, both base64url. It gives the
// subscription's id.
func (s *Service) Subscribe(ctx context.Context, account string, sub NewSubscription) (string, error) {
	if err := checkEndpoint(sub.Endpoint, s.cfg.AllowLoopback); err != nil {
		return "", err
	}
	key, err := decodeKey("p256dh", sub.P256dh, p256Len)
	if err != nil {
		return "", err
	}
	if _, err := ecdh.P256().NewPublicKey(key); err != nil {
		return "", refuse(Invalid, "p256dh is not a point of P-256")
	}
	if _, err := decodeKey("auth", sub.Auth, authLen); err != nil {
		return "", err
	}
	id, err := s.store.AddPushSubscription(ctx, store.PushSubscription{ID: newID(), Account: account, Endpoint: sub.Endpoint,
		P256dh: sub.P256dh, Auth: sub.Auth, Created: s.now()}, MaxSubscriptions)
	if errors.Is(err, store.ErrTooManySubscriptions) {
		return "", refuse(TooMany, "you have %d push subscriptions, the most an account keeps; remove one (a device you no longer use) first", MaxSubscriptions)
	}
	return id, err
}

// RemoveSubscription removes account's push subscription id.
func (s *Service) RemoveSubscription(ctx context.Context, account, id string) error {
	err := s.store.DeletePushSubscription(ctx, account, id)
	if errors.Is(err, store.ErrNoSubscription) {
		return refuse(NotFound, "you have no push subscription %s", clipID(id))
	}
	return err
}

// clipID is an id as a refusal quotes it back.
func clipID(id string) string {
	if len(id) > 40 {
		id = id[:40]
	}
	return fmt.Sprintf("%q", id)
}

// decodeKey reads a key of n bytes in base64url (padded or not, as
// browsers give it).
func decodeKey(field, text string, n int) ([]byte, error) {
	if len(text) > 2*n {
		return nil, refuse(Invalid, "%s is %d characters; want %d bytes in base64url", field, len(text), n)
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(text, "="))
	if err != nil {
		return nil, refuse(Invalid, "%s is not base64url", field)
	}
	if len(b) != n {
		return nil, refuse(Invalid, "%s is %d bytes; want %d", field, len(b), n)
	}
	return b, nil
}

// checkEndpoint refuses an endpoint the server should not post to: not
// an absolute https URL, credentials in it, a fragment, over-long, or a
// host that is an address or a name without a dot (a push service is a
// public host). With loopback, an http or https URL on a loopback
// address passes (the tests' push service). The dialer checks the
// addresses a name resolves to as well (pushClient).
func checkEndpoint(raw string, loopback bool) error {
	if raw == "" {
		return refuse(Invalid, "the subscription needs its endpoint")
	}
	if len(raw) > maxEndpoint {
		return refuse(Invalid, "the endpoint is %d bytes; at most %d", len(raw), maxEndpoint)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return refuse(Invalid, "the endpoint is not a push service's URL (https://HOST/...)")
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if loopback && ip.IsLoopback() && (u.Scheme == "http" || u.Scheme == "https") {
			return nil
		}
		return refuse(Invalid, "the endpoint names an address, not a push service's host")
	}
	if u.Scheme != "https" {
		return refuse(Invalid, "the endpoint must be https")
	}
	if !strings.Contains(host, ".") || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") {
		return refuse(Invalid, "the endpoint's host is not a public one")
	}
	return nil
}

// pushClient is the client of the push services: it dials only public
// addresses (or loopback ones too, for tests), whatever a name resolves
// to, and gives each push sendTimeout.
func pushClient(loopback bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		ip := ap.Addr().Unmap()
		if loopback && ip.IsLoopback() {
			return nil
		}
		if !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
			return fmt.Errorf("notify: %s is not a public address: no push goes there", ip)
		}
		return nil
	}}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = d.DialContext
	t.Proxy = nil
	return &http.Client{Transport: t, Timeout: sendTimeout,
		// A push service answers; it does not send the server elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// pushMessage is what a push carries, for the service worker (web/static/sw.js):
// the notification's title and body, the page a click opens, and a tag
// (a newer notification of the same game replaces the older).
type pushMessage struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag"`
}

// sendPush sends row o to each of its account's subscriptions it was not
// sent to yet. A subscription the push service says is gone (404, 410)
// is removed; one it refuses for good (another 4xx but 429) is given up.
// The row is done when every subscription is; a failure that may pass
// (429, 5xx, no answer) is retried.
func (s *Service) sendPush(ctx context.Context, o store.OutboxItem) (done []string, retry bool, err error) {
	subs, err := s.store.PushSubscriptions(ctx, o.Account)
	if err != nil {
		return o.Done, true, err
	}
	tag := o.Kind
	if o.Game != "" {
		tag += "-" + o.Game
	}
	msg, _ := json.Marshal(pushMessage{Title: o.Title, Body: o.Body, URL: o.URL, Tag: tag})
	done = slices.Clone(o.Done)
	var errs []error
	for _, sub := range subs {
		if slices.Contains(done, sub.ID) {
			continue
		}
		again, err := s.pushOne(ctx, sub, msg, o)
		if err != nil {
			errs = append(errs, err)
		}
		if again {
			retry = true
			continue
		}
		done = append(done, sub.ID)
	}
	return done, retry, errors.Join(errs...)
}

// pushOne sends one push; again says whether to try it later.
func (s *Service) pushOne(ctx context.Context, sub store.PushSubscription, msg []byte, o store.OutboxItem) (again bool, err error) {
	resp, err := webpush.SendNotificationWithContext(ctx, msg, &webpush.Subscription{Endpoint: sub.Endpoint,
		Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}}, &webpush.Options{HTTPClient: s.push, Subscriber: s.contact(),
		VAPIDPublicKey: s.vapid.public, VAPIDPrivateKey: s.vapid.private, TTL: pushTTL(o.Kind), Urgency: webpush.UrgencyNormal})
	if err != nil {
		return true, fmt.Errorf("push to %s: %w", hostOf(sub.Endpoint), err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return false, nil
	case code == http.StatusNotFound || code == http.StatusGone:
		// The browser unsubscribed, or the service forgot it: it is gone.
		if err := s.store.DeletePushEndpoint(ctx, sub.Endpoint); err != nil {
			return true, err
		}
		s.log.Info("push subscription gone", "account", sub.Account, "host", hostOf(sub.Endpoint), "status", code)
		return false, nil
	case code == http.StatusTooManyRequests || code >= 500:
		return true, fmt.Errorf("push to %s: %s", hostOf(sub.Endpoint), resp.Status)
	default:
		return false, fmt.Errorf("push to %s refused: %s", hostOf(sub.Endpoint), resp.Status)
	}
}

// contact is the operator's contact for the push services: an https URL
// or an e-mail address (webpush-go makes it mailto:).
func (s *Service) contact() string {
	if s.cfg.Contact != "" {
		return s.cfg.Contact
	}
	if s.site != "" {
		return s.site
	}
	return "operator@localhost"
}

// pushTTL is how long a push service keeps a push for a browser that is
// off: a turn or a challenge is worth a day, the rest an hour.
func pushTTL(kind string) int {
	if kind == KindTurn || kind == KindChallenge {
		return 24 * 60 * 60
	}
	return 60 * 60
}

func hostOf(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return "?"
}
