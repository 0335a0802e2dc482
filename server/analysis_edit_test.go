package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// edit posts an edit and returns the status and the body.
func (ts *testServer) edit(id string, req map[string]any) (int, []byte) {
	ts.t.Helper()
	return ts.do("POST", "/api/analysis/"+id+"/edit", "", req)
}

// TestAnalysisEdit: each edit answers the position with the cell set,
// the side to move chosen, in a FEN the game's parser reads back as the
// same stacks, for both notations and three seats.
func TestAnalysisEdit(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	one := 1
	two := 2
	for _, tc := range []struct {
		name, game string
		req        map[string]any
		fen        string // the FEN answered
		cell       string // a cell to look at, and what it holds after
		stack      string
	}{
		{"put on a cleared board", "pommel", map[string]any{"clear": true, "cell": "c3", "stack": "w"}, "W:Wc3:B", "c3", "w"},
		{"a captain", "pommel", map[string]any{"fen": "W:Wc3:B", "cell": "d1", "stack": "W"}, "W:Wc3,Kd1:B", "d1", "W"},
		{"the side to move", "pommel", map[string]any{"fen": "W:Wc3,Kd1:B", "toMove": one}, "B:Wc3,Kd1:B", "d1", "W"},
		{"take a piece off", "pommel", map[string]any{"fen": "W:Wc3,Kd1:Bg5", "cell": "c3", "stack": ""}, "W:WKd1:Bg5", "c3", ""},
		{"a column", "checkers-2011", map[string]any{"fen": "W:c3=w,h8=B", "cell": "d4", "stack": "wbB"}, "W:c3=w,d4=wbB,h8=B", "d4", "wbB"},
		{"Black first", "eximo", map[string]any{"fen": "B:Wd5:Bd4", "cell": "a1", "stack": "b"}, "B:Wd5:Ba1,d4", "a1", "b"},
		{"Red to move", "punt-heks-match-3p", map[string]any{"fen": "W:a1=w", "cell": "c3", "stack": "rwb", "toMove": two}, "R:a1=w,c3=rwb", "c3", "rwb"},
	} {
		code, body := ts.edit(tc.game, tc.req)
		var v analysisView
		if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
			t.Errorf("%s: %d %s", tc.name, code, body)
			continue
		}
		rules, _ := game.New(tc.game, nil)
		want, err := rules.ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v.FEN != want.FEN() || v.Stacks[tc.cell] != tc.stack || len(v.Moves) != 0 {
			t.Errorf("%s: FEN %q, %s holds %q; want %q and %q", tc.name, v.FEN, tc.cell, v.Stacks[tc.cell], want.FEN(), tc.stack)
		}
	}
}

// TestAnalysisEditRefusals: what no position of the game may hold is
// refused with the game's parser's own words, and a malformed edit names
// what is wrong.
func TestAnalysisEditRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	pommel, _ := game.New("pommel", nil)
	_, promoted := pommel.ParseFEN("W:Wd7:B")
	eximo, _ := game.New("eximo", nil)
	_, noKings := eximo.ParseFEN("B:W:BKa1") // as Eximo writes its lists: White's, then Black's
	if promoted == nil || noKings == nil {
		t.Fatal("the parsers take what the test expects them to refuse")
	}
	for _, tc := range []struct {
		name, game string
		req        map[string]any
		status     int
		code       string
		match      string
	}{
		{"a soldier on its last row", "pommel", map[string]any{"clear": true, "cell": "d7", "stack": "w"}, 422, codeInvalid, promoted.Error()},
		{"a king where there are none", "eximo", map[string]any{"clear": true, "cell": "a1", "stack": "B"}, 422, codeInvalid, noKings.Error()},
		{"a stack where cells hold one piece", "pommel", map[string]any{"cell": "d4", "stack": "wb"}, 422, codeInvalid, "a cell holds one piece, not a stack of 2"},
		{"no such cell", "pommel", map[string]any{"cell": "z9", "stack": "w"}, 422, codeInvalid, `cell "z9" is not a cell of pommel's board`},
		{"no such seat's piece", "checkers-2011", map[string]any{"cell": "d4", "stack": "wr"}, 422, codeInvalid, `'r' is no seat's piece; write the seats' letters w, b`},
		{"no such seat to move", "pommel", map[string]any{"toMove": 2}, 422, codeInvalid, "toMove 2: want a seat of pommel, 0 to 1"},
		{"a bad FEN", "pommel", map[string]any{"fen": "W:Wzz9"}, 422, codeInvalid, "bad FEN"},
		{"unknown field", "pommel", map[string]any{"cells": "d4"}, 400, codeBadRequest, "cells"},
		{"unknown game", "chess", map[string]any{}, 404, codeNotFound, "unknown game"},
	} {
		code, body := ts.edit(tc.game, tc.req)
		e := refusal(t, body)
		if code != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.match) {
			t.Errorf("%s: %d %+v, want %d %s with %q", tc.name, code, e, tc.status, tc.code, tc.match)
		}
	}
}

// TestAnalysisStacking: the analysis view says which games pile pieces
// up on a cell, as their notation does.
func TestAnalysisStacking(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	stacking := map[string]bool{"checkers-2011": true, "punt-match": true, "punt-heks-match": true, "punt-heks-match-3p": true}
	for _, d := range game.All() {
		if v := ts.analysis(d.ID, nil); v.Stacking != stacking[d.ID] {
			t.Errorf("%s: stacking %v, want %v", d.ID, v.Stacking, stacking[d.ID])
		}
	}
}
