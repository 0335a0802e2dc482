package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// client speaks the server's API from one source address.
type client struct {
	base string // http://HOST:PORT
	ws   string // ws://HOST:PORT
	http *http.Client
}

// newClient makes a client of target whose connections come from src,
// or from the system's choice when src is the zero Addr.
func newClient(target netip.AddrPort, src netip.Addr) *client {
	return newClientJar(target, src, nil)
}

// newClientJar is newClient whose requests carry the cookies of jar (an
// account's session), and keep those the server sets.
func newClientJar(target netip.AddrPort, src netip.Addr, jar http.CookieJar) *client {
	dialer := &net.Dialer{Timeout: requestTime}
	if src.IsValid() {
		dialer.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
	}
	transport := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 4,
		IdleConnTimeout: time.Minute, DisableCompression: true}
	return &client{base: "http://" + target.String(), ws: "ws://" + target.String(),
		http: &http.Client{Transport: transport, Jar: jar}}
}

// close drops the client's idle connections.
func (c *client) close() { c.http.CloseIdleConnections() }

// statusError is a refusal by the server: its status and error code.
type statusError struct {
	op      string
	status  int
	code    string
	message string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.op, e.status, e.code, e.message)
}

// errorKind is the key an error is counted under: the operation and the
// status and code of a refusal, or what failed.
func errorKind(op string, err error) (kind string) {
	var se *statusError
	var netErr net.Error
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s: %d %s", op, se.status, se.code)
	case errors.As(err, &netErr) && netErr.Timeout():
		return op + ": timed out"
	}
	for _, e := range []error{errNoBroadcast, errNoAnswer, errSocketClosed, errSeekNotListed, errNoStart, errSeats} {
		if errors.Is(err, e) {
			return op + ": " + e.Error()
		}
	}
	return op + ": connection failed"
}

// do sends a request with an optional Bearer token and JSON body and
// decodes a 2xx answer into out.
func (c *client) do(ctx context.Context, op, method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	idempotent(req, op)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if resp.StatusCode/100 != 2 {
		return refusal(op, resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// refusal reads the server's error answer.
func refusal(op string, status int, data []byte) error {
	var body struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if json.Unmarshal(data, &body) != nil || body.Error.Code == "" {
		body.Error.Code, body.Error.Message = "?", string(bytes.TrimSpace(data))
	}
	return &statusError{op: op, status: status, code: body.Error.Code, message: body.Error.Message}
}

// view is what the run reads of a game as the API shows it.
type view struct {
	ID      string    `json:"id"`
	Moves   []string  `json:"moves"`
	Ply     int       `json:"ply"`
	ToMove  int       `json:"toMove"`
	Legal   []string  `json:"legal"`
	Result  *struct{} `json:"result"`
	Version int64     `json:"version"`
	// Seats and You are the accounts' part: who holds each seat, and the
	// seat of the request's account.
	Seats []struct {
		Account string `json:"account"`
	} `json:"seats"`
	You *int `json:"you"`
}

func (v *view) over() bool { return v.Result != nil }

// created is the answer to a create: the game and its seats' tokens.
type created struct {
	ID    string `json:"id"`
	Seats []struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	} `json:"seats"`
	Game view `json:"game"`
}

// create makes a game of rules with the given seats, ending after
// maxPlies.
func (c *client) create(ctx context.Context, rules string, seats []string, maxPlies int) (created, error) {
	req := map[string]any{"game": rules, "seats": seats,
		"options": map[string]string{"maxplies": strconv.Itoa(maxPlies)}}
	var out created
	err := c.do(ctx, "create", http.MethodPost, "/api/games", "", req, &out)
	return out, err
}

func (c *client) get(ctx context.Context, id string) (view, error) {
	var out view
	err := c.do(ctx, "get", http.MethodGet, "/api/games/"+id, "", nil, &out)
	return out, err
}

// move sends the move for ply with the seat's token and answers the game
// after it.
func (c *client) move(ctx context.Context, id, token, move string, ply int) (view, error) {
	var out view
	body := map[string]any{"move": move, "ply": ply}
	err := c.do(ctx, "move", http.MethodPost, "/api/games/"+id+"/moves", token, body, &out)
	return out, err
}

// replayable are the operations that may be sent again when a kept-alive
// connection turns out closed by the server before it read them (Go's
// transport replays a request with an Idempotency-Key): a move names its
// ply, so a move that was stored after all is refused, never played twice.
var replayable = map[string]bool{"move": true, "get": true}

// idempotent marks req as safe to send again for op.
func idempotent(req *http.Request, op string) {
	if replayable[op] && req.Method == http.MethodPost {
		req.Header.Set("Idempotency-Key", op)
	}
}

// resign resigns the seat of token.
func (c *client) resign(ctx context.Context, id, token string) error {
	return c.do(ctx, "resign", http.MethodPost, "/api/games/"+id+"/resign", token, nil, nil)
}

// health checks that an arbiter server answers at the other end.
func (c *client) health(ctx context.Context) error {
	var out struct{ Status string }
	if err := c.do(ctx, "healthz", http.MethodGet, "/healthz", "", nil, &out); err != nil {
		return err
	}
	if out.Status != "ok" {
		return fmt.Errorf("/healthz answered status %q, not ok", out.Status)
	}
	return nil
}

// errors a viewer reports while a move waits for its answer or its
// broadcast.
var (
	errNoBroadcast  = fmt.Errorf("no event within %s", broadcastTime)
	errNoAnswer     = fmt.Errorf("no answer on the socket within %s", requestTime)
	errSocketClosed = errors.New("socket closed")
)

// viewer is a websocket watching one game, and playing its moves when
// the run sends them over it (see move); a goroutine reads its messages.
type viewer struct {
	conn    *websocket.Conn
	events  chan event
	answers chan answer
	closed  chan struct{} // closed when the socket ends
	stop    chan struct{} // closed by close, to end the reader
}

// event is what the run keeps of a socket's game event.
type event struct {
	version int64
	ply     int
	over    bool
	game    *view // the game after the change, as GET shows it
	at      time.Time
}

// answer is the server's answer on a socket to one of the run's moves:
// its acknowledgement (err nil, the game's version after it) or its
// refusal (a *statusError).
type answer struct {
	id      string
	version int64
	err     error
	at      time.Time
}

// message is what the run reads of any message a socket receives.
type message struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version int64  `json:"version"`
	Game    *view  `json:"game"`
	Status  int    `json:"status"`
	Error   *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// maxEvent bounds one event: a game of a thousand plies with its legal
// moves fits.
const maxEvent = 4 << 20

// watch opens a socket on game id: a spectator's, until the run sends a
// move with its seat's token over it.
func (c *client) watch(ctx context.Context, id string) (*viewer, error) {
	dctx, cancel := context.WithTimeout(ctx, requestTime)
	defer cancel()
	conn, resp, err := websocket.Dial(dctx, c.ws+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPClient: c.http})
	if err != nil {
		if resp != nil && resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusSwitchingProtocols {
			var data []byte
			if resp.Body != nil {
				data, _ = io.ReadAll(resp.Body)
			}
			return nil, refusal("socket", resp.StatusCode, data)
		}
		return nil, fmt.Errorf("socket: %w", err)
	}
	conn.SetReadLimit(maxEvent)
	v := &viewer{conn: conn, events: make(chan event, 256), answers: make(chan answer, 16),
		closed: make(chan struct{}), stop: make(chan struct{})}
	go v.read()
	return v, nil
}

// read turns the socket's messages into events and answers until it
// closes.
func (v *viewer) read() {
	defer close(v.closed)
	for {
		_, data, err := v.conn.Read(context.Background())
		if err != nil {
			return
		}
		at := time.Now()
		var msg message
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		if !v.deliver(msg, at) {
			return
		}
	}
}

// deliver passes a message on to the events or the answers; it reports
// false when the viewer is being closed.
func (v *viewer) deliver(msg message, at time.Time) bool {
	switch {
	case msg.Type == "game" && msg.Game != nil:
		ev := event{version: msg.Version, ply: msg.Game.Ply, over: msg.Game.over(), game: msg.Game, at: at}
		select {
		case v.events <- ev:
		case <-v.stop:
			return false
		}
	case msg.Type == "ack" || msg.Type == "error" && msg.Error != nil:
		a := answer{id: msg.ID, version: msg.Version, at: at}
		if msg.Error != nil {
			a.err = &statusError{op: "move", status: msg.Status, code: msg.Error.Code, message: msg.Error.Message}
		}
		select {
		case v.answers <- a:
		case <-v.stop:
			return false
		}
	}
	return true
}

// close ends the socket and its reader.
func (v *viewer) close() {
	close(v.stop)
	v.conn.Close(websocket.StatusNormalClosure, "load test over")
}

// move sends the move for ply over the socket, with the seat's token and
// id, and waits for its answer: the acknowledgement, or the refusal as
// the error.
func (v *viewer) move(ctx context.Context, id, token, move string, ply int) (answer, error) {
	cmd, _ := json.Marshal(map[string]any{"type": "move", "id": id, "token": token, "move": move, "ply": ply})
	wctx, cancel := context.WithTimeout(ctx, requestTime)
	defer cancel()
	if err := v.conn.Write(wctx, websocket.MessageText, cmd); err != nil {
		return answer{}, errSocketClosed
	}
	timer := time.NewTimer(requestTime)
	defer timer.Stop()
	for {
		select {
		case a := <-v.answers:
			if a.id == id {
				return a, a.err
			}
		case <-v.closed:
			return answer{}, errSocketClosed
		case <-timer.C:
			return answer{}, errNoAnswer
		}
	}
}

// await waits for the event of version (or a later one).
func (v *viewer) await(version int64) (event, error) {
	timer := time.NewTimer(broadcastTime)
	defer timer.Stop()
	for {
		select {
		case ev := <-v.events:
			if ev.version >= version {
				return ev, nil
			}
		case <-v.closed:
			return v.drain(version)
		case <-timer.C:
			return event{}, errNoBroadcast
		}
	}
}

// drain looks through the events a closed socket left for version.
func (v *viewer) drain(version int64) (event, error) {
	for {
		select {
		case ev := <-v.events:
			if ev.version >= version {
				return ev, nil
			}
		default:
			return event{}, errSocketClosed
		}
	}
}

// rateLimited reports whether the server refused a request as one too
// many (429).
func rateLimited(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == http.StatusTooManyRequests
}
