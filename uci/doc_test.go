package uci

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	_ "github.com/arbiter-games/arbiter/games/all" // the handshake lists every game
)

var update = flag.Bool("update", false, "rewrite the dialogue in docs/protocol.md from the engine's answers")

const (
	protocolDoc   = "../docs/protocol.md"
	dialogueBegin = "<!-- dialogue:begin: written by go test ./uci -update -->\n"
	dialogueEnd   = "<!-- dialogue:end -->"
)

// docDialogue is the dialogue docs/protocol.md shows: deterministic, with
// depth and node limits only and the default seed.
var docDialogue = []string{
	"uci",
	"setoption name Player value ab",
	"isready",
	"newgame pommel hop=friendly",
	"position startpos moves a1-a3 a6-a4",
	"go depth 4",
	"go depth 4",
	"position fen W:Wd1,g1:Bd2,e3,f5,g2",
	"go depth 3",
	"position startpos moves a1-a4",
	"go depth 4",
	"position fen W:Wd1:Bd2 moves d1xd3",
	"go",
	"setoption name Player value mcts",
	"position startpos",
	"go nodes 2000",
	"go movetime -5",
	"frobnicate",
	"quit",
}

// TestProtocolDocDialogue runs the dialogue of docs/protocol.md and compares
// the engine's answers with the document's, elapsed times aside (they are
// the only part that changes from run to run; the document shows those of
// the run that wrote it). With -update it rewrites the document's block.
func TestProtocolDocDialogue(t *testing.T) {
	got := runDialogue(t, docDialogue...)
	block := "```\n" + strings.Join(got, "\n") + "\n```\n"
	raw, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	before, rest, ok := strings.Cut(doc, dialogueBegin)
	old, after, ok2 := strings.Cut(rest, dialogueEnd)
	if !ok || !ok2 {
		t.Fatalf("%s has no block between %q and %q", protocolDoc, strings.TrimSpace(dialogueBegin), dialogueEnd)
	}
	if *update {
		if err := os.WriteFile(protocolDoc, []byte(before+dialogueBegin+block+dialogueEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !slices.Equal(maskTimes(strings.Split(old, "\n")), maskTimes(strings.Split(block, "\n"))) {
		t.Errorf("the dialogue in %s is stale (go test ./uci -update rewrites it); the engine now answers:\n%s", protocolDoc, block)
	}
}
