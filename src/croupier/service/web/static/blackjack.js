// The Blackjack calculator (/blackjack): the form's rules sent to GET /blackjack/house-edge for
// both strategies, and on request to GET /blackjack/effects; each shown when it is answered,
// with the seconds waited so far (a rule set not asked before takes seconds).
"use strict";
(() => {
  const form = document.getElementById("rules");
  const status = document.getElementById("status");
  const {api, describe, el} = croupier;
  const pct = (x) => `${(x * 100).toFixed(4)}%`;
  function query(extra = {}) {
    const q = new URLSearchParams();
    for (const name of ["decks", "split_hands", "blackjack_pays", "double"]) {
      q.set(name, form.elements[name].value);
    }
    q.set("h17", form.elements.dealer.value === "H17");
    for (const name of ["das", "resplit_aces", "hit_split_aces", "surrender", "peek"]) {
      q.set(name, form.elements[name].checked);
    }
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    return q.toString();
  }
  async function waiting(what, work) {
    const start = Date.now();
    const tick = () => { status.textContent = `${what}… ${Math.round((Date.now() - start) / 1000)} s`; };
    tick();
    const timer = setInterval(tick, 1000);
    try {
      const answer = await work();
      status.textContent = "";
      return answer;
    } catch (e) {
      status.textContent = describe(e);
      throw e;
    } finally {
      clearInterval(timer);
    }
  }
  let asked = "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    asked = query();
    document.getElementById("results").hidden = false;
    document.getElementById("effects").hidden = true;
    for (const s of ["basic", "composition"]) document.getElementById(`edge-${s}`).textContent = "…";
    try {
      for (const s of ["basic", "composition"]) {
        const doc = await waiting(`computing the ${s} strategy`,
          () => api(`/blackjack/house-edge?${query({strategy: s})}`));
        document.getElementById("rules-text").textContent = doc.rules;
        document.getElementById(`edge-${s}`).textContent = pct(doc.house_edge);
      }
    } catch { /* shown in the status line */ }
  });
  document.getElementById("show-effects").addEventListener("click", async () => {
    const table = document.getElementById("effects");
    try {
      const doc = await waiting("computing the effect of each rule",
        () => api(`/blackjack/effects?${asked || query()}&strategy=basic`));
      const body = table.querySelector("tbody");
      body.replaceChildren(el("tr", {}, el("th", {scope: "row"}, "base"), el("td", {}, "the rules above"),
        el("td", {class: "num"}, pct(doc.house_edge)), el("td", {class: "num"}, "")));
      for (const e of doc.effects) {
        const change = (e.change * 100).toFixed(4);
        body.append(el("tr", {"data-key": e.key}, el("th", {scope: "row"}, e.rule), el("td", {}, e.label),
          el("td", {class: "num"}, pct(e.house_edge)),
          el("td", {class: "num"}, e.change >= 0 ? `+${change}` : change)));
      }
      table.hidden = false;
    } catch { /* shown in the status line */ }
  });
})();
