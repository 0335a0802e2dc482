package i18n

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/arbiter-games/arbiter/web"
)

// site is the catalogs the binary embeds.
func site(t *testing.T) *Catalogs {
	t.Helper()
	c, err := Load(web.Catalogs())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSiteCatalogsAreComplete: every language of web/i18n has every
// message of en.toml and no other, with the same placeholders, the plural
// forms its language needs, and its own name; English and Dutch are
// there.
func TestSiteCatalogsAreComplete(t *testing.T) {
	c := site(t)
	for _, p := range c.Problems() {
		t.Error(p)
	}
	var tags []string
	for _, l := range c.Languages() {
		tags = append(tags, l.Tag)
	}
	if !slices.Equal(tags[:2], []string{"en", "nl"}) {
		t.Errorf("languages %v, want en and nl first", tags)
	}
	if n := len(c.Messages("nl")); n < 100 {
		t.Errorf("nl has %d messages", n)
	}
}

// catalog is a TOML catalog of the given lines.
func catalog(lines ...string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(strings.Join(lines, "\n") + "\n")}
}

// threeLanguages are catalogs of en, nl and a third language, de, made
// of the lines given: a language is a file and nothing else.
func threeLanguages(t *testing.T, de ...string) *Catalogs {
	t.Helper()
	fsys := fstest.MapFS{
		"en.toml": catalog(`language.name = "English"`, `game.resign = "Resign"`, `game.played = "{{.Seat}} played {{.Move}}."`,
			`lobby.games = { one = "{{.Count}} game", other = "{{.Count}} games" }`),
		"nl.toml": catalog(`language.name = "Nederlands"`, `game.resign = "Opgeven"`, `game.played = "{{.Seat}} speelde {{.Move}}."`,
			`lobby.games = { one = "{{.Count}} partij", other = "{{.Count}} partijen" }`),
		"de.toml": catalog(de...),
	}
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAThirdLanguageIsOneFile: a catalog file is a language, listed for
// the switch under its own name and chosen for its readers; one that
// lacks a message, has another's, changes a placeholder, holds another
// template action or lacks a plural form is a problem, named.
func TestAThirdLanguageIsOneFile(t *testing.T) {
	complete := []string{`language.name = "Deutsch"`, `game.resign = "Aufgeben"`, `game.played = "{{.Seat}} zog {{.Move}}."`,
		`lobby.games = { one = "{{.Count}} Partie", other = "{{.Count}} Partien" }`}
	c := threeLanguages(t, complete...)
	if p := c.Problems(); len(p) > 0 {
		t.Errorf("a complete third language has problems: %v", p)
	}
	if got := c.Languages(); len(got) != 3 || got[0] != (Language{"en", "English"}) || got[1] != (Language{"de", "Deutsch"}) {
		t.Errorf("languages %v, want English first, then by tag", got)
	}
	if got := c.Choose("", "de-CH,de;q=0.9,en;q=0.5"); got != "de" {
		t.Errorf("a Swiss German reader gets %q, want de", got)
	}
	if got := c.Localizer("de").N("lobby.games", 2); got != "2 Partien" {
		t.Errorf("de: %q", got)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"a message missing", complete[:2], "de: no message game.played"},
		{"a message of its own", append(slices.Clone(complete), `game.extra = "Extra"`), "de: message game.extra is not in en.toml"},
		{"a placeholder renamed", []string{complete[0], complete[1], `game.played = "{{.Sitz}} zog {{.Move}}."`, complete[3]},
			"de: game.played has the placeholders [Move Sitz], en.toml [Move Seat]"},
		{"another template action", []string{complete[0], complete[1], `game.played = "{{.Seat}} zog {{.Move | upper}}."`, complete[3]},
			"holds a template action other than"},
		{"a plural form missing", []string{complete[0], complete[1], complete[2], `lobby.games = { other = "{{.Count}} Partien" }`},
			`de: lobby.games has no plural form "one"`},
		{"a plural message made plain", []string{complete[0], complete[1], complete[2], `lobby.games = "{{.Count}} Partien"`},
			`de: lobby.games has no plural form "one"`},
		{"no name", complete[1:], "de: no language.name"},
	} {
		problems := strings.Join(threeLanguages(t, tc.lines...).Problems(), "\n")
		if !strings.Contains(problems, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.name, problems, tc.want)
		}
	}
}

// TestPluralForms are CLDR's forms of whole numbers, by go-i18n's rules.
func TestPluralForms(t *testing.T) {
	c := site(t)
	for tag, want := range map[string][]string{"en": {"one", "other"}, "nl": {"one", "other"},
		"pl": {"one", "few", "many", "other"}, "ja": {"other"}, "ar": {"zero", "one", "two", "few", "many", "other"}} {
		if got := c.PluralForms(tag); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tag, got, want)
		}
	}
}

// TestChoose: the cookie's language once chosen, whatever the browser
// says; else the best match of Accept-Language; else English.
func TestChoose(t *testing.T) {
	c := site(t)
	for _, tc := range []struct{ cookie, accept, want string }{
		{"", "", "en"},
		{"", "nl", "nl"},
		{"", "nl-BE,nl;q=0.9,en;q=0.8", "nl"},
		{"", "en-US,en;q=0.9", "en"},
		{"", "de-DE,de;q=0.9", "en"},
		{"", "fr,nl;q=0.5", "nl"},
		{"", "*", "en"},
		{"", "garbage;;q=x", "en"},
		{"en", "nl", "en"},
		{"nl", "en-US", "nl"},
		{"nl", "", "nl"},
		{"xx", "nl", "nl"},
		{"NL", "", "en"},
		{"", strings.Repeat("nl,", 2000), "nl"},
	} {
		if got := c.Choose(tc.cookie, tc.accept); got != tc.want {
			t.Errorf("Choose(cookie %q, Accept-Language %.40q) = %q, want %q", tc.cookie, tc.accept, got, tc.want)
		}
	}
}

// TestLocalizer: arguments fill their placeholders, a count picks its
// plural form, a language the site has not is English, and a message no
// catalog has is its id.
func TestLocalizer(t *testing.T) {
	c := threeLanguages(t, `language.name = "Deutsch"`)
	nl := c.Localizer("nl")
	if got := nl.T("game.played", "Seat", "Wit", "Move", "a1-a2"); got != "Wit speelde a1-a2." {
		t.Errorf("nl T: %q", got)
	}
	for n, want := range map[int]string{0: "0 partijen", 1: "1 partij", 2: "2 partijen"} {
		if got := nl.N("lobby.games", n); got != want {
			t.Errorf("nl N(%d): %q, want %q", n, got, want)
		}
	}
	if got := c.Localizer("fr"); got.Lang() != "en" || got.T("game.resign") != "Resign" {
		t.Errorf("fr: %s %q", got.Lang(), got.T("game.resign"))
	}
	if got := c.Localizer("de").T("game.resign"); got != "Resign" {
		t.Errorf("de, without the message: %q, want English's", got)
	}
	if got := nl.T("no.such.id"); got != "no.such.id" {
		t.Errorf("a missing id: %q", got)
	}
}

// TestClientScript: the client's script sets the page's language, the
// languages and the messages, a plural one with its forms.
func TestClientScript(t *testing.T) {
	c := threeLanguages(t, `language.name = "Deutsch"`)
	script, err := c.ClientScript("nl")
	if err != nil {
		t.Fatal(err)
	}
	text, ok := strings.CutPrefix(string(script), "self.arbiterI18n=")
	if !ok || !strings.HasSuffix(text, ";\n") {
		t.Fatalf("script %.60q", script)
	}
	var got struct {
		Lang      string         `json:"lang"`
		Languages []Language     `json:"languages"`
		Messages  map[string]any `json:"messages"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(text, ";\n")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Lang != "nl" || len(got.Languages) != 3 || got.Messages["game.resign"] != "Opgeven" {
		t.Errorf("script: %+v", got)
	}
	if forms, ok := got.Messages["lobby.games"].(map[string]any); !ok || forms["one"] != "{{.Count}} partij" || forms["other"] != "{{.Count}} partijen" {
		t.Errorf("plural message: %v", got.Messages["lobby.games"])
	}
}

// TestLoadRefuses a catalog set without English, a file not named by a
// canonical tag, and a file that is not a catalog.
func TestLoadRefuses(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"no English":     {"nl.toml": catalog(`language.name = "Nederlands"`)},
		"a bad tag":      {"en.toml": catalog(`language.name = "English"`), "NL_nl.toml": catalog(`language.name = "x"`)},
		"not TOML":       {"en.toml": catalog(`language.name = `)},
		"mixed keys":     {"en.toml": catalog(`language.name = "English"`, `game = { other = "x", resign = "y" }`)},
		"nothing at all": {},
	} {
		if _, err := Load(fsys); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
