// Package i18n is the site's languages: the message catalogs (one TOML
// file a language, web/i18n, in go-i18n's format), loaded into a go-i18n
// bundle for the pages the server writes, and written out as a small
// script for the client, which reads the same messages (web/src/i18n.ts).
// A language is its file: the list of languages is the list of files, so
// that adding one is adding a file.
//
// A message's text is a Go template of the simplest kind: {{.Name}}
// stands for an argument, and nothing else is allowed, so that the
// client, which does not run Go's templates, fills them in the same way.
// A message with a count has the plural forms its language needs (CLDR's:
// one and other in English and Dutch), its count as {{.Count}}.
package i18n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Default is the language of a page whose reader's languages the site has
// none of, and the one every catalog is checked against.
const Default = "en"

// Cookie is the cookie that remembers a reader's choice of language; it
// beats the browser's Accept-Language once set.
const Cookie = "lang"

// NameID is the message each catalog names its language by, in the
// language itself ("Nederlands"), for the language switch.
const NameID = "language.name"

// Language is one catalog's language: its tag and its name in itself.
type Language struct {
	Tag  string `json:"tag"`
	Name string `json:"name"`
}

// Forms are one message's texts: "other" alone for a plain message, each
// plural form's for a message with a count.
type Forms map[string]string

// Catalogs are the loaded catalogs, read-only once made.
type Catalogs struct {
	bundle  *goi18n.Bundle
	langs   []Language // Default first, then by tag
	tags    []language.Tag
	matcher language.Matcher
	// messages are each language's messages by id.
	messages map[string]map[string]Forms
}

// Load reads every *.toml file at the root of fsys, each named by its
// language's tag (en.toml, nl.toml); the Default's is required.
func Load(fsys fs.FS) (*Catalogs, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("i18n: %w", err)
	}
	// The Default first: it is the bundle's fallback and the matcher's
	// answer when nothing matches.
	sort.SliceStable(names, func(i, j int) bool { return tagOf(names[i]) == Default && tagOf(names[j]) != Default })
	c := &Catalogs{bundle: goi18n.NewBundle(language.MustParse(Default)), messages: map[string]map[string]Forms{}}
	unmarshal := map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("i18n: %w", err)
		}
		file, err := goi18n.ParseMessageFileBytes(data, name, unmarshal)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		tag := tagOf(name)
		if file.Tag.String() != tag {
			return nil, fmt.Errorf("i18n: %s: %q is not a language tag in its canonical form (%s)", name, tag, file.Tag)
		}
		if err := c.bundle.AddMessages(file.Tag, file.Messages...); err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		byID := map[string]Forms{}
		for _, m := range file.Messages {
			byID[m.ID] = formsOf(m)
		}
		c.messages[tag] = byID
		c.langs = append(c.langs, Language{Tag: tag, Name: byID[NameID]["other"]})
		c.tags = append(c.tags, file.Tag)
	}
	if len(c.langs) == 0 || c.langs[0].Tag != Default {
		return nil, fmt.Errorf("i18n: no catalog %s.toml", Default)
	}
	c.matcher = language.NewMatcher(c.tags)
	return c, nil
}

// tagOf is a catalog file's language: its name without the extension.
func tagOf(name string) string { return strings.TrimSuffix(path.Base(name), path.Ext(name)) }

func formsOf(m *goi18n.Message) Forms {
	f := Forms{}
	for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if text != "" {
			f[form] = text
		}
	}
	return f
}

// Languages are the catalogs' languages, the Default first.
func (c *Catalogs) Languages() []Language { return slices.Clone(c.langs) }

// Has reports whether tag is one of the catalogs' languages.
func (c *Catalogs) Has(tag string) bool {
	return slices.ContainsFunc(c.langs, func(l Language) bool { return l.Tag == tag })
}

// Choose is the language of a page: the one the cookie names, when it is
// one of ours (a choice made beats the browser's), else the best of ours
// for the Accept-Language header, else the Default.
func (c *Catalogs) Choose(cookie, acceptLanguage string) string {
	if c.Has(cookie) {
		return cookie
	}
	wanted, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(wanted) == 0 {
		return Default
	}
	_, i, confidence := c.matcher.Match(wanted...)
	if confidence == language.No {
		return Default
	}
	return c.langs[i].Tag
}

// Messages are tag's messages by id (nil for a language it has not).
func (c *Catalogs) Messages(tag string) map[string]Forms { return c.messages[tag] }

// ClientScript is the script that gives the client its language's
// catalog: the page's language, the languages to choose from and the
// messages, as a global the bundle reads (web/src/i18n.ts). It is a file
// of its own, one a language, so that a page loads its language's alone
// and a browser keeps it (server/assets.go).
func (c *Catalogs) ClientScript(tag string) ([]byte, error) {
	msgs := map[string]any{}
	for id, f := range c.messages[tag] {
		if len(f) == 1 && f["other"] != "" {
			msgs[id] = f["other"]
		} else {
			msgs[id] = f
		}
	}
	data, err := json.Marshal(map[string]any{"lang": tag, "languages": c.langs, "messages": msgs})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("self.arbiterI18n=")
	b.Write(data)
	b.WriteString(";\n")
	return b.Bytes(), nil
}

// Localizer is one language's messages, as the server writes them.
type Localizer struct {
	tag string
	l   *goi18n.Localizer
}

// Localizer is tag's (the Default's for a language it has not).
func (c *Catalogs) Localizer(tag string) *Localizer {
	if !c.Has(tag) {
		tag = Default
	}
	return &Localizer{tag: tag, l: goi18n.NewLocalizer(c.bundle, tag)}
}

// Lang is the localizer's language.
func (l *Localizer) Lang() string { return l.tag }

// T is the message id with its arguments, given as name and value in
// turn (T("rules.title", "Game", "Pommel")); a message no catalog has is
// its id, which the catalogs' test rules out.
func (l *Localizer) T(id string, args ...string) string {
	return l.localize(id, nil, args)
}

// N is T of a message with a count: the plural form count takes in the
// language, count being its {{.Count}}.
func (l *Localizer) N(id string, count int, args ...string) string {
	return l.localize(id, count, append([]string{"Count", fmt.Sprint(count)}, args...))
}

func (l *Localizer) localize(id string, count any, args []string) string {
	data := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		data[args[i]] = args[i+1]
	}
	text, err := l.l.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && text == "" {
		return id
	}
	return text
}

// placeholder is the one template action a message may hold.
var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)

// Placeholders are the names a text's {{.Name}} stand for, sorted, and
// whether the text holds any other template action (which the client
// could not fill in).
func Placeholders(text string) (names []string, other bool) {
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	sort.Strings(names)
	rest := placeholder.ReplaceAllString(text, "")
	return names, strings.Contains(rest, "{{") || strings.Contains(rest, "}}")
}

// PluralForms are the plural forms tag's whole numbers take, by go-i18n's
// (CLDR's) rules, and "other": what a message with a count needs in that
// language.
func (c *Catalogs) PluralForms(tag string) []string {
	all := []string{"zero", "one", "two", "few", "many", "other"}
	probe := &goi18n.Message{ID: "plural.probe", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	b := goi18n.NewBundle(language.MustParse(Default))
	b.MustAddMessages(language.MustParse(tag), probe)
	l := goi18n.NewLocalizer(b, tag)
	seen := map[string]bool{}
	for n := range 1_000_001 {
		if n > 1000 && n%1000 != 0 {
			continue
		}
		form, err := l.Localize(&goi18n.LocalizeConfig{MessageID: probe.ID, PluralCount: n})
		if err == nil {
			seen[form] = true
		}
	}
	// "other" always: it is what go-i18n and the client fall back on, and
	// some languages keep it for fractions alone (Polish).
	seen["other"] = true
	var forms []string
	for _, f := range all {
		if seen[f] {
			forms = append(forms, f)
		}
	}
	return forms
}

// Problems are what is wrong with the catalogs, each a sentence: a
// language without the Default's ids or with ids the Default has not, a
// message whose placeholders differ from the Default's, a template action
// other than {{.Name}}, a message with a count that lacks a plural form
// its language needs, or a language with no name. None is the catalogs'
// test's condition.
func (c *Catalogs) Problems() []string {
	var out []string
	base := c.messages[Default]
	for _, lang := range c.langs {
		msgs := c.messages[lang.Tag]
		if lang.Name == "" {
			out = append(out, fmt.Sprintf("%s: no %s, the language's name in itself", lang.Tag, NameID))
		}
		forms := c.PluralForms(lang.Tag)
		for _, id := range sortedIDs(base) {
			f, ok := msgs[id]
			if !ok {
				out = append(out, fmt.Sprintf("%s: no message %s", lang.Tag, id))
				continue
			}
			out = append(out, compare(lang.Tag, id, base[id], f, forms)...)
		}
		for _, id := range sortedIDs(msgs) {
			if _, ok := base[id]; !ok {
				out = append(out, fmt.Sprintf("%s: message %s is not in %s.toml", lang.Tag, id, Default))
			}
		}
	}
	return out
}

// compare checks one message of lang against the Default's.
func compare(lang, id string, base, f Forms, forms []string) []string {
	var out []string
	want, _ := allPlaceholders(base)
	got, other := allPlaceholders(f)
	if other {
		out = append(out, fmt.Sprintf("%s: %s holds a template action other than {{.Name}}", lang, id))
	}
	if !slices.Equal(want, got) {
		out = append(out, fmt.Sprintf("%s: %s has the placeholders %v, %s.toml %v", lang, id, got, Default, want))
	}
	plural := len(base) > 1 || base["other"] == ""
	if !plural {
		if len(f) != 1 || f["other"] == "" {
			out = append(out, fmt.Sprintf("%s: %s is a plain message in %s.toml, not one with plural forms", lang, id, Default))
		}
		return out
	}
	for _, form := range forms {
		if f[form] == "" {
			out = append(out, fmt.Sprintf("%s: %s has no plural form %q, which %s needs", lang, id, form, lang))
		}
	}
	return out
}

func allPlaceholders(f Forms) (names []string, other bool) {
	for _, text := range f {
		n, o := Placeholders(text)
		other = other || o
		for _, name := range n {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	return names, other
}

func sortedIDs(m map[string]Forms) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
