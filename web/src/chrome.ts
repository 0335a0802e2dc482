// The frame every page shares: the site's header, with the way home, the
// site's sections and the theme controls (theme.ts).

import { h } from "./dom";
import { themeControls } from "./theme";

// siteHeader is the header of a page the script draws; title is the
// page's own heading, extra what the page adds beside it.
export function siteHeader(title: HTMLElement, ...extra: Node[]): HTMLElement {
  return h("header", { class: "site" }, h("a", { href: "/", class: "home" }, "arbiter"), title, ...extra, nav(), themeControls());
}

// decorateHeader completes a header the server wrote (the rules pages and
// the error pages) with what the script adds to every header.
export function decorateHeader(doc: Document): void {
  const header = doc.querySelector("header");
  if (!header || header.querySelector(".theme-controls")) return;
  header.append(nav(), themeControls());
}

// nav links the site's sections; the page's own is marked current.
function nav(): HTMLElement {
  const here = location.pathname;
  const link = (href: string, label: string, current: boolean) =>
    h("a", current ? { href, "aria-current": "page" } : { href }, label);
  return h("nav", { class: "site-nav", "aria-label": "site" },
    link("/", "Play", here === "/" || here.startsWith("/play/") || here.startsWith("/games/")),
    link("/learn", "Learn", here.startsWith("/learn")),
    link("/rules/pommel", "Rules", here.startsWith("/rules/")),
    link("/analysis/pommel", "Analysis", here.startsWith("/analysis/")));
}
