// Shared by the pages: the client id the server keys its queue by, and JSON calls.
"use strict";
const CLIENT = sessionStorage.getItem("cinch-client") ||
  (() => { const id = Math.random().toString(36).slice(2); sessionStorage.setItem("cinch-client", id); return id; })();

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
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}
