// The play page: one seat against three bots, a decision at a time.
"use strict";
const $ = (id) => document.getElementById(id);
let table = null, variants = {}, state = null, keep = new Set();

function red(card) { return /[DH]$/.test(card); }

function fillSeats() {
  const p = (variants[$("variant").value] || { players: 4 }).players;
  $("myseat").replaceChildren(...Array.from({ length: p }, (_, s) => el("option", { value: s, text: `seat ${s}` })));
}

async function act(method, path, body) {
  $("error").textContent = "";
  try { show(await call(method, path, body)); } catch (e) { $("error").textContent = e.message; }
}

function show(s) {
  state = s;
  $("board").dataset.step = String(Number($("board").dataset.step || 0) + 1);  // for tests
  if (s.table) table = s.table;
  const g = s.game;
  $("score").textContent = `hand ${s.hand_number}, dealer seat ${s.dealer}; totals ` +
    g.totals.map((t, i) => `side ${i}: ${t}`).join(", ") + ` (to ${g.target})` +
    (g.winner !== null && g.winner !== undefined ? `; side ${g.winner} wins the game` : "");
  $("where").textContent = `You are seat ${s.seat}` + (s.question && s.question.trump ? `; trump ${SYMBOL[s.question.trump]}` : "");
  $("auction").textContent = "bids: " + (s.bids.length ? s.bids.map((b) => `seat ${b.seat} ${b.bid === null ? "pass" : b.bid}`).join(", ") : "none yet");
  $("tricks").replaceChildren(...s.tricks.map((t, i) => el("div", { class: "trick-row" + (t.winner === null ? " current" : ""), "data-trick": i + 1 },
    el("span", { text: `trick ${i + 1} (led by seat ${t.leader})${t.winner === null ? "" : `, won by seat ${t.winner}`}:` }),
    ...t.cards.map((c) => el("span", { class: "face" + (red(c) ? " red" : ""), text: pretty(c) })))));
  $("choices").replaceChildren(); $("hand").replaceChildren(); $("review").replaceChildren();
  $("hinttext").textContent = "";
  $("next").hidden = s.status !== "hand over" || (g.winner !== null && g.winner !== undefined);
  $("hint").disabled = s.status !== "your turn";
  if (s.status === "hand over") {
    const at = s.review.from_trick ? `at the start of trick ${s.review.from_trick}, the first solved under these rules,` : "at the start";
    $("prompt").textContent = `Hand over: the maker's side took ${s.review.points} (double-dummy value ${at} ${s.review.dd_start}).`;
    $("review").append(handView(s.review, 0));
    return;
  }
  const q = s.question;
  keep = new Set();
  // a card to click, or (onClick left out) one shown to read while bidding: not faded
  const cardButton = (c, enabled, onClick) => {
    const b = el("button", { type: "button", class: "card" + (red(c) ? " red" : "") + (onClick ? "" : " view"), "data-card": c, text: pretty(c) });
    b.disabled = !enabled;
    if (enabled) b.addEventListener("click", () => onClick(c, b));
    return b;
  };
  if (q.kind === "bid") {
    $("prompt").textContent = "Your bid:";
    $("choices").append(...q.legal.map((b) => { const x = el("button", { type: "button", "data-bid": b, text: b === 0 ? "pass" : String(b) });
      x.addEventListener("click", () => act("POST", `/api/table/${table}/choose`, { value: b })); return x; }));
    $("hand").append(...q.hand.map((c) => cardButton(c, false)));
  } else if (q.kind === "trump") {
    $("prompt").textContent = "Name trump:";
    $("choices").append(...q.legal.map((t) => { const x = el("button", { type: "button", "data-suit": t, text: SYMBOL[t] });
      x.addEventListener("click", () => act("POST", `/api/table/${table}/choose`, { value: t })); return x; }));
    $("hand").append(...q.hand.map((c) => cardButton(c, false)));
  } else if (q.kind === "discard") {
    const [lo, hi] = q.keep;
    const must = q.hand.filter((c) => !q.legal.includes(c));
    must.forEach((c) => keep.add(c));
    for (const c of q.trumps) if (keep.size < hi) keep.add(c);  // trumps are kept first
    const what = q.pass === 1 ? `your second copies (you kept ${q.kept.map(pretty).join(" ") || "none"} once)`
      : q.pass === 0 ? `one copy of each card you hold (your second copies, ${q.second_copies.map(pretty).join(" ") || "none"}, come next)` : "";
    $("prompt").textContent = `${q.phase === "rob" ? "Rob the pack" : "Discard"}: click the cards to keep (${lo === hi ? lo : `${lo} to ${hi}`}; your trumps first)${what ? ` among ${what}` : ""}, then keep them.`;
    $("hand").append(...q.hand.map((c) => { const b = cardButton(c, !must.includes(c), (card, btn) => {
      if (keep.has(card)) keep.delete(card); else keep.add(card); btn.classList.toggle("keep", keep.has(card)); });
      if (keep.has(c)) b.classList.add("keep"); return b; }));
    const go = el("button", { type: "button", id: "keepgo", text: "Keep these" });
    go.addEventListener("click", () => act("POST", `/api/table/${table}/choose`, { value: [...keep].join(" ") }));
    $("choices").append(go);
  } else {
    $("prompt").textContent = "Your card:";
    $("hand").append(...q.hand.map((c) => cardButton(c, q.legal.includes(c), (card) =>
      act("POST", `/api/table/${table}/choose`, { value: card }))));
  }
}

async function hint() {
  $("hinttext").textContent = "thinking...";
  try {
    const h = await call("POST", `/api/table/${table}/hint`);
    if (h.advice) $("hinttext").textContent = `The advisor: ${h.advice.replace(/^Advice: /, "")}`;
    else {
      const bots = ["heuristic", "pimc"].filter((k) => h[k]).map((who) =>
        `${who === "pimc" ? "PIMC" : "the heuristic"} would ${h.kind === "play" ? "play" : "keep"} ${h[who].split(" ").map(pretty).join(" ")}`);
      if (h.pimc_why) {  // why: PIMC's mean over its deals, each card
        bots.push(`PIMC expects your side to gain on the other, on average over its deals, ` +
          Object.entries(h.pimc_why).map(([c, v]) => `${v > 0 ? "+" : ""}${v.toFixed(2)} after ${pretty(c)}`).join(", "));
      }
      if (h.solver) {  // every card seen: the points the maker's side ends with after each card
        bots.push("with every card seen, the maker's side ends with " + Object.entries(h.solver)
          .map(([c, v]) => `${v} after ${pretty(c)}`).join(", "));
      } else if (h.solver_note) bots.push(h.solver_note);
      $("hinttext").textContent = bots.join("; ");
    }
  } catch (e) { $("hinttext").textContent = ""; $("error").textContent = e.message; }
}

async function start() {
  try { variants = await call("GET", "/api/variants"); } catch (e) { variants = { standard: { players: 4 } }; }
  $("variant").replaceChildren(...Object.keys(variants).map((v) => el("option", { value: v, text: v })));
  $("variant").value = "standard";
  fillSeats();
  $("variant").addEventListener("change", fillSeats);
  $("new").addEventListener("click", () => act("POST", "/api/table",
    { variant: $("variant").value, seat: Number($("myseat").value), bots: $("bots").value }));
  $("hint").addEventListener("click", hint);
  $("next").addEventListener("click", () => act("POST", `/api/table/${table}/next`));
}
start();
