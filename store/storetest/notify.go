package storetest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// notifyTests are the suite's tests of store.Notifications.
var notifyTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"NotifySecret", testSecret},
	{"NotifyPrefs", testNotifyPrefs},
	{"NotifyEmail", testEmail},
	{"NotifyEmailTaken", testEmailTaken},
	{"NotifyTokens", testTokens},
	{"NotifyResetPassword", testResetPassword},
	{"NotifyResetRace", testResetRace},
	{"NotifyPush", testPush},
	{"NotifyOutbox", testOutbox},
	{"NotifyOutboxClaimRace", testOutboxClaimRace},
	{"NotifyDeleteAccount", testNotifyDeleteAccount},
}

// tokenHash is the hash a store keeps of a token's text.
func tokenHash(text string) []byte {
	sum := sha256.Sum256([]byte(text))
	return sum[:]
}

// verifyToken is a verification of address for a, made at at, for an
// hour.
func verifyToken(a store.Account, text, address string, at time.Time) store.Token {
	return store.Token{Hash: tokenHash(text), Account: a.ID, Purpose: store.TokenVerify, Address: address, Created: at, Expires: at.Add(time.Hour)}
}

func testSecret(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			v, err := stores[i%2].Secret(context.Background(), "vapid", fmt.Sprint("candidate-", i))
			if err != nil {
				t.Errorf("Secret: %v", err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] || v == "" {
			t.Fatalf("eight servers asking at once got %q: want one secret for all", got)
		}
	}
	if v, err := s.Secret(context.Background(), "vapid", "later"); err != nil || v != got[0] {
		t.Errorf("Secret again = %q, %v; want the stored %q", v, err, got[0])
	}
	if v, err := s.Secret(context.Background(), "other", "x"); err != nil || v != "x" {
		t.Errorf("another secret = %q, %v; want its own", v, err)
	}
}

func testNotifyPrefs(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	if prefs, err := s.NotifyPrefs(ctx, ada.ID); err != nil || len(prefs) != 0 {
		t.Fatalf("NotifyPrefs of a new account = %v, %v; want none", prefs, err)
	}
	set := func(prefs ...store.NotifyPref) {
		t.Helper()
		if err := s.SetNotifyPrefs(ctx, ada.ID, prefs); err != nil {
			t.Fatal(err)
		}
	}
	set(store.NotifyPref{Kind: "turn", Channel: "email", On: false}, store.NotifyPref{Kind: "ended", Channel: "email", On: true})
	set(store.NotifyPref{Kind: "turn", Channel: "email", On: true}, store.NotifyPref{Kind: "turn", Channel: "push", On: false})
	prefs, err := s.NotifyPrefs(ctx, ada.ID)
	want := []store.NotifyPref{{Kind: "ended", Channel: "email", On: true}, {Kind: "turn", Channel: "email", On: true}, {Kind: "turn", Channel: "push", On: false}}
	if err != nil || !slices.Equal(prefs, want) {
		t.Errorf("NotifyPrefs = %v, %v; want %v (each write replacing its kind and channel's)", prefs, err, want)
	}
	wantErr(t, "SetNotifyPrefs of no account", s.SetNotifyPrefs(ctx, "nobody", want), store.ErrNoAccount)
}

func testEmail(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	_, err := s.Email(ctx, ada.ID)
	wantErr(t, "Email of an account without one", err, store.ErrNoEmail)
	at := base
	first := verifyToken(ada, "t1", "ada@example.org", at)
	if err := s.SetEmail(ctx, store.Email{Account: ada.ID, Address: "ada@example.org", Changed: at}, first, 3, at.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	e, err := s.Email(ctx, ada.ID)
	if err != nil || e.Address != "ada@example.org" || e.Verified || !e.Changed.Equal(stored(at)) {
		t.Fatalf("Email = %+v, %v; want the address unverified", e, err)
	}
	_, err = s.AccountByEmail(ctx, "ada@example.org")
	wantErr(t, "AccountByEmail of an unverified address", err, store.ErrNoAccount)
	// A second address replaces the first, whose token no longer works.
	second := verifyToken(ada, "t2", "Ada@Example.net", at.Add(time.Minute))
	if err := s.SetEmail(ctx, store.Email{Account: ada.ID, Address: "Ada@Example.net", Changed: at.Add(time.Minute)}, second, 3, at.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, err = s.VerifyEmail(ctx, first.Hash, at.Add(2*time.Minute))
	wantErr(t, "VerifyEmail of the replaced address's token", err, store.ErrNoToken)
	_, err = s.VerifyEmail(ctx, tokenHash("never made"), at)
	wantErr(t, "VerifyEmail of no token", err, store.ErrNoToken)
	_, err = s.VerifyEmail(ctx, second.Hash, at.Add(2*time.Hour))
	wantErr(t, "VerifyEmail of an expired token", err, store.ErrNoToken)
	e, err = s.VerifyEmail(ctx, second.Hash, at.Add(2*time.Minute))
	if err != nil || !e.Verified || e.Address != "Ada@Example.net" {
		t.Fatalf("VerifyEmail = %+v, %v; want the second address verified", e, err)
	}
	_, err = s.VerifyEmail(ctx, second.Hash, at.Add(3*time.Minute))
	wantErr(t, "VerifyEmail of a used token", err, store.ErrNoToken)
	for _, addr := range []string{"Ada@Example.net", "ada@example.NET"} {
		a, err := s.AccountByEmail(ctx, addr)
		if err != nil || a.ID != ada.ID {
			t.Errorf("AccountByEmail(%s) = %v, %v; want Ada (ignoring case)", addr, a.ID, err)
		}
	}
	// A third verification past the limit is refused, and changes nothing.
	third := verifyToken(ada, "t3", "x@example.org", at.Add(4*time.Minute))
	if err := s.SetEmail(ctx, store.Email{Account: ada.ID, Address: "x@example.org", Changed: at.Add(4 * time.Minute)}, third, 2, at.Add(-time.Hour)); !errors.Is(err, store.ErrTooManyTokens) {
		t.Fatalf("a third verification with max 2 = %v, want ErrTooManyTokens", err)
	}
	if e, _ := s.Email(ctx, ada.ID); e.Address != "Ada@Example.net" || !e.Verified {
		t.Errorf("after a refused change the address is %+v, want the verified one kept", e)
	}
	if err := s.DeleteEmail(ctx, ada.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Email(ctx, ada.ID)
	wantErr(t, "Email after DeleteEmail", err, store.ErrNoEmail)
	if err := s.DeleteEmail(ctx, ada.ID); err != nil {
		t.Errorf("DeleteEmail of none: %v", err)
	}
	err = s.SetEmail(ctx, store.Email{Account: ada.ID, Address: "a@b.c"}, verifyToken(ada, "t4", "other@b.c", at), 9, at)
	if err == nil {
		t.Error("SetEmail with a token for another address: accepted")
	}
}

func testEmailTaken(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	for _, a := range []store.Account{ada, bob} {
		tk := verifyToken(a, "t-"+a.Name, "Shared@example.org", base)
		if err := s.SetEmail(ctx, store.Email{Account: a.ID, Address: "Shared@example.org", Changed: base}, tk, 3, base.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.VerifyEmail(ctx, tokenHash("t-Ada"), base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err := s.VerifyEmail(ctx, tokenHash("t-Bob"), base.Add(time.Minute))
	wantErr(t, "VerifyEmail of an address another account verified", err, store.ErrEmailTaken)
	if e, _ := s.Email(ctx, bob.ID); e.Verified {
		t.Error("Bob's address was verified though Ada's is the same")
	}
	if _, err := s.Token(ctx, tokenHash("t-Bob"), store.TokenVerify, base.Add(time.Minute)); err != nil {
		t.Errorf("Bob's refused token was used up: %v (a refusal changes nothing)", err)
	}
}

func testTokens(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	reset := func(text string, at time.Time) store.Token {
		return store.Token{Hash: tokenHash(text), Account: ada.ID, Purpose: store.TokenReset, Created: at, Expires: at.Add(time.Hour)}
	}
	for i := range 3 {
		if err := s.CreateToken(ctx, reset(fmt.Sprint("r", i), base.Add(time.Duration(i)*time.Minute)), 3, base.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	err := s.CreateToken(ctx, reset("r3", base.Add(5*time.Minute)), 3, base.Add(-time.Hour))
	wantErr(t, "a fourth token in the hour with max 3", err, store.ErrTooManyTokens)
	// An hour on, the first ones no longer count.
	if err := s.CreateToken(ctx, reset("r4", base.Add(61*time.Minute)), 3, base.Add(time.Minute+time.Second)); err != nil {
		t.Errorf("a token once the older ones are out of the window: %v", err)
	}
	got, err := s.Token(ctx, tokenHash("r1"), store.TokenReset, base.Add(30*time.Minute))
	if err != nil || got.Account != ada.ID || !got.Expires.Equal(stored(base.Add(61*time.Minute))) {
		t.Errorf("Token = %+v, %v", got, err)
	}
	for _, c := range []struct {
		what, text, purpose string
		at                  time.Time
	}{
		{"of another purpose", "r1", store.TokenVerify, base},
		{"expired", "r0", store.TokenReset, base.Add(time.Hour)},
		{"never made", "zz", store.TokenReset, base},
	} {
		_, err := s.Token(ctx, tokenHash(c.text), c.purpose, c.at)
		wantErr(t, "Token "+c.what, err, store.ErrNoToken)
	}
	wantErr(t, "CreateToken of no account", s.CreateToken(ctx, store.Token{Hash: tokenHash("x"), Account: "nobody", Purpose: store.TokenReset}, 3, base), store.ErrNoAccount)
	if err := s.CreateToken(ctx, store.Token{Hash: tokenHash("y"), Account: ada.ID, Purpose: "login"}, 3, base); err == nil {
		t.Error("CreateToken of an unknown purpose: accepted")
	}
	// Two servers making tokens at once keep to the limit.
	bob := mustAccount(t, s, "Bob")
	stores := []store.Store{s, again(t, s)}
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			errs[i] = stores[i%2].CreateToken(ctx, store.Token{Hash: tokenHash(fmt.Sprint("b", i)), Account: bob.ID, Purpose: store.TokenReset,
				Created: base, Expires: base.Add(time.Hour)}, 3, base.Add(-time.Hour))
		})
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, store.ErrTooManyTokens):
			t.Fatal(err)
		}
	}
	if made != 3 {
		t.Errorf("8 tokens at once with max 3: %d made", made)
	}
}

func testResetPassword(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	for _, text := range []string{"one", "two"} {
		if err := s.CreateToken(ctx, store.Token{Hash: tokenHash(text), Account: ada.ID, Purpose: store.TokenReset, Created: base, Expires: base.Add(time.Hour)}, 5, base); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateSession(ctx, store.Session{Hash: hash("sess"), Account: ada.ID, Created: base, Expires: base.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	_, err := s.ResetPassword(ctx, tokenHash("one"), "new-hash", base.Add(time.Hour))
	wantErr(t, "ResetPassword with an expired token", err, store.ErrNoToken)
	id, err := s.ResetPassword(ctx, tokenHash("one"), "new-hash", base.Add(time.Minute))
	if err != nil || id != ada.ID {
		t.Fatalf("ResetPassword = %q, %v", id, err)
	}
	if a, _ := s.Account(ctx, ada.ID); a.Password != "new-hash" {
		t.Errorf("password after the reset %q, want new-hash", a.Password)
	}
	_, err = s.SessionAccount(ctx, hash("sess"), base.Add(time.Minute))
	wantErr(t, "a session after the reset", err, store.ErrNoSession)
	for _, text := range []string{"one", "two"} {
		_, err = s.ResetPassword(ctx, tokenHash(text), "again", base.Add(2*time.Minute))
		wantErr(t, "ResetPassword with token "+text+" after a reset", err, store.ErrNoToken)
	}
	if err := s.CreateToken(ctx, store.Token{Hash: tokenHash("v"), Account: ada.ID, Purpose: store.TokenVerify, Address: "a@b.c", Created: base, Expires: base.Add(time.Hour)}, 5, base); err != nil {
		t.Fatal(err)
	}
	_, err = s.ResetPassword(ctx, tokenHash("v"), "x", base.Add(time.Minute))
	wantErr(t, "ResetPassword with a verification token", err, store.ErrNoToken)
}

// testResetRace: one token used by two servers at once resets once.
func testResetRace(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	stores := []store.Store{s, again(t, s)}
	ada := mustAccount(t, s, "Ada")
	for round := range 5 {
		text := fmt.Sprint("race", round)
		if err := s.CreateToken(ctx, store.Token{Hash: tokenHash(text), Account: ada.ID, Purpose: store.TokenReset, Created: base, Expires: base.Add(time.Hour)}, 100, base); err != nil {
			t.Fatal(err)
		}
		errs := make([]error, 4)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = stores[i%2].ResetPassword(ctx, tokenHash(text), fmt.Sprint("hash-", i), base.Add(time.Minute))
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, store.ErrNoToken):
				t.Fatal(err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: one token used four times at once reset %d times, want 1", round, ok)
		}
	}
}

func testPush(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	sub := func(id string, a store.Account, endpoint string) store.PushSubscription {
		return store.PushSubscription{ID: id, Account: a.ID, Endpoint: endpoint, P256dh: "key-" + id, Auth: "auth-" + id, Created: base}
	}
	for i := range 2 {
		id, err := s.AddPushSubscription(ctx, sub(fmt.Sprint("p", i), ada, fmt.Sprint("https://push.example/", i)), 2)
		if err != nil || id != fmt.Sprint("p", i) {
			t.Fatalf("AddPushSubscription = %q, %v", id, err)
		}
	}
	_, err := s.AddPushSubscription(ctx, sub("p2", ada, "https://push.example/2"), 2)
	wantErr(t, "a third subscription with max 2", err, store.ErrTooManySubscriptions)
	// The same endpoint again is the same subscription, its keys new.
	again := sub("p9", ada, "https://push.example/1")
	again.P256dh = "new-key"
	if id, err := s.AddPushSubscription(ctx, again, 2); err != nil || id != "p1" {
		t.Fatalf("the same endpoint again = %q, %v; want its id p1", id, err)
	}
	list, err := s.PushSubscriptions(ctx, ada.ID)
	if err != nil || len(list) != 2 || list[1].P256dh != "new-key" {
		t.Fatalf("PushSubscriptions = %+v, %v", list, err)
	}
	// A browser signed in to another account moves to it.
	if id, err := s.AddPushSubscription(ctx, sub("p8", bob, "https://push.example/0"), 2); err != nil || id != "p0" {
		t.Fatalf("Ada's endpoint for Bob = %q, %v", id, err)
	}
	if list, _ := s.PushSubscriptions(ctx, ada.ID); len(list) != 1 || list[0].ID != "p1" {
		t.Errorf("Ada's after her browser moved to Bob: %+v", list)
	}
	wantErr(t, "deleting Bob's subscription as Ada", s.DeletePushSubscription(ctx, ada.ID, "p0"), store.ErrNoSubscription)
	if err := s.DeletePushSubscription(ctx, bob.ID, "p0"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePushEndpoint(ctx, "https://push.example/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePushEndpoint(ctx, "https://push.example/none"); err != nil {
		t.Errorf("DeletePushEndpoint of none: %v", err)
	}
	if list, _ := s.PushSubscriptions(ctx, ada.ID); len(list) != 0 {
		t.Errorf("after the deletes: %+v", list)
	}
	_, err = s.AddPushSubscription(ctx, sub("px", store.Account{ID: "nobody"}, "https://push.example/x"), 2)
	wantErr(t, "a subscription of no account", err, store.ErrNoAccount)
}

// outboxRow is a pending row for a, due at due.
func outboxRow(id string, a store.Account, subject, channel string, due time.Time) store.OutboxItem {
	return store.OutboxItem{ID: id, Account: a.ID, Kind: "turn", Subject: subject, Channel: channel, Game: "g1", Ply: 3,
		Title: "Your move", Body: "against Bob", URL: "/play/g1", Due: due, Created: base}
}

func testOutbox(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	n, err := s.Enqueue(ctx, []store.OutboxItem{outboxRow("o1", ada, "g1/3", "push", base), outboxRow("o2", ada, "g1/3", "email", base.Add(time.Minute))})
	if err != nil || n != 2 {
		t.Fatalf("Enqueue = %d, %v", n, err)
	}
	// The same notification again (another server) is no new row.
	if n, err := s.Enqueue(ctx, []store.OutboxItem{outboxRow("o3", ada, "g1/3", "push", base)}); err != nil || n != 0 {
		t.Fatalf("Enqueue of the same key = %d, %v; want 0", n, err)
	}
	got, err := s.ClaimOutbox(ctx, "c1", base, time.Minute, 10)
	if err != nil || len(got) != 1 || got[0].ID != "o1" || got[0].Attempts != 1 || got[0].Claim != "c1" || got[0].Ply != 3 || got[0].URL != "/play/g1" {
		t.Fatalf("ClaimOutbox at base = %+v, %v; want o1 alone (o2 is not due)", got, err)
	}
	if again, err := s.ClaimOutbox(ctx, "c2", base.Add(30*time.Second), time.Minute, 10); err != nil || len(again) != 0 {
		t.Fatalf("a claim while c1's lease holds = %+v, %v; want none", again, err)
	}
	// c1's lease runs out: c2 takes o1 (and o2, due now), and c1 can no
	// longer finish it.
	late, err := s.ClaimOutbox(ctx, "c2", base.Add(2*time.Minute), time.Minute, 10)
	if err != nil || len(late) != 2 || late[0].Attempts != 2 {
		t.Fatalf("a claim after the lease = %+v, %v", late, err)
	}
	err = s.FinishOutbox(ctx, "o1", "c1", store.OutboxResult{State: store.OutboxSent, At: base})
	wantErr(t, "FinishOutbox by a lost claim", err, store.ErrLostClaim)
	if err := s.FinishOutbox(ctx, "o1", "c2", store.OutboxResult{State: store.OutboxPending, Due: base.Add(10 * time.Minute),
		Done: []string{"p1"}, Error: "503 from the push service"}); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishOutbox(ctx, "o2", "c2", store.OutboxResult{State: store.OutboxSent, At: base.Add(3 * time.Minute), Clear: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ClaimOutbox(ctx, "c3", base.Add(9*time.Minute), time.Minute, 10); len(got) != 0 {
		t.Fatalf("a claim before the retry's due = %+v", got)
	}
	got, err = s.ClaimOutbox(ctx, "c3", base.Add(10*time.Minute), time.Minute, 10)
	if err != nil || len(got) != 1 || got[0].ID != "o1" || !slices.Equal(got[0].Done, []string{"p1"}) || got[0].Error != "503 from the push service" || got[0].Attempts != 3 {
		t.Fatalf("the retry = %+v, %v", got, err)
	}
	if err := s.FinishOutbox(ctx, "o1", "c3", store.OutboxResult{State: store.OutboxFailed, At: base.Add(10 * time.Minute), Error: "gave up"}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.OutboxOf(ctx, ada.ID)
	if err != nil || len(rows) != 2 {
		t.Fatalf("OutboxOf = %+v, %v", rows, err)
	}
	byID := map[string]store.OutboxItem{rows[0].ID: rows[0], rows[1].ID: rows[1]}
	if o := byID["o1"]; o.State != store.OutboxFailed || o.Error != "gave up" || !o.Finished.Equal(stored(base.Add(10*time.Minute))) {
		t.Errorf("o1 = %+v", o)
	}
	if o := byID["o2"]; o.State != store.OutboxSent || o.Body != "" || o.URL != "" || o.Title != "Your move" {
		t.Errorf("o2 = %+v; want sent, its body and link cleared", o)
	}
	if err := s.FinishOutbox(ctx, "o2", "", store.OutboxResult{State: "lost"}); err == nil {
		t.Error("FinishOutbox with an unknown state: accepted")
	}
	if n, err := s.PruneOutbox(ctx, base.Add(5*time.Minute)); err != nil || n != 1 {
		t.Errorf("PruneOutbox = %d, %v; want o2 alone (finished before)", n, err)
	}
	if _, err := s.Enqueue(ctx, []store.OutboxItem{{ID: "x", Account: ada.ID}}); err == nil {
		t.Error("Enqueue of a row without its key: accepted")
	}
}

// testOutboxClaimRace: two servers claiming the same rows at once each
// get their own, every row once.
func testOutboxClaimRace(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	stores := []store.Store{s, again(t, s)}
	ada := mustAccount(t, s, "Ada")
	var items []store.OutboxItem
	for i := range 40 {
		items = append(items, outboxRow(fmt.Sprint("o", i), ada, fmt.Sprint("g/", i), "push", base))
	}
	if _, err := s.Enqueue(ctx, items); err != nil {
		t.Fatal(err)
	}
	claimed := make([][]store.OutboxItem, 8)
	var wg sync.WaitGroup
	for i := range claimed {
		wg.Go(func() {
			for {
				got, err := stores[i%2].ClaimOutbox(ctx, fmt.Sprint("claim", i), base, time.Minute, 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				claimed[i] = append(claimed[i], got...)
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for _, list := range claimed {
		for _, o := range list {
			seen[o.ID]++
		}
	}
	for _, o := range items {
		if seen[o.ID] != 1 {
			t.Errorf("row %s claimed %d times, want once", o.ID, seen[o.ID])
		}
	}
}

func testNotifyDeleteAccount(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	tk := verifyToken(ada, "t", "ada@example.org", base)
	if err := s.SetEmail(ctx, store.Email{Account: ada.ID, Address: "ada@example.org", Changed: base}, tk, 3, base); err != nil {
		t.Fatal(err)
	}
	if _, err := s.VerifyEmail(ctx, tk.Hash, base); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddPushSubscription(ctx, store.PushSubscription{ID: "p", Account: ada.ID, Endpoint: "https://push.example/p", Created: base}, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, []store.OutboxItem{outboxRow("o", ada, "g/1", "push", base)}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNotifyPrefs(ctx, ada.ID, []store.NotifyPref{{Kind: "turn", Channel: "push"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, ada.ID, base); err != nil {
		t.Fatal(err)
	}
	_, err := s.Email(ctx, ada.ID)
	wantErr(t, "Email of a deleted account", err, store.ErrNoEmail)
	_, err = s.AccountByEmail(ctx, "ada@example.org")
	wantErr(t, "AccountByEmail of a deleted account's address", err, store.ErrNoAccount)
	subs, _ := s.PushSubscriptions(ctx, ada.ID)
	rows, _ := s.OutboxOf(ctx, ada.ID)
	prefs, _ := s.NotifyPrefs(ctx, ada.ID)
	if len(subs) != 0 || len(rows) != 0 || len(prefs) != 0 {
		t.Errorf("a deleted account keeps %d subscriptions, %d outbox rows, %d choices", len(subs), len(rows), len(prefs))
	}
	if got, err := s.ClaimOutbox(ctx, "c", base, time.Minute, 5); err != nil || len(got) != 0 {
		t.Errorf("a deleted account's row is still claimed: %+v, %v", got, err)
	}
}
