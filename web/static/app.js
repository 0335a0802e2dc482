(() => {
  var __defProp = Object.defineProperty;
  var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
  var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

  // src/a11y.ts
  function focusableScrollers(root2) {
    for (const pre of root2.querySelectorAll("main pre")) {
      if (!pre.hasAttribute("tabindex")) pre.tabIndex = 0;
    }
  }

  // src/api.ts
  var ApiError = class extends Error {
    constructor(code, message) {
      super(message);
      __publicField(this, "code", code);
    }
  };
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

  // src/board.ts
  var svgNS = "http://www.w3.org/2000/svg";
  var sideNames = { w: "White", b: "Black", r: "Red" };
  var shownPieces = 5;
  var legMs = 160;
  function el(name, attrs) {
    const e = document.createElementNS(svgNS, name);
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
    const names = [...stack].map((l) => {
      const side = sideNames[l.toLowerCase()] ?? l;
      return l === l.toUpperCase() ? `${side} ${king}` : side;
    });
    if (names.length === 1) return `${cell}, ${names[0]}`;
    return `${cell}, a stack of ${names.length} from the bottom: ${names.join(", ")}`;
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
    svg.replaceChildren();
    const cells = el("g", { class: "cells" });
    const rows = el("g", { class: "end-rows", "aria-hidden": "true" });
    const pieces = el("g", { class: "pieces", "aria-hidden": "true" });
    const popup = el("g", { class: "popup", "aria-hidden": "true" });
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
      const poly = el("polygon", { points: points(c.outline), class: classes.join(" "), "data-cell": c.name, tabindex: 0, role: "button", "aria-label": label });
      if (stack) poly.setAttribute("data-stack", stack);
      if (stack && frozen.has(c.name)) poly.setAttribute("data-frozen", "");
      if (!opts.pointer) poly.addEventListener("click", () => onCell2(c.name));
      poly.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onCell2(c.name);
        }
      });
      if (stack && stack.length > shownPieces) {
        const title = el("title", {});
        title.textContent = describeStack(c.name, stack, king);
        poly.append(title);
        const show3 = () => showStack(popup, c.center, stack, vb);
        poly.addEventListener("focus", show3);
        poly.addEventListener("pointerenter", show3);
        poly.addEventListener("blur", () => popup.replaceChildren());
        poly.addEventListener("pointerleave", () => popup.replaceChildren());
      }
      cells.append(poly);
      seats.forEach((s, i) => {
        rows.append(el("polygon", { points: points(inset(c.outline, c.center, 0.86 - 0.14 * i)), class: `end-row-line side-${letters[s]}` }));
      });
      if (stack) pieces.append(drawStack(c.center, stack, c.name, frozen.has(c.name)));
      if (marks.targets.has(c.name) && !stack) pieces.append(el("circle", { cx: c.center.x, cy: c.center.y, r: 0.12, class: "dot" }));
    }
    const labels = el("g", { class: "labels", "aria-hidden": "true" });
    for (const l of geo.labels) {
      const t = el("text", { x: l.at.x, y: l.at.y, class: "label" });
      t.textContent = l.text;
      labels.append(t);
    }
    svg.append(cells, rows, pieces, labels, popup);
  }
  function drawStack(at, stack, cell, frozen) {
    const g = el("g", { class: "stack", "data-at": cell });
    const shown = [...stack].slice(-shownPieces);
    const step2 = 0.1;
    const base = at.y + (shown.length - 1) * step2 / 2;
    if (frozen) g.append(el("rect", { x: at.x - 0.47, y: at.y - 0.47, width: 0.94, height: 0.94, rx: 0.08, class: "frozen" }));
    shown.forEach((letter, i) => g.append(...disc(at.x, base - i * step2, 0.36, letter, i === shown.length - 1)));
    if (stack.length > 1) {
      const top = base - (shown.length - 1) * step2;
      const t = el("text", { x: at.x, y: top, class: `height side-${stack[stack.length - 1].toLowerCase()}` });
      t.textContent = String(stack.length);
      g.append(t);
    }
    return g;
  }
  var sideMarks = /* @__PURE__ */ new Set(["b", "r"]);
  function disc(x, y, r, letter, marked) {
    const side = letter.toLowerCase();
    const out = [el("circle", { cx: x, cy: y, r, class: `piece side-${side}` })];
    if (marked && sideMarks.has(side)) out.push(el("circle", { cx: x, cy: y, r: r * 0.76, class: `side-mark side-${side}` }));
    if (letter !== side) out.push(el("circle", { cx: x, cy: y, r: r * 0.5, class: `crown side-${side}` }));
    return out;
  }
  function showStack(popup, at, stack, vb) {
    const r = 0.22;
    const width = stack.length * 2 * r + 0.3;
    const height = 2 * r + 0.55;
    const x = Math.max(vb.minX, Math.min(at.x - width / 2, vb.maxX - width));
    const y = Math.max(vb.minY, at.y - 0.6 - height);
    const box = el("g", { class: "stack-popup", "data-stack": stack });
    box.append(el("rect", { x, y, width, height, rx: 0.08, class: "popup-box" }));
    const caption = el("text", { x: x + 0.15, y: y + 0.2, class: "popup-text" });
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
    const duration = legMs * legs;
    const pieces = svg.querySelector("g.pieces");
    let mover = fx.removed ? null : svg.querySelector(`g.stack[data-at="${fx.path[fx.path.length - 1]}"]`);
    if (!mover && pieces) {
      mover = drawStack(end, fx.moving.map((p) => letterOf(p, letters)).join(""), "", false);
      mover.classList.add("ghost");
      pieces.append(mover);
      const copy = mover;
      mover.animate([{ opacity: 1 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration: duration + 200 }).onfinish = () => copy.remove();
    }
    if (mover) {
      pieces?.append(mover);
      const frames = path.map((p, i) => ({ transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)`, offset: i / legs }));
      mover.animate(frames, { duration, easing: "ease-in-out" });
    }
    for (const c of fx.captured ?? []) {
      const at = centers.get(c.cell);
      if (!at || !pieces || c.taken.length === 0) continue;
      const stack = [...c.left, ...c.taken].map((p) => letterOf(p, letters)).join("");
      const ghost = drawStack(at, stack, "", false);
      ghost.classList.add("ghost");
      ghost.dataset.stack = stack;
      pieces.insertBefore(ghost, pieces.firstChild);
      const passed = c.leg > 0 ? c.leg / legs : 1;
      ghost.animate([{ opacity: 1 }, { opacity: 1, offset: Math.min(passed, 0.95) }, { opacity: 0 }], { duration: duration + 150, fill: "forwards" }).onfinish = () => ghost.remove();
    }
    svg.dataset.animated = fx.move;
    return true;
  }
  var dragDistance = 8;
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

  // src/theme.ts
  var themeLook = {
    attr: "theme",
    key: "arbiter.theme",
    label: "Theme",
    options: [["system", "As the system"], ["light", "Light"], ["dark", "Dark"]]
  };
  var boardLook = {
    attr: "board",
    key: "arbiter.board",
    label: "Board",
    options: [["wood", "Wood"], ["slate", "Slate"], ["green", "Green"]]
  };
  var piecesLook = {
    attr: "pieces",
    key: "arbiter.pieces",
    label: "Pieces",
    options: [["classic", "Classic"], ["contrast", "High contrast"]]
  };
  var looks = [themeLook, boardLook, piecesLook];
  var darkQuery = "(prefers-color-scheme: dark)";
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
    const select2 = h(
      "select",
      { name: look.key, "data-look": look.attr },
      ...look.options.map(([v, name]) => h("option", { value: v }, name))
    );
    select2.addEventListener("change", () => choose(look, select2.value));
    return h("label", { class: `look-${look.attr}` }, look.label, select2);
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
      const select2 = controls.querySelector(`select[data-look="${look.attr}"]`);
      if (select2) select2.value = chosen(look);
    }
  }

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
    return h("nav", { class: "site-nav", "aria-label": "site" });
  }

  // src/entry.ts
  function parseMove(text) {
    const [route, ...drops] = text.split("@");
    return { text, path: route.split(/[-x:]/), drops };
  }
  var emptySelection = { path: [], drops: [] };
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

  // src/setup.ts
  function setupControls(seats, promoted, stacking) {
    const pieces = [];
    for (const name of seats) {
      const letter = name.charAt(0).toLowerCase();
      pieces.push([letter, name]);
      if (promoted) pieces.push([letter.toUpperCase(), `${name} ${promoted}`]);
    }
    pieces.push(["", "Empty"]);
    const palette = h("fieldset", { class: "palette" }, h("legend", {}, "Click a cell to put"));
    pieces.forEach(([letter, label], i) => {
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
      edits: Promise.resolve()
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
    show(st, refresh).then(() => {
      ui.fen.value = st.fen;
    });
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
    const ui = {
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
    const boardBox = h("div", { class: "board-box" });
    boardBox.append(svg);
    root2.replaceChildren(
      siteHeader(
        h("h1", {}, `Analysis: ${st.game}`),
        h("a", { href: `/rules/${encodeURIComponent(st.game)}`, class: "rules" }, "Rules")
      ),
      h(
        "main",
        { class: "game" },
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
          h("p", {}, h("label", { for: "movetime" }, "Think for "), movetime, " ", ui.ask, " ", ui.stop),
          ui.best,
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
      if (shown !== st.shown) return;
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
    }
    refresh();
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
    const body = { fen: st.fen, moves: st.line.slice(0, st.cursor), options: optionMap(st.options), movetime };
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
    ui.best.replaceChildren(
      h(
        "p",
        {},
        lead,
        h("strong", { class: "best-move" }, b.move),
        ", score ",
        h("span", { class: "score" }, b.scoreText),
        " (depth ",
        h("span", { class: "depth" }, String(b.depth)),
        `, ${b.nodes} nodes, ${(b.ms / 1e3).toFixed(1)} s)`
      ),
      h("p", { class: "pv" }, "Line: " + b.line.join(" ")),
      button(`Play ${b.move}`, "play-best", () => play2(b.move))
    );
  }

  // src/diagrams.ts
  var svgNS2 = "http://www.w3.org/2000/svg";
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
    fig.querySelector("svg.diagram")?.remove();
    fig.prepend(svg);
  }
  function pictureBoard(geo, stacks, toMove, game, label) {
    const svg = document.createElementNS(svgNS2, "svg");
    svg.setAttribute("class", "board");
    const king = game.startsWith("pommel") ? "captain" : "king";
    drawBoard(svg, geo, { board: geo.board, ply: 0, toMove, stacks }, { selected: [], targets: /* @__PURE__ */ new Set(), lastMove: [] }, king, () => {
    });
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    for (const cell of svg.querySelectorAll("[data-cell]")) {
      cell.removeAttribute("tabindex");
      cell.removeAttribute("role");
      cell.removeAttribute("aria-label");
    }
    return svg;
  }

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
      message: "",
      busy: false,
      ws: null,
      retry: 0,
      shown: 0,
      effects: /* @__PURE__ */ new Map(),
      anim: null,
      clockAt: 0,
      flagAsked: 0,
      offline: false
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
      drag: (from, to) => onDrag(page2, from, to, refresh)
    };
    attachPointer(ui.svg, { tap: actions.cell, drag: actions.drag });
    setInterval(() => tickClocks(page2, ui, refresh), 250);
    document.addEventListener("keydown", (ev) => {
      if (!page2.game || ev.target instanceof HTMLInputElement) return;
      if (ev.key === "ArrowLeft") actions.step((page2.viewPly ?? page2.game.ply) - 1);
      if (ev.key === "ArrowRight") actions.step((page2.viewPly ?? page2.game.ply) + 1);
    });
    load(page2, refresh).then(() => connect(page2, refresh));
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
    const input = h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false", placeholder: "a1-a3" });
    form.append(h("label", { for: "typed-move" }, "Type a move: "), input, h("button", { type: "submit" }, "Play"));
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
      status: h("p", { class: "status", "aria-live": "polite" }),
      message: h("p", { class: "message", role: "alert" }),
      choices: h("div", { class: "choices" }),
      nav: h("div", { class: "nav" }),
      moves: h("ol", { class: "moves" }),
      controls: h("div", { class: "controls" }),
      typed: h("form", { class: "typed" }),
      links: h("div", { class: "links" })
    };
    const boardBox = h("div", { class: "board-box" });
    boardBox.append(svg);
    root2.replaceChildren(
      siteHeader(ui.title),
      h(
        "main",
        { class: "game" },
        boardBox,
        h("aside", {}, ui.status, ui.message, ui.choices, ui.typed, ui.controls, h("h2", {}, "Moves"), ui.nav, ui.moves, ui.links)
      )
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
      if (g.ply !== page2.game.ply) page2.sel = emptySelection;
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
    if (page2.viewPly !== null) return "This is an earlier position; go to the last move to play.";
    return heldSeats(page2).length ? `Not your turn: ${g.seats[g.toMove].side} is to move.` : "You are watching this game.";
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
    page2.sel = out.sel;
    refresh();
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
    page2.sel = out?.kind === "select" ? out.sel : start.kind === "select" ? start.sel : emptySelection;
    refresh();
  }
  async function play(page2, move, refresh) {
    const g = page2.game;
    const token = tokenFor(page2);
    if (!g || !token) return;
    page2.busy = true;
    page2.sel = emptySelection;
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
    await show2(page2, g);
    refresh();
  }
  function render2(page2, ui, act) {
    const g = page2.game;
    ui.message.textContent = page2.message;
    if (!g || !page2.pos || !page2.geo) return;
    const kingWord = g.game.startsWith("pommel") ? "captain" : "king";
    ui.title.textContent = `${g.game} ${page2.id}`;
    document.title = `${g.game}: ${statusText(page2)} (arbiter)`;
    const moves = g.legal.map(parseMove);
    const shownPly = page2.viewPly ?? g.ply;
    const lastMove = shownPly > 0 ? parseMove(g.moves[shownPly - 1]).path : [];
    const letters = g.seats.map((s) => s.side[0].toLowerCase());
    drawBoard(ui.svg, page2.geo, page2.pos, { selected: [...page2.sel.path, ...page2.sel.drops], targets: targets(moves, page2.sel), lastMove }, kingWord, act.cell, { pointer: true, letters });
    if (page2.anim && page2.viewPly === null && page2.anim.path.length && page2.pos.ply === g.ply) animateMove(ui.svg, page2.geo, page2.anim, letters);
    page2.anim = null;
    ui.svg.setAttribute("aria-label", `${g.game} board, ${statusText(page2)}`);
    ui.status.replaceChildren(...statusLines(page2));
    renderChoices(page2, ui, act, moves);
    ui.typed.hidden = actingSeat(page2) < 0 || page2.viewPly !== null;
    renderMoves(page2, ui, act);
    renderControls(page2, ui, act);
    renderLinks(page2, ui);
  }
  function seatName(g, seat) {
    const s = g.seats[seat];
    const who = s.name || (s.player === "human" ? "" : s.player);
    return who ? `${s.side} (${who})` : s.side;
  }
  function statusText(page2) {
    const g = page2.game;
    if (g.result) return g.description || (g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won: ${g.result.reason}` : `draw: ${g.result.reason}`);
    const mine = actingSeat(page2) >= 0;
    return mine ? `Your move (${seatName(g, g.toMove)})` : `${seatName(g, g.toMove)} to move`;
  }
  function statusLines(page2) {
    const g = page2.game;
    const out = [h("span", { class: g.result ? "result" : "turn" }, statusText(page2))];
    const held = heldSeats(page2).filter((s) => s < g.seats.length);
    out.push(h("span", { class: "you" }, held.length ? `You play ${held.map((s) => g.seats[s].side).join(" and ")}` : "You are watching"));
    if (page2.pos?.scores) {
      out.push(h("span", { class: "scores" }, "Scores: " + page2.pos.scores.map((s, i) => `${g.seats[i].side} ${s}`).join(", ")));
    }
    if (page2.offline) out.push(h("span", { class: "offline" }, "Connection lost; reconnecting…"));
    if (g.attention) out.push(h("span", { class: "attention", role: "alert" }, g.attention.charAt(0).toUpperCase() + g.attention.slice(1) + "."));
    if (g.clock) {
      const clocks2 = h("span", { class: "clocks" }, `${g.clock.control}: `);
      g.clock.leftMs.forEach((_, i) => {
        if (i) clocks2.append(" · ");
        clocks2.append(h("span", { class: ticking(g, i) ? "clock running" : "clock", "data-seat": String(i) }, `${g.seats[i].side} ${clockText(clockLeft(page2, i))}`));
      });
      out.push(clocks2);
    }
    if (page2.pos?.endRows) out.push(h("span", { class: "legend" }, "End rows are outlined in their player's colour; a boxed pile stands on its controller's end row: frozen, it scores."));
    if (page2.viewPly !== null) out.push(h("span", { class: "history" }, `Showing the position after ${page2.viewPly} of ${g.ply} moves`));
    return out.flatMap((n, i) => i ? [h("br"), n] : [n]);
  }
  function ticking(g, seat) {
    return !!g.clock && g.clock.running && !g.result && g.toMove === seat;
  }
  function clockLeft(page2, seat) {
    const g = page2.game;
    const ms = g.clock.leftMs[seat];
    return ticking(g, seat) ? ms - (performance.now() - page2.clockAt) : ms;
  }
  function tickClocks(page2, ui, refresh) {
    const g = page2.game;
    if (!g || !g.clock || g.result) return;
    const seat = g.toMove;
    const span = ui.status.querySelector(`.clock[data-seat="${seat}"]`);
    if (!span || !ticking(g, seat)) return;
    const left = clockLeft(page2, seat);
    span.textContent = `${g.seats[seat].side} ${clockText(left)}`;
    if (left <= -300 && page2.flagAsked !== g.version) {
      page2.flagAsked = g.version;
      load(page2, refresh);
    }
  }
  function clockText(ms) {
    const s = Math.max(0, Math.floor(ms / 1e3));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
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
    const nav2 = (label, to, name) => {
      const b = h("button", { type: "button", "aria-label": name }, label);
      b.addEventListener("click", () => act.step(to));
      return b;
    };
    ui.nav.replaceChildren(nav2("«", 0, "start"), nav2("‹", shown - 1, "back"), nav2("›", shown + 1, "forward"), nav2("»", g.ply, "last move"));
    ui.moves.replaceChildren(...g.moves.map((m, i) => {
      const li = h("li", { class: i === shown - 1 ? "move current" : "move" });
      const b = h("button", { type: "button" }, `${g.seats[i % g.seats.length].side[0]} ${m}`);
      b.addEventListener("click", () => act.step(i + 1));
      li.append(b);
      return li;
    }));
    ui.moves.lastElementChild?.scrollIntoView({ block: "nearest" });
  }
  function renderControls(page2, ui, act) {
    const g = page2.game;
    ui.controls.replaceChildren();
    const held = heldSeats(page2);
    if (g.result || held.length === 0) return;
    const button2 = (label, cls, f) => {
      const b = h("button", { type: "button", class: cls }, label);
      b.addEventListener("click", f);
      ui.controls.append(b);
    };
    button2("Resign", "resign", () => {
      if (confirm("Resign this game?")) act.command("resign", void 0);
    });
    if (g.seats.length !== 2) return;
    const mine = (s) => held.includes(s);
    if (g.drawOffer >= 0 && !mine(g.drawOffer)) {
      ui.controls.append(h("span", {}, `${g.seats[g.drawOffer].side} offers a draw.`));
      button2("Accept draw", "accept", () => act.command("draw", { action: "accept" }));
      button2("Decline", "decline", () => act.command("draw", { action: "decline" }));
    } else if (g.drawOffer >= 0) {
      ui.controls.append(h("span", {}, "You offered a draw."));
    } else {
      button2("Offer draw", "offer", () => act.command("draw", { action: "offer" }));
    }
  }
  function analysisLink(g) {
    const q = new URLSearchParams();
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
      rows.push(h("p", { class: "invite" }, `Invite for ${s.side}: `, h("input", { readonly: "", value: full, "data-seat": String(s.seat), "aria-label": `invite link for ${s.side}` }), copyButton(full)));
    }
    const spectate = location.origin + g.url;
    rows.push(h("p", {}, "Spectators: ", h("input", { readonly: "", value: spectate, "aria-label": "spectator link" }), copyButton(spectate)));
    rows.push(h("p", {}, h("a", { href: `/api/games/${page2.id}/record`, download: `${g.game}-${page2.id}.pdn` }, "Download the record")));
    rows.push(h(
      "p",
      {},
      h("a", { href: analysisLink(g), class: "analyse" }, "Analyse this game"),
      " · ",
      h("a", { href: `/rules/${g.game}`, class: "rules" }, `Rules of ${g.game}`)
    ));
    ui.links.replaceChildren(...rows);
  }

  // src/preview.ts
  async function drawPreviews(list, catalog) {
    await Promise.all(catalog.map(async (c) => {
      const item = list.querySelector(`a[data-game="${CSS.escape(c.id)}"]`)?.closest("li");
      if (!item) return;
      try {
        const start = await request("GET", `/api/analysis/${encodeURIComponent(c.id)}`);
        const geo = await request("GET", `/api/boards/${encodeURIComponent(start.board)}?turn=0`);
        const svg = pictureBoard(geo, start.stacks, start.toMove, c.id, `${c.id}: the start position`);
        svg.classList.add("preview");
        svg.dataset.game = c.id;
        item.prepend(h("span", { class: "preview-box" }, svg));
      } catch {
      }
    }));
  }

  // src/home.ts
  var seatChoices = [
    ["me", "me"],
    ["friend", "a friend at this screen"],
    ["invite", "an invite link"],
    ["open", "anyone, from the open games"],
    ...[1, 2, 3, 4, 5, 6].map((l) => [`ai:level=${l}`, `AI level ${l}`])
  ];
  var clocks = [
    ["", "no clock"],
    ["clock:3m+2s", "3 min + 2 s"],
    ["clock:5m+3s", "5 min + 3 s"],
    ["clock:15m+10s", "15 min + 10 s"],
    ["days:1", "1 day a move"],
    ["days:3", "3 days a move"]
  ];
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
    const form = newGameForm(catalog, message);
    const list = h("ul", { class: "catalog" }, ...catalog.map((c) => h(
      "li",
      {},
      h("strong", {}, c.id),
      " ",
      c.summary,
      " ",
      h("a", { href: `/rules/${c.id}`, class: "rules", "data-game": c.id }, "Rules"),
      " · ",
      h("a", { href: `/analysis/${c.id}`, class: "analyse", "data-game": c.id }, "Analyse")
    )));
    root2.append(h("main", { class: "home" }, h("section", {}, h("h2", {}, "New game"), form), h("section", {}, h("h2", {}, "The games"), list), myGames2(), openGames(message)));
    void drawPreviews(list, catalog);
  }
  var shownGames = 20;
  function myGames2() {
    const ids = myGames().slice(0, shownGames);
    const list = h("ul", { class: "my-games" });
    const section = h("section", {}, h("h2", {}, "My games"), list);
    if (ids.length === 0) section.append(h("p", {}, "None yet: the games you create or join here are listed."));
    for (const id of ids) {
      const state = h("span", { class: "state" }, "…");
      list.append(h("li", { "data-game": id }, h("a", { href: `/play/${id}` }, id), " ", state));
      request("GET", `/api/games/${id}`).then((g) => {
        state.textContent = `${g.game}, ${whoseTurn(g, Object.keys(tokens(id)).map(Number))}`;
        if (!g.result && tokens(id)[g.toMove]) state.classList.add("mine");
      }, (e) => {
        state.textContent = e.message;
      });
    }
    return section;
  }
  function whoseTurn(g, held) {
    if (g.result) return g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won (${g.result.reason})` : `drawn (${g.result.reason})`;
    const side = g.seats[g.toMove].side;
    return held.includes(g.toMove) ? `your move (${side})` : `${side} to move`;
  }
  function openGames(message) {
    const list = h("ul", { class: "open-games" });
    const section = h("section", {}, h("h2", {}, "Open games"), list);
    request("GET", "/api/games").then((lobby) => {
      if (lobby.open.length === 0) list.append(h("li", {}, "No game waits for a player now."));
      for (const g of lobby.open) {
        const li = h("li", { "data-game": g.id }, `${g.game}: `, h("a", { href: g.url }, "watch"));
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
  function select(name, label, options, value = "") {
    const s = h("select", { name, id: name });
    for (const [v, text] of options) {
      const o = h("option", { value: v }, text);
      if (v === value) o.selected = true;
      s.append(o);
    }
    return [h("label", { for: name }, label), s];
  }
  function newGameForm(catalog, message) {
    const form = h("form", { class: "new-game" });
    const [gameLabel, gameSelect] = select("game", "Game", catalog.map((c) => [c.id, c.id]));
    const details = h("div", { class: "details" });
    const [clockLabel, clockSelect] = select("clock", "Time control", clocks);
    const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: "the game's start" });
    const submit = h("button", { type: "submit", class: "create" }, "Start the game");
    form.append(
      h("p", {}, gameLabel, gameSelect),
      details,
      h("p", {}, clockLabel, clockSelect),
      h("p", {}, h("label", { for: "fen" }, "Start from a position (FEN)"), fen),
      submit
    );
    const fill = () => fillDetails(details, catalog.find((c) => c.id === gameSelect.value));
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
  function fillDetails(details, c) {
    details.replaceChildren(h("p", { class: "summary" }, c.summary));
    c.seats.forEach((side, i) => {
      const [label, s] = select(`seat${i}`, `${side} (seat ${i + 1})`, seatChoices, i === 0 ? "me" : "ai:level=1");
      details.append(h("p", {}, label, s));
    });
    for (const o of c.options) {
      const id = `option-${o.key}`;
      let input;
      if (o.values && o.values.length) {
        input = select(id, o.key, o.values.map((v) => [v, v]), o.default)[1];
      } else {
        input = h("input", { type: "number", id, name: id, min: String(o.min), max: String(o.max), value: o.default });
      }
      details.append(h("p", {}, h("label", { for: id }, o.key), input, h("small", {}, " " + o.help)));
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
    else homePage(root);
  }
})();
