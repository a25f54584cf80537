// The advisor page: pick cards, ask the server, draw the answer as it is refined.
"use strict";
const COLOURS = { C: "#1e8449", S: "#17202a", D: "#1f5fae", H: "#c0392b" };
const NAMES = { C: "clubs", S: "spades", D: "diamonds", H: "hearts" };
let variants = {}, job = null, timer = null, poller = null, askedAt = 0, revealed = false;
const picked = new Map();  // card -> copies held (two with two decks)
let unknown = [];  // words typed in the hand's box that are no card

function players() { return (variants[$("variant").value] || { players: 4 }).players; }
function handSize() { return (variants[$("variant").value] || { cards: 9 }).cards; }
function decks() { return (variants[$("variant").value] || { decks: 1 }).decks || 1; }
function held() { let n = 0; for (const k of picked.values()) n += k; return n; }

function fillSeats() {
  const p = players(), seat = $("seat").value, dealer = $("dealer").value;
  $("seat").replaceChildren(el("option", { value: "", text: "eldest hand" }),
    ...Array.from({ length: p }, (_, s) => el("option", { value: s, text: `seat ${s}` })));
  $("dealer").replaceChildren(...Array.from({ length: p }, (_, s) => el("option", { value: s, text: `seat ${s}` })));
  $("seat").value = seat !== "" && seat < p ? seat : "";
  $("dealer").value = dealer !== "" && dealer < p ? dealer : String(p - 1);
}

function drawGrid() {
  const grid = $("cards");
  grid.replaceChildren();
  for (const s of SUITS) for (const r of RANKS) {
    const card = r + s;
    const b = el("button", { class: "card" + (s === "D" || s === "H" ? " red" : ""), type: "button",
      "data-card": card, "data-count": "0", "aria-pressed": "false", text: pretty(card) });
    b.addEventListener("click", () => { toggle(card); });
    grid.append(b);
  }
}

// A card typed more often than the decks hold it (twice with one deck, three times with
// two) is marked bad, as the count is, in the grid's words ("A♠ 3 times").
function syncGrid(note) {
  const copies = decks(), extra = [];
  for (const b of document.querySelectorAll("#cards button.card")) {
    const k = picked.get(b.dataset.card) || 0, bad = k > copies;
    b.classList.toggle("on", k > 0);
    b.classList.toggle("bad", bad);
    b.dataset.count = String(k);
    b.setAttribute("aria-pressed", String(k > 0));
    b.setAttribute("aria-label", `${pretty(b.dataset.card)}${bad ? `, ${k} times: too many` : k > 1 ? ", both copies" : ""}`);
    if (bad) extra.push(`${pretty(b.dataset.card)} ${k} times`);
  }
  const n = held(), size = handSize();
  const over = n > size ? `: ${n - size} too many, remove ${n - size === 1 ? "one" : "some"}` : "";
  const dup = extra.length ? `: ${extra.join(", ")} (${copies === 1 ? "one deck holds each card once" : "two decks hold each card twice"})` : "";
  const words = unknown.length ? `: ${unknown.map((w) => `'${w}'`).join(", ")} ${unknown.length === 1 ? "is not a card" : "are not cards"} (cards read as AS, 10H or 7♦)` : "";
  $("count").textContent = `${n} of ${size} cards${over}${dup}${words}${note ? `: ${note}` : ""}`;
  $("count").classList.toggle("bad", n > size || extra.length > 0 || unknown.length > 0 || Boolean(note));
}

// What is wrong with the hand as picked or typed, said once: on the count line (null: nothing)
function handProblem() {
  if (unknown.length || [...picked.values()].some((k) => k > decks())) return "Mend the hand: the line under the cards says what is wrong.";
  const n = held(), size = handSize();
  if (n > size) return `Too many cards: ${n} given, a hand holds ${size}.`;
  if (n < size) return `Pick ${size} cards (${n} so far).`;
  return null;
}

// Double-dummy play only where the server can play it (one deck, at most five seats):
// elsewhere its option is off, saying why, and a query asking for it goes back to the heuristic.
function syncPlay() {
  const why = (variants[$("variant").value] || {}).dd, dd = $("play").querySelector('option[value="dd"]');
  dd.disabled = Boolean(why);
  dd.textContent = why ? `double-dummy (not with ${decks() > 1 ? "two decks" : `${players()} players`})` : "double-dummy (perfect play)";
  dd.title = why || "";
  if (why && $("play").value === "dd") $("play").value = "heuristic";
}

// A click adds a copy, up to the decks' copies, and then takes the card out again (two
// decks: none, one, both, none); with the hand full a click only takes one copy out, and
// a card not held is refused, so the grid never holds more than a hand.
function toggle(card) {
  const k = picked.get(card) || 0, full = held() >= handSize();
  if (full && k === 0) { syncGrid("the hand is full: click one of its cards to take it out"); return; }
  if (full) { if (k > 1) picked.set(card, k - 1); else picked.delete(card); }
  else if (k < decks()) picked.set(card, k + 1);
  else picked.delete(card);
  $("hand").value = [...picked].flatMap(([c, n]) => Array(n).fill(c)).join(" ");
  unknown = [];  // the box now holds the grid's cards only
  syncGrid();
  changed();
}

function readTyped() {  // the text box: every token that is a card turns its button on
  picked.clear();
  unknown = [];
  for (const word of $("hand").value.split(/[\s,]+/).filter(Boolean)) {
    const t = word.toUpperCase().replace(/^10/, "T").replace("♠", "S").replace("♣", "C").replace("♦", "D").replace("♥", "H");
    if (/^[AKQJT2-9][CSDH]$/.test(t)) picked.set(t, (picked.get(t) || 0) + 1);
    else unknown.push(word);
  }
  syncGrid();
}

function query() {
  const q = { hand: $("hand").value.trim(), dealer: Number($("dealer").value),
    bids: $("bids").value.trim(), variant: $("variant").value, play: $("play").value,
    bid_model: $("bid_model").value, risk: Number($("risk").value) };
  if ($("seat").value !== "") q.seat = Number($("seat").value);
  return q;
}

// The answer shown belongs to the inputs it was computed for: any change takes it down
// at once (and forgets the running query), before the new one is asked for.
function clearAnswer(advice) {
  clearTimeout(poller);
  if (job) { call("DELETE", `/api/jobs/${job}`).catch(() => {}); job = null; }
  $("advice").textContent = advice;
  $("advice").classList.remove("pending");
  delete $("advice").dataset.call;
  for (const id of ["status", "chart", "legend", "table", "tablenote", "cli"]) $(id).replaceChildren();
}

function changed() {  // debounce: ask once the user stops clicking
  clearTimeout(timer);
  $("error").textContent = "";
  clearAnswer("");
  timer = setTimeout(ask, 250);
}

async function ask() {
  clearAnswer("");
  $("error").textContent = "";
  const problem = handProblem();  // said here, not asked of the server a second time
  if (problem) { $("advice").textContent = problem; return; }
  const asked = query();
  try {
    const started = await call("POST", "/api/advise", asked);
    if (JSON.stringify(asked) !== JSON.stringify(query())) return;  // changed meanwhile
    job = started.job;
    askedAt = Date.now();
    revealed = false;
    $("cli").textContent = started.cli;
    $("status").textContent = "dealing...";
    poll(job);
  } catch (e) {
    if (JSON.stringify(asked) !== JSON.stringify(query())) return;
    $("error").textContent = e.message;
  }
}

async function poll(id) {
  if (id !== job) return;
  let view;
  try { view = await call("GET", `/api/jobs/${id}`); } catch (e) {
    if (id === job) { clearAnswer(""); $("error").textContent = e.message; }
    return;
  }
  if (id !== job) return;
  if (view.status === "error" || (view.status === "timeout" && !view.result)) {
    clearAnswer(""); $("error").textContent = view.error; return;
  }
  if (view.result) show(view.result, view);
  if (view.status === "timeout") {  // a later stage ran past the limit: the last answer stands
    $("status").textContent += ` (stopped: ${view.error}; the answer on these deals stands)`;
    return;
  }
  if (view.status === "cancelled") return;
  if (view.final) { $("status").textContent += " (final)"; return; }
  if (view.status === "running" && view.done) {  // a long stage (dd, pimc): how far it has come
    // deals so far and the time taken (a stage stops at a precision, not at a count)
    const so = `${view.done.toLocaleString()} deals so far in stage ${view.stage + 1} of ${view.stages}, ` +
      `${Math.round((Date.now() - askedAt) / 1000)} s`;
    $("status").textContent = view.result
      ? `${$("status").textContent.replace(/; refining.*$/, "")}; refining: ${so}` : `dealing: ${so}`;
  }
  poller = setTimeout(() => poll(id), 300);
}

function show(r, view) {
  if (!revealed) { revealed = true; reveal("answer"); }  // the first answer to this query
  $("advice").textContent = (r.summary || r.advice).replace(/^Advice: /, "");
  $("advice").classList.toggle("pending", r.verdict === false);
  $("advice").dataset.call = String(r.call);
  // a rare auction's deals join hands drawn to make each earlier call: say so, and how common each was
  // (how many hands each seat's pool tried is in the JSON and the command's output)
  const pools = r.pools ? "; the bids before you are rare, so each deal is put together from hands that make those bids" : "";
  // an earlier seat's call left out is not unknown to the deals: its bidder makes it on each
  const left = [...(r.bids_text || "").matchAll(/seat (\d+) not given/g)].map((m) => m[1]);
  const missing = left.length
    ? `no bid given for seat${left.length > 1 ? "s" : ""} ${joined(left)}: on each deal ` +
      `${left.length > 1 ? "they bid" : "it bids"} as the bots would; ` : "";
  // an earlier call the simulator's bidder never makes (a pass first to speak): who bids as people do instead
  const readWith = r.read_with_note ? `. ${r.read_with_note}` : "";
  $("status").textContent = r.hands ? `${missing}${r.hands.toLocaleString()} deals, stage ${view.stage} of ${view.stages}, ` +
    `95% half-width ${(100 * r.precision).toFixed(1)} percentage points${pools}${readWith}` : "no deal needed";
  $("cli").textContent = r.cli;
  chart(r);
  table(r);
}

function chart(r) {
  // the drawing's width follows the box, so its text stays readable on a phone
  const W = Math.max(340, Math.min(640, $("chart").clientWidth || 640)), H = W < 500 ? 260 : 300;
  const L = 44, R = 12, T = 12, B = 34;
  // the lowest bids, never won on these deals, take no room (the table leaves them out too)
  const won = (b) => Object.values(r.rows || {}).some((rs) => rs.some((x) => x.bid === b && x.as_maker > 0));
  const firstWon = r.legal_bids.findIndex(won), bids = firstWon > 0 ? r.legal_bids.slice(firstWon) : r.legal_bids;
  if (!bids.length) { $("chart").replaceChildren(); $("legend").replaceChildren(); return; }
  const x = (b) => L + (bids.length === 1 ? 0.5 : (b - bids[0]) / (bids[bids.length - 1] - bids[0])) * (W - L - R);
  const y = (p) => T + (1 - p) * (H - T - B);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "P(make) against the bid, per trump, with 95% intervals");
  const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); return e; };
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    add("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#e5e8ec" });
    add("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6675" }, `${p * 100}%`);
  }
  const every = Math.ceil(bids.length / Math.max(1, Math.floor((W - L - R) / 18)));  // labels 18 px apart at least
  for (const b of bids) if ((b - bids[0]) % every === 0) add("text", { x: x(b), y: H - 14, "text-anchor": "middle", "font-size": 11, fill: "#5b6675" }, b);
  add("text", { x: (L + W) / 2, y: H - 1, "text-anchor": "middle", "font-size": 11, fill: "#5b6675" }, "bid");
  add("line", { x1: L, x2: W - R, y1: y(r.risk), y2: y(r.risk), stroke: "#888", "stroke-dasharray": "2 3" });
  const legend = [];
  for (const [s, t] of Object.entries(r.by_trump)) {
    // only the bids judged (won as maker on enough deals): a rate from a few deals is no line
    const pts = bids.map((b) => [b, t.bids[String(b)]]).filter(([, e]) => e && e.p_make !== null && e.judged);
    if (!pts.length) continue;
    const band = pts.map(([b, e]) => `${x(b)},${y(e.p_make_hi)}`).concat(
      pts.slice().reverse().map(([b, e]) => `${x(b)},${y(e.p_make_lo)}`)).join(" ");
    add("polygon", { points: band, fill: COLOURS[s], opacity: 0.12 });
    add("polyline", { points: pts.map(([b, e]) => `${x(b)},${y(e.p_make)}`).join(" "), fill: "none",
      stroke: COLOURS[s], "stroke-width": s === r.best_trump ? 2.5 : 1.3 });
    if (pts.length === 1) add("circle", { cx: x(pts[0][0]), cy: y(pts[0][1].p_make), r: 3, fill: COLOURS[s] });  // one bid: no line, a dot
    legend.push(el("span", { style: `color:${COLOURS[s]}`, text: `${NAMES[s]}${s === r.best_trump && r.verdict !== false ? " (best)" : ""}` }));
  }
  legend.push(el("span", { text: legend.length ? `dotted: safe at ${Math.round(r.risk * 100)}%; bands: 95% intervals`
    : `no bid judged yet (won as the maker on ${r.min_maker_deals} deals): nothing to draw` }));
  $("chart").replaceChildren(svg);
  $("legend").replaceChildren(...legend);
}

function table(r) {
  const s = r.table_trump || r.best_trump, all = (r.rows || {})[s] || [];
  if (!all.length) { $("table").replaceChildren(); $("tablenote").replaceChildren(); return; }
  // the lowest bids, never won on these deals (the others always bid more), are one note, not rows of dashes
  const first = all.findIndex((x) => x.as_maker > 0), low = first > 0 ? all.slice(0, first) : [];
  const rows = first > 0 ? all.slice(first) : all;
  const which = r.verdict === false ? " (leading so far)" : "";
  // the dealer who may not pass: no pass to compare with, each bid's own margin (own - opp)
  // each interval has a column of its own; on a phone (style.css) the columns go and
  // each interval sits under its value instead, so the table needs no sideways scroll
  const ci = { class: "ci" }, under = (text) => el("small", { class: "ci-under", text });
  const th = (text, interval) => el("th", interval ? ci : {}, text, ...(interval === false ? [under("95% interval")] : []));
  const head = el("tr", {}, th("bid"), th("P(win auction)"), th(`P(make) in ${NAMES[s]}${which}`, false),
    th("95% interval", true), th("as maker"),
    th(r.margins ? "margin (own − opp)" : "ev vs pass", false), th("95% interval", true));
  const few = (x, more = "") => ({ class: (x.judged ? "" : "few") + more });
  const body = rows.map((x) => el("tr", { "data-bid": x.bid },
    el("td", { text: String(x.bid) }), el("td", { text: x.p_win }),
    el("td", few(x), x.p_make + (x.judged ? "" : " *"), under(x.interval)),
    el("td", { ...few(x, " ci"), text: x.interval }), el("td", { text: x.as_maker.toLocaleString() }),
    el("td", few(x), x.ev, under(x.ev_interval)),
    el("td", { ...few(x, " ci"), text: x.ev_interval })));
  $("table").replaceChildren(head, ...body);
  // under the table, as the command line says under its own: why no pass, what * marks,
  // and what ev, own and opp mean here (cut-throat: against the average opponent)
  const never = low.length ? `bid${low.length > 1 ? `s ${low[0].bid}–${low[low.length - 1].bid}` : ` ${low[0].bid}`}: never won the auction on these deals (not shown)` : "";
  const notes = [never, r.stuck_note,
    rows.some((x) => !x.judged) ? `* won the auction on fewer than ${r.min_maker_deals} deals: shown, not judged (no interval)` : "",
    r.score_change ? `(${r.score_change}.)` : ""].filter(Boolean);
  $("tablenote").replaceChildren(...notes.map((t) => el("span", { class: "note", text: t })));
}

async function start() {
  try { variants = await call("GET", "/api/variants"); } catch (e) { variants = { standard: { players: 4, cards: 9, decks: 1 } }; }
  fillVariants();
  fillSeats();
  syncPlay();
  drawGrid();
  syncGrid();
  $("hand").addEventListener("input", () => { readTyped(); changed(); });
  for (const id of ["seat", "dealer", "bids", "play", "bid_model", "risk"]) $(id).addEventListener("change", changed);
  $("bids").addEventListener("input", changed);
  $("variant").addEventListener("change", () => { fillSeats(); syncPlay(); syncGrid(); changed(); });
  const params = new URLSearchParams(location.search);
  if (params.get("hand")) { $("hand").value = params.get("hand"); readTyped(); changed(); }
}
start();
