package account

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// smallParams keep -short tests fast: 64 KiB, one pass.
func smallParams() Params {
	return Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
}

func newSmallHasher(t *testing.T, slots int) *Hasher {
	t.Helper()
	h, err := NewHasher(smallParams(), slots)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHashVerify(t *testing.T) {
	h := newSmallHasher(t, 2)
	ctx := context.Background()
	enc, err := h.Hash(ctx, "tAng0-Vel0cipede")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("Hash = %q, want a PHC argon2id string of m=64,t=1,p=1", enc)
	}
	again, _ := h.Hash(ctx, "tAng0-Vel0cipede")
	if again == enc {
		t.Errorf("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"tAng0-Vel0cipede", true},
		{"tang0-vel0cipede", false},
		{"tAng0-Vel0cipede ", false},
		{"", false},
	} {
		ok, err := h.Verify(ctx, tc.password, enc)
		if err != nil || ok != tc.want {
			t.Errorf("Verify(%q) = %v, %v; want %v", tc.password, ok, err, tc.want)
		}
	}
	if ok, err := h.VerifyNobody(ctx, "tAng0-Vel0cipede"); ok || err != nil {
		t.Errorf("VerifyNobody = %v, %v; want false, nil", ok, err)
	}
}

// TestVerifyOtherParams: a hash made with other parameters still verifies
// (they are read from it), and NeedsRehash says to renew it.
func TestVerifyOtherParams(t *testing.T) {
	old := newSmallHasher(t, 1)
	p := smallParams()
	p.Time = 2
	cur, err := NewHasher(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	enc, _ := old.Hash(ctx, "tAng0-Vel0cipede")
	if ok, err := cur.Verify(ctx, "tAng0-Vel0cipede", enc); !ok || err != nil {
		t.Errorf("Verify of an older hash = %v, %v; want true", ok, err)
	}
	fresh, _ := cur.Hash(ctx, "tAng0-Vel0cipede")
	if !cur.NeedsRehash(enc) || cur.NeedsRehash(fresh) || !cur.NeedsRehash("garbage") {
		t.Errorf("NeedsRehash(old, fresh, garbage) = %v, %v, %v; want true, false, true",
			cur.NeedsRehash(enc), cur.NeedsRehash(fresh), cur.NeedsRehash("garbage"))
	}
}

func TestVerifyRefusesBadHashes(t *testing.T) {
	h := newSmallHasher(t, 1)
	good, _ := h.Hash(context.Background(), "tAng0-Vel0cipede")
	parts := strings.Split(good, "$") // "", argon2id, v=19, m=64,t=1,p=1, salt, key
	with := func(i int, s string) string {
		p := append([]string(nil), parts...)
		p[i] = s
		return strings.Join(p, "$")
	}
	for _, enc := range []string{
		"",
		"garbage",
		with(1, "argon2i"),
		with(2, "v=16"),
		with(3, "m=64,t=1"),
		with(3, "m=064,t=1,p=1"),
		with(3, "m=1048576,t=1,p=1"), // 1 GiB: over the bound
		with(3, "m=64,t=100,p=1"),
		with(3, "m=64,t=0,p=1"),
		with(4, "short"),
		with(4, parts[4]+"="),
		with(5, "!!!"),
		with(5, "AAAA"), // 3 bytes of hash
		good + "$",
	} {
		ok, err := h.Verify(context.Background(), "tAng0-Vel0cipede", enc)
		if ok || !errors.Is(err, ErrStoredHash) {
			t.Errorf("Verify(%q) = %v, %v; want false, ErrStoredHash", enc, ok, err)
		}
	}
}

func TestNewHasherRefusesBadParams(t *testing.T) {
	for _, p := range []Params{
		{Memory: 4, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 0, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 0, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 4, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 8},
	} {
		if _, err := NewHasher(p, 1); err == nil {
			t.Errorf("NewHasher(%+v) took them", p)
		}
	}
	if _, err := NewHasher(smallParams(), 0); err == nil {
		t.Errorf("NewHasher with 0 slots took it")
	}
}

// TestHasherSlots: of slots+1 hashes started at once, slots run and one
// waits until a slot frees; a waiting hash gives up when its context ends.
func TestHasherSlots(t *testing.T) {
	const slots = 3
	h := newSmallHasher(t, slots)
	var inside atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	h.inSlot = func() {
		inside.Add(1)
		entered <- struct{}{}
		<-release
		inside.Add(-1)
	}
	var wg sync.WaitGroup
	for range slots + 1 {
		wg.Go(func() {
			if _, err := h.Hash(context.Background(), "tAng0-Vel0cipede"); err != nil {
				t.Error(err)
			}
		})
	}
	for range slots {
		<-entered
	}
	select {
	case <-entered:
		t.Fatalf("hash %d entered while %d slots were held", slots+1, slots)
	case <-time.After(50 * time.Millisecond):
	}
	if n := inside.Load(); n != slots {
		t.Errorf("%d hashes inside, want %d", n, slots)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hash with an ended context while the slots are full = %v, want context.Canceled", err)
	}
	if _, err := h.Verify(ctx, "x", h.dummy); !errors.Is(err, context.Canceled) {
		t.Errorf("Verify with an ended context while the slots are full = %v, want context.Canceled", err)
	}

	release <- struct{}{} // one leaves: the last one enters
	<-entered
	close(release)
	wg.Wait()
	if n := inside.Load(); n != 0 {
		t.Errorf("%d hashes inside after all ended", n)
	}
}

func TestMemoryBound(t *testing.T) {
	h, err := NewHasher(smallParams(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.MemoryBound(); got != 3*64*1024 {
		t.Errorf("MemoryBound = %d, want 3 × 64 KiB", got)
	}
}

// TestDefaultParams hashes once at full cost, so it is skipped by -short.
func TestDefaultParams(t *testing.T) {
	if testing.Short() {
		t.Skip("a full-cost hash takes tens of milliseconds")
	}
	h, err := NewHasher(DefaultParams(), DefaultSlots())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	enc, err := h.Hash(ctx, "tAng0-Vel0cipede")
	if err != nil || !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("Hash = %q, %v", enc, err)
	}
	if ok, err := h.Verify(ctx, "tAng0-Vel0cipede", enc); !ok || err != nil {
		t.Errorf("Verify = %v, %v; want true", ok, err)
	}
	if h.NeedsRehash(enc) {
		t.Errorf("NeedsRehash of a fresh hash")
	}
}

// BenchmarkHash is one hash at the default parameters.
func BenchmarkHash(b *testing.B) {
	h, err := NewHasher(DefaultParams(), 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Hash(ctx, "tAng0-Vel0cipede"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyNobody is the cost of a login to a name that does not
// exist; it should equal BenchmarkHash's.
func BenchmarkVerifyNobody(b *testing.B) {
	h, err := NewHasher(DefaultParams(), 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.VerifyNobody(ctx, "tAng0-Vel0cipede"); err != nil {
			b.Fatal(err)
		}
	}
}
