// The dealer's screen: one table's round step by step (POST /tables/{table}/steps); only the
// actions the round allows next are enabled; each settlement line with its pay and section; the
// table's progressive awards followed on the live event stream (GET /events) as a floorperson
// validates and pays them.
"use strict";
(() => {
  const {api, describe, el, awardWords} = croupier;
  const $ = (id) => document.getElementById(id);
  let table = null, unfollow = null;
  const awards = new Map();  // this table's awards seen on the stream: id → [award, what happened]

  const SAID = {"award-pending": "pending a floorperson's validation", "award-validated": "validated",
    "award-paid": "paid", "award-voided": "voided"};
  function award(name, d) {
    const a = d.award;
    if (a.table !== table) return;
    awards.set(a.award, [a, `${SAID[name]}${d.by && name !== "award-pending" ? ` by ${d.by}` : ""}`]);
    const list = [...awards.values()].sort((x, y) => x[0].award - y[0].award);
    $("table-awards").replaceChildren(...list.map(([x, said]) => el("li", {"data-award": String(x.award)},
      `${awardWords(x).replace(/^a/, "A")}: seat ${x.position}, ${x.outcome}, ${x.amount} (${x.progressive} ${x.level ?? ""} ${x.share ?? ""}) — ${said}`)));
  }
  const handlers = Object.fromEntries(Object.keys(SAID).map((n) => [n, (d) => award(n, d)]));

  function show(state) {
    last = state;
    $("round").hidden = false;
    $("round-table").textContent = state.table;
    $("round-number").textContent = state.round;
    $("round-phase").textContent = state.phase;
    $("round-cards").textContent = state.cards || "—";
    $("round-allowed").textContent = state.allowed.join(", ") || "nothing: the round is settled";
    // who acts next (seat and hand) and with what: the round's own answer, never guessed here
    const turns = state.to_act || [];
    $("round-to-act").textContent = turns.length ? turns.map((t) =>
      `seat ${t.seat}${t.hand !== null && t.hands > 1 ? `, hand ${t.hand} of ${t.hands}` : ""}` +
      `${t.cards ? ` (${t.cards})` : ""}: ${t.actions.join(", ")}`).join("; ") :
      (state.allowed.includes("dealer-draw") ? "the dealer draws" : "no player");
    if (turns.length === 1) $("play-seat").value = String(turns[0].seat);
    // a button is live only for what the round would accept now (allowed is exact)
    document.querySelectorAll("button[data-action]").forEach((b) => {
      b.disabled = !state.allowed.includes(b.dataset.action);
    });
    const doc = state.settled ? state.settled.settlement : state.settlement;
    $("lines").tBodies[0].replaceChildren(...doc.lines.map((x) => el("tr", {},
      el("td", {}, String(x.seat)), el("td", {}, x.wager), el("td", {}, x.outcome),
      el("td", {}, x.pays + (x.pending_validation ? " — pending a floorperson's validation" : "")),
      el("td", {class: "num"}, x.stake), el("td", {class: "num"}, x.win ?? "base game"),
      el("td", {}, x.section ? `§ ${x.section}` : ""))));
    $("net").textContent = doc.net;
    $("events").replaceChildren(...state.events.map((e) => el("li", {},
      `${e.detail}${e.section ? ` (§ ${e.section})` : ""}`)));
    $("next-round").hidden = state.phase !== "settled";
  }

  function problem(e) {
    $("dealer-problem").textContent = describe(e);
    $("dealer-problem").hidden = !e;
  }

  function step(action) {
    const s = {action};
    const seat = Number($("play-seat").value);
    if (action === "bet") {
      Object.assign(s, {seat: Number($("bet-seat").value), wager: $("bet-wager").value.trim(), amount: $("bet-amount").value.trim()});
    } else if (action === "deal") {
      const players = {};
      for (const part of $("deal-players").value.split(";")) {
        const m = part.match(/^\s*(\d+)\s*:\s*(.+?)\s*$/);
        if (m) players[m[1]] = m[2];
      }
      Object.assign(s, {players, dealer: $("deal-dealer").value.trim()});
    } else if (action === "dealer-draw") {
      // the dealer's draws after the players' hands (§ 633a.7): the card field's card(s)
      const cards = $("play-card").value.trim();
      if (cards) s.cards = cards;
    } else if (!["no-more-bets", "settle"].includes(action)) {
      s.seat = seat;
      const card = $("play-card").value.trim();
      if (card && ["hit", "double"].includes(action)) s.card = card;
    }
    return s;
  }

  let last = null;
  async function post(action) {
    // one step in flight at a time: every action waits for the round's answer
    document.querySelectorAll("button[data-action]").forEach((b) => { b.disabled = true; });
    try {
      const state = await api(`/tables/${encodeURIComponent(table)}/steps`, {method: "POST", body: step(action)});
      $("dealer-problem").hidden = true;
      show(state);
      $("dealer-status").textContent = `${action}: done.`;
    } catch (e) {
      problem(e);
      if (last) show(last);
    }
  }

  async function load() {
    if (!table) return;
    try {
      show(await api(`/tables/${encodeURIComponent(table)}`));
      $("dealer-problem").hidden = true;
    } catch (e) { problem(e); }
  }

  async function tables() {
    try {
      const t = await api("/tables");
      $("table").replaceChildren(...t.tables.map((x) => el("option", {value: x.table}, `${x.table} (${x.round})`)));
      $("dealer-status").textContent = t.tables.length ? "" : "No open table: a pit manager opens one (POST /tables).";
    } catch (e) { problem(e); }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("button[data-action]").forEach((b) => {
      b.disabled = true;
      b.addEventListener("click", () => post(b.dataset.action));
    });
    $("pick-table").addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (table !== $("table").value) { awards.clear(); $("table-awards").replaceChildren(el("li", {class: "none"}, "None since this screen opened.")); }
      table = $("table").value;
      load();
    });
    $("next-round").addEventListener("click", load);
    // the card picker types into the cards field used last (the dealer's, or a seat's after
    // "N:" in the players' field)
    let target = $("deal-dealer");
    for (const id of ["deal-players", "deal-dealer", "play-card"]) $(id).addEventListener("focus", () => { target = $(id); });
    document.querySelectorAll("#card-picker button[data-card]").forEach((b) => b.addEventListener("click", () => {
      target.value = target.id === "play-card" ? b.dataset.card : `${target.value.trimEnd()} ${b.dataset.card}`.trimStart();
    }));
    croupier.loginForm((s) => {
      if (unfollow) { unfollow(); unfollow = null; }
      if (!s) return;
      tables();
      unfollow = croupier.follow("/events", handlers, (state) => { $("live").textContent = state; });
    });
  });
})();
