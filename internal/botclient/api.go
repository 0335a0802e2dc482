package botclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// APIError is a refusal of the site: its status, and the code and the
// message of its answer.
type APIError struct {
	Status        int
	Code, Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("the site answered %d %s: %s", e.Status, e.Code, e.Message)
}

// refused tells whether err is the site's refusal of the request itself
// (4xx), which asking again would not change, rather than a failure of
// the network or of the site (which a later try may not meet).
func refused(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 && ae.Status != http.StatusTooManyRequests
}

// status is the HTTP status of the site's refusal err, 0 for none.
func status(err error) int {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// api sends the bot's requests, each with its token.
type api struct {
	site, token string
	http        *http.Client
}

// maxAnswer bounds an answer read whole, in bytes.
const maxAnswer = 1 << 20

func (a *api) do(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, a.site+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return nil, refusalOf(resp)
	}
	return resp, nil
}

// refusalOf reads the site's refusal from an answer.
func refusalOf(resp *http.Response) error {
	var body struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if json.Unmarshal(data, &body) != nil || body.Error.Code == "" {
		body.Error.Message = string(bytes.TrimSpace(data))
	}
	return &APIError{Status: resp.StatusCode, Code: body.Error.Code, Message: body.Error.Message}
}

// get reads path's JSON answer into v.
func (a *api) get(ctx context.Context, path string, v any) error {
	resp, err := a.do(ctx, http.MethodGet, path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(v)
}

// post sends a command with no body and reads its JSON answer into v
// (nil: none is read).
func (a *api) post(ctx context.Context, path string, v any) error {
	resp, err := a.do(ctx, http.MethodPost, path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if v == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	return json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(v)
}

// lines is an open NDJSON stream: its lines, the empty ones (the site's
// keep-alive) skipped.
type lines struct {
	body    io.Closer
	out     chan []byte
	err     error // why out closed; read once it has
	silence time.Duration
	cancel  context.CancelFunc
}

// maxLine bounds one line of a stream: a game's whole view fits.
const maxLine = 4 << 20

// stream opens path's NDJSON stream; one silent for silence (no line,
// not even an empty one) is taken for dropped.
func (a *api) stream(ctx context.Context, path string, silence time.Duration) (*lines, error) {
	ctx, cancel := context.WithCancel(ctx)
	resp, err := a.do(ctx, http.MethodGet, path)
	if err != nil {
		cancel()
		return nil, err
	}
	l := &lines{body: resp.Body, out: make(chan []byte, 16), silence: silence, cancel: cancel}
	go func() {
		defer close(l.out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			line := bytes.Clone(sc.Bytes())
			select {
			case l.out <- line:
			case <-ctx.Done():
				return
			}
		}
		l.err = sc.Err()
		if l.err == nil {
			l.err = io.EOF
		}
	}()
	return l, nil
}

// next is the stream's next line that is not empty; an error once it
// ended, dropped or fell silent.
func (l *lines) next() ([]byte, error) {
	t := time.NewTimer(l.silence)
	defer t.Stop()
	for {
		select {
		case line, ok := <-l.out:
			if !ok {
				return nil, fmt.Errorf("the stream ended: %w", l.err)
			}
			if len(bytes.TrimSpace(line)) == 0 {
				t.Reset(l.silence)
				continue
			}
			return line, nil
		case <-t.C:
			return nil, fmt.Errorf("the stream sent nothing for %s", l.silence)
		}
	}
}

// close ends the stream.
func (l *lines) close() {
	l.cancel()
	l.body.Close()
}

// decodeLine reads one line's JSON object into v.
func decodeLine(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("a line that is no JSON object of the API (%.80q): %w", data, err)
	}
	return nil
}
