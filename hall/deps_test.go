package hall

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestHallKnowsNoHTTP: the hall hosts games for any transport, so it
// imports no net/http, directly or through another package.
func TestHallKnowsNoHTTP(t *testing.T) { depstest.NoHTTP(t) }

// TestHallTagsNoWire: the wire's shapes are the transport's (the
// server's wire.go), so no type of the hall's carries a struct tag.
func TestHallTagsNoWire(t *testing.T) { depstest.NoStructTags(t) }
