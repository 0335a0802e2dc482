package lab

import (
	"bytes"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"
)

// reportPage is report.html: plain HTML and CSS, no script and no outside
// reference, so that the page opens anywhere, offline, years later.
var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":  func(x float64) string { return fmt.Sprintf("%.1f", 100*x) },
	"rate": RateText,
	"num":  func(x float64) string { return fmt.Sprintf("%.2f", x) },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>arbiter lab: {{.S.Game}} {{.Options}}</title>
<style>
body { font-family: sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ccc; padding: .25rem .75rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .9rem; }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 1rem 0; }
dl.run dt { color: #555; }
dl.run dd { margin: 0; overflow-wrap: break-word; min-width: 0; }
dl.run code { font-size: .9rem; }
dl.run .w { white-space: nowrap; }
p.warn { background: #fff3cd; border-left: .3rem solid #b8860b; padding: .5rem .75rem; }
</style></head><body>
{{with .S.MixWarning}}<p class="warn"><strong>{{.}}</strong></p>
{{end}}<h1>{{.S.Game}} <small>{{.Options}}</small></h1>
<dl class="run">
<dt>n</dt><dd><strong>{{.Distinct}}</strong>{{if ne .S.Games .S.Distinct}} ({{.S.Games}} played){{end}}</dd>
<dt>build</dt><dd>{{.Builds}}</dd>
<dt>engines</dt><dd>{{.Signatures}}</dd>
<dt>date</dt><dd>{{.S.Run.Date}}</dd>
<dt>command</dt><dd><code>{{range $i, $w := .Command}}{{if $i}} {{end}}<span class="w">{{$w}}</span>{{end}}</code></dd>
</dl>
{{with .S.RepeatWarning}}<p><strong>{{.}}</strong></p>{{end}}<p>Players: {{range $i, $p := .S.Players}}{{if $i}}, {{end}}{{$p}}{{end}};
limits: {{.Limits}}; {{.S.Run.Opening}} random opening plies; seed {{.S.Run.Seed}}{{if .S.Run.Shard}}; shard {{.S.Run.Shard}}{{end}}.</p>
<h2>Results</h2>
<table>
<tr><th>outcome</th><th>games</th><th>rate [95% interval]</th></tr>
{{range .S.Seats}}<tr><td>{{.Seat}} wins</td><td class="n">{{.Wins.Count}}</td><td class="n">{{rate .Wins}}</td></tr>
{{end}}{{if .S.Shared}}<tr><td>first place shared</td><td class="n">{{.S.Shared}}</td><td></td></tr>
{{end}}<tr><td>draws</td><td class="n">{{.S.Draws}}</td><td class="n">{{rate .S.DrawRate}}</td></tr>
{{range .DrawReasons}}<tr><td>&nbsp;&nbsp;by {{.Reason}}</td><td class="n">{{.Rate.Count}}</td><td class="n">{{rate .Rate}}</td></tr>
{{end}}</table>
<p>The first player ({{.S.FirstPlayer.Seat}}) scores {{rate .S.FirstPlayer.Score}}: an edge of
{{pct .S.FirstPlayer.Edge}} points [{{pct .S.FirstPlayer.Lo}}, {{pct .S.FirstPlayer.Hi}}] over a fair share.</p>
{{if .S.ByPlayer}}<table><tr><th>engine</th><th>games</th><th>wins</th><th>shared</th><th>losses</th><th>score [95% interval]</th></tr>
{{range .S.ByPlayer}}<tr><td>{{.Name}}</td><td class="n">{{.Games}}</td><td class="n">{{.Wins}}</td><td class="n">{{.Shared}}</td><td class="n">{{.Losses}}</td><td class="n">{{rate .Score}}</td></tr>
{{end}}</table>{{end}}
<h2>How games are won</h2>
{{if .S.Arc.Games}}<p>In the {{.S.Arc.Games}} games with one winner, the winner's own searches saw it behind
by more than half a piece {{pct .S.Arc.Drama}}% of the time on average (drama; within half a piece is level); {{rate .S.Arc.Comebacks}} of them were comebacks from
two pieces or more behind. The winner's lead became lasting (two pieces or more at every later search) after
{{pct .S.Arc.DecidedAt.Mean}}% of the game on average (median {{pct .S.Arc.DecidedAt.Median}}%): the rest was
the decided part. {{.DramaNote}}</p>{{end}}
{{if .Signals}}<table><tr><th>the player who…</th><th>games</th><th>won [95% interval]</th></tr>
{{range .Signals}}<tr><td>{{.Reason}}</td><td class="n">{{.Rate.Of}}</td><td class="n">{{rate .Rate}}</td></tr>
{{end}}</table><p>Out of the games with one winner where the event names a player; a fair share is {{pct .Fair}}%.</p>{{end}}
<h2>Shape of the games</h2>
<table>
<tr><th>per game</th><th>mean</th><th>median</th><th>quartiles</th><th>range</th></tr>
<tr><td>plies</td><td class="n">{{num .S.Plies.Mean}}</td><td class="n">{{.S.Plies.Median}}</td><td class="n">{{.S.Plies.Q1}} to {{.S.Plies.Q3}}</td><td class="n">{{.S.Plies.Min}} to {{.S.Plies.Max}}</td></tr>
<tr><td>real decisions (more than one legal move)</td><td class="n">{{num .S.Decisions.Mean}}</td><td class="n">{{.S.Decisions.Median}}</td><td class="n">{{.S.Decisions.Q1}} to {{.S.Decisions.Q3}}</td><td class="n">{{.S.Decisions.Min}} to {{.S.Decisions.Max}}</td></tr>
</table>
<p>{{num .S.Branching.Mean}} legal moves per position on average ({{.BranchingNote}}); {{pct .S.DecisionShare}}% of positions offer a real choice.</p>
<table><tr><th>what the moves did, per game</th><th>mean</th></tr>
{{range .PerGame}}<tr><td>{{.Name}}</td><td class="n">{{num .Mean}}</td></tr>
{{end}}</table>
<h2>Measures of Ludii and Browne</h2>
<p>Over the {{.S.Distinct}} distinct games; docs/lab/README.md gives each definition and its source.{{if .S.Measures.Evaluated}}
The measures marked (static) judge positions by the game's own static evaluation, the one the engines apply at the
leaves of their searches, one ply deep.{{end}}</p>
<table><tr><th>measure</th><th>value</th><th>what it is</th></tr>
{{range .Measures}}<tr><td>{{.Name}}</td><td class="n">{{.Value}}</td><td>{{.Definition}}</td></tr>
{{end}}</table>
<h2>Plots</h2>
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}
<p>Files beside this page: games.pdn (every game), summary.json, games.csv, plies.csv.</p>
</body></html>
`))

// How the lab's drama, lead changes and branching differ from the
// measures of Ludii's that share their names: the report, lab compare
// and docs/lab/README.md say so beside them.
const (
	DramaNote = "Drama here is how often the winner was behind; Ludii's Drama is by how much (the best player's " +
		"state evaluation less the winner's, averaged over the positions), a severity, not a frequency."
	LeadChangeNote = "counted per game, where Ludii's LeadChange is the share of a game's moves at which the leader " +
		"by its state evaluation changes, with no level zone"
	BranchingNote = "pooled over every position of every game, so that long games weigh more; Ludii's BranchingFactor " +
		"takes each game's mean, then the mean over the games"
)

// perGameNames explain the per-game counts, in the order the page lists
// them.
var perGameNames = []struct{ key, text string }{
	{"captures", "captures (moves that took by jumping or leaping)"},
	{"taken", "pieces taken"},
	{"chains", "chains (captures of more than one leg)"},
	{"leaps", "leaps (legs that took more than one cell)"},
	{"promotions", "promotions"},
	{"drops", "drops"},
	{"sandwiches", "sandwiches (cells taken with no leg over them)"},
	{"takeovers", "takeovers (landing on another player's stack)"},
	{"scoreChanges", "moves that changed a score"},
	{"leadChanges", "lead changes in the engines' evaluation (within half a piece is level; " + LeadChangeNote + ")"},
}

// Report writes report.html: one page with no outside reference, its
// plots inline SVG.
func (a *Analysis) Report() ([]byte, error) {
	figs, err := a.plots()
	if err != nil {
		return nil, err
	}
	s := a.Summary
	type reason struct {
		Reason string
		Rate   Rate
	}
	type count struct {
		Name string
		Mean float64
	}
	data := struct {
		S           *Summary
		Options     string
		Limits      string
		DrawReasons []reason
		PerGame     []count
		Measures    []measureRow
		Signals     []reason
		Fair        float64
		Figures     []figure
		Builds      string
		Signatures  string
		Command     []string
		Distinct    string
		DramaNote   string
		// BranchingNote says how the mean branching differs from Ludii's.
		BranchingNote string
	}{Distinct: plural(s.Distinct, "distinct game"), DramaNote: DramaNote, BranchingNote: BranchingNote, S: s, Options: optionsText(s.Options), Limits: limitsText(s.Run), Figures: figs, Fair: 1 / float64(len(s.Seats)),
		Builds: buildsText(s.Run.Builds), Signatures: signaturesText(s), Command: commandParts(s.Run)}
	for _, kind := range slices.Sorted(maps.Keys(s.Signals)) {
		data.Signals = append(data.Signals, reason{signalText(kind), s.Signals[kind]})
	}
	for _, why := range slices.Sorted(maps.Keys(s.DrawsBy)) {
		data.DrawReasons = append(data.DrawReasons, reason{why, s.DrawsBy[why]})
	}
	has := features(a.Game)
	for _, n := range perGameNames {
		if has[n.key] || s.PerGame[n.key] != 0 { // a count the rules cannot make is left out, unless it was made
			data.PerGame = append(data.PerGame, count{n.text, s.PerGame[n.key]})
		}
	}
	data.Measures = measureTable(&s.Measures)
	var b bytes.Buffer
	if err := reportPage.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// CommandText writes the command that plays the run m describes, as far
// as its manifest says: the options that differ from the game's
// defaults, and placeholders for what it does not keep (the folder, the
// book's and the tables' files).
func CommandText(m Manifest) string { return strings.Join(commandParts(m), " ") }

// commandParts are CommandText's words, each flag with its value (the
// report keeps each on one line).
func commandParts(m Manifest) []string {
	parts := []string{"arbiter lab", m.Game}
	defaults := withDefaults(m.Game, nil)
	for _, k := range slices.Sorted(maps.Keys(m.Options)) {
		if v := m.Options[k]; v != defaults[k] {
			parts = append(parts, "-o "+k+"="+v)
		}
	}
	for _, p := range m.Players {
		parts = append(parts, "--player "+shellWord(p))
	}
	parts = append(parts, fmt.Sprintf("--games %d", m.Games))
	if m.MoveTime != "" && m.MoveTime != "0s" {
		parts = append(parts, "--movetime "+m.MoveTime)
	}
	if m.Depth > 0 {
		parts = append(parts, fmt.Sprintf("--depth %d", m.Depth))
	}
	if m.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("--nodes %d", m.Nodes))
	}
	parts = append(parts, fmt.Sprintf("--seed %d", m.Seed), fmt.Sprintf("--opening %d", m.Opening))
	if m.From != "" {
		parts = append(parts, "--from "+shellWord(m.From))
	}
	if m.Book != "" {
		parts = append(parts, "--openings BOOK", "("+bookText(m.Book)+")")
	}
	if m.Tables != "" {
		parts = append(parts, "--tables DIR")
	}
	if m.Shard != "" {
		parts = append(parts, "--shard "+m.Shard)
	}
	if m.Label != "" {
		parts = append(parts, "--label "+shellWord(m.Label))
	}
	return append(parts, "--out DIR")
}

// shellWord quotes w for a shell when it holds anything but plain
// characters.
func shellWord(w string) string {
	if w != "" && !strings.ContainsFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:=,/+", r))
	}) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// limitsText writes a run's search limits as the command line gives them.
func limitsText(m Manifest) string {
	var parts []string
	if m.MoveTime != "" && m.MoveTime != "0s" {
		parts = append(parts, "movetime "+m.MoveTime)
	}
	if m.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", m.Depth))
	}
	if m.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", m.Nodes))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// signalText words a signal for the report: "first capture" becomes
// "captured first".
func signalText(kind string) string {
	words := map[string]string{
		"first capture": "captured first", "most captures": "captured most often",
		"first takeover": "took over a pile first", "most takeovers": "took over piles most often",
		"first score": "scored first", "most scores": "scored most often",
		"first promotion": "promoted first", "most promotions": "promoted most often",
		"ahead at half-time": "was ahead at half-time (score, else pieces)",
	}
	if w, ok := words[kind]; ok {
		return w
	}
	return kind
}
