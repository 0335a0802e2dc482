// The page's language and its words. Every word the script shows comes
// from the message catalog of the page's language (web/i18n/LANG.toml,
// the server's own), which the server gives as a script of its own loaded
// before the bundle (self.arbiterI18n, internal/i18n): t() is a message,
// tn() a message with a count, in the plural form the language gives the
// count. A message's {{.Name}} stand for its arguments, as in Go's
// templates on the server. Dates and numbers are written in the page's
// language (lang()), never the browser's when the two differ.

// Args are a message's arguments by name: {{.Name}} is args.Name, a
// number written as the language writes numbers.
export type Args = Record<string, string | number>;

type Forms = Record<string, string>;

// Language is one the site speaks: its tag and its name in itself.
export interface Language {
  tag: string;
  name: string;
}

interface Catalog {
  lang: string;
  languages: Language[];
  messages: Record<string, string | Forms>;
}

// catalog is the page's, or an empty one (each message its id) if its
// script did not load.
const catalog: Catalog = (self as { arbiterI18n?: Catalog }).arbiterI18n
  ?? { lang: document.documentElement.lang || "en", languages: [], messages: {} };
const plurals = new Intl.PluralRules(catalog.lang);
const numbers = new Intl.NumberFormat(catalog.lang);

// lang is the page's language, for the Intl formatters and lang
// attributes.
export function lang(): string {
  return catalog.lang;
}

// languages are those the site speaks, for the language switches.
export function languages(): Language[] {
  return catalog.languages;
}

// t is message id with args filled in.
export function t(id: string, args?: Args): string {
  const m = catalog.messages[id];
  return fill(typeof m === "string" ? m : m?.other ?? id, args);
}

// tn is message id in the plural form count takes, count as its
// {{.Count}}.
export function tn(id: string, count: number, args?: Args): string {
  const m = catalog.messages[id];
  const forms: Forms = typeof m === "string" ? { other: m } : m ?? { other: id };
  return fill(forms[plurals.select(count)] ?? forms.other ?? id, { Count: count, ...args });
}

// tParts is message id cut at its placeholders, each filled with the node
// (or text) parts gives: a sentence with a link inside, as h()'s children.
export function tParts(id: string, parts: Record<string, Node | string>): (Node | string)[] {
  return t(id).split(/\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}/).map((piece, i) => (i % 2 ? parts[piece] ?? "" : piece)).filter((p) => p !== "");
}

function fill(text: string, args?: Args): string {
  if (!args) return text;
  return text.replace(/\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}/g, (whole, name: string) => {
    const v = args[name];
    if (v === undefined) return whole;
    return typeof v === "number" ? numbers.format(v) : v;
  });
}

// fixed writes n with digits decimals, as the page's language writes
// them ("1.35", "1,35").
export function fixed(n: number, digits: number): string {
  return n.toLocaleString(catalog.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
}

// chooseLanguage remembers tag as the reader's language, in the cookie
// the server reads before Accept-Language (so that it holds signed out),
// and draws the page again in it.
export function chooseLanguage(tag: string): void {
  const secure = location.protocol === "https:" ? "; secure" : ""; // i18n-ignore: the cookie's attributes
  document.cookie = `lang=${encodeURIComponent(tag)}; path=/; max-age=31536000; samesite=lax${secure}`; // i18n-ignore: the cookie
  location.reload();
}
