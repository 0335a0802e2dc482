// A player's rating through their rated games of one game, drawn as an
// inline SVG: the rating after each game (the start before the first),
// axes with round ticks, in the theme's colours (accounts.css), with a
// summary in words for those who do not see it.

import { h } from "./dom";
import { lang, t, tn } from "./i18n";

export interface HistoryPoint {
  at: string;
  game: string; // the id of the game played
  rating: number;
  rd: number;
  before: number;
}

const svgNS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

// niceStep is the round step (1, 2, 2.5 or 5 times a power of ten) that
// cuts span into at most about count parts.
export function niceStep(span: number, count: number): number {
  const raw = Math.max(span, 1e-9) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
}

// ticks are the multiples of a round step from the last at or below lo
// to the first at or above hi, about count parts.
export function ticks(lo: number, hi: number, count: number, whole = false): number[] {
  let step = niceStep(hi - lo, count);
  if (whole) step = Math.max(1, Math.ceil(step));
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step; v += step) out.push(v);
  return out;
}

// summary says in words what the plot shows.
export function summary(points: HistoryPoint[], gameName: string): string {
  const ratings = points.map((p) => Math.round(p.rating));
  const n = points.length;
  return t("ratingplot.summary", { Game: gameName, Before: String(Math.round(points[0].before)), After: String(ratings[n - 1]), Games: tn("ratingplot.games", n) }) +
    (n > 1 ? t("ratingplot.range", { High: String(Math.max(...ratings)), Low: String(Math.min(...ratings)) }) : ".");
}

// ratingPlot is a figure that draws itself at its own width, again when
// that changes (a phone turned, a window resized).
export function ratingPlot(points: HistoryPoint[], gameName: string, id: string): HTMLElement {
  const caption = h("figcaption", { id: `${id}-summary` }, summary(points, gameName));
  const fig = h("figure", { class: "rating-plot" }, caption);
  let drawnAt = 0;
  new ResizeObserver(() => {
    const width = Math.round(fig.clientWidth);
    if (width === drawnAt || width === 0) return;
    drawnAt = width;
    fig.querySelector("svg")?.remove();
    fig.prepend(draw(points, width, `${id}-summary`));
  }).observe(fig);
  return fig;
}

function draw(points: HistoryPoint[], width: number, summaryId: string): SVGSVGElement {
  const height = 200;
  const m = { left: 44, right: 12, top: 10, bottom: 38 };
  const values = [points[0].before, ...points.map((p) => p.rating)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) [lo, hi] = [lo - 10, hi + 10];
  const yTicks = ticks(lo, hi, 4);
  [lo, hi] = [yTicks[0], yTicks[yTicks.length - 1]];
  const n = points.length;
  const x = (i: number) => m.left + (i / Math.max(n, 1)) * (width - m.left - m.right);
  const y = (v: number) => m.top + (1 - (v - lo) / (hi - lo)) * (height - m.top - m.bottom);
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-labelledby": summaryId });
  for (const v of yTicks) {
    plot.append(svg("line", { class: "plot-grid", x1: m.left, x2: width - m.right, y1: y(v), y2: y(v) }),
      svg("text", { class: "plot-label", x: m.left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, String(v)));
  }
  for (const i of ticks(0, n, Math.min(n, Math.max(2, Math.floor(width / 80))), true).filter((i) => i <= n)) {
    plot.append(svg("line", { class: "plot-axis", x1: x(i), x2: x(i), y1: height - m.bottom, y2: height - m.bottom + 4 }),
      svg("text", { class: "plot-label", x: x(i), y: height - m.bottom + 16, "text-anchor": "middle" }, String(i)));
  }
  plot.append(svg("text", { class: "plot-label", x: width - m.right, y: height - 2, "text-anchor": "end" }, t("ratingplot.axis")),
    svg("line", { class: "plot-axis", x1: m.left, x2: width - m.right, y1: height - m.bottom, y2: height - m.bottom }),
    svg("line", { class: "plot-axis", x1: m.left, x2: m.left, y1: m.top, y2: height - m.bottom }),
    svg("polyline", { class: "plot-line", points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }));
  points.forEach((p, i) => plot.append(svg("circle", { class: "plot-dot", cx: x(i + 1), cy: y(p.rating), r: 3 },
    svg("title", {}, t("ratingplot.point", { Number: i + 1, Date: new Date(p.at).toLocaleDateString(lang()), Rating: String(Math.round(p.rating)), Rd: String(Math.round(p.rd)) })))));
  return plot;
}
