// The review page: records in, each hand trick by trick with its double-dummy values.
"use strict";
let variants = {};

// double-dummy play greyed out where the solver cannot play the variant, with why
function fitPlays() {
  const why = (variants[$("variant").value] || {}).dd, dd = $("play").querySelector('option[value="dd"]');
  dd.disabled = Boolean(why);
  dd.textContent = why ? "double-dummy (not in this variant)" : "double-dummy";
  dd.title = why || "";
  if (why && $("play").value === "dd") $("play").value = "heuristic";
}

function showHands(data) {
  const hands = data.hands || [];
  if (!hands.length) { $("hands").textContent = "No hand in those records."; return; }
  $("hands").replaceChildren(...hands.map((h, k) => handView(h, k)));
}

async function review(text) {
  $("error").textContent = "";
  $("hands").textContent = "solving...";
  try { showHands(await call("POST", "/api/review", { records: text })); reveal("output"); }
  catch (e) { $("error").textContent = e.message; $("hands").textContent = ""; }
}

$("go").addEventListener("click", () => review($("records").value));
$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (f) { $("records").value = await f.text(); review($("records").value); }
});
$("deal").addEventListener("click", async () => {
  $("error").textContent = "";
  const seed = $("seed").value.trim();  // sent as digits: a number past 2**53 would lose some
  if (!/^[0-9]+$/.test(seed)) {
    $("error").textContent = "seed must be a whole number, 0 or more";
    $("hands").textContent = "";
    return;
  }
  $("hands").textContent = "dealing and solving...";
  try {
    const data = await call("POST", "/api/sample", { seed, play: $("play").value, variant: $("variant").value });
    $("records").value = data.records.map((r) => JSON.stringify(r)).join("\n");
    showHands(data);
    reveal("output");
  } catch (e) { $("error").textContent = e.message; $("hands").textContent = ""; }
});

(async () => {
  try { variants = await call("GET", "/api/variants"); } catch (e) { variants = { standard: {} }; }
  fillVariants();
  $("variant").addEventListener("change", fitPlays);
  fitPlays();
})();
