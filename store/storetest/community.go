package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// communityTests are the suite's tests of store.Community.
var communityTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"CommunityChat", testChat},
	{"CommunityChatRefuses", testChatRefuses},
	{"CommunityChatAfter", testChatAfter},
	{"CommunityBlocks", testBlocks},
	{"CommunityBlockRace", testBlockRace},
	{"CommunityReports", testReports},
	{"CommunityReportRace", testReportRace},
	{"CommunityStanding", testStanding},
	{"CommunityBanAndClose", testBanAndClose},
	{"CommunityModerateReportAndMessage", testModerateReportAndMessage},
	{"CommunityModActions", testModActions},
	{"CommunityModerateRefuses", testModerateRefuses},
	{"CommunityLeaderboard", testCommunityLeaderboard},
	{"CommunityDeleteAccount", testCommunityDeleteAccount},
}

// chatLine is message id of by in a game's room, written i seconds after
// base; ids sort as the messages were written, as the server makes them.
func chatLine(game, room string, i int, by store.Account) store.ChatMessage {
	return store.ChatMessage{ID: fmt.Sprintf("c%03d", i), Game: game, Room: room, Account: by.ID, Name: by.Name,
		Text: fmt.Sprint("line ", i), At: base.Add(time.Duration(i) * time.Second)}
}

// asStored is m as the store gives it back.
func asStored(m store.ChatMessage) store.ChatMessage {
	m.At = stored(m.At)
	return m
}

func mustChat(t *testing.T, s store.Store, m store.ChatMessage) store.ChatMessage {
	t.Helper()
	if err := s.AddChat(context.Background(), m); err != nil {
		t.Fatalf("AddChat(%s): %v", m.ID, err)
	}
	return asStored(m)
}

// chatIDs are the ids Chat gives.
func chatIDs(t *testing.T, s store.Store, game, room string, limit int) []string {
	t.Helper()
	list, err := s.Chat(context.Background(), game, room, limit)
	if err != nil {
		t.Fatalf("Chat(%s, %s, %d): %v", game, room, limit, err)
	}
	ids := []string{}
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	return ids
}

// modAction is an action by moderator (an account id, "" for the command
// line) on account at base plus i minutes.
func modAction(id, moderator, account, action string, i int) store.ModAction {
	return store.ModAction{ID: id, Moderator: moderator, Account: account, Action: action,
		Reason: "reason of " + id, At: base.Add(time.Duration(i) * time.Minute)}
}

func mustModerate(t *testing.T, s store.Store, a store.ModAction) {
	t.Helper()
	if err := s.Moderate(context.Background(), a); err != nil {
		t.Fatalf("Moderate(%s %s of %s): %v", a.ID, a.Action, a.Account, err)
	}
}

func standingOf(t *testing.T, s store.Store, id string) store.Standing {
	t.Helper()
	a, err := s.Account(context.Background(), id)
	if err != nil {
		t.Fatalf("Account(%s): %v", id, err)
	}
	return a.Standing
}

// testChat: a room's newest messages, oldest first, by id; the limit
// counts only those shown; rooms and games apart.
func testChat(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	mustCreate(t, s, newHeader("g", base))
	mustCreate(t, s, newHeader("h", base))
	// Written out of order: the order read is the ids'.
	var players []store.ChatMessage
	for _, i := range []int{3, 1, 5, 2, 4} {
		players = append(players, mustChat(t, s, chatLine("g", store.RoomPlayers, i, []store.Account{ada, bob}[i%2])))
	}
	spectator := mustChat(t, s, chatLine("g", store.RoomSpectators, 6, bob))
	mustChat(t, s, chatLine("h", store.RoomPlayers, 7, ada))

	list, err := s.Chat(ctx, "g", store.RoomPlayers, 0)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the players' room", list, []store.ChatMessage{players[1], players[3], players[0], players[4], players[2]})
	same(t, "the newest 3", chatIDs(t, s, "g", store.RoomPlayers, 3), []string{"c003", "c004", "c005"})
	same(t, "a negative limit, as 0", chatIDs(t, s, "g", store.RoomPlayers, -1), []string{"c001", "c002", "c003", "c004", "c005"})
	list, err = s.Chat(ctx, "g", store.RoomSpectators, 10)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the spectators' room", list, []store.ChatMessage{spectator})
	same(t, "another game's room", chatIDs(t, s, "h", store.RoomPlayers, 0), []string{"c007"})
	same(t, "a game without chat", chatIDs(t, s, "nowhere", store.RoomPlayers, 0), []string{})

	// A removed message is not shown, nor counted by the limit.
	mustModerate(t, s, store.ModAction{ID: "m1", Account: ada.ID, Action: store.ActionRemove, Message: "c004", At: base})
	same(t, "the newest 3 after a removal", chatIDs(t, s, "g", store.RoomPlayers, 3), []string{"c002", "c003", "c005"})
	got, err := s.ChatMessage(ctx, "c004")
	if err != nil {
		t.Fatal(err)
	}
	want := players[4]
	want.Removed = true
	same(t, "the removed message, read by id", got, want)
	got, err = s.ChatMessage(ctx, "c001")
	same(t, "a message read by id", fmt.Sprint(got, err), fmt.Sprint(players[1], nil))
	_, err = s.ChatMessage(ctx, "nope")
	wantErr(t, "ChatMessage of no message", err, store.ErrNoMessage)

	// 100 is the default limit.
	for i := 100; i < 210; i++ {
		mustChat(t, s, chatLine("h", store.RoomSpectators, i, bob))
	}
	ids := chatIDs(t, s, "h", store.RoomSpectators, 0)
	if len(ids) != 100 || ids[0] != "c110" || ids[99] != "c209" {
		t.Fatalf("the default limit: %d messages, %v to %v; want 100, c110 to c209", len(ids), ids[0], ids[len(ids)-1])
	}
}

// testChatAfter: every game's messages after an id, oldest first, the
// removed ones left out, at most the limit.
func testChatAfter(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	mustCreate(t, s, newHeader("g", base))
	mustCreate(t, s, newHeader("h", base))
	for _, i := range []int{4, 1, 3, 2, 5} {
		mustChat(t, s, chatLine([]string{"g", "h"}[i%2], []string{store.RoomPlayers, store.RoomSpectators}[i%2], i, ada))
	}
	mustModerate(t, s, store.ModAction{ID: "m1", Account: ada.ID, Action: store.ActionRemove, Message: "c004", At: base})
	after := func(id string, limit int) []string {
		t.Helper()
		list, err := s.ChatAfter(ctx, id, limit)
		if err != nil {
			t.Fatalf("ChatAfter(%q, %d): %v", id, limit, err)
		}
		ids := []string{}
		for _, m := range list {
			ids = append(ids, m.ID)
		}
		return ids
	}
	same(t, "after nothing", after("", 0), []string{"c001", "c002", "c003", "c005"})
	same(t, "after c002", after("c002", 0), []string{"c003", "c005"})
	same(t, "after c002, at most 1", after("c002", 1), []string{"c003"})
	same(t, "after the last", after("c005", 0), []string{})
}

func testChatRefuses(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	mustCreate(t, s, newHeader("g", base))
	mustChat(t, s, chatLine("g", store.RoomPlayers, 1, ada))
	bad := map[string]store.ChatMessage{
		"a message of an id taken": chatLine("g", store.RoomSpectators, 1, ada),
		"a message of no game":     chatLine("nowhere", store.RoomPlayers, 2, ada),
		"a message of no account":  chatLine("g", store.RoomPlayers, 3, store.Account{ID: "nobody", Name: "x"}),
		"a message of no room":     chatLine("g", "lobby", 4, ada),
		"a message without an id":  {Game: "g", Room: store.RoomPlayers, Account: ada.ID, At: base},
	}
	for what, m := range bad {
		if err := s.AddChat(ctx, m); err == nil {
			t.Errorf("%s was stored", what)
		}
	}
	same(t, "the rooms after refused messages", fmt.Sprint(chatIDs(t, s, "g", store.RoomPlayers, 0), chatIDs(t, s, "g", store.RoomSpectators, 0)),
		fmt.Sprint([]string{"c001"}, []string{}))
}

// testBlocks: a block is one way, seen both ways; blocking again changes
// nothing; a block past max is refused; unblocking frees its place.
func testBlocks(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy, dee := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy"), mustAccount(t, s, "Dee")
	block := func(a, b store.Account, i int) error {
		return s.Block(ctx, a.ID, b.ID, 2, base.Add(time.Duration(i)*time.Second))
	}
	for i, pair := range [][2]store.Account{{ada, bob}, {ada, cy}, {cy, ada}} {
		if err := block(pair[0], pair[1], i); err != nil {
			t.Fatalf("%s blocks %s: %v", pair[0].Name, pair[1].Name, err)
		}
	}
	if err := block(ada, bob, 10); err != nil {
		t.Fatalf("blocking again, at max: %v", err)
	}
	wantErr(t, "a third block over max 2", block(ada, dee, 11), store.ErrTooManyBlocks)
	list, err := s.Blocks(ctx, ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Blocking again kept the first block's time: cy is the newest.
	same(t, "ada's blocks, newest first", list, []store.Blocked{
		{Account: cy.ID, Name: "Cy", At: stored(base.Add(time.Second))},
		{Account: bob.ID, Name: "Bob", At: stored(base)},
	})
	if list, err := s.Blocks(ctx, bob.ID); err != nil || len(list) != 0 {
		t.Fatalf("bob's blocks: %+v, %v; want none", list, err)
	}
	for _, tt := range []struct {
		a, b store.Account
		want bool
	}{{ada, bob, true}, {bob, ada, true}, {ada, cy, true}, {cy, ada, true}, {bob, cy, false}, {dee, ada, false}} {
		got, err := s.Blocking(ctx, tt.a.ID, tt.b.ID)
		if err != nil || got != tt.want {
			t.Errorf("Blocking(%s, %s) = %v, %v; want %v", tt.a.Name, tt.b.Name, got, err, tt.want)
		}
	}
	either := func(a store.Account) []string {
		t.Helper()
		ids, err := s.BlockedEither(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ids == nil {
			ids = []string{}
		}
		return ids
	}
	same(t, "ada's blocked either way, cy once", either(ada), []string{bob.ID, cy.ID})
	same(t, "bob's blocked either way", either(bob), []string{ada.ID})
	same(t, "dee's blocked either way", either(dee), []string{})

	if err := s.Unblock(ctx, ada.ID, bob.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Unblock(ctx, ada.ID, bob.ID); err != nil {
		t.Fatalf("unblocking again: %v", err)
	}
	if got, err := s.Blocking(ctx, bob.ID, ada.ID); err != nil || got {
		t.Fatalf("Blocking after the unblock: %v, %v", got, err)
	}
	if err := block(ada, dee, 12); err != nil {
		t.Fatalf("a block in the place an unblock freed: %v", err)
	}
	same(t, "ada's blocked either way after the changes", either(ada), []string{cy.ID, dee.ID})

	wantErr(t, "blocking no one", block(bob, store.Account{ID: "nobody"}, 20), store.ErrNoAccount)
	wantErr(t, "no one blocking", block(store.Account{ID: "nobody"}, bob, 20), store.ErrNoAccount)
	if err := block(bob, bob, 20); err == nil {
		t.Fatal("an account blocked itself")
	}
	if list, err := s.Blocks(ctx, bob.ID); err != nil || len(list) != 0 {
		t.Fatalf("bob's blocks after refused ones: %+v, %v; want none", list, err)
	}
}

// testBlockRace: of blocks made at once by one account, through two
// stores on one database, no more are stored than max. The window
// between the count and the insert is short: a few rounds, each of a
// blocker of its own, find it.
func testBlockRace(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	var others []store.Account
	for i := range 10 {
		others = append(others, mustAccount(t, s, fmt.Sprint("p", i)))
	}
	for round := range 10 {
		blocker := mustAccount(t, s, fmt.Sprint("b", round))
		errs := make([]error, len(others))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range others {
			wg.Go(func() {
				<-start
				errs[i] = stores[i%2].Block(context.Background(), blocker.ID, others[i].ID, 3, base)
			})
		}
		close(start)
		wg.Wait()
		made := 0
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case !errors.Is(err, store.ErrTooManyBlocks):
				t.Fatalf("a racing block: %v", err)
			}
		}
		list, err := s.Blocks(context.Background(), blocker.ID)
		if err != nil || made != 3 || len(list) != 3 {
			t.Fatalf("round %d: 10 blocks at once with max 3: %d made, %d stored (%v); want 3", round, made, len(list), err)
		}
	}
}

// report is a report by reporter of account, i minutes after base.
func report(id string, reporter, account store.Account, i int) store.Report {
	return store.Report{ID: id, Reporter: reporter.ID, Account: account.ID, Reason: "reason of " + id,
		Created: base.Add(time.Duration(i) * time.Minute)}
}

// asStoredReport is r as the store gives it back.
func asStoredReport(r store.Report) store.Report {
	r.Created = stored(r.Created)
	if !r.Closed.IsZero() {
		r.Closed = stored(r.Closed)
	}
	return r
}

func reportIDs(t *testing.T, s store.Store, f store.ReportFilter) []string {
	t.Helper()
	list, err := s.Reports(context.Background(), f)
	if err != nil {
		t.Fatalf("Reports(%+v): %v", f, err)
	}
	ids := []string{}
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	return ids
}

// testReports: a reporter's open reports are bounded, a closed one frees
// its place; the filters; reports read by id.
func testReports(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy, mod := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy"), mustAccount(t, s, "Mod")
	mustCreate(t, s, newHeader("g", base))
	mustChat(t, s, chatLine("g", store.RoomPlayers, 1, bob))
	r1 := report("r1", ada, bob, 1)
	r1.Game, r1.Message = "g", "c001"
	r1.Closed, r1.ClosedBy = base, "someone" // a new report is open whatever it says
	r2, r3 := report("r2", ada, cy, 2), report("r3", bob, cy, 3)
	for _, r := range []store.Report{r1, r2, r3} {
		if err := s.AddReport(ctx, r, 2); err != nil {
			t.Fatalf("AddReport(%s): %v", r.ID, err)
		}
	}
	wantErr(t, "a third open report by ada, max 2", s.AddReport(ctx, report("r4", ada, cy, 4), 2), store.ErrTooManyReports)
	got, err := s.Report(ctx, "r1")
	r1.Closed, r1.ClosedBy = time.Time{}, ""
	same(t, "a report read back", fmt.Sprint(got, err), fmt.Sprint(asStoredReport(r1), nil))
	_, err = s.Report(ctx, "nope")
	wantErr(t, "Report of no report", err, store.ErrNoReport)

	// Dismissing r2 closes it in the moderator's name, and frees its
	// place: ada may report again.
	dismiss := modAction("m1", mod.ID, cy.ID, store.ActionDismiss, 5)
	dismiss.Report = "r2"
	mustModerate(t, s, dismiss)
	got, err = s.Report(ctx, "r2")
	want := asStoredReport(r2)
	want.Closed, want.ClosedBy = stored(dismiss.At), mod.ID
	same(t, "a dismissed report", fmt.Sprint(got, err), fmt.Sprint(want, nil))
	if standingOf(t, s, cy.ID) != (store.Standing{}) {
		t.Fatalf("dismissing changed the standing: %+v", standingOf(t, s, cy.ID))
	}
	if err := s.AddReport(ctx, report("r4", ada, cy, 6), 2); err != nil {
		t.Fatalf("a report in the place a dismissal freed: %v", err)
	}
	wantErr(t, "a report past max again", s.AddReport(ctx, report("r5", ada, cy, 7), 2), store.ErrTooManyReports)
	wantErr(t, "a report of no one", s.AddReport(ctx, report("r6", bob, store.Account{ID: "nobody"}, 8), 9), store.ErrNoAccount)
	if err := s.AddReport(ctx, report("r1", cy, bob, 8), 9); err == nil {
		t.Fatal("a report of an id taken was stored")
	}

	same(t, "every report, newest first", reportIDs(t, s, store.ReportFilter{}), []string{"r4", "r3", "r2", "r1"})
	same(t, "the open ones", reportIDs(t, s, store.ReportFilter{Open: true}), []string{"r4", "r3", "r1"})
	same(t, "cy's", reportIDs(t, s, store.ReportFilter{Account: cy.ID}), []string{"r4", "r3", "r2"})
	same(t, "cy's open ones", reportIDs(t, s, store.ReportFilter{Account: cy.ID, Open: true}), []string{"r4", "r3"})
	same(t, "the newest 2", reportIDs(t, s, store.ReportFilter{Limit: 2}), []string{"r4", "r3"})
	same(t, "ada's (she was reported of nothing)", reportIDs(t, s, store.ReportFilter{Account: ada.ID}), []string{})
	if _, err := s.Reports(ctx, store.ReportFilter{Limit: -1}); err == nil {
		t.Fatal("a negative limit was taken")
	}
	for i := range 120 {
		if err := s.AddReport(ctx, report(fmt.Sprint("x", i), cy, bob, 10+i), 1000); err != nil {
			t.Fatal(err)
		}
	}
	if ids := reportIDs(t, s, store.ReportFilter{}); len(ids) != 100 || ids[0] != "x119" {
		t.Fatalf("the default limit: %d reports from %v; want 100 from x119", len(ids), ids[0])
	}
}

// testReportRace: of two reports made at once by one reporter with max
// 1, through two stores on one database, exactly one is stored. The
// window between the count and the insert is short: a few rounds find
// it.
func testReportRace(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	for round := range 20 {
		errs := make([]error, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range errs {
			wg.Go(func() {
				<-start
				errs[i] = stores[i].AddReport(context.Background(), report(fmt.Sprint("r", round, "-", i), ada, bob, round), 1)
			})
		}
		close(start)
		wg.Wait()
		made := 0
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case !errors.Is(err, store.ErrTooManyReports):
				t.Fatalf("a racing report: %v", err)
			}
		}
		open := reportIDs(t, s, store.ReportFilter{Open: true})
		if made != 1 || len(open) != 1 {
			t.Fatalf("round %d: two reports at once with max 1: %d made, open %v; want exactly 1", round, made, open)
		}
		// Close it, for the next round's race.
		dismiss := modAction(fmt.Sprint("m", round), "", bob.ID, store.ActionDismiss, round)
		dismiss.Report = open[0]
		mustModerate(t, s, dismiss)
	}
}

// testStanding: each action's standing, read back by id, by name and
// through a live session.
func testStanding(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, mod := mustAccount(t, s, "Ada"), mustAccount(t, s, "Mod")
	if err := s.CreateSession(ctx, session(ada.ID, "ada", base.Add(48*time.Hour))); err != nil {
		t.Fatal(err)
	}
	until := base.Add(24 * time.Hour)
	mute := modAction("m01", mod.ID, ada.ID, store.ActionMute, 1)
	mute.Until = until
	steps := []struct {
		a    store.ModAction
		want store.Standing
	}{
		{mute, store.Standing{MutedUntil: stored(until), MuteReason: "reason of m01"}},
		{modAction("m02", mod.ID, ada.ID, store.ActionEngine, 2), store.Standing{MutedUntil: stored(until), MuteReason: "reason of m01", Engine: true}},
		{modAction("m03", mod.ID, ada.ID, store.ActionUnmute, 3), store.Standing{Engine: true}},
		{modAction("m04", mod.ID, ada.ID, store.ActionClearEngine, 4), store.Standing{}},
		{modAction("m05", "", ada.ID, store.ActionGrant, 5), store.Standing{Admin: true}},
		{modAction("m06", mod.ID, ada.ID, store.ActionDismiss, 6), store.Standing{Admin: true}},
		{modAction("m07", mod.ID, ada.ID, store.ActionUnban, 7), store.Standing{Admin: true}},
		{modAction("m08", "", ada.ID, store.ActionRevoke, 8), store.Standing{}},
	}
	for _, step := range steps {
		mustModerate(t, s, step.a)
		what := "the standing after " + step.a.Action
		same(t, what+", by id", standingOf(t, s, ada.ID), step.want)
		byName, err := s.AccountByName(ctx, "ada")
		if err != nil {
			t.Fatal(err)
		}
		same(t, what+", by name", byName.Standing, step.want)
		live, err := s.SessionAccount(ctx, hash("ada"), base)
		if err != nil {
			t.Fatalf("the session after %s: %v", step.a.Action, err)
		}
		same(t, what+", through a session", live.Standing, step.want)
	}
	again := mute
	again.ID = "m09"
	mustModerate(t, s, again)
	st := standingOf(t, s, ada.ID)
	if !st.Muted(base) || !st.Muted(until.Add(-time.Second)) || st.Muted(until) {
		t.Fatalf("muted until %v: Muted wrong at base, before or at the end", st.MutedUntil)
	}
	if standingOf(t, s, mod.ID) != (store.Standing{}) {
		t.Fatalf("the moderator's own standing changed: %+v", standingOf(t, s, mod.ID))
	}
}

// testBanAndClose: a ban and a close end the account's sessions and
// withdraw its seeks, and no other account's; an unban gives back
// neither.
func testBanAndClose(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	// live gives each account session n and a seek.
	live := func(n int) {
		t.Helper()
		for _, by := range []store.Account{ada, bob} {
			if err := s.CreateSession(ctx, session(by.ID, fmt.Sprint(by.Name, n), base.Add(time.Hour))); err != nil {
				t.Fatal(err)
			}
			if err := s.CreateSeek(ctx, seek(fmt.Sprint("seek-", by.Name, n), by, 2), 5, 10); err != nil {
				t.Fatal(err)
			}
		}
	}
	ended := func(what string, n int) {
		t.Helper()
		_, err := s.SessionAccount(ctx, hash(fmt.Sprint("Ada", n)), base)
		wantErr(t, "ada's session after "+what, err, store.ErrNoSession)
		if _, err := s.SessionAccount(ctx, hash(fmt.Sprint("Bob", n)), base); err != nil {
			t.Fatalf("bob's session after ada's %s: %v", what, err)
		}
		seeks, err := s.Seeks(ctx, base, store.SeekFilter{})
		if err != nil || len(seeks) != 1 || seeks[0].Account != bob.ID {
			t.Fatalf("the seeks after ada's %s: %+v, %v; want bob's only", what, seeks, err)
		}
		if err := s.DeleteSeek(ctx, seeks[0].ID, bob.ID); err != nil {
			t.Fatal(err)
		}
	}

	live(1)
	mustModerate(t, s, modAction("m1", "", ada.ID, store.ActionBan, 1))
	same(t, "the standing after a ban", standingOf(t, s, ada.ID), store.Standing{Banned: true, BanReason: "reason of m1"})
	ended("ban", 1)
	mustModerate(t, s, modAction("m2", "", ada.ID, store.ActionUnban, 2))
	same(t, "the standing after an unban", standingOf(t, s, ada.ID), store.Standing{})
	_, err := s.SessionAccount(ctx, hash("Ada1"), base)
	wantErr(t, "ada's session after the unban", err, store.ErrNoSession)

	live(2)
	mustModerate(t, s, modAction("m3", "", ada.ID, store.ActionClose, 3))
	same(t, "the standing after a close", standingOf(t, s, ada.ID), store.Standing{Closed: true, CloseReason: "reason of m3"})
	ended("close", 2)
}

// testModerateReportAndMessage: an action closes its report in the
// moderator's name; remove takes its message down, which Chat no longer
// shows and ChatMessage still reads.
func testModerateReportAndMessage(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, mod := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Mod")
	mustCreate(t, s, newHeader("g", base))
	line := mustChat(t, s, chatLine("g", store.RoomSpectators, 1, bob))
	mustChat(t, s, chatLine("g", store.RoomSpectators, 2, bob))
	r := report("r1", ada, bob, 1)
	r.Game, r.Message = "g", line.ID
	if err := s.AddReport(ctx, r, 5); err != nil {
		t.Fatal(err)
	}
	remove := modAction("m1", mod.ID, bob.ID, store.ActionRemove, 2)
	remove.Report, remove.Message = "r1", line.ID
	mustModerate(t, s, remove)
	got, err := s.Report(ctx, "r1")
	if err != nil || !got.Closed.Equal(stored(remove.At)) || got.ClosedBy != mod.ID {
		t.Fatalf("the report after the removal: %+v, %v; want closed at %v by %s", got, err, stored(remove.At), mod.ID)
	}
	same(t, "the room after the removal", chatIDs(t, s, "g", store.RoomSpectators, 0), []string{"c002"})
	m, err := s.ChatMessage(ctx, line.ID)
	line.Removed = true
	same(t, "the removed message", fmt.Sprint(m, err), fmt.Sprint(line, nil))
	if standingOf(t, s, bob.ID) != (store.Standing{}) {
		t.Fatalf("a removal changed the standing: %+v", standingOf(t, s, bob.ID))
	}

	// A mute closes a report too, in the command line's name.
	r2 := report("r2", ada, bob, 3)
	if err := s.AddReport(ctx, r2, 5); err != nil {
		t.Fatal(err)
	}
	mute := modAction("m2", "", bob.ID, store.ActionMute, 4)
	mute.Until, mute.Report = base.Add(time.Hour), "r2"
	mustModerate(t, s, mute)
	got, err = s.Report(ctx, "r2")
	if err != nil || !got.Closed.Equal(stored(mute.At)) || got.ClosedBy != "" {
		t.Fatalf("the report after the mute: %+v, %v; want closed at %v by the command line", got, err, stored(mute.At))
	}
	if open := reportIDs(t, s, store.ReportFilter{Open: true}); len(open) != 0 {
		t.Fatalf("open reports after both were closed: %v", open)
	}
}

// testModActions: the audit log keeps every field, newest first (by
// time, then id), with the names, of every account or one.
func testModActions(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, mod := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Mod")
	mustCreate(t, s, newHeader("g", base))
	mustChat(t, s, chatLine("g", store.RoomPlayers, 1, bob))
	if err := s.AddReport(ctx, report("r1", ada, bob, 0), 5); err != nil {
		t.Fatal(err)
	}
	mute := modAction("a1", mod.ID, bob.ID, store.ActionMute, 1)
	mute.Until, mute.Report = base.Add(time.Hour), "r1"
	remove := modAction("a2", mod.ID, bob.ID, store.ActionRemove, 2)
	remove.Message = "c001"
	grant := modAction("a3", "", ada.ID, store.ActionGrant, 2) // the same time as a2
	ban := modAction("a0", mod.ID, ada.ID, store.ActionBan, 3) // an id before the others', the newest
	for _, a := range []store.ModAction{mute, remove, grant, ban} {
		mustModerate(t, s, a)
	}
	named := func(a store.ModAction, moderator, account string) store.ModAction {
		a.At, a.ModeratorName, a.AccountName = stored(a.At), moderator, account
		if !a.Until.IsZero() {
			a.Until = stored(a.Until)
		}
		return a
	}
	all, err := s.ModActions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the audit log", all, []store.ModAction{
		named(ban, "Mod", "Ada"), named(grant, "", "Ada"), named(remove, "Mod", "Bob"), named(mute, "Mod", "Bob"),
	})
	bobs, err := s.ModActions(ctx, bob.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "bob's actions", bobs, []store.ModAction{named(remove, "Mod", "Bob"), named(mute, "Mod", "Bob")})
	two, err := s.ModActions(ctx, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the newest 2", two, all[:2])
	if none, err := s.ModActions(ctx, "nobody", 0); err != nil || len(none) != 0 {
		t.Fatalf("no one's actions: %+v, %v", none, err)
	}
	for i := range 110 {
		mustModerate(t, s, modAction(fmt.Sprintf("x%03d", i), "", bob.ID, store.ActionDismiss, 10+i))
	}
	if list, err := s.ModActions(ctx, "", 0); err != nil || len(list) != 100 || list[0].ID != "x109" {
		t.Fatalf("the default limit: %d actions, %v; want 100 from x109", len(list), err)
	}
}

// testModerateRefuses: an action refused writes nothing: no standing,
// no report closed, no message removed, no session ended, no audit row.
func testModerateRefuses(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	mustCreate(t, s, newHeader("g", base))
	mustChat(t, s, chatLine("g", store.RoomPlayers, 1, ada))
	if err := s.AddReport(ctx, report("r1", bob, ada, 0), 5); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, session(ada.ID, "ada", base.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	mustModerate(t, s, modAction("m0", "", ada.ID, store.ActionDismiss, 0)) // the log is not empty
	before, err := s.ModActions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	withReport := func(a store.ModAction, r string) store.ModAction { a.Report = r; return a }
	withMessage := func(a store.ModAction, m string) store.ModAction { a.Message = m; return a }
	for _, tt := range []struct {
		what string
		a    store.ModAction
		want error // nil: any error
	}{
		{"a ban of no account", withReport(modAction("m1", "", "nobody", store.ActionBan, 1), "r1"), store.ErrNoAccount},
		{"a ban closing no report", withReport(modAction("m2", "", ada.ID, store.ActionBan, 1), "nope"), store.ErrNoReport},
		{"a removal of no message", withReport(modAction("m3", "", ada.ID, store.ActionRemove, 1), "r1"), store.ErrNoMessage},
		{"a removal of no message, named", withMessage(withReport(modAction("m4", "", ada.ID, store.ActionRemove, 1), "r1"), "nope"), store.ErrNoMessage},
		{"an action of no kind", withReport(modAction("m5", "", ada.ID, "smite", 1), "r1"), nil},
		{"a mute without its end", withReport(modAction("m6", "", ada.ID, store.ActionMute, 1), "r1"), nil},
		{"an action of an id taken", withReport(modAction("m0", "", ada.ID, store.ActionBan, 1), "r1"), nil},
	} {
		err := s.Moderate(ctx, tt.a)
		if tt.want != nil {
			wantErr(t, tt.what, err, tt.want)
		} else if err == nil {
			t.Fatalf("%s was taken", tt.what)
		}
		after, err := s.ModActions(ctx, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "the audit log after "+tt.what, after, before)
		same(t, "the standing after "+tt.what, standingOf(t, s, ada.ID), store.Standing{})
		if r, err := s.Report(ctx, "r1"); err != nil || !r.Closed.IsZero() || r.ClosedBy != "" {
			t.Fatalf("the report after %s: %+v, %v; want it open", tt.what, r, err)
		}
		if _, err := s.SessionAccount(ctx, hash("ada"), base); err != nil {
			t.Fatalf("ada's session after %s: %v", tt.what, err)
		}
		same(t, "the room after "+tt.what, chatIDs(t, s, "g", store.RoomPlayers, 0), []string{"c001"})
	}
	if _, err := s.ModActions(ctx, "", -1); err == nil {
		t.Fatal("a negative limit was taken")
	}
}

// testCommunityLeaderboard: an engine-marked account and a closed one
// are left out of the leaderboard; the mark cleared, it is back.
func testCommunityLeaderboard(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	for i, pair := range [][2]store.Account{{ada, bob}, {ada, cy}, {bob, cy}} {
		h := ratedHeader(fmt.Sprint("g", i), pair[0], pair[1])
		mustCreate(t, s, h)
		finish(t, s, h, 0)
	}
	names := func() []string {
		t.Helper()
		board, err := s.Leaderboard(ctx, "pommel", base, 10)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{}
		for _, r := range board {
			names = append(names, r.Name)
		}
		return names
	}
	same(t, "the leaderboard", names(), []string{"Ada", "Bob", "Cy"})
	mustModerate(t, s, modAction("m1", "", ada.ID, store.ActionEngine, 1))
	same(t, "the leaderboard, ada engine-marked", names(), []string{"Bob", "Cy"})
	mustModerate(t, s, modAction("m2", "", ada.ID, store.ActionClearEngine, 2))
	same(t, "the leaderboard, the mark cleared", names(), []string{"Ada", "Bob", "Cy"})
	mustModerate(t, s, modAction("m3", "", bob.ID, store.ActionClose, 3))
	same(t, "the leaderboard, bob closed", names(), []string{"Ada", "Cy"})
	if r := ratingOf(t, s, ada.ID, "pommel"); r.Games != 2 {
		t.Fatalf("ada's rating after the mark and its clearing: %+v", r)
	}
}

// testCommunityDeleteAccount: deleting an account drops its blocks both
// ways, and it can be blocked no more.
func testCommunityDeleteAccount(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	for _, pair := range [][2]store.Account{{ada, bob}, {cy, ada}, {bob, cy}} {
		if err := s.Block(ctx, pair[0].ID, pair[1].ID, 1, base); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteAccount(ctx, ada.ID, base); err != nil {
		t.Fatal(err)
	}
	for _, other := range []store.Account{bob, cy} {
		if got, err := s.Blocking(ctx, ada.ID, other.ID); err != nil || got {
			t.Fatalf("Blocking(ada, %s) after ada was deleted: %v, %v", other.Name, got, err)
		}
	}
	ids, err := s.BlockedEither(ctx, cy.ID)
	same(t, "cy's blocked either way", fmt.Sprint(ids, err), fmt.Sprint([]string{bob.ID}, nil))
	if list, err := s.Blocks(ctx, ada.ID); err != nil || len(list) != 0 {
		t.Fatalf("the deleted account's blocks: %+v, %v", list, err)
	}
	// cy's block of ada is gone: cy may block another, max 1.
	if err := s.Block(ctx, cy.ID, bob.ID, 1, base); err != nil {
		t.Fatalf("cy blocks in the place ada's deletion freed: %v", err)
	}
	wantErr(t, "blocking a deleted account", s.Block(ctx, bob.ID, ada.ID, 5, base), store.ErrNoAccount)
	if got, err := s.Blocking(ctx, bob.ID, cy.ID); err != nil || !got {
		t.Fatalf("the blocks of others after ada's deletion: %v, %v", got, err)
	}
}
