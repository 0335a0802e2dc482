package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/i18n"
)

// The browser test of the pages' languages (issue 38, section 4): a
// reader whose browser asks for Dutch gets the home page, the lobby, a
// game and the account page in Dutch, no English word of the catalogs
// shown, every page axe-clean at both sizes and nothing wider than a
// phone; their choice of English in the Display menu holds over the
// browser's Dutch from then on, and the account page's choice of Dutch
// brings it back; dates are written the Dutch way.
func TestBrowserLanguages(t *testing.T) {
	b := newBrowser(t)
	r := &accountsRun{b: b}
	dirk := &person{name: "dirk", password: "molens-draaien-langzaam"}
	b.newPerson(t, dirk)
	askLanguage(t, dirk.ctx, "nl")
	r.signUp(t, dirk)
	english := englishWords(t)

	// Someone else's seek, so that the lobby lists one.
	eva := r.apiPerson(t, "eva", "tulpen-bloeien-vroeg", true)
	eva.call("POST", "/api/seeks", map[string]any{"game": "pommel", "rated": false, "clock": map[string]int{"days": 1}}, http.StatusCreated, nil)

	// A game going on, one move played, and one Black won by White's
	// resignation.
	playing := b.ts.twoHumans()
	if code, body := b.ts.do("POST", "/api/games/"+playing.ID+"/moves", playing.Seats[0].Token, map[string]any{"move": playing.Game.Legal[0], "ply": 0}); code != http.StatusOK {
		t.Fatalf("a move: %d %s", code, body)
	}
	ended := b.ts.twoHumans()
	if code, body := b.ts.do("POST", "/api/games/"+ended.ID+"/resign", ended.Seats[0].Token, nil); code != http.StatusOK {
		t.Fatalf("resigning: %d %s", code, body)
	}

	pages := []struct{ name, path, ready, want, show string }{
		{"home", "/", `!!document.querySelector(".lobby ul.seeks li.seek") && !!document.querySelector(".game-cards li .tagline")`, "Speel spellen uit de damfamilie",
			`document.querySelector(".menu-toggle").click(); document.querySelector("header details.looks").open = true`},
		{"game", "/games/" + playing.ID, `document.querySelectorAll(".moves button.move").length === 1`, "Wacht tot de speler van Zwart de partij opent", ""},
		{"game-end", "/games/" + ended.ID, `!!document.querySelector(".end .end-reason")?.textContent`, "Zwart wint: Wit heeft opgegeven", ""},
		{"account", "/account", `!!document.querySelector("#language select.language-select") && !document.querySelector(".passkeys .loading")`, "Je account",
			`document.querySelector("#language").scrollIntoView({ block: "center" })`},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			lookAtIn(t, dirk, "nl", b.url(p.path), "i18n-nl-"+p.name, p.ready+` && document.documentElement.lang === "nl"`, p.show, func(t *testing.T, ctx context.Context) {
				if text := poll[string](t, ctx, "the page's text", `document.body.innerText`); !strings.Contains(text, p.want) {
					t.Errorf("%s in Dutch does not say %q:\n%s", p.name, p.want, text)
				}
				if left := englishShown(t, ctx, english); len(left) > 0 {
					t.Errorf("%s in Dutch shows English words of the catalog: %q", p.name, left)
				}
			})
		})
	}

	t.Run("a choice beats Accept-Language", func(t *testing.T) { chooseLanguages(t, b, dirk) })
	t.Run("dates the Dutch way", func(t *testing.T) { dutchDates(t, b, dirk) })
}

// askLanguage has ctx's tab ask for lang in its Accept-Language, as a
// browser set to that language does.
func askLanguage(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	ua, err := chromedp.Run(ctx, chromedp.Evaluate[string]("navigator.userAgent"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: lang}); err != nil {
		t.Fatal(err)
	}
}

// lookAtIn is lookAt in tabs asking for lang: axe-core at both sizes,
// light and dark, nothing wider than the window, the pictures with
// -screenshots (after show, a script that brings the part to see), and
// check run in each tab once ready holds.
func lookAtIn(t *testing.T, p *person, lang, url, name, ready, show string, check func(*testing.T, context.Context)) {
	t.Helper()
	_, haveAxe := readAxe(t)
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			ctx := personTab(t, p, size, scheme, phoneScale())
			askLanguage(t, ctx, lang)
			run(t, ctx, chromedp.Navigate(url))
			poll[bool](t, ctx, name+" drawn", ready)
			if scheme == "light" {
				check(t, ctx)
				wide := poll[string](t, ctx, "the widest element", `(() => {
					const w = document.documentElement.clientWidth;
					const over = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1 && e.checkVisibility());
					return JSON.stringify({ page: document.documentElement.scrollWidth - w, over: over.slice(0, 3).map((e) => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 40)) });
				})()`)
				var got struct {
					Page int      `json:"page"`
					Over []string `json:"over"`
				}
				if err := json.Unmarshal([]byte(wide), &got); err != nil {
					t.Fatal(err)
				}
				if got.Page > 0 || len(got.Over) > 0 {
					t.Errorf("%s at %s overflows by %d px: %q", name, size.name, got.Page, got.Over)
				}
			}
			if haveAxe {
				checkAxeIn(t, ctx, scheme, name+"-"+size.name+"-"+scheme)
			}
			if *screenshotDir != "" && show != "" {
				run(t, ctx, script(show))
			}
			viewShot(t, ctx, strings.Join([]string{name, size.name, scheme}, "-"))
		}
	}
}

// englishWords are the English catalog's words that the Dutch one does
// not share, each a piece of a message between its placeholders of
// four letters or more that no Dutch message holds ("Analyse" is Dutch
// too, "arbiter" the site's name): a Dutch page must show none of them.
// The languages' names are each in its own language on every page.
func englishWords(t *testing.T) []string {
	t.Helper()
	langs, err := siteCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	en, nl := langs.Messages(i18n.Default), langs.Messages("nl")
	placeholder := regexp.MustCompile(`\{\{[^}]*\}\}`)
	letters := regexp.MustCompile(`\p{L}`)
	var dutch []string
	for _, forms := range nl {
		for _, text := range forms {
			dutch = append(dutch, text)
		}
	}
	var out []string
	for id, forms := range en {
		for form, text := range forms {
			if nl[id][form] == text || id == i18n.NameID {
				continue
			}
			for _, piece := range placeholder.Split(text, -1) {
				piece = strings.Trim(piece, " ,.;:!?()“”'")
				if len(letters.FindAllString(piece, -1)) >= 4 && !slices.Contains(out, piece) && !wordIn(piece, strings.Join(dutch, "\n")) {
					out = append(out, piece)
				}
			}
		}
	}
	return out
}

// wordIn reports whether text holds words as words (not inside others).
func wordIn(words, text string) bool {
	return regexp.MustCompile(`(^|[^\p{L}])` + regexp.QuoteMeta(words) + `($|[^\p{L}])`).MatchString(text)
}

// englishShown are the words of english the page shows: in its visible
// text, or in the names and titles of its visible elements, less the
// games' names, which stay as they are in every language.
func englishShown(t *testing.T, ctx context.Context, english []string) []string {
	t.Helper()
	shown := poll[string](t, ctx, "what the page shows", `(() => {
		const attrs = [...document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")].filter((e) => e.checkVisibility())
			.flatMap((e) => ["aria-label", "title", "placeholder", "alt"].map((a) => e.getAttribute(a) ?? ""));
		return [document.body.innerText, document.title, ...attrs].join("\n");
	})()`)
	var names []string
	for _, d := range game.All() {
		names = append(names, d.Name)
	}
	// The longest first: "Punt-Heks-Match (3 players)" before
	// "Punt-Heks-Match".
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	for _, name := range names {
		shown = strings.ReplaceAll(shown, name, "")
	}
	var left []string
	for _, w := range english {
		if wordIn(w, shown) {
			left = append(left, w)
		}
	}
	return left
}

// chooseLanguages: a Dutch browser's reader picks English in the Display
// menu; the page comes back in English, and so does every page after,
// the browser still asking for Dutch; the account page's choice of
// Dutch brings it back.
func chooseLanguages(t *testing.T, b *browser, p *person) {
	ctx := personTab(t, p, screenSizes[0], "light", 1)
	askLanguage(t, ctx, "nl")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the home page in Dutch", `document.documentElement.lang === "nl" && document.querySelector("header h1")?.textContent === "Speel spellen uit de damfamilie"`)
	click(t, ctx, `header details.looks > summary`)
	options := poll[string](t, ctx, "the languages offered", `[...document.querySelectorAll("header select.language-select option")].map((o) => o.value + "=" + o.textContent).join(",")`)
	if options != "en=English,nl=Nederlands" {
		t.Errorf("the Display menu offers %q, want English and Nederlands, each named in itself", options)
	}
	pick(t, ctx, "header select.language-select", "en")
	poll[bool](t, ctx, "the home page in English", `document.documentElement.lang === "en" && document.querySelector("header h1")?.textContent === "Play checkers-family games"`)
	run(t, ctx, chromedp.Navigate(b.url("/account")))
	poll[bool](t, ctx, "the account page in English", `document.documentElement.lang === "en" && document.querySelector("header h1")?.textContent === "Your account"`)
	if got := poll[string](t, ctx, "the account's choice", `document.querySelector("#language select.language-select")?.value`); got != "en" {
		t.Errorf("the account page's language shows %q, want en", got)
	}
	pick(t, ctx, "#language select.language-select", "nl")
	poll[bool](t, ctx, "the account page in Dutch", `document.documentElement.lang === "nl" && document.querySelector("header h1")?.textContent === "Je account"`)
	// The rules stay English, the page saying so in Dutch.
	run(t, ctx, chromedp.Navigate(b.url("/rules/eximo")))
	notice := poll[string](t, ctx, "the rules page", `document.documentElement.lang === "nl" && document.querySelector("article.rules")?.lang === "en" && document.querySelector(".in-english")?.textContent`)
	if notice != "De spelregels zijn alleen in het Engels beschikbaar." {
		t.Errorf("the Dutch rules page says %q", notice)
	}
	// A browser that asks for English gets Dutch too, once it chose it.
	askLanguage(t, ctx, "en-US,en")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the choice over an English browser", `document.documentElement.lang === "nl"`)
}

// pick chooses value in the select sel finds, as a person does.
func pick(t *testing.T, ctx context.Context, sel, value string) {
	t.Helper()
	run(t, ctx, script(fmt.Sprintf(`const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event("change", { bubbles: true }))`, sel, value)))
}

// dutchDates: the profile's date is the Dutch way of writing it, not the
// browser's own (Chromium's is American English here).
func dutchDates(t *testing.T, b *browser, p *person) {
	ctx := personTab(t, p, screenSizes[1], "light", 1)
	askLanguage(t, ctx, "nl")
	run(t, ctx, chromedp.Navigate(b.url("/@/"+p.name)))
	got := poll[string](t, ctx, "the profile's date", `document.querySelector(".since")?.textContent`)
	var dates struct{ NL, EN string }
	raw := poll[string](t, ctx, "the date both ways", `fetch("/api/users/`+p.name+`").then((r) => r.json()).then((u) => {
		const opts = { year: "numeric", month: "short", day: "numeric" };
		return JSON.stringify({ NL: new Date(u.created).toLocaleDateString("nl", opts), EN: new Date(u.created).toLocaleDateString(undefined, opts) });
	})`)
	if err := json.Unmarshal([]byte(raw), &dates); err != nil {
		t.Fatal(err)
	}
	if got != "Lid sinds "+dates.NL || dates.NL == dates.EN {
		t.Errorf("the profile says %q, want %q (the browser's own way: %q)", got, "Lid sinds "+dates.NL, dates.EN)
	}
}
