package account

import (
	"bytes"
	"strings"
	"testing"
)

// TestAPITokens: a new token is well formed, hashed as a session token
// is, unlike any other, and never the length of a seat's token; malformed
// ones are refused.
func TestAPITokens(t *testing.T) {
	a, ha := NewAPIToken()
	b, _ := NewAPIToken()
	if !ValidAPIToken(a) || !IsAPIToken(a) || a == b || !bytes.Equal(ha, HashSessionToken(a)) {
		t.Fatalf("tokens %q and %q (hash %x): want two well-formed, different tokens", a, b, ha)
	}
	if len(a) == 22 {
		t.Fatalf("an API token of %d characters, a seat token's length", len(a))
	}
	for _, bad := range []string{"", "arb_", a[:len(a)-1], a + "A", "xyz_" + a[4:], a[:10] + "!" + a[11:],
		strings.Replace(a, "arb_", "ARB_", 1)} {
		if ValidAPIToken(bad) {
			t.Errorf("ValidAPIToken(%q) = true", bad)
		}
	}
	for _, seat := range []string{"c2VhdHRva2VuMTIzNDU2Nw", "arb_dHRva2VuMTIzNDU2Nw"} {
		if IsAPIToken(seat) {
			t.Errorf("the seat token %q taken for an API token", seat)
		}
	}
}
