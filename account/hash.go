package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are Argon2id's parameters (RFC 9106).
type Params struct {
	Memory  uint32 // KiB of memory one hash fills
	Time    uint32 // passes over that memory
	Threads uint8  // lanes, each hashed by its own goroutine
	SaltLen uint32 // bytes of random salt
	KeyLen  uint32 // bytes of hash kept
}

// DefaultParams are OWASP's first Argon2id choice: 19 MiB, 2 passes, one
// lane, with a 16-byte salt and a 32-byte hash. One lane because the server
// has two cores to share between games and logins: parallel lanes would
// make one login faster but not a flood of them cheaper. docs/accounts.md
// has the time one hash takes here.
func DefaultParams() Params {
	return Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// Bounds on the parameters of a stored hash Verify accepts, so that a
// damaged or planted row cannot make one check take a gigabyte or a minute.
const (
	maxMemory  = 256 * 1024
	maxTime    = 16
	maxThreads = 16
	minSalt    = 8
	maxSalt    = 64
	minKey     = 16
	maxKey     = 64
)

func (p Params) check() error {
	switch {
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory:
		return fmt.Errorf("argon2id memory %d KiB: want 8×threads to %d", p.Memory, maxMemory)
	case p.Time < 1 || p.Time > maxTime:
		return fmt.Errorf("argon2id time %d: want 1 to %d", p.Time, maxTime)
	case p.Threads < 1 || p.Threads > maxThreads:
		return fmt.Errorf("argon2id threads %d: want 1 to %d", p.Threads, maxThreads)
	case p.SaltLen < minSalt || p.SaltLen > maxSalt:
		return fmt.Errorf("argon2id salt of %d bytes: want %d to %d", p.SaltLen, minSalt, maxSalt)
	case p.KeyLen < minKey || p.KeyLen > maxKey:
		return fmt.Errorf("argon2id hash of %d bytes: want %d to %d", p.KeyLen, minKey, maxKey)
	}
	return nil
}

// Hasher hashes and verifies passwords with Argon2id, at most Slots at
// once: a flood of logins waits in line instead of filling memory, which
// stays under Slots × Memory KiB. Safe for concurrent use.
type Hasher struct {
	params Params
	slots  chan struct{}
	dummy  string // a hash of a random password, for VerifyNobody

	// inSlot, when set (by tests), is called while a slot is held.
	inSlot func()
}

// DefaultSlots is one hash per core: more would only share the cores.
func DefaultSlots() int { return runtime.GOMAXPROCS(0) }

// NewHasher makes a Hasher of these parameters with slots hashes at once.
// The dummy hash VerifyNobody checks against is a random salt and a
// random key in the current parameters: checking a password against it
// costs what a real check costs, and making it costs no hash (a server
// starts without spending one).
func NewHasher(p Params, slots int) (*Hasher, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if slots < 1 {
		return nil, fmt.Errorf("hasher slots %d: want at least 1", slots)
	}
	salt, key := make([]byte, p.SaltLen), make([]byte, p.KeyLen)
	rand.Read(salt) // never fails (crypto/rand)
	rand.Read(key)
	return &Hasher{params: p, slots: make(chan struct{}, slots), dummy: encode(p, salt, key)}, nil
}

// Params are the parameters new hashes get.
func (h *Hasher) Params() Params { return h.params }

// MemoryBound is the most memory, in bytes, the hashes in flight hold at
// once (when every stored hash has the current parameters; Verify bounds
// an older one's memory to 256 MiB a slot).
func (h *Hasher) MemoryBound() int64 { return int64(cap(h.slots)) * int64(h.params.Memory) * 1024 }

// Hash is the PHC string of a new salted hash of password:
// "$argon2id$v=19$m=19456,t=2,p=1$SALT$HASH". It waits for a slot, or for
// ctx to end (then its error).
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	rand.Read(salt) // never fails (crypto/rand)
	key, err := h.derive(ctx, password, salt, h.params)
	if err != nil {
		return "", err
	}
	return encode(h.params, salt, key), nil
}

// Verify tells whether password is the one encoded was made from, comparing
// in constant time. Its error is for an encoded string that is not an
// Argon2id PHC string of accepted parameters, or for ctx ending.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) (bool, error) {
	p, salt, want, err := decode(encoded)
	if err != nil {
		return false, err
	}
	got, err := h.derive(ctx, password, salt, p)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// VerifyNobody does the work of Verify against a hash no password matches
// and answers false: the login of a name that does not exist costs what a
// wrong password costs, so timing does not tell which names exist.
func (h *Hasher) VerifyNobody(ctx context.Context, password string) (bool, error) {
	_, err := h.Verify(ctx, password, h.dummy)
	return false, err
}

// NeedsRehash tells whether encoded was made with other parameters than the
// current ones (or cannot be read): after a good login, hash the password
// again and store that.
func (h *Hasher) NeedsRehash(encoded string) bool {
	p, salt, key, err := decode(encoded)
	return err != nil || p.Memory != h.params.Memory || p.Time != h.params.Time ||
		p.Threads != h.params.Threads || uint32(len(salt)) != h.params.SaltLen || uint32(len(key)) != h.params.KeyLen
}

func (h *Hasher) derive(ctx context.Context, password string, salt []byte, p Params) ([]byte, error) {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-h.slots }()
	if h.inSlot != nil {
		h.inSlot()
	}
	return argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

func encode(p Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// ErrStoredHash is Verify's error for a stored hash it cannot read (not
// an Argon2id PHC string, or parameters out of bounds); it never quotes the
// hash. It is the server's fault, not the user's: a 500.
const ErrStoredHash = storedHashError("stored password hash is not an Argon2id PHC string this server accepts")

type storedHashError string

func (e storedHashError) Error() string { return string(e) }

func decode(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, nil, nil, ErrStoredHash
	}
	var m, t, threads uint64
	if n, _ := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &threads); n != 3 ||
		parts[3] != fmt.Sprintf("m=%d,t=%d,p=%d", m, t, threads) || m > maxMemory || t > maxTime || threads > maxThreads {
		return p, nil, nil, ErrStoredHash
	}
	if salt, err = base64.RawStdEncoding.Strict().DecodeString(parts[4]); err != nil {
		return p, nil, nil, ErrStoredHash
	}
	if key, err = base64.RawStdEncoding.Strict().DecodeString(parts[5]); err != nil {
		return p, nil, nil, ErrStoredHash
	}
	p = Params{Memory: uint32(m), Time: uint32(t), Threads: uint8(threads), SaltLen: uint32(len(salt)), KeyLen: uint32(len(key))}
	if p.check() != nil {
		return p, nil, nil, ErrStoredHash
	}
	return p, salt, key, nil
}
