package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/notify/notifytest"
)

// TestBrowserNotifications: a person gives their address on the account
// page, follows the link mailed to it in the browser, and turns a kind
// of notification off; the section passes axe at both sizes, light and
// dark (pictures with -screenshots). Then, signed out, "Forgot your
// password?" on the sign-in page mails a link whose page sets a new
// password.
func TestBrowserNotifications(t *testing.T) {
	skipWithoutBrowser(t)
	mb := notifytest.NewMailbox(t)
	b := newBrowserWith(t, siteConfig{Notify: notifyConfig(t, mb)})
	r := &accountsRun{b: b}
	gia := &person{name: "gia", password: "seven-paper-boats-float"}
	b.newPerson(t, gia)
	r.signUp(t, gia)

	run(t, gia.ctx, chromedp.Navigate(b.url("/account#notify")), chromedp.WaitVisible(chromedp.CSS(`#notify table`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), "gia@example.org"),
		chromedp.Click(chromedp.CSS(`.notify-email button[type="submit"]`)))
	poll[bool](t, gia.ctx, "the address waiting", `document.querySelector("#email-state")?.textContent.includes("waits for you to follow the link")`)
	link := notifytest.LinkAfter(t, mb.Next(t).Body, publicURL+"/verify-email?token=")
	run(t, gia.ctx, chromedp.Navigate(b.url(strings.TrimPrefix(link, publicURL))))
	poll[bool](t, gia.ctx, "the address verified", `document.querySelector("main [role=status]")?.textContent === "gia@example.org is verified."`)

	run(t, gia.ctx, chromedp.Navigate(b.url("/account#notify")))
	email := `#notify input[data-kind="ended"][data-channel="email"]`
	poll[bool](t, gia.ctx, "the e-mail column usable", fmt.Sprintf(`document.querySelector(%q)?.disabled === false`, email))
	click(t, gia.ctx, `#notify input[data-kind="turn"][data-channel="push"]`)
	poll[bool](t, gia.ctx, "the choice saved", `document.querySelector("#prefs-status")?.textContent === "Saved."`)
	acc, err := b.ts.store.AccountByName(context.Background(), "gia")
	if err != nil {
		t.Fatal(err)
	}
	if prefs, err := b.ts.store.NotifyPrefs(context.Background(), acc.ID); err != nil || len(prefs) != 1 ||
		prefs[0].Kind != notify.KindTurn || prefs[0].Channel != notify.ChannelPush || prefs[0].On {
		t.Errorf("the stored choices %+v, %v: want the turn's push off", prefs, err)
	}
	lookAt(t, gia, b.url("/account#notify"), "notifications", `!!document.querySelector("#notify table") && !!document.querySelector("#email-state")`,
		`document.querySelector("#notify").scrollIntoView({ block: "start" })`)

	// Forgotten: from the sign-in page, signed out.
	run(t, gia.ctx, chromedp.Navigate(b.url("/account")))
	click(t, gia.ctx, `header details.me > summary`)
	click(t, gia.ctx, `header .me-panel button.log-out`)
	poll[bool](t, gia.ctx, "signed out", `location.pathname === "/"`)
	run(t, gia.ctx, chromedp.Navigate(b.url("/login")))
	click(t, gia.ctx, `a[href="/forgot"]`)
	run(t, gia.ctx, chromedp.WaitVisible(chromedp.CSS(`#who`)), chromedp.SendKeys(chromedp.CSS(`#who`), "gia@example.org"),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, gia.ctx, "the request's answer", `document.querySelector("#forgot-status")?.textContent.startsWith("If that account has a verified e-mail address")`)
	lookAt(t, gia, b.url("/forgot"), "forgot", `!!document.querySelector("#who")`, "")
	u, err := url.Parse(notifytest.LinkAfter(t, mb.Next(t).Body, publicURL+"/reset-password?token="))
	if err != nil {
		t.Fatal(err)
	}
	run(t, gia.ctx, chromedp.Navigate(b.url(u.RequestURI())), chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#password`), "a fresh harbour light"),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, gia.ctx, "the password set", `document.querySelector("main [role=status]")?.textContent.startsWith("Your password is set")`)
	gia.password = "a fresh harbour light"
	if code, body := b.ts.do("POST", "/api/session", "", map[string]string{"name": "gia", "password": gia.password}); code != 200 {
		t.Errorf("signing in with the new password: %d %s", code, body)
	}
}
