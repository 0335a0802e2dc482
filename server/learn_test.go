package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/learn"
)

// TestLearnAPI: the list, a tutorial's steps ready to draw, the verdicts
// on a right, a wrong and an illegal move, and the refusals.
func TestLearnAPI(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	code, body := ts.do("GET", "/api/learn", "", nil)
	var list []learnSummary
	if err := json.Unmarshal(body, &list); code != http.StatusOK || err != nil || len(list) != len(learn.Tutorials()) {
		t.Fatalf("GET /api/learn: %d %s", code, body)
	}
	if list[0].Family != "pommel" || list[0].Steps != 5 || !slices.Equal(list[0].Games, []string{"pommel", "pommel-76"}) {
		t.Errorf("the first tutorial is %+v", list[0])
	}
	code, body = ts.do("GET", "/api/learn/punt", "", nil)
	var punt learnView
	if err := json.Unmarshal(body, &punt); code != http.StatusOK || err != nil {
		t.Fatalf("GET /api/learn/punt: %d %s", code, body)
	}
	three := punt.Steps[4]
	if three.Game != "punt-heks-match-3p" || three.Turn != 120 || !slices.Equal(three.Letters, []string{"w", "b", "r"}) ||
		three.Position.Stacks["i3"] != "w" || len(three.Position.EndRows) != 3 || !slices.Contains(three.Legal, "i2-i3") {
		t.Errorf("the three-player step is %+v", three)
	}

	var right, wrong tryView
	code, body = ts.do("GET", "/api/learn/punt/5?move=i2-i3", "", nil)
	if err := json.Unmarshal(body, &right); code != http.StatusOK || err != nil || !right.Correct ||
		right.Position.Stacks["i3"] != "wb" || right.Message != lastPuntDone(t) || right.Effects.Move != "i2-i3" {
		t.Errorf("the right move: %d %s", code, body)
	}
	code, body = ts.do("GET", "/api/learn/pommel/2?move="+url.QueryEscape("b2xb4"), "", nil)
	if err := json.Unmarshal(body, &wrong); code != http.StatusOK || err != nil || wrong.Correct ||
		wrong.Message != "b2xb4 is a legal move, but it takes 1 piece, and the goal is 3 in one move. Look for the soldier whose first jump leads on to more." {
		t.Errorf("the wrong move: %d %s", code, body)
	}
	code, body = ts.do("GET", "/api/learn/eximo/4?move="+url.QueryEscape("b2xd2xd4xd6xd8@b2@c2"), "", nil)
	var won tryView
	if err := json.Unmarshal(body, &won); code != http.StatusOK || err != nil || !won.Correct || !strings.Contains(won.Ended, "Black wins") {
		t.Errorf("the winning capture: %d %s", code, body)
	}

	for _, c := range []struct{ path, code string }{
		{"/api/learn/chess", codeNotFound},
		{"/api/learn/chess/1?move=e2-e4", codeNotFound},
		{"/api/learn/pommel/0?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/6?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/x?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/1?move=c1-c5", codeIllegalMove},
		{"/api/learn/pommel/1?move=", codeIllegalMove},
		{"/api/learn/pommel/1?move=" + strings.Repeat("z", 500), codeIllegalMove},
	} {
		code, body := ts.do("GET", c.path, "", nil)
		if errorCode(body) != c.code || code != statusOf[c.code] {
			t.Errorf("GET %.60s: %d %s, want %s", c.path, code, body, c.code)
		}
		if len(body) > 400 {
			t.Errorf("GET %.60s: the refusal quotes too much: %d bytes", c.path, len(body))
		}
	}
}

// lastPuntDone is the done text of Punt's last step.
func lastPuntDone(t *testing.T) string {
	t.Helper()
	tut, err := learn.Find("punt")
	if err != nil {
		t.Fatal(err)
	}
	return tut.Steps[4].Done
}

// TestLearnPages: /learn and each family's page are the shell the script
// draws; an unknown family is a 404 page that names the known ones and
// quotes the unknown one escaped.
func TestLearnPages(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, path := range []string{"/learn", "/learn/pommel", "/learn/eximo", "/learn/checkers-2011", "/learn/punt"} {
		code, body := ts.do("GET", path, "", nil)
		if code != http.StatusOK || !strings.Contains(string(body), `data-page="learn"`) {
			t.Errorf("GET %s: %d", path, code)
		}
	}
	code, body := ts.do("GET", "/learn/%3Cb%3Echess", "", nil)
	page := string(body)
	if code != http.StatusNotFound || !strings.Contains(page, "pommel, eximo, checkers-2011, punt") ||
		strings.Contains(page, "<b>chess") || !strings.Contains(page, "&lt;b&gt;chess") {
		t.Errorf("GET /learn/<b>chess: %d %s", code, page)
	}
}
