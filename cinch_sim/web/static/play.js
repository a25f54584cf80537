// The play page: one seat against the bots, a decision at a time.
"use strict";
const NAMES = { C: "clubs", S: "spades", D: "diamonds", H: "hearts" };
const COUNT = ["no", "one", "two", "three", "four", "five"];
let table = null, variants = {}, state = null, keep = new Set(), busy = false;

function red(card) { return /[DH]$/.test(card); }
// "you", "your partner (seat 2)" (short: "partner"), or "seat 1"
function seatName(seat, short = false) {
  if (state && seat === state.seat) return "you";
  if (state && (state.partners || []).includes(seat)) return short ? "partner" : `your partner (seat ${seat})`;
  return `seat ${seat}`;
}

// "against three bots": a variant's table, the person's seat left out
function againstBots(variant) {
  const bots = ((variants[variant] || {}).players || 4) - 1;
  return `against ${COUNT[bots] || bots} bot${bots === 1 ? "" : "s"}`;
}

function fillSeats() {
  const p = (variants[$("variant").value] || { players: 4 }).players;
  $("myseat").replaceChildren(...Array.from({ length: p }, (_, s) => el("option", { value: s, text: `seat ${s}` })));
  const against = againstBots($("variant").value);
  $("new").textContent = `New game ${against}`;  // the choice waits for the button
  if (table === null) $("setup-title").textContent = `A game ${against}`;  // no game on yet
}

// One move at a time: while a request is out every button of the board is off, so a
// double click cannot answer the next question with the last one's choice.
function setBusy(on) {
  busy = on;
  $("board").classList.toggle("busy", on);
  for (const b of document.querySelectorAll("#board button, #new")) {
    if (on) { b.dataset.was = b.disabled ? "1" : ""; b.disabled = true; }
    else if ("was" in b.dataset) { b.disabled = b.dataset.was === "1"; delete b.dataset.was; }
  }
}

async function act(method, path, body) {
  if (busy) return;
  $("error").textContent = "";
  setBusy(true);
  let s = null;
  try { s = await call(method, path, body); } catch (e) { $("error").textContent = e.message; }
  setBusy(false);
  if (s) show(s);
}

function choose(value) { act("POST", `/api/table/${table}/choose`, { value, move: state.move }); }

// each side's total, the player's own side first (as the hand's summary says them)
function totalsText(s) {
  const order = [s.my_side, ...s.sides.map((_, i) => i).filter((i) => i !== s.my_side)];
  return order.map((i) => `${s.sides[i]} ${s.game.totals[i]}`).join(", ");
}

function scoreLine(s) {
  return `hand ${s.hand_number}, dealer ${seatName(s.dealer)}; totals: ${totalsText(s)} (to ${s.game.target})`;
}

function trickRow(t, i) {
  const row = el("div", { class: "trick-row" + (t.winner === null ? " current" : ""), "data-trick": i + 1 },
    el("span", { class: "label", text: `trick ${i + 1}` + (t.winner === null ? "" : `, won by ${seatName(t.winner)}`) }));
  const plays = el("span", { class: "plays" });
  for (const p of t.plays) {
    const cell = el("span", { class: "played" + (p.seat === t.winner ? " won" : ""), "data-seat": p.seat },
      el("span", { class: "face" + (red(p.card) ? " red" : ""), text: pretty(p.card) }),
      el("small", { text: seatName(p.seat, true) }));
    // the kernel plays a seat's only legal card without asking: say so, not a silent card
    if (p.forced) cell.append(el("small", { class: "forced", text: "your only legal card, played for you" }));
    plays.append(cell);
  }
  row.append(plays);
  return row;
}

function show(s) {
  state = s;
  $("board").dataset.step = String(Number($("board").dataset.step || 0) + 1);  // for tests
  if (s.table && s.table !== table) {  // a new game: the heading says which
    table = s.table;
    $("setup-title").textContent = `A game ${againstBots(s.variant)}`;
    const again = `/play?seed=${s.seed}`;  // the same seed deals the same hands again
    $("again").replaceChildren("Deal these hands again: ", el("a", { href: again, text: again }));
    if (new URLSearchParams(location.search).has("seed")) {  // every new game: these hands
      $("again").append(" (new hands: ", el("a", { href: "/play", text: "/play" }), ")");
    }
    remember(table);
  }
  const g = s.game, over = g.winner !== null && g.winner !== undefined;
  $("score").textContent = scoreLine(s);
  $("gameover").textContent = over ? `${g.winner_text}: ${totalsText(s)}.` : "";
  $("gameover").hidden = !over;
  $("gameover").classList.toggle("lost", over && g.winner !== s.my_side);
  $("where").textContent = `You are seat ${s.seat}` + (s.question && s.question.trump ? `; trump ${SYMBOL[s.question.trump]} ${NAMES[s.question.trump]}` : "");
  $("auction").textContent = "bids: " + (s.bids.length ? s.bids.map((b) => `${seatName(b.seat)} ${b.bid === null ? "pass" : b.bid}`).join(", ") : "none yet");
  $("tricks").replaceChildren(...s.tricks.map(trickRow));
  $("choices").replaceChildren(); $("hand").replaceChildren(); $("review").replaceChildren();
  $("hinttext").textContent = "";
  $("next").hidden = s.status !== "hand over" || over;
  $("hint").disabled = s.status !== "your turn";
  if (s.status === "hand over") {
    const maker = s.partnerships === false ? "the maker" : "the maker's side";
    const value = s.review.from_trick
      ? `at the start of trick ${s.review.from_trick}: ${s.review.dd_start}; the tricks before are too dear to solve under these rules`
      : `at the start: ${s.review.dd_start}`;
    $("prompt").textContent = `Hand over. ${s.summary}`;
    // what "value" means below, as the review page says it: always the maker's side's
    // points, so a defender's poor card raises it
    $("prompt").append(el("small", { class: "status", text: ` (Each card's value is the points ${maker} ends ` +
      `with if everyone then plays best, every card seen: a card that moves it against its own side gave ` +
      `points away. The value ${value}.)` }));
    $("review").append(handView(s.review, 0, { title: `hand ${s.hand_number}`, me: s.seat, sides: s.sides }));
    // the hand's record (cinch-hand/1, one JSON line), for the review page or the
    // command line (cinch-sim solve, referee)
    const blob = new Blob([JSON.stringify(s.record) + "\n"], { type: "application/x-ndjson" });
    $("review").append(el("p", {}, el("a", { id: "record", href: URL.createObjectURL(blob),
      download: `hand-${s.hand_number}.jsonl`, text: "Save this hand's record" }),
      " (JSON Lines: open it on the Hand review page, or give it to cinch-sim solve)"));
    return;
  }
  const q = s.question;
  keep = new Set();
  if (q.kind === "bid") {
    $("prompt").textContent = "Your bid:";
    $("choices").append(...q.legal.map((b) => { const x = el("button", { type: "button", "data-bid": b, text: b === 0 ? "pass" : String(b) });
      x.addEventListener("click", () => choose(b)); return x; }));
    $("hand").append(...q.hand.map((c) => cardButton(c, false)));
  } else if (q.kind === "trump") {
    $("prompt").textContent = "Name trump:";
    $("choices").append(...q.legal.map((t) => { const x = el("button", { type: "button", "data-suit": t, text: `${SYMBOL[t]} ${NAMES[t]}` });
      x.addEventListener("click", () => choose(t)); return x; }));
    $("hand").append(...q.hand.map((c) => cardButton(c, false)));
  } else if (q.kind === "discard") {
    discardQuestion(q);
  } else {
    $("prompt").textContent = "Your card:";
    $("hand").append(...q.hand.map((c) => cardButton(c, q.legal.includes(c), (card) => choose(card))));
  }
  // a phone: the cards to choose from stay in view as the tricks above them grow (by
  // trick 3 they had gone below the screen, and every move needed a scroll)
  if (window.matchMedia("(max-width: 760px)").matches) $("hand").scrollIntoView({ block: "nearest" });
}

// a card to click, or (onClick left out) one shown to read while bidding: not faded
function cardButton(c, enabled, onClick) {
  const b = el("button", { type: "button", class: "card" + (red(c) ? " red" : "") + (onClick ? "" : " view"), "data-card": c, text: pretty(c) });
  b.disabled = !enabled;
  if (enabled) b.addEventListener("click", () => onClick(c, b));
  return b;
}

// What a discard (or a rob) leaves to choose: the cards that must stay (trumps, as the
// rules keep them first, and any that may not go), those that must go (every non-trump
// under must_discard_nontrumps, or no room left beside the trumps), and how many to keep.
function discardPlan(q) {
  let [lo, hi] = q.keep;
  hi = Math.min(hi, q.hand.length);  // no more than the cards offered (two decks' second pass)
  lo = Math.min(lo, hi);
  const fixedIn = new Set(q.hand.filter((c) => !q.legal.includes(c)));
  const fixedOut = new Set(q.must_throw || []);
  const trumps = q.trumps.filter((c) => !fixedOut.has(c));
  if (q.pass === undefined) {  // one deck: the trumps stay, as many as the hand holds
    if (trumps.length <= hi) trumps.forEach((c) => fixedIn.add(c));
    if (trumps.length >= hi) { q.hand.filter((c) => !q.trumps.includes(c)).forEach((c) => fixedOut.add(c)); lo = hi; }
  }
  if (fixedOut.size && q.hand.every((c) => fixedIn.has(c) || fixedOut.has(c))) lo = hi = fixedIn.size;
  lo = Math.max(lo, Math.min(fixedIn.size, hi));
  return { lo, hi, fixedIn, fixedOut };
}

function keepCount(lo, hi) { return lo === hi ? `exactly ${lo}` : `${lo} to ${hi}`; }

function discardQuestion(q) {
  const plan = discardPlan(q);
  plan.fixedIn.forEach((c) => keep.add(c));
  if (q.pass !== undefined) for (const c of q.trumps) if (keep.size < plan.hi) keep.add(c);  // trumps first
  const free = q.hand.filter((c) => !plan.fixedIn.has(c) && !plan.fixedOut.has(c));
  const what = q.pass === 1 ? ` among your second copies (you kept ${q.kept.map(pretty).join(" ") || "none"} once)`
    : q.pass === 0 ? ` among one copy of each card you hold (your second copies, ${q.second_copies.map(pretty).join(" ") || "none"}, come next)` : "";
  const rules = (q.must_throw || []).length ? "every non-trump goes under these rules" : "";
  const stay = [...plan.fixedIn].filter((c) => q.trumps.includes(c));
  const head = q.widow ? `With your widow (${q.picked_up.map(pretty).join(" ")})`
    : q.phase === "rob" ? `Rob the pack${q.from_stock && q.from_stock.length ? ` (from the stock: ${q.from_stock.map(pretty).join(" ")})` : ""}` : "Discard";
  // a robber short of trumps where only trumps are played (pidro): the cards he must
  // keep besides his trumps sit in his hand unplayed, which the page says before he picks
  const short = q.trumps_only && q.trumps.length < plan.lo ? plan.lo - q.trumps.length : 0;
  const parts = [`keep ${keepCount(plan.lo, plan.hi)} cards${what}`, rules,
    stay.length ? `your trumps stay (${stay.map(pretty).join(" ")})` : "",
    short ? `with ${q.trumps.length} trumps you keep ${short} other card${short > 1 ? "s" : ""}, never played: only trumps are played in this game` : ""].filter(Boolean);
  const line = free.length ? `${head}: ${parts.join("; ")}. Click the cards you keep, then press "Keep these".`
    : `${head}: ${rules ? rules + "; " : ""}you keep ${[...plan.fixedIn].map(pretty).join(" ") || "nothing"}${what}, the rest go.`;
  $("prompt").textContent = line;
  const go = el("button", { type: "button", id: "keepgo", text: free.length ? "Keep these" : "Discard the rest" });
  const tally = el("span", { id: "keepcount", class: "status" });
  const recount = () => {
    const n = keep.size, ok = n >= plan.lo && n <= plan.hi;
    go.disabled = !ok;
    tally.textContent = free.length ? ` ${n} chosen` + (ok ? "" : n < plan.lo ? `: choose ${plan.lo - n} more` : `: ${n - plan.hi} too many`) : "";
  };
  $("hand").append(...q.hand.map((c) => {
    const b = cardButton(c, free.includes(c), (card, btn) => {
      if (keep.has(card)) keep.delete(card); else keep.add(card);
      btn.classList.toggle("keep", keep.has(card)); recount(); });
    if (keep.has(c)) b.classList.add("keep");
    if (plan.fixedOut.has(c)) { b.classList.add("out"); b.title = "must go"; }
    // the cards just taken up (the widow, the pack robbed) marked, as the prompt lists them
    if ((q.picked_up || q.from_stock || []).includes(c)) { b.classList.add("new"); b.title ||= "just taken up"; }
    return b;
  }));
  go.addEventListener("click", () => choose([...keep].join(" ")));
  $("choices").append(go, tally);
  recount();
}

// PIMC's mean over its deals, each card: what it is depends on the table (pimc's
// utility): two sides, the margin one gains on the other; with more, each plays for
// himself: the maker his own score change, a defender the points he ends with.
function pimcWhy(h) {
  const signed = (v) => `${v > 0 ? "+" : ""}${v.toFixed(2)}`, plain = (v) => v.toFixed(2);
  const [what, fmt] = {
    score: ["your score to change by", signed],
    points: ["you to end the hand with", plain],
  }[h.pimc_means] || [state.partnerships === false ? "you to gain on your opponent" : "your side to gain on the other", signed];
  return `PIMC, on average over the deals it samples, expects ${what}: ` +
    Object.entries(h.pimc_why).map(([c, v]) => `${fmt(v)} points after ${pretty(c)}`).join(", ");
}

async function hint() {
  if (busy) return;
  $("hinttext").textContent = "thinking...";
  setBusy(true);
  try {
    const h = await call("POST", `/api/table/${table}/hint`);
    if (h.advice) {
      $("hinttext").textContent = `The advisor: ${h.advice.replace(/^Advice: /, "")}`;
      // what its numbers mean (cut-throat: against the average opponent), as the command line says
      for (const note of [h.note, h.score_change]) if (note) $("hinttext").append(el("small", { class: "note", text: `(${note}.)` }));
    } else {
      // "" is an answer too: a discard keeping no card (no trump held)
      const bots = ["heuristic", "pimc"].filter((k) => typeof h[k] === "string").map((who) =>
        `${who === "pimc" ? "PIMC" : "the heuristic"} would ` + (h.kind === "play" ? `play ${pretty(h[who])}`
          : h[who] ? `keep ${h[who].split(" ").map(pretty).join(" ")}` : `keep none: discard all ${state.question.hand.length}`));
      if (h.pimc_why) bots.push(pimcWhy(h));
      if (h.solver) {  // every card seen: the points the maker (his side) ends with after each card
        bots.push(`Another scale, with every card seen (perfect play): ${state.partnerships === false ? "the maker" : "the maker's side"} ends the hand with ` +
          Object.entries(h.solver).map(([c, v]) => `${v} point${v === 1 ? "" : "s"} after ${pretty(c)}`).join(", "));
      } else if (h.solver_note) bots.push(h.solver_note);
      // one line each: PIMC's margin and the solver's points are on different scales
      $("hinttext").replaceChildren(...bots.map((b) => el("div", { text: b.charAt(0).toUpperCase() + b.slice(1) + "." })));
    }
  } catch (e) { $("hinttext").textContent = ""; $("error").textContent = e.message; }
  setBusy(false);
}

// The game's id in the address (#game=...): a reload, or the address kept in a tab,
// comes back to the same game while the server keeps it (in memory, while it runs).
function remember(id) { history.replaceState(null, "", id ? `#game=${id}` : location.pathname); }

async function resume(id) {
  setBusy(true);
  let s = null;
  try { s = await call("GET", `/api/table/${id}`); } catch (e) {
    $("error").textContent = "The game at this address is no longer on the server (games last while it runs): start a new one.";
    remember(null);
  }
  setBusy(false);
  if (!s) return;
  // the setup as this game's, so that "New game" offers the same table again
  $("variant").value = s.variant;
  $("variant").dispatchEvent(new Event("change"));  // its seats and its description
  $("myseat").value = String(s.seat); $("bots").value = s.bots;
  show({ ...s, table: id });
}

async function start() {
  try { variants = await call("GET", "/api/variants"); } catch (e) { variants = { standard: { players: 4 } }; }
  fillVariants();
  fillSeats();
  $("variant").addEventListener("change", fillSeats);
  $("new").addEventListener("click", async () => {
    const seed = new URLSearchParams(location.search).get("seed");  // digits, kept whole
    await act("POST", "/api/table", { variant: $("variant").value, seat: Number($("myseat").value),
      bots: $("bots").value, ...(seed === null ? {} : { seed }) });
    if (state) reveal("board");  // a phone: the table is below the setup
  });
  $("hint").addEventListener("click", hint);
  $("next").addEventListener("click", () => act("POST", `/api/table/${table}/next`));
  const kept = /^#game=([0-9a-f]+)$/.exec(location.hash);
  if (kept) await resume(kept[1]);
}
start();
