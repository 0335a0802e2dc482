package lobby

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestLobbyKnowsNoHTTP: the lobby serves any transport, so it imports no
// net/http, directly or through another package.
func TestLobbyKnowsNoHTTP(t *testing.T) { depstest.NoHTTP(t) }

// TestLobbyTagsNoWire: the wire's shapes are the transport's (the
// server's wire.go), so no type of the lobby's carries a struct tag.
func TestLobbyTagsNoWire(t *testing.T) { depstest.NoStructTags(t) }
