// The review page: records in, each hand trick by trick with its double-dummy values.
"use strict";
const $ = (id) => document.getElementById(id);

function handView(h, k) {
  const box = el("div", { class: "hand", "data-hand": k });
  if (h.status !== "valid" && h.status !== "renege") {
    box.append(el("p", { class: "error", text: `line ${h.line}: ${h.status}${h.message ? ": " + h.message : ""}` }));
    return box;
  }
  const team = (s) => (h.lost.length === 2 ? s % 2 : s);
  const head = el("div", { class: "hand-head" },
    el("span", { text: `line ${h.line}` }),
    el("span", { text: `maker seat ${h.maker}, bid ${h.bid}${h.trump ? " in " + pretty("A" + h.trump).slice(1) : ""}` }),
    el("span", { text: `double-dummy value at the start: ${h.dd_start}` }),
    el("span", { text: `the maker's side took ${h.points}` }));
  box.append(head);
  for (const t of h.tricks || []) {
    const row = el("div", { class: "trick", "data-trick": t.trick },
      el("div", { class: "label", text: `trick ${t.trick}, won by seat ${t.winner}` }));
    for (const p of t.plays) {
      const lost = p.lost > 0;
      const cell = el("div", { class: "play" + (lost ? " lost" : "") + (p.seat === t.winner ? " won" : ""),
        "data-card": p.card, "data-before": p.before, "data-after": p.after },
        el("span", { class: "face" + (/[DH]$/.test(p.card) ? " red" : ""), text: pretty(p.card) }),
        el("small", { text: `seat ${p.seat} (side ${team(p.seat)})` }),
        el("small", { text: `value ${p.before} → ${p.after}` }));
      if (lost) cell.append(el("small", { text: `gave away ${p.lost} point${p.lost === 1 ? "" : "s"}` }));
      row.append(cell);
    }
    box.append(row);
  }
  const totals = h.lost.map((n, i) => `side ${i}: ${n} point${n === 1 ? "" : "s"} given away`).join("; ");
  box.append(el("p", { class: "totals", text: totals }));
  return box;
}

function showHands(data) {
  const hands = data.hands || [];
  if (!hands.length) { $("hands").textContent = "No hand in those records."; return; }
  $("hands").replaceChildren(...hands.map(handView));
}

async function review(text) {
  $("error").textContent = "";
  $("hands").textContent = "solving...";
  try { showHands(await call("POST", "/api/review", { records: text })); }
  catch (e) { $("error").textContent = e.message; $("hands").textContent = ""; }
}

$("go").addEventListener("click", () => review($("records").value));
$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (f) { $("records").value = await f.text(); review($("records").value); }
});
$("deal").addEventListener("click", async () => {
  $("error").textContent = "";
  $("hands").textContent = "dealing and solving...";
  const seed = Number($("seed").value);
  if (!Number.isInteger(seed) || seed < 0) { $("error").textContent = "seed must be a whole number, 0 or more"; return; }
  try {
    const data = await call("POST", "/api/sample", { seed, play: $("play").value });
    $("records").value = data.records.map((r) => JSON.stringify(r)).join("\n");
    showHands(data);
  } catch (e) { $("error").textContent = e.message; $("hands").textContent = ""; }
});
