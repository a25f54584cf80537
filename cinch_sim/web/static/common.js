// Shared by the pages: the client id the server keys its queue by, and JSON calls.
"use strict";
const CLIENT = sessionStorage.getItem("cinch-client") ||
  (() => { const id = Math.random().toString(36).slice(2); sessionStorage.setItem("cinch-client", id); return id; })();

const $ = (id) => document.getElementById(id);

async function call(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", "X-Client": CLIENT },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: `the server answered ${res.status}` }; }
  if (!res.ok) { throw new Error(data.error || `the server answered ${res.status}`); }
  return data;
}

const SUITS = ["C", "S", "D", "H"];
const SYMBOL = { C: "♣", S: "♠", D: "♦", H: "♥" };
const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
function pretty(card) {  // "TS" -> "10♠"
  const r = card.slice(0, -1), s = card.slice(-1);
  return (r === "T" ? "10" : r) + (SYMBOL[s] || s);
}
// A variant menu's entry: its name, then what the preset is ("sancho: standard plus the
// 9 of trumps (Sancho) worth 9"), from the server's list (each page's ``variants``).
function variantLabel(name) {
  const words = (variants[name] || {}).description;
  return words ? `${name}: ${words}` : name;
}
// A page's variant menu (standard chosen) and, under it, the chosen preset's whole
// description: the closed menu cuts a long entry at its width.
function fillVariants() {
  const menu = $("variant");
  menu.replaceChildren(...Object.keys(variants).map((v) => el("option", { value: v, text: variantLabel(v) })));
  menu.value = "standard";
  const words = el("div", { class: "status", id: "variant-words" });
  menu.after(words);
  const say = () => { words.textContent = (variants[menu.value] || {}).description || ""; };
  menu.addEventListener("change", say);
  say();
}
// On a phone the panels stand one under the other (style.css's 760 px): bring the
// answer into view when it first comes, or it waits below the fold unseen.
function reveal(id) {
  if (window.matchMedia("(max-width: 760px)").matches) {
    document.getElementById(id).scrollIntoView({ block: "start" });
  }
}
// "0", "0 and 1", "0, 1 and 2": a list as a sentence says it
function joined(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

// One reviewed hand (solve's JSON), trick by trick: the review page and the end of a
// played hand. ``opts``: ``title`` (else the record's line), ``me`` (that seat reads
// "you") and ``sides`` (each side's name, else "side 0", "side 1"; cut-throat, where
// each player is a side of his own (``h.partnerships`` false), "seat 0", "seat 1").
function handView(h, k, opts = {}) {
  const box = el("div", { class: "hand", "data-hand": k });
  if (h.status !== "valid" && h.status !== "renege") {
    // the referee's refusal in people's words first, the record's field path after it
    const why = h.problem ? `${h.trick ? `trick ${h.trick}: ` : ""}${h.problem}${h.field ? `; record field ${h.field}` : ""}` : h.message;
    box.append(el("p", { class: "error", text: `line ${h.line}: ${h.status}${why ? ": " + why : ""}` }));
    return box;
  }
  const team = (s) => (h.lost.length === 2 ? s % 2 : s);
  const alone = h.partnerships === false;
  // a side by its seats and its part: "the maker's side (seats 0 and 2)", "the defenders (seats 1 and 3)"
  const seats = (i) => [...new Set((h.tricks || []).flatMap((t) => t.plays.map((p) => p.seat)))]
    .filter((s) => team(s) === i).sort((a, b) => a - b);
  const teamName = (i) => {
    const list = seats(i), named = list.length ? `seats ${list.join(", ").replace(/, (\d+)$/, " and $1")}` : `side ${i}`;
    if (h.maker === undefined || h.maker === null || h.maker < 0) return named;
    return `${i === team(h.maker) ? "the maker's side" : "the defenders"} (${named})`;
  };
  const side = (i) => (opts.sides ? opts.sides[i] : alone ? `seat ${i}` : teamName(i));
  // "you", "your partner", "seat 1 (a defender)", cut-throat "seat 1"; ``bare``: no part named
  const who = (s, bare = false) => {
    if (s === opts.me) return "you";
    if (opts.me !== undefined && h.lost.length === 2 && team(s) === team(opts.me)) return `your partner (seat ${s})`;
    if (h.lost.length > 2 || alone || bare) return `seat ${s}`;
    if (opts.sides) return `seat ${s} (${opts.sides[team(s)]})`;
    return h.maker >= 0 ? `seat ${s} (${team(s) === team(h.maker) ? "the maker's side" : "a defender"})` : `seat ${s}`;
  };
  // what a card's drop means: the maker's side's points given away, or in cut-throat,
  // for another player, points given to the maker
  const gave = (s, n) => `${alone && s !== h.maker ? "gave the maker" : "gave away"} ${n} point${n === 1 ? "" : "s"}`;
  const head = el("div", { class: "hand-head" },
    el("span", { text: opts.title || `line ${h.line}` }),
    el("span", { text: `maker ${who(h.maker, true)}, bid ${h.bid}${h.trump ? " in " + pretty("A" + h.trump).slice(1) : ""}` }),
    el("span", { text: h.from_trick ? `double-dummy value at the start of trick ${h.from_trick}: ${h.dd_start} (the tricks before are too dear to solve under these rules)`
      : `double-dummy value at the start: ${h.dd_start}` }),
    el("span", { text: `${alone ? "the maker" : "the maker's side"} took ${h.points}` }));
  box.append(head);
  for (const t of h.tricks || []) {
    const row = el("div", { class: "trick", "data-trick": t.trick },
      el("div", { class: "label", text: `trick ${t.trick}, won by ${t.winner === opts.me ? "you" : `seat ${t.winner}`}` }));
    for (const p of t.plays) {
      const lost = p.lost > 0;
      const cell = el("div", { class: "play" + (lost ? " lost" : "") + (p.seat === t.winner ? " won" : ""),
        "data-card": p.card, "data-before": p.before ?? "", "data-after": p.after ?? "" },
        el("span", { class: "face" + (/[DH]$/.test(p.card) ? " red" : ""), text: pretty(p.card) }),
        el("small", { text: who(p.seat) }),
        el("small", { text: p.before === null ? "not solved" : `value ${p.before} → ${p.after}` }));
      if (lost) cell.append(el("small", { text: gave(p.seat, p.lost) }));
      row.append(cell);
    }
    box.append(row);
  }
  const totals = h.lost.map((n, i) => `${side(i)}: ${n} point${n === 1 ? "" : "s"} given ${alone && i !== h.maker ? "to the maker" : "away"}`).join("; ");
  box.append(el("p", { class: "totals", text: totals }));
  // cut-throat: the search plays the others together against the maker, so what another
  // player "gives" is the maker's gain, not his own loss
  if (alone) box.append(el("p", { class: "totals", text: "Values are the maker's points under best play, the other players together against him: another player's card that raises them gives the maker points." }));
  return box;
}
