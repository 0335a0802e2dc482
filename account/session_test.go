package account

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"testing"
)

func TestSessionToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok, hash := NewSessionToken()
		if !ValidSessionToken(tok) || len(tok) != 43 {
			t.Fatalf("NewSessionToken = %q, not valid", tok)
		}
		want := sha256.Sum256([]byte(tok))
		if !bytes.Equal(hash, want[:]) || !bytes.Equal(HashSessionToken(tok), hash) {
			t.Fatalf("hash of %q = %x, want its SHA-256 %x", tok, hash, want)
		}
		if seen[tok] {
			t.Fatalf("token %q made twice", tok)
		}
		seen[tok] = true
	}
}

func TestValidSessionToken(t *testing.T) {
	tok, _ := NewSessionToken()
	canonical := strings.Repeat("A", 42) + "A"
	for _, tc := range []struct {
		token string
		want  bool
	}{
		{tok, true},
		{canonical, true},
		{strings.Repeat("_", 42) + "w", true},
		{"", false},
		{tok[:42], false},
		{tok + "A", false},
		{tok + "=", false},
		{strings.Repeat("A", 42) + "B", false}, // non-canonical: low bits set
		{strings.Repeat("A", 42) + "+", false}, // standard alphabet, not URL
		{strings.Repeat("A", 42) + "/", false},
		{strings.Repeat("A", 41) + "=A", false},
		{strings.Repeat("A", 42) + " ", false},
	} {
		if got := ValidSessionToken(tc.token); got != tc.want {
			t.Errorf("ValidSessionToken(%q) = %v, want %v", tc.token, got, tc.want)
		}
	}
}
