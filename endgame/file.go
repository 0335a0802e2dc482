package endgame

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// The files of a table folder: manifest.json, and for each material M
// the files M.wdl (2 bits a position: 0 draw, 1 win, 2 loss, 3 no
// position, four positions a byte, the lowest index in the lowest bits)
// and M.dtm (the distance in plies, 1 or 2 bytes a position, little
// endian; 0 for a draw). Each table file is the magic line, a 4-byte
// little-endian length and a JSON header (fileHeader) of that length,
// then the data, whose SHA-256 the header holds.
const (
	manifestName = "manifest.json"
	fileMagic    = "ARBEGT1\n"
	formatNumber = 2
	// oldestFormat is the oldest format read: format 1 is format 2
	// without drop tables (no drops, unknown or bound fields).
	oldestFormat = 1
	wdlExt       = ".wdl"
	dtmExt       = ".dtm"
)

// The two bits of a position in a .wdl file.
const (
	wdlDraw = iota
	wdlWin
	wdlLoss
	wdlNone
)

// Manifest describes a table folder: for which game and rules, up to how
// many pieces, and each material's figures. Build writes it after each
// material, so a folder of an unfinished build describes what it holds.
type Manifest struct {
	Format int    `json:"format"`
	Game   string `json:"game"`
	Rules  string `json:"rules"`
	Cells  int    `json:"cells"`
	Pieces int    `json:"pieces"`
	// Drops is set for the tables of a game whose moves add pieces
	// (Eximo): each material has two bounds, M.0.* and M.1.*, and a
	// position whose bounds differ is not held.
	Drops     bool            `json:"drops,omitempty"`
	Materials []MaterialStats `json:"materials"`
}

// MaterialStats are one material's figures. Positions counts indexes that
// are positions; wins, draws and losses are for the side to move.
type MaterialStats struct {
	Material  string `json:"material"`
	Positions uint64 `json:"positions"`
	Wins      uint64 `json:"wins"`
	Draws     uint64 `json:"draws"`
	Losses    uint64 `json:"losses"`
	// Unknown counts, in drop tables, the positions not held: their
	// value depends on positions of more pieces. Positions counts them.
	Unknown        uint64 `json:"unknown,omitempty"`
	LongestWin     int    `json:"longest_win"`
	LongestWinFEN  string `json:"longest_win_fen,omitempty"`
	LongestLoss    int    `json:"longest_loss"`
	LongestLossFEN string `json:"longest_loss_fen,omitempty"`
}

// fileHeader is the JSON header of a table file.
type fileHeader struct {
	Game     string `json:"game"`
	Rules    string `json:"rules"`
	Material string `json:"material"`
	Indexes  uint64 `json:"indexes"`
	Content  string `json:"content"` // "wdl" or "plies"
	Width    int    `json:"width"`   // bytes a position, for plies
	// Bound is, in drop tables, the player whom every move beyond the
	// tables favours: "0" or "1".
	Bound  string `json:"bound,omitempty"`
	SHA256 string `json:"sha256"`
}

// RulesOf is the part of g's options that decides positions' values:
// all but the ply cap, who moves first and the pie rule, which change
// nothing once a position is on the board.
func RulesOf(g game.Game) string {
	var parts []string
	for _, k := range g.Options().Keys() {
		if k == "maxplies" || k == "first" || k == "swap" {
			continue
		}
		parts = append(parts, k+"="+g.Options().Get(k))
	}
	return strings.Join(parts, " ")
}

func newManifest(g game.Game, pieces int) *Manifest {
	return &Manifest{Format: formatNumber, Game: g.ID(), Rules: RulesOf(g), Cells: g.Board().Len(), Pieces: pieces}
}

// add records a material's figures, replacing any it had.
func (m *Manifest) add(s MaterialStats) {
	m.Materials = slices.DeleteFunc(m.Materials, func(o MaterialStats) bool { return o.Material == s.Material })
	m.Materials = append(m.Materials, s)
}

// write writes the manifest to dir, atomically.
func (m *Manifest) write(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, manifestName), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// readManifest reads dir's manifest.
func readManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, manifestName), err)
	}
	if m.Format < oldestFormat || m.Format > formatNumber {
		return nil, fmt.Errorf("%s: format %d, this build reads formats %d to %d", filepath.Join(dir, manifestName), m.Format, oldestFormat, formatNumber)
	}
	return &m, nil
}

// writeAtomic writes a file through a temporary one renamed into place,
// so that an interrupted build leaves no half-written table.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// encodeWDL packs a build's values two bits a position.
func encodeWDL(vals []uint16) []byte {
	out := make([]byte, (len(vals)+3)/4)
	for i, v := range vals {
		var code byte
		switch {
		case v == notAPosition:
			code = wdlNone
		case v&winBit != 0:
			code = wdlWin
		case v&lossBit != 0:
			code = wdlLoss
		}
		out[i/4] |= code << (2 * (i % 4))
	}
	return out
}

// encodePlies writes the distances, one byte a position when they all
// fit, else two.
func encodePlies(vals []uint16) ([]byte, int) {
	longest := uint16(0)
	for _, v := range vals {
		if v != notAPosition {
			longest = max(longest, v&distMask)
		}
	}
	width := 1
	if longest > 255 {
		width = 2
	}
	out := make([]byte, len(vals)*width)
	for i, v := range vals {
		d := v & distMask
		if v == notAPosition {
			d = 0
		}
		if width == 1 {
			out[i] = byte(d)
		} else {
			binary.LittleEndian.PutUint16(out[2*i:], d)
		}
	}
	return out, width
}

// writeMaterial writes m's two files.
func writeMaterial(dir string, man *Manifest, m Material, vals []uint16) error {
	return writeMaterialFiles(dir, man, m, vals, "")
}

// fileBase is the name of m's files without their extension: M, or M.X
// for bound X of drop tables.
func fileBase(m Material, bound string) string {
	if bound == "" {
		return m.String()
	}
	return m.String() + "." + bound
}

// writeMaterialFiles writes m's two files of a bound ("" for tables
// without drops).
func writeMaterialFiles(dir string, man *Manifest, m Material, vals []uint16, bound string) error {
	wdl := encodeWDL(vals)
	plies, width := encodePlies(vals)
	for _, f := range []struct {
		ext, content string
		data         []byte
		width        int
	}{{wdlExt, "wdl", wdl, 0}, {dtmExt, "plies", plies, width}} {
		h := fileHeader{Game: man.Game, Rules: man.Rules, Material: m.String(), Indexes: uint64(len(vals)), Content: f.content, Width: f.width, Bound: bound}
		if err := writeTableFile(filepath.Join(dir, fileBase(m, bound)+f.ext), h, f.data); err != nil {
			return err
		}
	}
	return nil
}

func writeTableFile(path string, h fileHeader, data []byte) error {
	sum := sha256.Sum256(data)
	h.SHA256 = hex.EncodeToString(sum[:])
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return writeAtomic(path, func(w io.Writer) error {
		var n [4]byte
		binary.LittleEndian.PutUint32(n[:], uint32(len(head)))
		for _, part := range [][]byte{[]byte(fileMagic), n[:], head, data} {
			if _, err := w.Write(part); err != nil {
				return err
			}
		}
		return nil
	})
}

// readTableFile reads a table file and checks its header against want
// (game, rules, material, indexes, content) and its data's checksum.
func readTableFile(path string, want fileHeader) (fileHeader, []byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fileHeader{}, nil, err
	}
	bad := func(why string) error { return fmt.Errorf("%s: %s", path, why) }
	if len(raw) < len(fileMagic)+4 || string(raw[:len(fileMagic)]) != fileMagic {
		return fileHeader{}, nil, bad("not an arbiter table file")
	}
	n := int(binary.LittleEndian.Uint32(raw[len(fileMagic):]))
	rest := raw[len(fileMagic)+4:]
	if n > len(rest) || n > 1<<16 {
		return fileHeader{}, nil, bad("its header is cut short")
	}
	var h fileHeader
	if err := json.Unmarshal(rest[:n], &h); err != nil {
		return fileHeader{}, nil, bad("its header is not JSON: " + err.Error())
	}
	data := rest[n:]
	switch {
	case h.Game != want.Game || h.Rules != want.Rules:
		return h, nil, bad(fmt.Sprintf("a table of %s (%s), not of %s (%s)", h.Game, h.Rules, want.Game, want.Rules))
	case h.Material != want.Material || h.Indexes != want.Indexes || h.Content != want.Content || h.Bound != want.Bound:
		return h, nil, bad("its header does not match its name")
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != h.SHA256 {
		return h, nil, bad("its data does not match its checksum: the file is damaged")
	}
	size := (h.Indexes + 3) / 4
	if h.Content == "plies" {
		if h.Width != 1 && h.Width != 2 {
			return h, nil, bad(fmt.Sprintf("distances %d bytes wide", h.Width))
		}
		size = h.Indexes * uint64(h.Width)
	}
	if uint64(len(data)) != size {
		return h, nil, bad("its data is the wrong length")
	}
	return h, data, nil
}

// readMaterial reads m's files from dir as a build's values. It answers
// os.ErrNotExist when either file is missing: the material is still to
// be built.
func readMaterial(dir string, man *Manifest, m Material, indexes uint64) ([]uint16, error) {
	return readMaterialFiles(dir, man, m, indexes, "")
}

// readMaterialFiles reads m's files of a bound ("" for tables without
// drops), as readMaterial does.
func readMaterialFiles(dir string, man *Manifest, m Material, indexes uint64, bound string) ([]uint16, error) {
	want := fileHeader{Game: man.Game, Rules: man.Rules, Material: m.String(), Indexes: indexes, Bound: bound}
	want.Content = "wdl"
	_, wdl, err := readTableFile(filepath.Join(dir, fileBase(m, bound)+wdlExt), want)
	if err != nil {
		return nil, err
	}
	want.Content = "plies"
	h, plies, err := readTableFile(filepath.Join(dir, fileBase(m, bound)+dtmExt), want)
	if err != nil {
		return nil, err
	}
	vals := make([]uint16, indexes)
	for i := range vals {
		d := distance(plies, h.Width, uint64(i))
		switch wdl[i/4] >> (2 * (i % 4)) & 3 {
		case wdlWin:
			vals[i] = winBit | d
		case wdlLoss:
			vals[i] = lossBit | d
		case wdlNone:
			vals[i] = notAPosition
		}
	}
	return vals, nil
}

// distance reads position i's distance.
func distance(plies []byte, width int, i uint64) uint16 {
	if width == 1 {
		return uint16(plies[i])
	}
	return binary.LittleEndian.Uint16(plies[2*i:])
}
