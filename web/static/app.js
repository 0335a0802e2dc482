(() => {
  var __defProp = Object.defineProperty;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
  var __esm = (fn, res, err) => function __init() {
    if (err) throw err[0];
    try {
      return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
    } catch (e) {
      throw err = [e], e;
    }
  };
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

  // src/api.ts
  async function request(method, path, body, token) {
    const headers = {};
    if (body !== void 0) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    const res = await fetch(path, { method, headers, body: body === void 0 ? void 0 : JSON.stringify(body) });
    const data = await res.json().catch(() => null);
    if (!res.ok) {
      const err = data && data.error;
      throw new ApiError(err ? err.code : "http_" + res.status, err ? err.message : `the server answered ${res.status}`);
    }
    return data;
  }
  var ApiError;
  var init_api = __esm({
    "src/api.ts"() {
      ApiError = class extends Error {
        constructor(code, message) {
          super(message);
          __publicField(this, "code", code);
        }
      };
    }
  });

  // src/entry.ts
  function parseMove(text) {
    const [route, ...drops] = text.split("@");
    return { text, path: route.split(/[-x:]/), drops };
  }
  function matching(moves, sel) {
    return moves.filter((m) => {
      if (m.path.length < sel.path.length) return false;
      for (let i = 0; i < sel.path.length; i++) {
        if (m.path[i] !== sel.path[i]) return false;
      }
      if (sel.drops.length === 0) return true;
      return m.path.length === sel.path.length && sel.drops.every((d) => m.drops.includes(d));
    });
  }
  function targets(moves, sel) {
    const out = /* @__PURE__ */ new Set();
    if (sel.path.length === 0) return out;
    for (const m of matching(moves, sel)) {
      if (m.path.length > sel.path.length) {
        if (sel.drops.length === 0) out.add(m.path[sel.path.length]);
      } else {
        for (const d of m.drops) if (!sel.drops.includes(d)) out.add(d);
      }
    }
    return out;
  }
  function click(moves, sel, cell) {
    let next = null;
    if (sel.path.length > 0 && targets(moves, sel).has(cell)) {
      const more = matching(moves, sel).some((m) => m.path.length > sel.path.length && m.path[sel.path.length] === cell);
      next = more && sel.drops.length === 0 ? { path: [...sel.path, cell], drops: [] } : { path: sel.path, drops: [...sel.drops, cell] };
    }
    if (next === null) {
      if (sel.path.length === 1 && sel.drops.length === 0 && sel.path[0] === cell) return { kind: "reset", sel: emptySelection };
      const start = { path: [cell], drops: [] };
      return { kind: matching(moves, start).length > 0 ? "select" : "reset", sel: matching(moves, start).length > 0 ? start : emptySelection };
    }
    const left = matching(moves, next);
    if (left.length === 1) return { kind: "play", move: left[0].text };
    return { kind: "select", sel: next };
  }
  function choices(moves, sel) {
    if (sel.path.length < 2 && sel.drops.length === 0) return [];
    return matching(moves, sel).filter((m) => m.path.length === sel.path.length);
  }
  var emptySelection;
  var init_entry = __esm({
    "src/entry.ts"() {
      emptySelection = { path: [], drops: [] };
    }
  });

  // src/board.ts
  function el2(name, attrs) {
    const e = document.createElementNS(svgNS2, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  }
  function points(ps) {
    return ps.map((p) => `${p.x},${p.y}`).join(" ");
  }
  function inset(ps, c, f) {
    return ps.map((p) => ({ x: c.x + (p.x - c.x) * f, y: c.y + (p.y - c.y) * f }));
  }
  function describeStack(cell, stack, king) {
    if (!stack) return `${cell}, empty`;
    const names2 = [...stack].map((l) => {
      const side = sideNames[l.toLowerCase()] ?? l;
      return l === l.toUpperCase() ? `${side} ${king}` : side;
    });
    if (names2.length === 1) return `${cell}, ${names2[0]}`;
    return `${cell}, a stack of ${names2.length} from the bottom: ${names2.join(", ")}`;
  }
  function endRowSeats(pos) {
    const out = /* @__PURE__ */ new Map();
    (pos.endRows ?? []).forEach((cells, seat) => {
      for (const c of cells) out.set(c, [...out.get(c) ?? [], seat]);
    });
    return out;
  }
  function drawBoard(svg, geo, pos, marks, king, onCell2, opts = {}) {
    const vb = geo.viewBox;
    const letters = opts.letters ?? ["w", "b", "r"];
    svg.setAttribute("viewBox", `${vb.minX} ${vb.minY} ${vb.maxX - vb.minX} ${vb.maxY - vb.minY}`);
    svg.setAttribute("role", "group");
    const hadFocus = svg.contains(document.activeElement);
    const focusName = geo.cells.some((c) => c.name === svg.dataset.focus) ? svg.dataset.focus : geo.cells[0]?.name;
    svg.replaceChildren();
    const cells = el2("g", { class: "cells" });
    const rows = el2("g", { class: "end-rows", "aria-hidden": "true" });
    const pieces2 = el2("g", { class: "pieces", "aria-hidden": "true" });
    const popup = el2("g", { class: "popup", "aria-hidden": "true" });
    const last = new Set(marks.lastMove);
    const ends = endRowSeats(pos);
    const frozen = new Set(pos.frozen ?? []);
    for (const c of geo.cells) {
      const stack = pos.stacks[c.name];
      const classes = ["cell"];
      if (last.has(c.name)) classes.push("last");
      if (marks.selected.includes(c.name)) classes.push("selected");
      if (marks.targets.has(c.name)) classes.push("target");
      const seats = ends.get(c.name) ?? [];
      if (seats.length) classes.push("end-row", ...seats.map((s) => `end-row-${letters[s]}`));
      let label = describeStack(c.name, stack, king);
      if (seats.length) label += `; end row of ${seats.map((s) => sideNames[letters[s]]).join(" and ")}`;
      if (stack && frozen.has(c.name)) label += `; frozen, scores ${stack.length}`;
      if (marks.taking?.includes(c.name)) label += "; taken by this move";
      const poly = el2("polygon", { points: points(c.outline), class: classes.join(" "), "data-cell": c.name, role: opts.still ? "img" : "button", "aria-label": label });
      if (!opts.still) poly.setAttribute("tabindex", c.name === focusName ? "0" : "-1");
      if (stack) poly.setAttribute("data-stack", stack);
      if (stack && frozen.has(c.name)) poly.setAttribute("data-frozen", "");
      if (!opts.pointer) poly.addEventListener("click", () => onCell2(c.name));
      poly.addEventListener("keydown", (ev) => onCellKey(ev, svg, geo, c.name, onCell2));
      poly.addEventListener("focus", () => {
        svg.dataset.focus = c.name;
      });
      if (stack && stack.length > shownPieces) {
        const title = el2("title", {});
        title.textContent = describeStack(c.name, stack, king);
        poly.append(title);
        const show4 = () => showStack(popup, c.center, stack, vb);
        poly.addEventListener("focus", show4);
        poly.addEventListener("pointerenter", show4);
        poly.addEventListener("blur", () => popup.replaceChildren());
        poly.addEventListener("pointerleave", () => popup.replaceChildren());
      }
      cells.append(poly);
      seats.forEach((s, i) => {
        rows.append(el2("polygon", { points: points(inset(c.outline, c.center, 0.86 - 0.14 * i)), class: `end-row-line side-${letters[s]}` }));
      });
      if (stack) pieces2.append(drawStack(c.center, stack, c.name, frozen.has(c.name)));
      if (marks.targets.has(c.name) && !stack) pieces2.append(el2("circle", { cx: c.center.x, cy: c.center.y, r: 0.12, class: "dot" }));
    }
    const labels = el2("g", { class: "labels", "aria-hidden": "true" });
    for (const l of geo.labels) {
      const t = el2("text", { x: l.at.x, y: l.at.y, class: "label" });
      t.textContent = l.text;
      labels.append(t);
    }
    svg.append(cells, rows, pieces2, drawPath(geo, marks), labels, popup);
    if (hadFocus && focusName && !opts.still) svg.querySelector(`[data-cell="${focusName}"]`)?.focus({ preventScroll: true });
  }
  function onCellKey(ev, svg, geo, cell, onCell2) {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      onCell2(cell);
      return;
    }
    const dir = arrowDirections[ev.key];
    if (!dir) return;
    ev.preventDefault();
    ev.stopPropagation();
    const next = neighbourToward(geo, cell, dir);
    if (!next) return;
    for (const p of svg.querySelectorAll("[data-cell]")) p.setAttribute("tabindex", p.dataset.cell === next ? "0" : "-1");
    svg.querySelector(`[data-cell="${next}"]`)?.focus();
  }
  function neighbourToward(geo, cell, dir) {
    const from = geo.cells.find((c) => c.name === cell);
    if (!from) return null;
    let best = null;
    let bestScore = Infinity;
    for (const c of geo.cells) {
      const dx = c.center.x - from.center.x, dy = c.center.y - from.center.y;
      const dist = Math.hypot(dx, dy);
      const along = (dx * dir.x + dy * dir.y) / (dist || 1);
      if (c === from || along < 0.5) continue;
      const score = dist * (2 - along);
      if (score < bestScore) {
        bestScore = score;
        best = c.name;
      }
    }
    return best;
  }
  function drawPath(geo, marks) {
    const g = el2("g", { class: "move-path", "aria-hidden": "true" });
    const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
    const path = (marks.path ?? []).map((c) => centers.get(c)).filter((p) => !!p);
    if (path.length > 1) g.append(el2("polyline", { points: points(path), class: "path-line" }));
    for (const cell of marks.taking ?? []) {
      const at = centers.get(cell);
      if (!at) continue;
      const r = 0.22;
      g.append(el2("path", { d: `M${at.x - r},${at.y - r}L${at.x + r},${at.y + r}M${at.x + r},${at.y - r}L${at.x - r},${at.y + r}`, class: "taking", "data-taking": cell }));
    }
    return g;
  }
  function drawStack(at, stack, cell, frozen) {
    const g = el2("g", { class: "stack", "data-at": cell });
    const shown = [...stack].slice(-shownPieces);
    const step2 = 0.1;
    const base = at.y + (shown.length - 1) * step2 / 2;
    if (frozen) g.append(el2("rect", { x: at.x - 0.47, y: at.y - 0.47, width: 0.94, height: 0.94, rx: 0.08, class: "frozen" }));
    shown.forEach((letter, i) => g.append(...disc(at.x, base - i * step2, 0.36, letter, i === shown.length - 1)));
    if (stack.length > 1) {
      const top = base - (shown.length - 1) * step2;
      const t = el2("text", { x: at.x, y: top, class: `height side-${stack[stack.length - 1].toLowerCase()}` });
      t.textContent = String(stack.length);
      g.append(t);
    }
    return g;
  }
  function disc(x, y, r, letter, marked) {
    const side = letter.toLowerCase();
    const out = [el2("circle", { cx: x, cy: y, r, class: `piece side-${side}` })];
    if (marked && sideMarks.has(side)) out.push(el2("circle", { cx: x, cy: y, r: r * 0.76, class: `side-mark side-${side}` }));
    if (letter !== side) out.push(el2("circle", { cx: x, cy: y, r: r * 0.5, class: `crown side-${side}` }));
    return out;
  }
  function showStack(popup, at, stack, vb) {
    const r = 0.22;
    const width = stack.length * 2 * r + 0.3;
    const height = 2 * r + 0.55;
    const x = Math.max(vb.minX, Math.min(at.x - width / 2, vb.maxX - width));
    const y = Math.max(vb.minY, at.y - 0.6 - height);
    const box = el2("g", { class: "stack-popup", "data-stack": stack });
    box.append(el2("rect", { x, y, width, height, rx: 0.08, class: "popup-box" }));
    const caption = el2("text", { x: x + 0.15, y: y + 0.2, class: "popup-text" });
    caption.textContent = `${stack.length} pieces, bottom first`;
    box.append(caption);
    [...stack].forEach((letter, i) => box.append(...disc(x + 0.15 + r + i * 2 * r, y + 0.4 + r, r * 0.9, letter, true)));
    popup.replaceChildren(box);
  }
  function letterOf(p, letters) {
    const l = letters[p.owner] ?? "w";
    return p.rank === "king" ? l.toUpperCase() : l;
  }
  function animateMove(svg, geo, fx, letters) {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches || fx.path.length < 2) return false;
    const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
    const path = fx.path.map((c) => centers.get(c));
    if (path.some((p) => !p)) return false;
    const end = path[path.length - 1];
    const legs = path.length - 1;
    const duration = Math.min(moveMs, legMs * legs);
    const pieces2 = svg.querySelector("g.pieces");
    let mover = fx.removed ? null : svg.querySelector(`g.stack[data-at="${fx.path[fx.path.length - 1]}"]`);
    if (!mover && pieces2) {
      mover = drawStack(end, fx.moving.map((p) => letterOf(p, letters)).join(""), "", false);
      mover.classList.add("ghost");
      pieces2.append(mover);
      const copy = mover;
      mover.animate([{ opacity: 1 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration }).onfinish = () => copy.remove();
    }
    if (mover) {
      pieces2?.append(mover);
      const frames = path.map((p, i) => ({ transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)`, offset: i / legs }));
      mover.animate(frames, { duration, easing: "ease-in-out" });
    }
    for (const c of fx.captured ?? []) {
      const at = centers.get(c.cell);
      if (!at || !pieces2 || c.taken.length === 0) continue;
      const stack = [...c.left, ...c.taken].map((p) => letterOf(p, letters)).join("");
      const ghost = drawStack(at, stack, "", false);
      ghost.classList.add("ghost");
      ghost.dataset.stack = stack;
      pieces2.insertBefore(ghost, pieces2.firstChild);
      const passed = c.leg > 0 ? c.leg / legs : 1;
      ghost.animate([{ opacity: 1 }, { opacity: 1, offset: Math.min(passed, 0.95) }, { opacity: 0 }], { duration, fill: "forwards" }).onfinish = () => ghost.remove();
    }
    svg.dataset.animated = fx.move;
    return true;
  }
  function cellAt(x, y) {
    const e = document.elementFromPoint(x, y);
    return e instanceof Element ? e.closest("[data-cell]")?.getAttribute("data-cell") ?? null : null;
  }
  function attachPointer(svg, on) {
    let press = null;
    const piece = (cell) => svg.querySelector(`g.stack[data-at="${cell}"]`);
    svg.addEventListener("pointerdown", (ev) => {
      const cell = cellAt(ev.clientX, ev.clientY);
      if (!cell || ev.button !== 0) return;
      press = { id: ev.pointerId, from: cell, x: ev.clientX, y: ev.clientY, dragging: false };
      svg.setPointerCapture(ev.pointerId);
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!press || ev.pointerId !== press.id) return;
      const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
      if (!press.dragging && Math.hypot(dx, dy) < dragDistance) return;
      press.dragging = true;
      const g = piece(press.from);
      const ctm = svg.getScreenCTM();
      if (!g || !ctm) return;
      g.parentNode?.append(g);
      g.setAttribute("transform", `translate(${dx / ctm.a} ${dy / ctm.d})`);
      g.classList.add("dragged");
    });
    const end = (ev, cancelled) => {
      if (!press || ev.pointerId !== press.id) return;
      const p = press;
      press = null;
      piece(p.from)?.removeAttribute("transform");
      piece(p.from)?.classList.remove("dragged");
      if (cancelled) return;
      const to = cellAt(ev.clientX, ev.clientY);
      if (!p.dragging) {
        if (to === p.from) on.tap(p.from);
      } else if (to && to !== p.from) {
        on.drag(p.from, to);
      }
    };
    svg.addEventListener("pointerup", (ev) => end(ev, false));
    svg.addEventListener("pointercancel", (ev) => end(ev, true));
  }
  var svgNS2, sideNames, shownPieces, legMs, moveMs, arrowDirections, sideMarks, dragDistance;
  var init_board = __esm({
    "src/board.ts"() {
      svgNS2 = "http://www.w3.org/2000/svg";
      sideNames = { w: "White", b: "Black", r: "Red" };
      shownPieces = 5;
      legMs = 160;
      moveMs = 250;
      arrowDirections = { ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 }, ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 } };
      sideMarks = /* @__PURE__ */ new Set(["b", "r"]);
      dragDistance = 8;
    }
  });

  // src/dom.ts
  function h(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
  }
  function copyButton(text) {
    const b = h("button", { type: "button", class: "copy" }, "Copy");
    b.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied";
      } catch {
        b.textContent = "Select and copy";
      }
    });
    return b;
  }
  var init_dom = __esm({
    "src/dom.ts"() {
    }
  });

  // src/theme.ts
  function chosen(look) {
    let value = null;
    try {
      value = localStorage.getItem(look.key);
    } catch {
    }
    return look.options.some(([v]) => v === value) ? value : look.options[0][0];
  }
  function remember(look, value) {
    try {
      if (value === look.options[0][0]) localStorage.removeItem(look.key);
      else localStorage.setItem(look.key, value);
    } catch {
    }
  }
  function applyTheme() {
    setAttributes();
    matchMedia(darkQuery).addEventListener("change", syncControls);
    document.addEventListener("click", closeOpenLooks);
    addEventListener("storage", (ev) => {
      if (looks.some((l) => l.key === ev.key)) {
        setAttributes();
        syncControls();
      }
    });
  }
  function setAttributes() {
    const root2 = document.documentElement;
    for (const look of looks) {
      const value = chosen(look);
      if (look === themeLook && value === "system") delete root2.dataset.theme;
      else root2.dataset[look.attr] = value;
    }
  }
  function isDark() {
    const t = document.documentElement.dataset.theme;
    return t === "dark" || t !== "light" && matchMedia(darkQuery).matches;
  }
  function choose(look, value) {
    remember(look, value);
    setAttributes();
    syncControls();
  }
  function themeControls() {
    const toggle = h(
      "button",
      { type: "button", class: "theme-toggle", "aria-label": "Dark theme", title: "Dark theme", "aria-pressed": "false" },
      h("span", { class: "icon", "aria-hidden": "true" })
    );
    toggle.addEventListener("click", () => choose(themeLook, isDark() ? "light" : "dark"));
    const panel = h("div", { class: "looks-panel" }, ...looks.map(lookSelect));
    const summary = h("summary", {}, h("span", { class: "icon", "aria-hidden": "true" }, "⚙︎"), h("span", { class: "switch-name" }, "Display"));
    const details = h("details", { class: "looks" }, summary, panel);
    closeOnEscape(details);
    const controls = h("div", { class: "theme-controls" }, toggle, details);
    syncOne(controls);
    return controls;
  }
  function lookSelect(look) {
    const select3 = h(
      "select",
      { name: look.key, "data-look": look.attr },
      ...look.options.map(([v, name]) => h("option", { value: v }, name))
    );
    select3.addEventListener("change", () => choose(look, select3.value));
    return h("label", { class: `look-${look.attr}` }, look.label, select3);
  }
  function closeOnEscape(details) {
    details.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    });
  }
  function closeOpenLooks(ev) {
    document.querySelectorAll("details.looks[open]").forEach((d) => {
      if (ev.target instanceof Node && !d.contains(ev.target)) d.open = false;
    });
  }
  function syncControls() {
    document.querySelectorAll(".theme-controls").forEach(syncOne);
  }
  function syncOne(controls) {
    const dark = isDark();
    const toggle = controls.querySelector(".theme-toggle");
    toggle?.setAttribute("aria-pressed", String(dark));
    const icon = toggle?.querySelector(".icon");
    if (icon) icon.textContent = dark ? "☾" : "☀";
    for (const look of looks) {
      const select3 = controls.querySelector(`select[data-look="${look.attr}"]`);
      if (select3) select3.value = chosen(look);
    }
  }
  var themeLook, boardLook, piecesLook, looks, darkQuery;
  var init_theme = __esm({
    "src/theme.ts"() {
      init_dom();
      themeLook = {
        attr: "theme",
        key: "arbiter.theme",
        label: "Theme",
        options: [["system", "As the system"], ["light", "Light"], ["dark", "Dark"]]
      };
      boardLook = {
        attr: "board",
        key: "arbiter.board",
        label: "Board",
        options: [["wood", "Wood"], ["slate", "Slate"], ["green", "Green"]]
      };
      piecesLook = {
        attr: "pieces",
        key: "arbiter.pieces",
        label: "Pieces",
        options: [["classic", "Classic"], ["contrast", "High contrast"]]
      };
      looks = [themeLook, boardLook, piecesLook];
      darkQuery = "(prefers-color-scheme: dark)";
    }
  });

  // src/chrome.ts
  function siteHeader(title, ...extra) {
    return h("header", { class: "site" }, h("a", { href: "/", class: "home" }, "arbiter"), title, ...extra, nav(), themeControls());
  }
  function decorateHeader(doc) {
    const header = doc.querySelector("header");
    if (!header || header.querySelector(".theme-controls")) return;
    header.append(themeControls());
  }
  function nav() {
    const here = location.pathname;
    const link = (href, label, current) => h("a", current ? { href, "aria-current": "page" } : { href }, label);
    return h(
      "nav",
      { class: "site-nav", "aria-label": "site" },
      link("/", "Play", here === "/" || here.startsWith("/play/") || here.startsWith("/games/")),
      link("/learn", "Learn", here.startsWith("/learn")),
      link("/rules/pommel", "Rules", here.startsWith("/rules/")),
      link("/analysis/pommel", "Analysis", here.startsWith("/analysis/"))
    );
  }
  var init_chrome = __esm({
    "src/chrome.ts"() {
      init_dom();
      init_theme();
    }
  });

  // src/diagrams.ts
  async function drawDiagrams(root2) {
    const boards = /* @__PURE__ */ new Map();
    const geometry = (board) => {
      if (!boards.has(board)) boards.set(board, request("GET", `/api/boards/${encodeURIComponent(board)}?turn=0`));
      return boards.get(board);
    };
    const figures = [...root2.querySelectorAll("figure.diagram[data-board]")];
    await Promise.all(figures.map(async (fig) => {
      try {
        drawDiagram(fig, await geometry(fig.dataset.board));
      } catch {
      }
    }));
  }
  function drawDiagram(fig, geo) {
    const d = fig.dataset;
    const stacks = JSON.parse(d.stacks ?? "{}");
    const label = `${d.game} position ${d.fen}: ${fig.querySelector("figcaption")?.textContent ?? ""}`;
    const svg = pictureBoard(geo, stacks, Number(d.toMove ?? 0), d.game ?? "", label);
    svg.classList.add("diagram");
    nameEmptyCells(svg, geo, stacks);
    fig.querySelector("svg.diagram")?.remove();
    fig.prepend(svg);
  }
  function nameEmptyCells(svg, geo, stacks) {
    const names2 = document.createElementNS(svgNS3, "g");
    names2.setAttribute("class", "cell-names");
    names2.setAttribute("aria-hidden", "true");
    for (const c of geo.cells) {
      if (stacks[c.name]) continue;
      const t = document.createElementNS(svgNS3, "text");
      t.setAttribute("x", String(c.center.x));
      t.setAttribute("y", String(c.center.y));
      t.setAttribute("class", "cell-name");
      t.textContent = c.name;
      names2.append(t);
    }
    svg.append(names2);
  }
  function pictureBoard(geo, stacks, toMove, game, label) {
    const svg = document.createElementNS(svgNS3, "svg");
    svg.setAttribute("class", "board");
    const king = game.startsWith("pommel") ? "captain" : "king";
    drawBoard(svg, geo, { board: geo.board, ply: 0, toMove, stacks }, { selected: [], targets: /* @__PURE__ */ new Set(), lastMove: [] }, king, () => {
    }, { still: true });
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    for (const cell of svg.querySelectorAll("[data-cell]")) {
      cell.removeAttribute("tabindex");
      cell.removeAttribute("role");
      cell.removeAttribute("aria-label");
    }
    return svg;
  }
  var svgNS3;
  var init_diagrams = __esm({
    "src/diagrams.ts"() {
      init_api();
      init_board();
      svgNS3 = "http://www.w3.org/2000/svg";
    }
  });

  // src/learn.ts
  var learn_exports = {};
  __export(learn_exports, {
    learnPage: () => learnPage
  });
  function learnPage(root2) {
    const family = decodeURIComponent(location.pathname.split("/")[2] ?? "");
    if (family) void tutorialPage(root2, family);
    else void listPage(root2);
  }
  async function listPage(root2) {
    const message = h("p", { class: "message", role: "alert" });
    const list = h("ul", { class: "tutorials" });
    root2.replaceChildren(
      siteHeader(h("h1", {}, "Learn the games")),
      h(
        "main",
        { class: "learn-list" },
        h("p", { class: "lead" }, "These games are new to most players. Each tutorial shows a few positions, one rule at a time: read, then make the move asked for on the board."),
        message,
        list
      )
    );
    document.title = "Learn the games (arbiter)";
    let all;
    try {
      all = await request("GET", "/api/learn");
    } catch (e) {
      message.textContent = e.message;
      return;
    }
    list.replaceChildren(...all.map(card));
    await Promise.all(all.map((t) => preview(list, t)));
  }
  function card(t) {
    const games = t.games.flatMap((id, i) => [...i > 0 ? [", "] : [], h("a", { href: `/rules/${encodeURIComponent(id)}` }, id)]);
    return h(
      "li",
      { class: "tutorial", "data-family": t.family },
      h("div", { class: "preview-box" }),
      h("h2", {}, h("a", { href: `/learn/${encodeURIComponent(t.family)}` }, t.title)),
      h("p", {}, t.summary),
      h("p", { class: "games" }, "For ", ...games, `. ${t.stepCount} steps.`),
      h("p", {}, h("a", { href: `/learn/${encodeURIComponent(t.family)}`, class: "start button primary" }, `Start: ${t.title}`))
    );
  }
  async function preview(list, t) {
    const box = list.querySelector(`li[data-family="${CSS.escape(t.family)}"] .preview-box`);
    if (!box) return;
    try {
      const tut = await request("GET", `/api/learn/${encodeURIComponent(t.family)}`);
      const first = tut.steps[0];
      const geo = await request("GET", `/api/boards/${encodeURIComponent(first.position.board)}?turn=${first.turn}`);
      box.append(pictureBoard(geo, first.position.stacks, first.position.toMove, first.game, `${t.title}: the first step's position`));
    } catch {
    }
  }
  async function tutorialPage(root2, family) {
    let tut;
    try {
      tut = await request("GET", `/api/learn/${encodeURIComponent(family)}`);
    } catch (e) {
      root2.replaceChildren(siteHeader(h("h1", {}, "Learn")), h("p", { class: "message", role: "alert" }, e.message));
      return;
    }
    const asked = Number(location.hash.slice(1)) - 1;
    const index = Number.isInteger(asked) && asked >= 0 && asked < tut.steps.length ? asked : 0;
    const ui = layout3(root2, tut);
    const st = {
      tut,
      index,
      geo: null,
      pos: tut.steps[index].position,
      sel: emptySelection,
      verdict: null,
      solved: loadSolved(tut),
      message: "",
      busy: false,
      shown: 0,
      ui,
      refresh: () => render3(st)
    };
    attachPointer(ui.svg, { tap: (cell) => tap(st, cell), drag: (from, to) => drag(st, from, to) });
    ui.reset.addEventListener("click", () => void show3(st, st.index, false));
    ui.next.addEventListener("click", () => void show3(st, st.index + 1, true));
    ui.steps.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-step]");
      if (b) void show3(st, Number(b.dataset.step), true);
    });
    await show3(st, index, false);
  }
  function layout3(root2, tut) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    const ui = {
      steps: h("ol", { class: "learn-steps" }),
      progress: h("p", { class: "progress" }),
      title: h("h2", { tabindex: "-1" }),
      text: h("p", { class: "rule" }),
      goal: h("p", { class: "goal" }),
      scores: h("p", { class: "scores" }),
      feedback: h("p", { class: "feedback", role: "status", "aria-live": "polite" }),
      choices: h("div", { class: "choices" }),
      reset: h("button", { type: "button", class: "reset" }, "Start again"),
      next: h("button", { type: "button", class: "next primary" }, "Next step"),
      after: h("p", { class: "after" }),
      play: h("section", { class: "play", "aria-label": "your move" }),
      svg
    };
    ui.steps.replaceChildren(...tut.steps.map((s, i) => h("li", {}, h("button", { type: "button", "data-step": String(i), title: s.title }, String(i + 1)))));
    const boardBox = h("div", { class: "board-box" });
    boardBox.append(svg);
    root2.replaceChildren(
      siteHeader(h("h1", {}, `Learn ${tut.title}`), h("a", { href: `/rules/${encodeURIComponent(tut.rules)}`, class: "rules" }, "Rules")),
      h(
        "main",
        { class: "learn" },
        h(
          "section",
          { class: "lesson", "aria-label": "the step" },
          h("nav", { "aria-label": "steps" }, ui.steps),
          ui.progress,
          ui.title,
          ui.text,
          ui.goal
        ),
        boardBox,
        // Below the board on a phone, so that the board stays put while a
        // move is entered and the verdict comes where the eye is.
        ui.play
      )
    );
    ui.play.append(ui.scores, ui.feedback, ui.choices, h("div", { class: "learn-buttons" }, ui.reset, ui.next), ui.after);
    return ui;
  }
  async function show3(st, i, focus) {
    if (i < 0 || i >= st.tut.steps.length) return;
    const shown = ++st.shown;
    const step2 = st.tut.steps[i];
    const turnChanges = st.index !== i && st.tut.steps[st.index].turn !== step2.turn;
    st.index = i;
    st.pos = step2.position;
    st.sel = emptySelection;
    st.verdict = null;
    st.message = "";
    st.busy = false;
    history.replaceState(null, "", `${location.pathname}#${i + 1}`);
    try {
      if (!st.geo || st.geo.board !== step2.position.board || turnChanges) {
        const geo = await request("GET", `/api/boards/${encodeURIComponent(step2.position.board)}?turn=${step2.turn}`);
        if (shown !== st.shown) return;
        st.geo = geo;
      }
    } catch (e) {
      st.message = e.message;
    }
    st.refresh();
    if (focus) st.ui.title.focus();
  }
  function tap(st, cell) {
    if (st.busy) return;
    if (st.verdict) {
      const last = st.index + 1 >= st.tut.steps.length;
      st.message = !st.verdict.correct ? "Press Try again to set the position up again, then try another move." : last ? "Solved: Start again replays the step." : "Solved: go on with Next step, or Start again to replay it.";
      st.refresh();
      return;
    }
    const moves = st.tut.steps[st.index].legal.map(parseMove);
    const out = click(moves, st.sel, cell);
    st.message = out.kind === "reset" && st.sel.path.length === 0 ? `No legal move starts on ${cell}.` : "";
    if (out.kind === "play") {
      void tryMove(st, out.move);
      return;
    }
    st.sel = out.sel;
    st.refresh();
  }
  function drag(st, from, to) {
    if (st.verdict || st.busy) return tap(st, from);
    st.sel = emptySelection;
    tap(st, from);
    if (st.sel.path.length > 0) tap(st, to);
  }
  async function tryMove(st, move) {
    const shown = st.shown;
    const step2 = st.tut.steps[st.index];
    st.busy = true;
    st.sel = emptySelection;
    st.refresh();
    try {
      const v = await request("GET", `/api/learn/${encodeURIComponent(st.tut.family)}/${st.index + 1}?move=${encodeURIComponent(move)}`);
      if (shown !== st.shown) return;
      st.verdict = v;
      st.pos = v.position;
      if (v.correct) {
        st.solved.add(st.index);
        saveSolved(st.tut, st.solved);
      }
    } catch (e) {
      if (shown !== st.shown) return;
      st.message = e instanceof ApiError ? e.message : `The move was not sent: ${e.message}`;
    }
    st.busy = false;
    st.refresh();
    const ui = st.ui;
    if (st.verdict && st.geo) animateMove(ui.svg, st.geo, st.verdict.effects, step2.letters);
    if (st.verdict?.correct) (st.index + 1 < st.tut.steps.length ? ui.next : ui.after.querySelector("a"))?.focus({ preventScroll: true });
    ui.play.scrollIntoView({ block: "nearest" });
  }
  function solvedKey(tut) {
    return `arbiter.learn.${tut.family}`;
  }
  function loadSolved(tut) {
    try {
      const saved = JSON.parse(localStorage.getItem(solvedKey(tut)) ?? "[]");
      return new Set(Array.isArray(saved) ? saved.filter((i) => Number.isInteger(i) && i >= 0 && i < tut.steps.length) : []);
    } catch {
      return /* @__PURE__ */ new Set();
    }
  }
  function saveSolved(tut, solved) {
    try {
      localStorage.setItem(solvedKey(tut), JSON.stringify([...solved].sort()));
    } catch {
    }
  }
  function render3(st) {
    const ui = st.ui;
    const step2 = st.tut.steps[st.index];
    const count = st.tut.steps.length;
    const v = st.verdict;
    renderSteps(st);
    ui.progress.textContent = `Step ${st.index + 1} of ${count} · ${step2.game} · you play ${step2.seats[step2.position.toMove]}`;
    ui.title.textContent = step2.title;
    ui.text.textContent = step2.text;
    ui.goal.replaceChildren(h("strong", {}, "Your move: "), step2.goal);
    ui.scores.textContent = st.pos.scores ? "Scores: " + st.pos.scores.map((s, i) => `${step2.seats[i]} ${s}`).join(", ") : "";
    ui.feedback.className = v ? v.correct ? "feedback right" : "feedback wrong" : "feedback";
    ui.feedback.replaceChildren(...feedback(st));
    const moves = step2.legal.map(parseMove);
    ui.choices.replaceChildren(...choiceButtons(st, moves));
    ui.reset.textContent = v && !v.correct ? "Try again" : "Start again";
    ui.reset.classList.toggle("urge", !!v && !v.correct);
    ui.next.hidden = st.index + 1 >= count;
    ui.next.disabled = !st.solved.has(st.index);
    ui.after.replaceChildren(...st.index + 1 >= count && st.solved.has(st.index) ? [`That was the last step of ${st.tut.title}. `, h("a", { href: "/" }, "Play a game"), " or ", h("a", { href: "/learn" }, "learn another game"), "."] : []);
    document.title = `Learn ${st.tut.title}: ${step2.title} (arbiter)`;
    if (!st.geo) return;
    const last = v ? v.effects.path : [];
    drawBoard(
      ui.svg,
      st.geo,
      st.pos,
      { selected: [...st.sel.path, ...st.sel.drops], targets: v ? /* @__PURE__ */ new Set() : targets(moves, st.sel), lastMove: last },
      st.tut.king,
      (cell) => tap(st, cell),
      { pointer: true, letters: step2.letters }
    );
    ui.svg.setAttribute("aria-label", `${step2.game} board, step ${st.index + 1}: ${step2.seats[step2.position.toMove]} to move`);
    ui.svg.dataset.step = String(st.index + 1);
  }
  function renderSteps(st) {
    const ui = st.ui;
    ui.steps.querySelectorAll("button[data-step]").forEach((b) => {
      const i = Number(b.dataset.step);
      const solved = st.solved.has(i);
      b.classList.toggle("done", solved);
      if (i === st.index) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      b.setAttribute("aria-label", `Step ${i + 1}: ${st.tut.steps[i].title}${solved ? " (solved)" : ""}`);
    });
  }
  function feedback(st) {
    const v = st.verdict;
    const out = [];
    if (v) out.push(h("strong", {}, v.correct ? "Right. " : "Not this one. "), v.message);
    if (v?.ended) out.push(h("br"), `The game is over: ${v.ended}.`);
    if (st.message) out.push(...out.length ? [h("br")] : [], st.message);
    if (st.busy) out.push("Checking the move…");
    return out;
  }
  function choiceButtons(st, moves) {
    if (st.verdict) return [];
    const list = choices(moves, st.sel);
    if (list.length === 0) return [];
    return [h("span", {}, list.length > 1 ? "Several moves match; play:" : "Play:"), ...list.slice(0, 24).map((m) => {
      const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
      b.addEventListener("click", () => void tryMove(st, m.text));
      return b;
    })];
  }
  var init_learn = __esm({
    "src/learn.ts"() {
      init_api();
      init_board();
      init_chrome();
      init_diagrams();
      init_dom();
      init_entry();
    }
  });

  // src/a11y.ts
  function focusableScrollers(root2) {
    for (const pre of root2.querySelectorAll("main pre")) {
      if (!pre.hasAttribute("tabindex")) pre.tabIndex = 0;
    }
  }

  // src/analysis.ts
  init_api();

  // src/arrows.ts
  init_entry();
  var svgNS = "http://www.w3.org/2000/svg";
  var plyStyles = [
    { width: 0.15, opacity: 0.9 },
    { width: 0.1, opacity: 0.6 },
    { width: 0.08, opacity: 0.5 },
    { width: 0.07, opacity: 0.4 }
  ];
  function el(name, attrs) {
    const e = document.createElementNS(svgNS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  }
  function drawArrows(svg, geo, line, players = 2) {
    clearArrows(svg);
    if (line.length === 0) return;
    const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
    const layer = el("g", { class: "arrows", "aria-hidden": "true", "pointer-events": "none" });
    const drawn = [];
    for (const [ply, text] of line.slice(0, plyStyles.length).entries()) {
      const move = parseMove(text);
      const cells = [...move.path, ...move.drops];
      if (cells.some((c) => !centers.has(c))) break;
      const g = el("g", { class: `arrow-move ply-${ply} ${ply % players === 0 ? "mover" : "reply"}`, "data-ply": ply, "data-move": text });
      for (let i = 0; i + 1 < move.path.length; i++) {
        g.append(arrow(centers.get(move.path[i]), centers.get(move.path[i + 1]), plyStyles[ply].width, move.path[i], move.path[i + 1]));
      }
      for (const d of move.drops) {
        const at = centers.get(d);
        g.append(el("circle", { class: "drop-ring", cx: at.x, cy: at.y, r: 0.3, "stroke-width": plyStyles[ply].width, "data-cell": d }));
      }
      g.setAttribute("opacity", String(plyStyles[ply].opacity));
      drawn.push(g);
    }
    layer.append(...drawn.reverse());
    svg.insertBefore(layer, svg.querySelector("g.popup"));
  }
  function clearArrows(svg) {
    svg.querySelectorAll("g.arrows").forEach((g) => g.remove());
  }
  function arrow(from, to, width, fromCell, toCell) {
    const dx = to.x - from.x, dy = to.y - from.y;
    const length = Math.hypot(dx, dy) || 1;
    const ux = dx / length, uy = dy / length;
    const nx = -uy, ny = ux;
    const tipBack = Math.min(0.12, length / 4);
    const tip = { x: to.x - ux * tipBack, y: to.y - uy * tipBack };
    const headLength = Math.min(Math.max(width * 2.6, 0.28), length / 2);
    const headHalf = Math.max(width * 1.6, 0.16);
    const base = { x: tip.x - ux * headLength, y: tip.y - uy * headLength };
    const g = el("g", { class: "arrow", "data-from": fromCell, "data-to": toCell });
    g.append(
      el("line", { class: "arrow-shaft", x1: from.x, y1: from.y, x2: base.x, y2: base.y, "stroke-width": width }),
      el("polygon", {
        class: "arrow-head",
        points: [tip, { x: base.x + nx * headHalf, y: base.y + ny * headHalf }, { x: base.x - nx * headHalf, y: base.y - ny * headHalf }].map((p) => `${p.x},${p.y}`).join(" ")
      })
    );
    return g;
  }

  // src/analysis.ts
  init_board();
  init_chrome();
  init_dom();
  init_entry();

  // src/evalbar.ts
  init_dom();
  var pawnScale = 300;
  function decided(s) {
    const m = /^(win|loss)(\d+)$/.exec(s.scoreText);
    return m ? { wins: m[1] === "win", plies: Number(m[2]) } : null;
  }
  function seatName(seats, seat) {
    return seats[seat] ?? `Seat ${seat + 1}`;
  }
  function plies(n) {
    return n === 1 ? "1 ply" : `${n} plies`;
  }
  function pieces(hundredths) {
    return (Math.abs(hundredths) / 100).toFixed(2);
  }
  function judge(s, mover, seats) {
    const name = (seat) => seatName(seats, seat);
    const end = decided(s);
    if (seats.length > 2) {
      const me = name(mover);
      if (end) {
        const verb = end.wins ? "wins" : "loses";
        return { leader: end.wins ? mover : -1, short: `${me} ${verb} in ${end.plies}`, words: `${me}, to move, ${verb} in ${plies(end.plies)}`, share: 50, mark: "" };
      }
      const sign = s.score >= 0 ? "+" : "−";
      return {
        leader: s.score > 0 ? mover : -1,
        short: `${me} ${sign}${pieces(s.score)}`,
        words: `${me}, to move, is ${s.score >= 0 ? "ahead of" : "behind"} the best of the others by ${pieces(s.score)} pieces`,
        share: 50,
        mark: ""
      };
    }
    const other = 1 - mover;
    if (end) {
      const leader2 = end.wins ? mover : other;
      return { leader: leader2, short: `${name(leader2)} wins in ${end.plies}`, words: `${name(leader2)} wins in ${plies(end.plies)}`, share: leader2 === 0 ? 100 : 0, mark: `#${end.plies}` };
    }
    const first = mover === 0 ? s.score : -s.score;
    const share = Math.round(500 + 500 * Math.tanh(first / pawnScale)) / 10;
    if (s.score === 0) return { leader: -1, short: "even", words: "even: neither side is ahead", share, mark: "0.0" };
    const leader = first > 0 ? 0 : 1;
    return {
      leader,
      short: `${name(leader)} +${pieces(s.score)}`,
      words: `${name(leader)} is ahead by ${pieces(s.score)} pieces`,
      share,
      mark: (Math.abs(s.score) / 100).toFixed(1)
    };
  }
  function evalBar() {
    const fill = h("div", { class: "eval-fill" });
    const mark = h("span", { class: "eval-mark", "aria-hidden": "true" });
    const bar = h("div", { class: "eval-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "50" }, fill, mark);
    const note = h("p", { class: "eval-note" });
    const box = h("div", { class: "eval-box" }, bar, note);
    const show4 = (score, mover, seats) => {
      const letters = seats.map((s) => s.charAt(0).toLowerCase());
      const many = seats.length > 2;
      bar.hidden = many;
      note.hidden = !many;
      note.textContent = many ? `${seats.length} players: the engine gives one number, the mover's lead over the best of the others, so there is no bar; its score is under Engine.` : "";
      bar.setAttribute("aria-label", `Evaluation: ${seatName(seats, 0)} at the bottom${seats[1] ? `, ${seats[1]} at the top` : ""}`);
      fill.className = `eval-fill side-${letters[0] ?? "w"}`;
      bar.className = `eval-bar side-${letters[1] ?? "b"}`;
      if (!score) {
        bar.dataset.state = "none";
        bar.style.setProperty("--share", "50%");
        bar.setAttribute("aria-valuenow", "50");
        bar.setAttribute("aria-valuetext", "no evaluation yet: ask the engine");
        mark.textContent = "";
        delete bar.dataset.score;
        return;
      }
      const j = judge(score, mover, seats);
      bar.dataset.state = "shown";
      bar.dataset.score = String(mover === 0 ? score.score : -score.score);
      bar.dataset.leader = String(j.leader);
      bar.style.setProperty("--share", `${j.share}%`);
      bar.setAttribute("aria-valuenow", String(j.share));
      bar.setAttribute("aria-valuetext", j.words);
      bar.title = j.words;
      mark.textContent = j.mark;
      mark.className = `eval-mark at-${j.leader === 1 ? "top" : "bottom"} on-${letters[j.leader === 1 ? 1 : 0] ?? "w"}`;
    };
    return { box, show: show4 };
  }

  // src/setup.ts
  init_dom();
  function setupControls(seats, promoted, stacking) {
    const pieces2 = [];
    for (const name of seats) {
      const letter = name.charAt(0).toLowerCase();
      pieces2.push([letter, name]);
      if (promoted) pieces2.push([letter.toUpperCase(), `${name} ${promoted}`]);
    }
    pieces2.push(["", "Empty"]);
    const palette = h("fieldset", { class: "palette" }, h("legend", {}, "Click a cell to put"));
    pieces2.forEach(([letter, label], i) => {
      const input = h("input", { type: "radio", name: "piece", value: letter, id: `piece-${i}` });
      if (i === 0) input.checked = true;
      palette.append(h("label", { for: `piece-${i}`, class: "piece-choice" }, input, " ", label));
    });
    const onTop = h("input", { type: "checkbox", id: "on-top" });
    const toMove = h("select", { id: "edit-to-move" }, ...seats.map((s, i) => h("option", { value: String(i) }, s)));
    const clear = h("button", { type: "button", class: "clear" }, "Clear the board");
    const start = h("button", { type: "button", class: "start" }, "Start position");
    const panel = h(
      "div",
      { class: "setup-panel" },
      palette,
      ...stacking ? [h("p", {}, onTop, " ", h("label", { for: "on-top" }, "on top of the stack"))] : [],
      h("p", {}, h("label", { for: "edit-to-move" }, "To move: "), toMove),
      h("p", {}, clear, " ", start)
    );
    const stackAfter = (stack) => {
      const letter = palette.querySelector("input[name=piece]:checked")?.value ?? "";
      if (letter === "") return "";
      if (stacking && onTop.checked) return (stack ?? "") + letter;
      return stack === letter ? "" : letter;
    };
    return { panel, toMove, clear, start, stackAfter };
  }

  // src/stream.ts
  init_api();
  async function postEvents(path, body, signal, onEvent) {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
    if (!res.ok || !res.body) {
      const data = await res.json().catch(() => null);
      const err = data && data.error;
      throw new ApiError(err ? err.code : "http_" + res.status, err ? err.message : `the server answered ${res.status}`);
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (; ; ) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let end;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const ev = parseEvent(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (ev) onEvent(ev);
      }
    }
  }
  function parseEvent(text) {
    let name = "message";
    const data = [];
    for (const line of text.split("\n")) {
      if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) return null;
    try {
      return { name, data: JSON.parse(data.join("\n")) };
    } catch {
      return null;
    }
  }

  // src/analysis.ts
  var maxLines = 5;
  function analysisPage(root2) {
    const q = new URLSearchParams(location.search);
    const st = {
      game: decodeURIComponent(location.pathname.split("/")[2] ?? ""),
      options: q.get("options") ?? "",
      fen: q.get("fen") ?? "",
      line: (q.get("moves") ?? "").split(/[\s,]+/).filter((m) => m !== ""),
      cursor: 0,
      pos: null,
      geo: null,
      sel: emptySelection,
      message: "",
      best: null,
      bestDone: false,
      search: null,
      stoppedAt: 0,
      seats: [],
      shown: 0,
      editing: false,
      setup: null,
      edits: Promise.resolve(),
      lines: 1,
      arrowLine: 0
    };
    st.cursor = st.line.length;
    const ui = layout(root2, st);
    const refresh = () => render(st, ui, onCell2, play2, step2);
    const onCell2 = (cell) => {
      if (st.editing) editCell(st, ui, cell, refresh);
      else clickCell(st, cell, refresh, play2);
    };
    const play2 = (move) => {
      st.line = [...st.line.slice(0, st.cursor), move];
      st.cursor = st.line.length;
      show(st, refresh);
    };
    const step2 = (to) => {
      st.cursor = Math.max(0, Math.min(to, st.line.length));
      show(st, refresh);
    };
    ui.fen.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      setUp(st, ui.fen.value.trim(), refresh);
    });
    ui.ask.addEventListener("click", () => ask(st, Number(ui.movetime.value), refresh));
    ui.linesAsked.addEventListener("change", () => {
      st.lines = Number(ui.linesAsked.value);
    });
    ui.lines.addEventListener("pointerleave", () => pointLine(st, ui, 0));
    ui.edit.addEventListener("click", () => {
      st.editing = !st.editing;
      st.sel = emptySelection;
      if (st.editing && !st.setup && st.pos) st.setup = buildSetup(st, ui, refresh);
      refresh();
    });
    ui.stop.addEventListener("click", () => {
      stopSearch(st);
      refresh();
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
      if (ev.key === "ArrowLeft") step2(st.cursor - 1);
      if (ev.key === "ArrowRight") step2(st.cursor + 1);
    });
    void firstShow(st, ui, refresh);
  }
  async function firstShow(st, ui, refresh) {
    const err = await show(st, refresh);
    ui.fen.value = st.fen;
    if (!(err instanceof ApiError) || err.code !== "invalid" || st.fen === "" || st.pos) return;
    const bad = { fen: st.fen, line: st.line, cursor: st.cursor };
    Object.assign(st, { fen: "", line: [], cursor: 0 });
    if (await show(st, refresh)) {
      Object.assign(st, bad);
      return;
    }
    ui.fen.value = bad.fen;
    st.message = `The FEN in the address could not be read, so the board shows the start position; correct the FEN below. The game's parser says: ${err.message}`;
    refresh();
  }
  function layout(root2, st) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: "FEN (empty: the start)" });
    const movetime = h(
      "select",
      { id: "movetime" },
      ...[["500", "0.5 s"], ["1000", "1 s"], ["2000", "2 s"], ["5000", "5 s"]].map(([v, t]) => h("option", { value: v }, t))
    );
    movetime.value = "1000";
    const lines = h("select", { id: "lines" }, ...Array.from({ length: maxLines }, (_, i) => h("option", { value: String(i + 1) }, String(i + 1))));
    const ui = {
      bar: evalBar(),
      linesAsked: lines,
      lines: h("ol", { class: "lines", "aria-label": "the engine's best moves" }),
      svg,
      status: h("p", { class: "status", "aria-live": "polite" }),
      message: h("p", { class: "message", role: "alert" }),
      choices: h("div", { class: "choices" }),
      fen,
      nav: h("div", { class: "nav" }),
      line: h("ol", { class: "moves" }),
      legal: h("div", { class: "legal" }),
      ask: h("button", { type: "button", class: "ask" }, "Ask the engine"),
      movetime,
      stop: h("button", { type: "button", class: "stop" }, "Stop"),
      best: h("div", { class: "best", "aria-live": "polite" }),
      edit: h("button", { type: "button", class: "edit", "aria-pressed": "false" }, "Edit the position"),
      setupBox: h("div", { class: "setup-box" })
    };
    const fenForm = h(
      "form",
      { class: "fen" },
      h("label", { for: "fen" }, "Position (FEN): "),
      fen,
      h("button", { type: "submit", class: "setup" }, "Set up")
    );
    const boardBox = h("div", { class: "board-box" }, ui.bar.box);
    boardBox.append(svg);
    root2.replaceChildren(
      siteHeader(
        h("h1", {}, `Analysis: ${st.game}`),
        h("a", { href: `/rules/${encodeURIComponent(st.game)}`, class: "rules" }, "Rules")
      ),
      h(
        "main",
        { class: "game analysis" },
        boardBox,
        h(
          "aside",
          {},
          ui.status,
          ui.message,
          ui.choices,
          fenForm,
          h("p", {}, ui.edit),
          ui.setupBox,
          h("h2", {}, "Engine"),
          h(
            "p",
            { class: "engine-controls" },
            h("label", { for: "movetime" }, "Think for "),
            movetime,
            " ",
            h("label", { for: "lines" }, "Lines "),
            lines,
            " ",
            ui.ask,
            " ",
            ui.stop
          ),
          ui.best,
          ui.lines,
          h("h2", {}, "Line"),
          ui.nav,
          ui.line,
          h("h2", {}, "Legal moves"),
          ui.legal
        )
      )
    );
    return ui;
  }
  function query(st, moves) {
    const q = new URLSearchParams();
    if (st.fen) q.set("fen", st.fen);
    if (moves.length) q.set("moves", moves.join(" "));
    if (st.options) q.set("options", st.options);
    return q.toString();
  }
  function fetchPosition(st, moves) {
    return request("GET", `/api/analysis/${encodeURIComponent(st.game)}?${query(st, moves)}`);
  }
  async function show(st, refresh) {
    const shown = ++st.shown;
    try {
      const pos = await fetchPosition(st, st.line.slice(0, st.cursor));
      if (shown !== st.shown) return null;
      if (!st.geo) {
        st.geo = await request("GET", `/api/boards/${pos.board}?turn=0`);
        const catalog = await request("GET", "/api/catalog");
        st.seats = catalog.find((c) => c.id === st.game)?.seats ?? [];
      }
      st.pos = pos;
      st.sel = emptySelection;
      stopSearch(st);
      st.best = null;
      st.message = "";
      history.replaceState(null, "", `${location.pathname}?${query(st, st.line)}`);
    } catch (e) {
      st.message = e.message;
      refresh();
      return e;
    }
    refresh();
    return null;
  }
  async function setUp(st, fen, refresh) {
    try {
      await fetchPosition({ ...st, fen }, []);
    } catch (e) {
      st.message = e instanceof ApiError ? e.message : e.message;
      refresh();
      return;
    }
    st.fen = fen;
    st.line = [];
    st.cursor = 0;
    await show(st, refresh);
  }
  function clickCell(st, cell, refresh, play2) {
    const pos = st.pos;
    if (!pos) return;
    if (pos.result) {
      st.message = `The game is over here: ${pos.description ?? pos.result.reason}.`;
      refresh();
      return;
    }
    const out = click(pos.legal.map(parseMove), st.sel, cell);
    st.message = "";
    if (out.kind === "play") {
      play2(out.move);
      return;
    }
    if (out.kind === "reset" && st.sel.path.length === 0) st.message = `No legal move starts on ${cell}.`;
    st.sel = out.sel;
    refresh();
  }
  async function ask(st, movetime, refresh) {
    if (!st.pos || st.search) return;
    const search = new AbortController();
    st.search = search;
    st.best = null;
    st.bestDone = false;
    st.message = "";
    refresh();
    st.arrowLine = 0;
    const body = { fen: st.fen, moves: st.line.slice(0, st.cursor), options: optionMap(st.options), movetime, lines: st.lines };
    const path = `/api/analysis/${encodeURIComponent(st.game)}/stream`;
    for (let attempt = 0; ; attempt++) {
      try {
        await postEvents(path, body, search.signal, (ev) => {
          if (st.search !== search) return;
          if (ev.name === "info" || ev.name === "best") {
            st.best = ev.data;
            st.bestDone = ev.name === "best";
          } else if (ev.name === "error") {
            st.message = ev.data.error.message;
          }
          refresh();
        });
      } catch (e) {
        if (attempt === 0 && e instanceof ApiError && e.code === "rate_limited" && Date.now() - st.stoppedAt < 2e3) {
          await new Promise((done) => setTimeout(done, 300));
          if (st.search === search) continue;
        }
        if (!search.signal.aborted) st.message = e.message;
      }
      break;
    }
    if (st.search === search) {
      st.search = null;
      refresh();
    }
  }
  function stopSearch(st) {
    if (!st.search) return;
    st.search.abort();
    st.search = null;
    st.stoppedAt = Date.now();
  }
  function buildSetup(st, ui, refresh) {
    const promoted = st.game.startsWith("pommel") ? "captain" : st.game === "checkers-2011" ? "king" : "";
    const setup = setupControls(st.seats, promoted, st.pos?.stacking ?? false);
    setup.toMove.addEventListener("change", () => {
      const toMove = Number(setup.toMove.value);
      edit(st, ui, () => ({ toMove }), refresh);
    });
    setup.clear.addEventListener("click", () => edit(st, ui, () => ({ clear: true }), refresh));
    setup.start.addEventListener("click", () => setUp(st, "", refresh).then(() => {
      ui.fen.value = st.fen;
    }));
    ui.setupBox.replaceChildren(setup.panel);
    return setup;
  }
  function editCell(st, ui, cell, refresh) {
    edit(st, ui, () => st.pos && st.setup ? { cell, stack: st.setup.stackAfter(st.pos.stacks[cell]) } : null, refresh);
  }
  function edit(st, ui, change, refresh) {
    st.edits = st.edits.then(() => {
      const c = change();
      return c ? editNow(st, ui, c, refresh) : void 0;
    });
  }
  async function editNow(st, ui, change, refresh) {
    if (!st.pos) return;
    const shown = ++st.shown;
    try {
      const body = { fen: st.pos.fen, options: optionMap(st.options), ...change };
      const pos = await request("POST", `/api/analysis/${encodeURIComponent(st.game)}/edit`, body);
      if (shown !== st.shown) return;
      stopSearch(st);
      st.pos = pos;
      st.fen = pos.fen;
      st.line = [];
      st.cursor = 0;
      st.best = null;
      st.message = "";
      ui.fen.value = pos.fen;
      history.replaceState(null, "", `${location.pathname}?${query(st, st.line)}`);
    } catch (e) {
      st.message = e.message;
    }
    refresh();
  }
  function optionMap(text) {
    const out = {};
    for (const kv of text.split(",")) {
      const [k, ...v] = kv.split("=");
      if (k.trim()) out[k.trim()] = v.join("=").trim();
    }
    return out;
  }
  function render(st, ui, onCell2, play2, step2) {
    ui.message.textContent = st.message;
    const pos = st.pos;
    if (!pos || !st.geo) return;
    const kingWord = st.game.startsWith("pommel") ? "captain" : "king";
    const moves = pos.legal.map(parseMove);
    const last = st.cursor > 0 ? parseMove(st.line[st.cursor - 1]).path : [];
    const shown = { board: pos.board, ply: st.cursor, toMove: pos.toMove, stacks: pos.stacks, scores: pos.scores };
    drawBoard(ui.svg, st.geo, shown, { selected: [...st.sel.path, ...st.sel.drops], targets: targets(moves, st.sel), lastMove: last }, kingWord, onCell2);
    drawLineArrows(st, ui);
    ui.bar.show(st.best, pos.toMove, st.seats);
    const status = pos.result ? `Over: ${pos.description ?? pos.result.reason}` : `${st.seats[pos.toMove] ?? `Seat ${pos.toMove + 1}`} to move`;
    ui.svg.setAttribute("aria-label", `${st.game} analysis board, ${status}`);
    ui.status.replaceChildren(
      h("span", { class: pos.result ? "result" : "turn" }, status),
      ...pos.scores ? [h("br"), h("span", { class: "scores" }, "Scores: " + pos.scores.map((sc, i) => `${st.seats[i] ?? i + 1} ${sc}`).join(", "))] : []
    );
    document.title = `${st.game} analysis (arbiter)`;
    ui.choices.replaceChildren(...choices(moves, st.sel).slice(0, 24).map((m) => button(m.text, "choice", () => play2(m.text), m.text)));
    renderLine(st, ui, step2);
    ui.legal.replaceChildren(...pos.legal.map((m) => button(m, "legal-move", () => play2(m), m)));
    if (pos.legal.length === 0) ui.legal.append("none");
    ui.ask.disabled = st.search !== null || pos.legal.length === 0;
    ui.ask.textContent = st.search ? "Thinking…" : "Ask the engine";
    ui.stop.disabled = st.search === null;
    renderBest(st, ui, play2);
    renderLines(st, ui, play2);
    ui.edit.textContent = st.editing ? "Done setting up" : "Edit the position";
    ui.edit.setAttribute("aria-pressed", String(st.editing));
    ui.setupBox.hidden = !st.editing;
    if (st.setup) st.setup.toMove.value = String(pos.toMove);
  }
  function button(label, cls, f, move) {
    const b = h("button", { type: "button", class: cls }, label);
    if (move) b.dataset.move = move;
    b.addEventListener("click", f);
    return b;
  }
  function renderLine(st, ui, step2) {
    const nav2 = (label, to, name) => {
      const b = button(label, "", () => step2(to));
      b.setAttribute("aria-label", name);
      return b;
    };
    ui.nav.replaceChildren(nav2("«", 0, "start"), nav2("‹", st.cursor - 1, "back"), nav2("›", st.cursor + 1, "forward"), nav2("»", st.line.length, "end of the line"));
    ui.line.replaceChildren(...st.line.map((m, i) => {
      const li = h("li", { class: i === st.cursor - 1 ? "move current" : i >= st.cursor ? "move ahead" : "move" });
      li.append(button(m, "", () => step2(i + 1)));
      return li;
    }));
  }
  function renderBest(st, ui, play2) {
    const b = st.best;
    const state = st.search ? "thinking" : st.bestDone ? "done" : "stopped";
    if (!b) {
      ui.best.dataset.state = st.search ? state : "";
      ui.best.replaceChildren(...st.search ? [h("p", {}, "Thinking…")] : []);
      return;
    }
    ui.best.dataset.state = state;
    const lead = { thinking: "Thinking: best so far ", done: "Best move ", stopped: "Stopped: best so far " }[state];
    const mover = st.pos?.toMove ?? 0;
    const score = h("span", { class: "score", "data-score-text": b.scoreText }, judge(b, mover, st.seats).short);
    score.title = judge(b, mover, st.seats).words;
    ui.best.replaceChildren(
      h(
        "p",
        {},
        lead,
        h("strong", { class: "best-move" }, b.move),
        ", ",
        score,
        " (depth ",
        h("span", { class: "depth" }, String(b.depth)),
        `, ${b.nodes} nodes, ${(b.ms / 1e3).toFixed(1)} s)`
      ),
      h("p", { class: "pv" }, "Line: " + b.line.join(" ")),
      button(`Play ${b.move}`, "play-best", () => play2(b.move))
    );
  }
  function drawLineArrows(st, ui) {
    const arrowed = st.best?.lines?.[st.arrowLine] ?? st.best;
    if (st.geo) drawArrows(ui.svg, st.geo, arrowed?.line ?? [], Math.max(2, st.seats.length));
  }
  function pointLine(st, ui, i) {
    if (st.arrowLine === i) return;
    st.arrowLine = i;
    drawLineArrows(st, ui);
    [...ui.lines.children].forEach((li, j) => li.classList.toggle("arrowed", j === i));
  }
  function renderLines(st, ui, play2) {
    const lines = st.best?.lines ?? [];
    ui.lines.hidden = lines.length < 2;
    if (lines.length < 2) {
      ui.lines.replaceChildren();
      return;
    }
    const mover = st.pos?.toMove ?? 0;
    const point = (i) => () => pointLine(st, ui, i);
    ui.lines.replaceChildren(...lines.map((l, i) => {
      const j = judge(l, mover, st.seats);
      const play1 = button(l.move, "play-line", () => play2(l.move), l.move);
      play1.setAttribute("aria-label", `play ${l.move}, ${j.words}`);
      play1.addEventListener("focus", point(i));
      const li = h(
        "li",
        { class: i === st.arrowLine ? "pv-line arrowed" : "pv-line", "data-move": l.move },
        play1,
        " ",
        h("span", { class: "line-score", title: j.words }, j.short),
        " ",
        h("span", { class: "line-moves" }, l.line.slice(1).join(" "))
      );
      li.addEventListener("pointerenter", point(i));
      return li;
    }));
  }

  // src/main.ts
  init_chrome();
  init_diagrams();

  // src/game.ts
  init_api();
  init_board();
  init_chrome();
  init_dom();
  init_entry();

  // src/names.ts
  var names = {
    "pommel": "Pommel",
    "pommel-76": "Pommel 76",
    "eximo": "Eximo",
    "checkers-2011": "Checkers 2011",
    "punt-match": "Punt-Match",
    "punt-heks-match": "Punt-Heks-Match",
    "punt-heks-match-3p": "Punt-Heks-Match, 3 players"
  };
  function gameName(id) {
    return names[id] ?? id;
  }

  // src/sound.ts
  var muteKey = "arbiter.muted";
  var tones = {
    move: [[520, 0, 0.06]],
    capture: [[330, 0, 0.07], [260, 0.07, 0.09]],
    end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]]
  };
  function muted() {
    try {
      return localStorage.getItem(muteKey) === "1";
    } catch {
      return false;
    }
  }
  function setMuted(on) {
    try {
      localStorage.setItem(muteKey, on ? "1" : "0");
    } catch {
    }
  }
  var Sounds = class {
    constructor() {
      __publicField(this, "ctx", null);
    }
    play(kind) {
      document.body.dataset.sound = muted() ? "" : kind;
      if (muted() || typeof AudioContext === "undefined") return;
      try {
        this.ctx ?? (this.ctx = new AudioContext());
        if (this.ctx.state === "suspended") void this.ctx.resume();
        const now = this.ctx.currentTime;
        for (const [freq, start, length] of tones[kind]) this.tone(freq, now + start, length);
      } catch {
      }
    }
    tone(freq, at, length) {
      const ctx = this.ctx;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(1e-4, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(1e-4, at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
    }
  };

  // src/store.ts
  var seatsKey = (id) => "arbiter.seats." + id;
  var invitesKey = (id) => "arbiter.invites." + id;
  var gamesKey = "arbiter.games";
  function read(key, fallback) {
    try {
      const text = localStorage.getItem(key);
      return text ? JSON.parse(text) : fallback;
    } catch {
      return fallback;
    }
  }
  function tokens(id) {
    return read(seatsKey(id), {});
  }
  function saveToken(id, seat, token) {
    const all = tokens(id);
    all[seat] = token;
    localStorage.setItem(seatsKey(id), JSON.stringify(all));
    rememberGame(id);
  }
  function invites(id) {
    return read(invitesKey(id), {});
  }
  function saveInvite(id, seat, url) {
    const all = invites(id);
    all[seat] = url;
    localStorage.setItem(invitesKey(id), JSON.stringify(all));
  }
  function myGames() {
    return read(gamesKey, []);
  }
  function rememberGame(id) {
    const ids = myGames().filter((g) => g !== id);
    ids.unshift(id);
    localStorage.setItem(gamesKey, JSON.stringify(ids.slice(0, 50)));
  }

  // src/turns.ts
  function turnRows(movers, seats) {
    const rows = [];
    let row = null;
    movers.forEach((seat, ply) => {
      if (!row || seat <= lastSeat(row)) {
        row = { number: rows.length + 1, plies: new Array(seats).fill(null) };
        rows.push(row);
      }
      row.plies[seat] = ply;
    });
    return rows;
  }
  function lastSeat(row) {
    for (let s = row.plies.length - 1; s >= 0; s--) if (row.plies[s] !== null) return s;
    return -1;
  }
  function moversOf(moves, toMove, seats, told) {
    if (told && told.length === moves.length) return told;
    const first = ((toMove - moves.length) % seats + seats) % seats;
    return moves.map((_, i) => (first + i) % seats);
  }

  // src/game.ts
  function gamePage(root2) {
    const parts = location.pathname.split("/");
    const page2 = {
      id: decodeURIComponent(parts[2] ?? ""),
      game: null,
      pos: null,
      geo: null,
      viewSeat: -1,
      viewPly: null,
      sel: emptySelection,
      taking: [],
      message: "",
      busy: false,
      ws: null,
      retry: 0,
      shown: 0,
      effects: /* @__PURE__ */ new Map(),
      anim: null,
      clockAt: 0,
      flagAsked: 0,
      offline: false,
      heard: -1,
      ended: false,
      sounds: new Sounds()
    };
    takeToken(page2);
    const ui = layout2(root2);
    typedEntry(ui.typed, (move) => actions.play(move));
    const refresh = () => render2(page2, ui, actions);
    const actions = {
      cell: (cell) => onCell(page2, cell, refresh),
      play: (move) => play(page2, move, refresh),
      command: (path, body) => command(page2, path, body, refresh),
      step: (to) => step(page2, to, refresh),
      drag: (from, to) => onDrag(page2, from, to, refresh),
      rematch: () => rematch(page2, refresh)
    };
    attachPointer(ui.svg, { tap: actions.cell, drag: actions.drag });
    setInterval(() => tickClocks(page2, ui, refresh), 100);
    document.addEventListener("keydown", (ev) => onKey(page2, ev, actions));
    load(page2, refresh).then(() => connect(page2, refresh));
  }
  function onKey(page2, ev, act) {
    const t = ev.target;
    if (!page2.game || t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const shown = page2.viewPly ?? page2.game.ply;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: page2.game.ply }[ev.key];
    if (to === void 0) return;
    ev.preventDefault();
    act.step(to);
  }
  function takeToken(page2) {
    const seat = Number(new URLSearchParams(location.search).get("seat") ?? "NaN");
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token && Number.isInteger(seat)) {
      saveToken(page2.id, seat, token);
      history.replaceState(null, "", location.pathname + location.search);
    }
  }
  function typedEntry(form, play2) {
    const input = h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false", autocapitalize: "off" });
    form.append(h("label", { for: "typed-move" }, "Type a move"), input, h("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const move = input.value.trim().toLowerCase();
      if (move) play2(move);
      input.value = "";
    });
  }
  function layout2(root2) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    const ui = {
      title: h("h1"),
      svg,
      above: h("div", { class: "players above" }),
      below: h("div", { class: "players below" }),
      status: h("p", { class: "status" }),
      notice: h("p", { class: "notice" }),
      message: h("p", { class: "message", role: "alert" }),
      end: h("section", { class: "end", "aria-label": "result" }),
      choices: h("div", { class: "choices" }),
      nav: h("div", { class: "nav" }),
      moves: h("div", { class: "moves", role: "list", "aria-label": "moves" }),
      controls: h("div", { class: "controls" }),
      typed: h("form", { class: "typed" }),
      links: h("div", { class: "links" }),
      announce: h("p", { class: "sr-only", "aria-live": "polite" })
    };
    const boardBox = h("div", { class: "board-box" });
    boardBox.append(svg);
    root2.replaceChildren(
      siteHeader(ui.title),
      h(
        "main",
        { class: "game" },
        h("section", { class: "board-area", "aria-label": "board" }, ui.above, boardBox, ui.below),
        h(
          "aside",
          { class: "side" },
          ui.status,
          ui.notice,
          ui.message,
          ui.end,
          ui.choices,
          ui.typed,
          ui.controls,
          h("section", { class: "move-list", "aria-label": "moves" }, h("h2", {}, "Moves"), ui.nav, ui.moves),
          ui.links
        )
      ),
      ui.announce
    );
    return ui;
  }
  function heldSeats(page2) {
    return Object.keys(tokens(page2.id)).map(Number).sort();
  }
  function actingSeat(page2) {
    const g = page2.game;
    if (!g || g.result) return -1;
    return tokens(page2.id)[g.toMove] ? g.toMove : -1;
  }
  function tokenFor(page2) {
    const t = tokens(page2.id);
    const seat = actingSeat(page2);
    if (seat >= 0) return t[seat];
    return t[page2.viewSeat] ?? Object.values(t)[0];
  }
  async function load(page2, refresh) {
    try {
      const g = await request("GET", `/api/games/${page2.id}`);
      await show2(page2, g);
    } catch (e) {
      if (!page2.offline) page2.message = e.message;
    }
    refresh();
  }
  async function show2(page2, g) {
    if (page2.game && g.version < page2.game.version) return;
    const first = page2.game === null;
    const shown = ++page2.shown;
    page2.game = g;
    if (first) {
      const seatParam = new URLSearchParams(location.search).get("seat");
      const held = heldSeats(page2);
      page2.viewSeat = seatParam !== null && held.includes(Number(seatParam)) ? Number(seatParam) : held[0] ?? -1;
    }
    page2.clockAt = performance.now();
    const ply = page2.viewPly ?? g.ply;
    const next = page2.viewPly === null && page2.pos !== null && page2.pos.ply === g.ply - 1;
    const [pos, geo, fx] = await Promise.all([
      request("GET", `/api/games/${page2.id}/position?ply=${ply}`),
      page2.geo ? Promise.resolve(page2.geo) : null,
      next ? effectsOf(page2, g.ply - 1) : null
    ]);
    if (shown !== page2.shown) return;
    page2.pos = pos;
    page2.anim = fx;
    if (!geo) {
      const turn = page2.viewSeat > 0 ? 360 * page2.viewSeat / g.seats.length : 0;
      page2.geo = await request("GET", `/api/boards/${pos.board}?turn=${turn}`);
    }
  }
  async function effectsOf(page2, ply) {
    const known = page2.effects.get(ply);
    if (known) return known;
    return request("GET", `/api/games/${page2.id}/effects?ply=${ply}`).catch(() => null);
  }
  function connect(page2, refresh) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${page2.id}/ws`);
    page2.ws = ws;
    ws.onopen = () => {
      page2.retry = 0;
      if (page2.offline) {
        page2.offline = false;
        refresh();
      }
    };
    ws.onmessage = async (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "game" && msg.effects && msg.game) page2.effects.set(msg.game.ply - 1, msg.effects);
      if (msg.type !== "game" || !page2.game || msg.version <= page2.game.version) return;
      const gap = msg.version !== page2.game.version + 1;
      const g = gap ? await request("GET", `/api/games/${page2.id}`) : msg.game;
      if (g.version <= page2.game.version) return;
      if (g.ply !== page2.game.ply) {
        page2.sel = emptySelection;
        page2.taking = [];
      }
      await show2(page2, g);
      refresh();
    };
    ws.onclose = () => {
      if (page2.ws !== ws) return;
      page2.offline = true;
      refresh();
      page2.retry = Math.min(page2.retry + 1, 5);
      setTimeout(async () => {
        await load(page2, refresh);
        connect(page2, refresh);
      }, 500 * page2.retry);
    };
  }
  function cannotPlay(page2, g) {
    if (actingSeat(page2) >= 0 && page2.viewPly === null) return "";
    if (g.result) return "The game is over.";
    if (page2.viewPly !== null) return "This is an earlier position; press End or » to go back to the game.";
    return heldSeats(page2).length ? `Not your turn: ${seatName2(g, g.toMove)} is to move.` : "You are watching this game.";
  }
  function onCell(page2, cell, refresh) {
    const g = page2.game;
    if (!g || page2.busy) return;
    const why = cannotPlay(page2, g);
    if (why) {
      page2.message = why;
      refresh();
      return;
    }
    const out = click(g.legal.map(parseMove), page2.sel, cell);
    page2.message = "";
    if (out.kind === "play") {
      play(page2, out.move, refresh);
      return;
    }
    if (out.kind === "reset" && page2.sel.path.length === 0 && g.legal.length > 0) {
      page2.message = `No legal move starts on ${cell}.`;
    }
    select(page2, out.sel, refresh);
  }
  function onDrag(page2, from, to, refresh) {
    const g = page2.game;
    if (!g || page2.busy) return;
    const why = cannotPlay(page2, g);
    const moves = g.legal.map(parseMove);
    const start = click(moves, emptySelection, from);
    const out = why || start.kind !== "select" ? null : click(moves, start.sel, to);
    page2.message = why || (start.kind !== "select" ? `No legal move starts on ${from}.` : out?.kind === "reset" ? `No legal move goes from ${from} to ${to}.` : "");
    if (out?.kind === "play") {
      play(page2, out.move, refresh);
      return;
    }
    select(page2, out?.kind === "select" ? out.sel : start.kind === "select" ? start.sel : emptySelection, refresh);
  }
  function select(page2, sel, refresh) {
    page2.sel = sel;
    page2.taking = [];
    refresh();
    const g = page2.game;
    if (!g || sel.path.length < 2) return;
    const move = matching(g.legal.map(parseMove), sel)[0];
    if (!move) return;
    const legs = sel.path.length - 1;
    request("GET", `/api/games/${page2.id}/effects?move=${encodeURIComponent(move.text)}`).then((fx) => {
      if (page2.sel !== sel) return;
      page2.taking = (fx.captured ?? []).filter((c) => c.leg >= 1 && c.leg <= legs || c.leg === 0 && legs === move.path.length - 1).map((c) => c.cell);
      refresh();
    }, () => {
    });
  }
  async function play(page2, move, refresh) {
    const g = page2.game;
    const token = tokenFor(page2);
    if (!g || !token) return;
    page2.busy = true;
    page2.sel = emptySelection;
    page2.taking = [];
    refresh();
    try {
      const next = await request("POST", `/api/games/${page2.id}/moves`, { move, ply: g.ply }, token);
      page2.message = "";
      if (next.version > (page2.game?.version ?? 0)) await show2(page2, next);
    } catch (e) {
      page2.message = e instanceof ApiError ? e.message : `The move was not sent: ${e.message}`;
    }
    page2.busy = false;
    refresh();
  }
  async function command(page2, path, body, refresh) {
    const token = tokenFor(page2);
    if (!token) return;
    try {
      const next = await request("POST", `/api/games/${page2.id}/${path}`, body, token);
      if (next.version > (page2.game?.version ?? 0)) await show2(page2, next);
      page2.message = "";
    } catch (e) {
      page2.message = e.message;
    }
    refresh();
  }
  async function step(page2, ply, refresh) {
    const g = page2.game;
    if (!g) return;
    const to = Math.max(0, Math.min(ply, g.ply));
    page2.viewPly = to === g.ply ? null : to;
    page2.sel = emptySelection;
    page2.taking = [];
    await show2(page2, g);
    refresh();
  }
  async function rematch(page2, refresh) {
    const g = page2.game;
    if (!g) return;
    const n = g.seats.length;
    const was = (seat) => (seat + n - 1) % n;
    const held = heldSeats(page2);
    const body = {
      game: g.game,
      options: g.options,
      seats: g.seats.map((_, i) => g.seats[was(i)].player === "human" ? "human" : g.seats[was(i)].player)
    };
    const names2 = g.seats.map((_, i) => g.seats[was(i)].name ?? "");
    if (names2.some((x) => x)) body.names = names2;
    if (g.startFen) body.fen = g.startFen;
    if (g.clock?.kind === "fischer") body.clock = g.clock.control;
    if (g.clock?.kind === "correspondence" && g.clock.perMoveMs) body.days = Math.round(g.clock.perMoveMs / 864e5);
    try {
      const made = await request("POST", "/api/games", body);
      let mine = -1;
      for (const inv of made.seats) {
        if (held.includes(was(inv.seat))) {
          saveToken(made.id, inv.seat, inv.token);
          if (mine < 0 || was(inv.seat) === page2.viewSeat) mine = inv.seat;
        } else {
          saveInvite(made.id, inv.seat, inv.url);
        }
      }
      location.assign(mine >= 0 ? `/play/${made.id}?seat=${mine}` : made.url);
    } catch (e) {
      page2.message = `No rematch: ${e.message}`;
      refresh();
    }
  }
  function render2(page2, ui, act) {
    const g = page2.game;
    ui.message.textContent = page2.message;
    if (!g || !page2.pos || !page2.geo) return;
    const kingWord = g.game.startsWith("pommel") ? "captain" : "king";
    ui.title.textContent = `${gameName(g.game)}: ${g.seats.map((_, i) => seatName2(g, i)).join(" vs ")}`;
    document.title = `${gameName(g.game)}: ${statusText(page2)} (arbiter)`;
    const moves = g.legal.map(parseMove);
    const shownPly = page2.viewPly ?? g.ply;
    const lastMove = shownPly > 0 ? parseMove(g.moves[shownPly - 1]).path : [];
    const letters = g.seats.map((s) => s.side[0].toLowerCase());
    const marks = { selected: [...page2.sel.path, ...page2.sel.drops], targets: targets(moves, page2.sel), lastMove, path: page2.sel.path, taking: page2.taking };
    drawBoard(ui.svg, page2.geo, page2.pos, marks, kingWord, act.cell, { pointer: true, letters });
    if (performance.getEntriesByName("board-drawn").length === 0) performance.mark("board-drawn");
    if (page2.anim && page2.viewPly === null && page2.anim.path.length && page2.pos.ply === g.ply) animateMove(ui.svg, page2.geo, page2.anim, letters);
    page2.anim = null;
    ui.svg.setAttribute("aria-label", `${gameName(g.game)} board, ${statusText(page2)}`);
    renderPlayers(page2, ui);
    ui.status.replaceChildren(...statusLines(page2));
    renderNotice(page2, ui);
    renderEnd(page2, ui, act);
    renderChoices(page2, ui, act, moves);
    ui.typed.hidden = actingSeat(page2) < 0 || page2.viewPly !== null;
    ui.typed.querySelector("input")?.setAttribute("placeholder", g.legal.length ? `e.g. ${g.legal[0]}` : "");
    renderMoves(page2, ui, act);
    renderControls(page2, ui, act);
    renderLinks(page2, ui);
    announce(page2, ui);
  }
  function playerName(g, seat, held = []) {
    const s = g.seats[seat];
    if (s.name) return s.name;
    if (s.open) return "waiting for a player";
    const level = /^ai:level=(\d+)$/.exec(s.player);
    if (level) return `AI level ${level[1]}`;
    if (s.player !== "human") return `AI (${s.player})`;
    return held.includes(seat) ? "You" : "Anonymous";
  }
  function seatName2(g, seat) {
    const who = playerName(g, seat);
    return who === "Anonymous" ? g.seats[seat].side : `${g.seats[seat].side} (${who})`;
  }
  function statusText(page2) {
    const g = page2.game;
    if (g.result) return g.description || (g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won: ${g.result.reason}` : `draw: ${g.result.reason}`);
    if (actingSeat(page2) >= 0) return heldSeats(page2).length > 1 ? `Your move (${seatName2(g, g.toMove)})` : "Your move";
    if (g.seats[g.toMove].player !== "human") return `${seatName2(g, g.toMove)} is thinking…`;
    if (g.seats[g.toMove].open) return `Waiting for a player to take ${g.seats[g.toMove].side}`;
    return `${seatName2(g, g.toMove)} to move`;
  }
  function statusLines(page2) {
    const g = page2.game;
    const out = [h("span", { class: g.result ? "result sr-only" : "turn" }, statusText(page2))];
    const held = heldSeats(page2).filter((s) => s < g.seats.length);
    out.push(h("span", { class: "you" }, held.length ? `You play ${held.map((s) => g.seats[s].side).join(" and ")}` : "You are watching"));
    if (page2.pos?.scores) {
      out.push(h("span", { class: "scores" }, "Scores: " + page2.pos.scores.map((s, i) => `${g.seats[i].side} ${s}`).join(", ")));
    }
    if (page2.offline) out.push(h("span", { class: "offline" }, "Connection lost; reconnecting…"));
    if (g.attention) out.push(h("span", { class: "attention", role: "alert" }, g.attention.charAt(0).toUpperCase() + g.attention.slice(1) + "."));
    if (page2.pos?.endRows) out.push(h("span", { class: "legend" }, "End rows are outlined in their player's colour; a boxed pile stands on its controller's end row: frozen, it scores."));
    if (page2.viewPly !== null) out.push(h("span", { class: "history" }, `Showing the position after ${page2.viewPly} of ${g.ply} moves`));
    return out.map((n) => h("span", { class: "line" }, n));
  }
  function stripOrder(page2) {
    const n = page2.game.seats.length;
    const below = page2.viewSeat >= 0 ? page2.viewSeat : 0;
    const above = [];
    for (let i = n - 1; i >= 1; i--) above.push((below + i) % n);
    return { above, below };
  }
  function renderPlayers(page2, ui) {
    const { above, below } = stripOrder(page2);
    ui.above.replaceChildren(...above.map((s) => playerStrip(page2, s)));
    ui.below.replaceChildren(playerStrip(page2, below));
  }
  function playerStrip(page2, seat) {
    const g = page2.game;
    const s = g.seats[seat];
    const turn = !g.result && g.toMove === seat;
    const won = !!g.result && g.result.winners.includes(seat);
    const strip = h(
      "div",
      { class: `player${turn ? " to-move" : ""}${won ? " winner" : ""}`, "data-seat": String(seat) },
      h("span", { class: `chip side-${s.side[0].toLowerCase()}`, "aria-hidden": "true" }),
      h("span", { class: "who" }, h("span", { class: "side" }, s.side), " ", h("span", { class: "name" }, playerName(g, seat, heldSeats(page2))))
    );
    if (turn && s.player !== "human" && !s.open) strip.append(h("span", { class: "thinking" }, "thinking"));
    else if (turn) strip.append(h("span", { class: "turn-mark" }, "to move"));
    if (won) strip.append(h("span", { class: "won" }, "won"));
    if (g.clock) {
      const left = clockLeft(page2, seat);
      strip.append(h("span", { class: clockClass(page2, seat, left), "data-seat": String(seat), role: "timer", "aria-label": `${s.side}'s clock` }, clockText(left)));
    }
    return strip;
  }
  function renderNotice(page2, ui) {
    const g = page2.game;
    const seat = Number(new URLSearchParams(location.search).get("seat") ?? "NaN");
    const lost = location.pathname.startsWith("/play/") && Number.isInteger(seat) && seat >= 0 && seat < g.seats.length && !heldSeats(page2).includes(seat);
    ui.notice.hidden = !lost;
    if (!lost) return;
    ui.notice.replaceChildren(
      h("strong", {}, `This browser does not hold ${g.seats[seat].side}'s seat, so you are watching. `),
      "A seat's link carries a secret token after its # sign, and this one came without it. To play, open the whole invite link you were sent (or that you copied when you made the game) in this browser; the browser where the seat was first opened keeps it."
    );
  }
  function renderEnd(page2, ui, act) {
    const g = page2.game;
    ui.end.hidden = !g.result;
    if (!g.result) {
      ui.end.replaceChildren();
      return;
    }
    const buttons = h("div", { class: "end-actions" });
    if (heldSeats(page2).length) {
      const again = h("button", { type: "button", class: "rematch primary" }, "Rematch");
      again.addEventListener("click", () => act.rematch());
      buttons.append(again);
    }
    buttons.append(
      h("a", { href: `/?game=${encodeURIComponent(g.game)}`, class: "button new-game" }, "New game"),
      h("a", { href: analysisLink(g), class: "button analyse-end" }, "Analyse")
    );
    ui.end.replaceChildren(h("h2", {}, endTitle(page2)), h("p", { class: "end-reason" }, g.description || g.result.reason), buttons);
  }
  function endTitle(page2) {
    const g = page2.game;
    const winners = g.result.winners;
    if (winners.length === 0) return g.result.reason === "aborted" ? "Game aborted" : "Draw";
    const held = heldSeats(page2);
    if (held.length && held.length < g.seats.length) return winners.some((w) => held.includes(w)) ? "You won" : "You lost";
    return `${winners.map((w) => g.seats[w].side).join(" and ")} won`;
  }
  function announce(page2, ui) {
    const g = page2.game;
    if (page2.heard < 0) {
      page2.heard = g.ply;
      page2.ended = !!g.result;
      return;
    }
    if (g.ply > page2.heard) {
      const movers = moversOf(g.moves, g.toMove, g.seats.length, g.movers);
      const last = g.ply - 1;
      const fx = page2.effects.get(last);
      const capture = fx ? fx.capture : g.moves[last].includes("x");
      ui.announce.textContent = `${seatName2(g, movers[last])} played ${g.moves[last]}${capture ? ", a capture" : ""}.`;
      page2.sounds.play(capture ? "capture" : "move");
      page2.heard = g.ply;
    }
    if (g.result && !page2.ended) {
      page2.ended = true;
      ui.announce.textContent += ` ${statusText(page2)}.`;
      page2.sounds.play("end");
    }
  }
  function ticking(g, seat) {
    return !!g.clock && g.clock.running && !g.result && g.toMove === seat;
  }
  function clockLeft(page2, seat) {
    const g = page2.game;
    const ms = g.clock.leftMs[seat];
    return ticking(g, seat) ? ms - (performance.now() - page2.clockAt) : ms;
  }
  function lowTime(g) {
    return Math.max(2e4, (g.clock?.baseMs ?? 0) / 10);
  }
  function clockClass(page2, seat, left) {
    const g = page2.game;
    const parts = ["clock"];
    if (ticking(g, seat)) parts.push("running");
    if (g.clock?.kind === "fischer" && left < lowTime(g)) parts.push("low");
    return parts.join(" ");
  }
  function tickClocks(page2, ui, refresh) {
    const g = page2.game;
    if (!g || !g.clock || g.result) return;
    for (const span of ui.above.parentElement.querySelectorAll(".clock[data-seat]")) {
      const seat = Number(span.dataset.seat);
      const left = clockLeft(page2, seat);
      span.textContent = clockText(left);
      span.className = clockClass(page2, seat, left);
    }
    if (ticking(g, g.toMove) && clockLeft(page2, g.toMove) <= -300 && page2.flagAsked !== g.version) {
      page2.flagAsked = g.version;
      load(page2, refresh);
    }
  }
  function clockText(ms) {
    const left = Math.max(0, ms);
    if (left < 1e4) return (Math.floor(left / 100) / 10).toFixed(1);
    const s = Math.floor(left / 1e3);
    if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor(s % 86400 / 3600)} h`;
    const mmss = `${Math.floor(s % 3600 / 60)}:${String(s % 60).padStart(2, "0")}`;
    return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, "0")}` : mmss;
  }
  function renderChoices(page2, ui, act, moves) {
    const list = choices(moves, page2.sel);
    ui.choices.replaceChildren();
    if (list.length === 0) return;
    ui.choices.append(h("span", {}, list.length > 1 ? "Several moves match; play:" : "Play:"));
    for (const m of list.slice(0, 24)) {
      const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
      b.addEventListener("click", () => act.play(m.text));
      ui.choices.append(b);
    }
  }
  function renderMoves(page2, ui, act) {
    const g = page2.game;
    const shown = page2.viewPly ?? g.ply;
    const nav2 = (label, to, name, cls = "") => {
      const b = h("button", { type: "button", "aria-label": name, title: name, class: cls }, label);
      b.addEventListener("click", () => act.step(to));
      return b;
    };
    ui.nav.replaceChildren(
      nav2("«", 0, "start (Home)"),
      nav2("‹", shown - 1, "back (←)"),
      nav2("›", shown + 1, "forward (→)"),
      nav2(page2.viewPly === null ? "»" : "» Live", g.ply, "live position (End)", page2.viewPly === null ? "" : "live")
    );
    const n = g.seats.length;
    const movers = moversOf(g.moves, g.toMove, n, g.movers);
    ui.moves.classList.toggle("three", n > 2);
    ui.moves.replaceChildren(...turnRows(movers, n).map((row) => {
      const li = h("div", { class: "turn", role: "listitem" }, h("span", { class: "number" }, `${row.number}.`));
      row.plies.forEach((ply, seat) => {
        if (ply === null) {
          li.append(h("span", { class: "move empty", "aria-hidden": "true" }, row.number === 1 && seat < movers[0] ? "…" : ""));
          return;
        }
        const b = h("button", { type: "button", class: ply === shown - 1 ? "move current" : "move", "data-ply": String(ply + 1), "aria-label": `${row.number}, ${g.seats[seat].side}: ${g.moves[ply]}` }, g.moves[ply]);
        if (ply === shown - 1) b.setAttribute("aria-current", "step");
        b.addEventListener("click", () => act.step(ply + 1));
        li.append(b);
      });
      return li;
    }));
    if (g.moves.length === 0) ui.moves.append(h("p", { class: "none" }, "No moves yet."));
    keepInView(ui.moves, ui.moves.querySelector(".current"), page2.viewPly === null);
  }
  function keepInView(list, current, live) {
    if (live || !current) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
  }
  function renderControls(page2, ui, act) {
    const g = page2.game;
    ui.controls.replaceChildren();
    const button2 = (label, cls, f) => {
      const b = h("button", { type: "button", class: cls }, label);
      b.addEventListener("click", f);
      ui.controls.append(b);
      return b;
    };
    const sound = button2(muted() ? "Sound off" : "Sound on", "mute", () => {
      setMuted(!muted());
      renderControls(page2, ui, act);
    });
    sound.setAttribute("aria-pressed", String(!muted()));
    const held = heldSeats(page2);
    if (g.result || held.length === 0) return;
    button2("Resign", "resign danger", () => {
      if (confirm("Resign this game?")) act.command("resign", void 0);
    });
    if (g.seats.length !== 2) return;
    const mine = (s) => held.includes(s);
    if (g.drawOffer >= 0 && !mine(g.drawOffer)) {
      ui.controls.append(h("span", { class: "offer-text" }, `${g.seats[g.drawOffer].side} offers a draw.`));
      button2("Accept draw", "accept", () => act.command("draw", { action: "accept" }));
      button2("Decline", "decline", () => act.command("draw", { action: "decline" }));
    } else if (g.drawOffer >= 0) {
      ui.controls.append(h("span", { class: "offer-text" }, "You offered a draw."));
    } else {
      button2("Offer draw", "offer", () => act.command("draw", { action: "offer" }));
    }
  }
  function analysisLink(g) {
    const q = new URLSearchParams();
    if (g.startFen) q.set("fen", g.startFen);
    if (g.moves.length) q.set("moves", g.moves.join(" "));
    const options = Object.entries(g.options ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
    if (options) q.set("options", options);
    const text = q.toString();
    return `/analysis/${g.game}` + (text ? "?" + text : "");
  }
  function renderLinks(page2, ui) {
    const g = page2.game;
    const invites2 = invites(page2.id);
    const rows = [];
    for (const s of g.seats) {
      const url = invites2[s.seat];
      if (!url || tokens(page2.id)[s.seat]) continue;
      const full = location.origin + url;
      rows.push(h(
        "p",
        { class: "invite" },
        h("label", { for: `invite-${s.seat}` }, `Invite for ${s.side}`),
        h("input", { id: `invite-${s.seat}`, readonly: "", value: full, "data-seat": String(s.seat) }),
        copyButton(full)
      ));
    }
    const spectate = location.origin + g.url;
    rows.push(h("p", { class: "spectate" }, h("label", { for: "spectator-link" }, "Spectators"), h("input", { id: "spectator-link", readonly: "", value: spectate }), copyButton(spectate)));
    rows.push(h(
      "p",
      { class: "more" },
      h("a", { href: `/api/games/${page2.id}/record`, download: `${g.game}-${page2.id}.pdn` }, "Download the record"),
      " · ",
      h("a", { href: analysisLink(g), class: "analyse" }, "Analyse this game"),
      " · ",
      h("a", { href: `/rules/${g.game}`, class: "rules" }, `Rules of ${gameName(g.game)}`)
    ));
    ui.links.replaceChildren(...rows);
  }

  // src/home.ts
  init_api();
  init_chrome();
  init_dom();

  // src/preview.ts
  init_api();
  init_diagrams();
  async function drawPreviews(catalog, boxOf) {
    await Promise.all(catalog.map(async (c) => {
      const box = boxOf(c.id);
      if (!box) return;
      try {
        const start = await request("GET", `/api/analysis/${encodeURIComponent(c.id)}`);
        const geo = await request("GET", `/api/boards/${encodeURIComponent(start.board)}?turn=0`);
        const svg = pictureBoard(geo, start.stacks, start.toMove, c.id, `${c.name ?? c.id}: the start position`);
        svg.classList.add("preview");
        svg.dataset.game = c.id;
        box.replaceChildren(svg);
      } catch {
      }
    }));
  }

  // src/home.ts
  var seatChoices = [
    ["me", "Me"],
    ["friend", "A friend at this screen"],
    ["invite", "A friend, by an invite link"],
    ["open", "Anyone, from the open games"],
    ...[1, 2, 3, 4, 5, 6].map((l) => [`ai:level=${l}`, `The computer, level ${l}`])
  ];
  var clocks = [
    ["", "No clock"],
    ["clock:3m+2s", "3 min, + 2 s a move"],
    ["clock:5m+3s", "5 min, + 3 s a move"],
    ["clock:15m+10s", "15 min, + 10 s a move"],
    ["days:1", "1 day a move"],
    ["days:3", "3 days a move"]
  ];
  var nameOf = (c, id) => c?.name ?? id;
  async function homePage(root2) {
    const message = h("p", { class: "message", role: "alert" });
    root2.replaceChildren(siteHeader(h("h1", {}, "Play checkers-family games")), message);
    let catalog;
    try {
      catalog = await request("GET", "/api/catalog");
    } catch (e) {
      message.textContent = e.message;
      return;
    }
    const form = newGameForm(catalog, message, requestedGame(catalog));
    const cards = gameCards(catalog, form);
    root2.append(h(
      "main",
      { class: "home" },
      h("section", { class: "games", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, "The games"), cards),
      h(
        "div",
        { class: "home-side" },
        h("section", { class: "new-game-box", id: "new-game", "aria-labelledby": "new-game-title" }, h("h2", { id: "new-game-title" }, "New game"), form),
        myGames2(catalog),
        openGames(catalog, message)
      )
    ));
    if (requestedGame(catalog)) form.scrollIntoView({ block: "start" });
    void drawPreviews(catalog, (id) => cards.querySelector(`li[data-game="${CSS.escape(id)}"] .preview-box`));
  }
  function requestedGame(catalog) {
    const id = new URLSearchParams(location.search).get("game");
    return catalog.some((c) => c.id === id) ? id : void 0;
  }
  function gameCards(catalog, form) {
    const list = h("ul", { class: "catalog game-cards" });
    for (const c of catalog) {
      const play2 = h("a", { href: `/?game=${encodeURIComponent(c.id)}`, class: "play button", "data-game": c.id }, "Play");
      play2.addEventListener("click", (ev) => {
        ev.preventDefault();
        chooseGame(form, c.id);
      });
      const players = c.players === 2 ? "2 players" : `${c.players} players`;
      list.append(h(
        "li",
        { class: "game-card", "data-game": c.id },
        h("span", { class: "preview-box" }),
        h(
          "div",
          { class: "card-text" },
          h("h3", {}, nameOf(c, c.id)),
          h("p", { class: "tagline" }, c.tagline ?? c.summary),
          h("p", { class: "players" }, `${players}: ${c.seats.join(", ")}`)
        ),
        h(
          "p",
          { class: "card-actions" },
          play2,
          h("a", { href: `/rules/${c.id}`, class: "rules", "data-game": c.id, "aria-label": `Rules of ${nameOf(c, c.id)}` }, "Rules"),
          h("a", { href: `/analysis/${c.id}`, class: "analyse", "data-game": c.id, "aria-label": `Analyse ${nameOf(c, c.id)}` }, "Analyse")
        )
      ));
    }
    return list;
  }
  function chooseGame(form, id) {
    const select3 = form.querySelector("select#game");
    select3.value = id;
    select3.dispatchEvent(new Event("change"));
    history.replaceState(null, "", `/?game=${encodeURIComponent(id)}`);
    form.scrollIntoView({ behavior: "smooth", block: "start" });
    select3.focus({ preventScroll: true });
  }
  var shownGames = 20;
  function myGames2(catalog) {
    const ids = myGames().slice(0, shownGames);
    const list = h("ul", { class: "my-games" });
    const section = h("section", { class: "my-games-box", "aria-labelledby": "my-games-title" }, h("h2", { id: "my-games-title" }, "My games"), list);
    if (ids.length === 0) section.append(h("p", { class: "none" }, "None yet: the games you create or join here are listed."));
    else section.classList.add("has-games");
    for (const id of ids) {
      const link = h("a", { href: `/play/${id}` }, id);
      const who = h("span", { class: "opponents" });
      const state = h("span", { class: "state" }, "…");
      const when = h("time", { class: "when" });
      list.append(h("li", { "data-game": id }, link, who, state, when));
      request("GET", `/api/games/${id}`).then((g) => {
        const held = Object.keys(tokens(id)).map(Number);
        link.textContent = nameOf(catalog.find((c) => c.id === g.game), g.game);
        link.href = `/play/${id}${held.length ? `?seat=${held.includes(g.toMove) ? g.toMove : held[0]}` : ""}`;
        who.textContent = opponents(g.seats, held);
        state.textContent = whoseTurn(g, held);
        if (!g.result && held.includes(g.toMove)) state.classList.add("mine");
        const changed = g.updated ?? g.created;
        if (changed) {
          when.dateTime = changed;
          when.textContent = ago(new Date(changed));
          when.title = new Date(changed).toLocaleString();
        }
      }, (e) => {
        state.textContent = e.message;
      });
    }
    return section;
  }
  function opponents(seats, held) {
    const others = seats.filter((s) => !held.includes(s.seat));
    if (others.length === 0) return "you against yourself";
    return "against " + others.map((s) => `${playerName2(s)} (${s.side})`).join(" and ");
  }
  function playerName2(s) {
    if (s.name) return s.name;
    if (s.open) return "an open seat";
    const level = /^ai:.*level=(\d+)/.exec(s.player);
    if (level) return `AI level ${level[1]}`;
    if (s.player.startsWith("ai") || s.player === "random") return "the computer";
    return "a person";
  }
  function whoseTurn(g, held) {
    if (g.result) return g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won (${g.result.reason})` : `Drawn (${g.result.reason})`;
    const side = g.seats[g.toMove].side;
    return held.includes(g.toMove) ? `Your move (${side})` : `${side} to move`;
  }
  function ago(t, now = /* @__PURE__ */ new Date()) {
    const s = Math.max(0, Math.round((now.getTime() - t.getTime()) / 1e3));
    if (s < 60) return "just now";
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
    if (s < 7 * 86400) return `${Math.floor(s / 86400)} d ago`;
    return t.toLocaleDateString(void 0, { year: "numeric", month: "short", day: "numeric" });
  }
  function openGames(catalog, message) {
    const list = h("ul", { class: "open-games" });
    const section = h("section", { class: "open-games-box", "aria-labelledby": "open-games-title" }, h("h2", { id: "open-games-title" }, "Open games"), list);
    request("GET", "/api/games").then((lobby) => {
      if (lobby.open.length === 0) list.append(h("li", { class: "none" }, "No game waits for a player now."));
      for (const g of lobby.open) {
        const name = nameOf(catalog.find((c) => c.id === g.game), g.game);
        const li = h("li", { "data-game": g.id }, h("strong", {}, name), " ", h("a", { href: g.url, "aria-label": `Watch the ${name} game` }, "Watch"));
        for (const s of g.seats.filter((s2) => s2.open)) {
          const b = h("button", { type: "button", class: "join", "data-game": g.id, "data-seat": String(s.seat) }, `Join as ${s.side}`);
          b.addEventListener("click", () => join(g.id, s.seat, b, message));
          li.append(" ", b);
        }
        list.append(li);
      }
    }, (e) => {
      message.textContent = e.message;
    });
    return section;
  }
  async function join(id, seat, button2, message) {
    button2.disabled = true;
    try {
      const inv = await request("POST", `/api/games/${id}/join`, { seat });
      saveToken(id, inv.seat, inv.token);
      location.href = `/play/${id}?seat=${inv.seat}`;
    } catch (e) {
      message.textContent = e.message;
      button2.disabled = false;
    }
  }
  function field(label, control, ...help) {
    return h("p", { class: "field" }, label, control, ...help);
  }
  function select2(name, label, options, value = "") {
    const s = h("select", { name, id: name });
    for (const [v, text] of options) {
      const o = h("option", { value: v }, text);
      if (v === value) o.selected = true;
      s.append(o);
    }
    return [h("label", { for: name }, label), s];
  }
  function newGameForm(catalog, message, chosen2) {
    const form = h("form", { class: "new-game" });
    const [gameLabel, gameSelect] = select2("game", "Game", catalog.map((c) => [c.id, nameOf(c, c.id)]), chosen2);
    const summary = h("p", { class: "summary", id: "game-summary" });
    gameSelect.setAttribute("aria-describedby", "game-summary");
    const seats = h("fieldset", { class: "seats" });
    const options = h("div", { class: "options" });
    const [clockLabel, clockSelect] = select2("clock", "Time control", clocks);
    const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: "the game's own start" });
    const more = h(
      "details",
      { class: "more" },
      h("summary", {}, "More: rules options, a starting position"),
      options,
      field(h("label", { for: "fen" }, "Start from a position (FEN)"), fen)
    );
    const submit = h("button", { type: "submit", class: "create" }, "Start the game");
    form.append(field(gameLabel, gameSelect), summary, seats, field(clockLabel, clockSelect), more, submit);
    const fill = () => fillDetails(summary, seats, options, catalog.find((c) => c.id === gameSelect.value));
    gameSelect.addEventListener("change", fill);
    fill();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      try {
        location.href = await create(form, catalog.find((c) => c.id === gameSelect.value));
      } catch (e) {
        message.textContent = e.message;
        submit.disabled = false;
      }
    });
    return form;
  }
  function fillDetails(summary, seats, options, c) {
    summary.textContent = c.tagline ?? c.summary;
    seats.replaceChildren(h("legend", {}, "Who plays each side"));
    c.seats.forEach((side, i) => {
      const [label, s] = select2(`seat${i}`, side, seatChoices, i === 0 ? "me" : "ai:level=1");
      seats.append(field(label, s));
    });
    options.replaceChildren();
    for (const o of c.options) {
      const id = `option-${o.key}`;
      let input;
      if (o.values && o.values.length) {
        input = select2(id, o.key, o.values.map((v) => [v, v]), o.default)[1];
      } else {
        input = h("input", { type: "number", id, name: id, min: String(o.min), max: String(o.max), value: o.default });
      }
      input.setAttribute("aria-describedby", `${id}-help`);
      options.append(field(h("label", { for: id }, o.key), input, h("small", { id: `${id}-help` }, o.help)));
    }
  }
  async function create(form, c) {
    const data = new FormData(form);
    const choices2 = c.seats.map((_, i) => String(data.get(`seat${i}`)));
    const options = {};
    for (const o of c.options) {
      const v = String(data.get(`option-${o.key}`) ?? "");
      if (v !== "" && v !== o.default) options[o.key] = v;
    }
    const body = { game: c.id, options, seats: choices2.map((s) => s.startsWith("ai:") || s === "open" ? s : "human") };
    const fen = String(data.get("fen") ?? "").trim();
    if (fen) body.fen = fen;
    const clock = String(data.get("clock") ?? "");
    if (clock.startsWith("clock:")) body.clock = clock.slice(6);
    if (clock.startsWith("days:")) body.days = Number(clock.slice(5));
    const made = await request("POST", "/api/games", body);
    let mySeat = -1;
    for (const inv of made.seats) {
      const choice = choices2[inv.seat];
      if (choice === "invite") {
        saveInvite(made.id, inv.seat, inv.url);
        continue;
      }
      saveToken(made.id, inv.seat, inv.token);
      if (mySeat < 0 || choice === "me" && choices2[mySeat] !== "me") mySeat = inv.seat;
    }
    return mySeat >= 0 ? `/play/${made.id}?seat=${mySeat}` : made.url;
  }

  // src/main.ts
  init_theme();
  applyTheme();
  var page = document.body.dataset.page;
  var root = document.getElementById("app");
  if (page === "rules") {
    decorateHeader(document);
    focusableScrollers(document);
    void drawDiagrams(document);
  } else if (root) {
    if (page === "game") gamePage(root);
    else if (page === "analysis") analysisPage(root);
    else if (page === "learn") void Promise.resolve().then(() => (init_learn(), learn_exports)).then((m) => m.learnPage(root));
    else homePage(root);
  }
})();
