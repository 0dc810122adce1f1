// The pit: every progressive's meters, the awards pending validation with a button that asks a
// floorperson to log in, a meter history chart, the ledger's history and the last verification,
// kept up to date by the live event stream (GET /events, croupier.follow) instead of polling. A
// section the member's role may not read — the hold report, a pit manager's, accounting's or an
// auditor's — is not shown, and never asked for.
"use strict";
(() => {
  const {api, token, describe, el, awardWords} = croupier;
  const status = () => document.getElementById("pit-status");
  let chart = null, validating = null, unfollow = null;
  let progs = [];  // GET /progressives's answer, its meters and pending awards kept by the stream
  const pendingAwards = new Map();  // id → award, pending validation
  const decided = new Set();  // awards the stream said were validated, paid or voided

  function meters() {
    const body = document.querySelector("#meters tbody");
    const rows = [];
    for (const p of progs) for (const lv of p.levels) {
      rows.push(el("tr", {"data-progressive": p.name},
        el("th", {scope: "row"}, p.name), el("td", {}, `§ ${p.section} · ${p.paytable} · ${p.wager}`),
        el("td", {}, lv.level), el("td", {class: "num"}, lv.seed), el("td", {class: "num meter"}, lv.meter),
        el("td", {class: "num"}, lv.reserve), el("td", {class: "num"}, String(lv.hits)),
        el("td", {}, p.tables.join(", "))));
    }
    body.replaceChildren(...rows);
    if (typeof Chart === "undefined") return;
    const labels = progs.flatMap((p) => p.levels.map((lv) => `${p.name} ${lv.level}`));
    const meter = progs.flatMap((p) => p.levels.map((lv) => lv.meter_micros / 1e6));
    const seed = progs.flatMap((p) => p.levels.map((lv) => lv.seed_cents / 100));
    if (!chart) {
      Chart.defaults.animation = false;
      chart = new Chart(document.getElementById("chart-meters"), {
        type: "bar",
        data: {labels, datasets: [{label: "Seed ($)", data: seed, backgroundColor: "#9fb6cd"},
          {label: "Meter ($)", data: meter, backgroundColor: "#1f4e79"}]},
        options: {maintainAspectRatio: false, indexAxis: "y"},
      });
    } else {
      chart.data.labels = labels; chart.data.datasets[0].data = seed; chart.data.datasets[1].data = meter;
      chart.update();
    }
  }

  function pending() {
    const body = document.querySelector("#pending tbody");
    const list = [...pendingAwards.values()].sort((a, b) => a.award - b.award);
    body.replaceChildren(...list.map((a) => el("tr", {"data-award": String(a.award)},
      el("th", {scope: "row"}, String(a.number ?? "—")), el("td", {class: "num"}, String(a.award)),
      el("td", {}, a.progressive),
      el("td", {}, `${a.table} · ${a.round}`), el("td", {}, a.outcome),
      el("td", {}, `${a.level ?? "—"} · ${a.share ?? "—"}`), el("td", {class: "num"}, a.amount),
      el("td", {}, el("button", {type: "button", class: "validate", "data-award": String(a.award),
        "aria-label": `Validate ${awardWords(a)}`, onclick: () => ask(a)}, "Validate…")))));
    if (!list.length) body.replaceChildren(el("tr", {}, el("td", {colspan: "8"}, "None pending.")));
  }

  // the meter history chart: one progressive's levels after each of its last events, worked
  // back from the meter now by the events' meter deltas (GET /progressives/{name}/history)
  let historyChart = null;
  async function meterHistory() {
    const pick = document.getElementById("meter-history-progressive");
    const p = progs.find((x) => x.name === pick.value) || progs[0];
    if (!p || typeof Chart === "undefined") return;
    const h = await api(`/progressives/${encodeURIComponent(p.name)}/history?limit=200`);
    const levels = p.levels.map((lv) => lv.level);
    const now = Object.fromEntries(p.levels.map((lv) => [lv.level, lv.meter_micros]));
    const events = h.history;
    const points = Object.fromEntries(levels.map((l) => [l, []]));
    const value = {...now};
    for (let i = events.length - 1; i >= 0; i--) {  // newest first: the meter after event i
      for (const l of levels) points[l].unshift(value[l] / 1e6);
      const e = events[i];
      if (e.level && e.level in value) value[e.level] -= e.meter_delta_micros;
    }
    const labels = events.map((e) => `#${e.seq}`);
    const colours = ["#1f4e79", "#b9770e", "#1e8449", "#922b21", "#6c3483"];
    const datasets = levels.map((l, i) => ({label: `${l} ($)`, data: points[l], borderColor: colours[i % colours.length],
      backgroundColor: colours[i % colours.length], pointRadius: 0, stepped: true}));
    if (historyChart) historyChart.destroy();
    historyChart = new Chart(document.getElementById("chart-meter-history"), {
      type: "line", data: {labels, datasets}, options: {maintainAspectRatio: false},
    });
  }

  async function history() {
    const body = document.querySelector("#history tbody");
    const rows = [];
    for (const p of progs) {
      const h = await api(`/progressives/${encodeURIComponent(p.name)}/history?limit=8`);
      rows.push(...h.history);
    }
    rows.sort((a, b) => b.seq - a.seq);
    body.replaceChildren(...rows.slice(0, 12).map((e) => el("tr", {},
      el("td", {}, String(e.seq)), el("td", {}, e.at.replace("T", " ").slice(0, 19)),
      el("td", {}, e.progressive), el("td", {}, e.kind + (e.level ? ` (${e.level})` : "")),
      el("td", {}, e.table ? `${e.table} · ${e.round ?? ""}` : "—"),
      el("td", {class: "num"}, e.amount ?? ""),  // the server's format_money: "$5,000.18"
      el("td", {}, `${e.by} (${e.role})`))));
  }

  async function hold() {
    const body = document.querySelector("#hold tbody");
    let h;
    try {
      h = await api("/hold-report");
    } catch (e) {  // a dealer or a floorperson: the report is a pit manager's, accounting's, an auditor's
      body.replaceChildren(el("tr", {}, el("td", {colspan: "9", class: "refused"}, describe(e))));
      if (holdChart) { holdChart.destroy(); holdChart = null; }
      return;
    }
    // the table's hold (net of a progressive: contributions go to the meter, awards are paid from
    // it), and under a progressive wager's row its progressive line; amounts as the server wrote them
    body.replaceChildren(...h.rows.flatMap((r) => [el("tr", {"data-table": r.table, "data-wager": r.wager, "data-band": r.band_rule ?? "", class: r.flagged ? "flagged" : (r.judged === false ? "unjudged" : "")},
      el("th", {scope: "row"}, r.table), el("td", {}, r.wager),
      el("td", {}, r.paytable ? `§ ${r.section} ${r.paytable} · ${r.decks}` : "—"),
      el("td", {class: "num"}, String(r.rounds)), el("td", {class: "num"}, r.handle),
      el("td", {class: "num"}, r.table_hold ?? r.hold), el("td", {class: "num"}, r.theoretical ?? "—"),
      el("td", {class: "num"}, r.band ?? "—"),
      el("td", {class: "status-cell"}, r.verdict ? (r.flagged ? `⚠ ${r.verdict}` : r.verdict) : (r.note ?? ""))),
      ...(r.progressive ? [el("tr", {class: "progressive-line", "data-table": r.table, "data-wager": r.wager},
        el("th", {scope: "row"}, ""), el("td", {colspan: "4"}, `progressive line (${r.progressive.progressives.join(", ") || "valued at the seed"}): contributions ${r.progressive.contributions}, awards paid from the meter ${r.progressive.awards_paid}` + (r.progressive.pending_cents ? `, pending ${r.progressive.pending}` : "")),
        el("td", {class: "num"}, r.progressive.net), el("td", {class: "num"}, r.progressive.theoretical),
        el("td", {colspan: "2"}, `theoretical at the meters the wagers saw; the wager in all: hold ${r.hold}, theoretical ${r.theoretical_with_progressive}`))] : [])]));
    if (!h.rows.length) body.replaceChildren(el("tr", {}, el("td", {colspan: "9"}, "No stored rounds.")));
    const rows = h.rows.filter((r) => r.low_cents !== undefined);
    if (typeof Chart === "undefined") return;
    const labels = rows.map((r) => `${r.table} ${r.wager}`);
    const band = rows.map((r) => [r.low_cents / 100, r.high_cents / 100]);
    const actual = rows.map((r) => (r.table_hold_cents ?? r.hold_cents) / 100);
    // flagged: red; within the band (a verdict): green; no verdict yet: grey
    const colours = rows.map((r) => (r.flagged ? "#922b21" : (r.judged ? "#1e8449" : "#7f8c8d")));
    if (holdChart) holdChart.destroy();
    holdChart = new Chart(document.getElementById("chart-hold"), {
      data: {labels, datasets: [
        {type: "bar", label: "Band of the theoretical hold ($): ± 3 SD, or ± 19.2 SD for too few wagers", data: band, backgroundColor: "#d6e4f0"},
        {type: "line", label: "Actual hold ($)", data: actual, showLine: false, pointRadius: 7,
          pointBackgroundColor: colours, borderColor: colours},
      ]},
      options: {maintainAspectRatio: false, indexAxis: "x"},
    });
  }

  // once a burst of events is over: the history (and, for a reader, the hold report) read again
  let later = null;
  function soon() {
    clearTimeout(later);
    later = setTimeout(async () => {
      try {
        await history();
        await meterHistory();
        if (croupier.readsReports(croupier.session())) await hold();
      } catch (e) { status().textContent = describe(e); }
    }, 300);
  }

  function level(name, lv) {
    const p = progs.find((x) => x.name === name);
    return p ? p.levels.find((x) => x.level === lv) : null;
  }
  function meter(m) {
    const lv = level(m.progressive, m.level);
    if (!lv) return false;
    lv.meter = m.meter; lv.meter_micros = m.meter_micros;
    return true;
  }
  function updated() {
    document.getElementById("updated").textContent = `updated ${new Date().toLocaleTimeString()}`;
  }
  function decide(id) {
    decided.add(id); pendingAwards.delete(id); pending(); soon();
  }
  const handlers = {
    meters(d) { if (progs.length && d.meters.every(meter)) { meters(); updated(); } },
    meter(d) {
      if (meter(d)) { meters(); updated(); } else if (progs.length) load();  // a new progressive
      soon();
    },
    "award-pending"(d) { if (d.award.status === "pending") pendingAwards.set(d.award.award, d.award); pending(); soon(); },
    "award-validated"(d) { decide(d.award.award); },
    "award-paid"(d) { decide(d.award.award); },
    "award-voided"(d) { decide(d.award.award); },
    suspended(d) { status().textContent = `${d.progressive} suspended by ${d.by}: ${d.reason ?? ""}`; soon(); },
    resumed(d) { status().textContent = `${d.progressive} resumed by ${d.by}.`; soon(); },
  };

  // everything read once (at log-in, and when the stream names a progressive not known yet)
  async function load() {
    if (!croupier.session()) return;
    try {
      const data = await api("/progressives");
      progs = data.progressives;
      // (an answer read before an event the stream has shown already does not undo it)
      for (const p of progs) for (const a of p.pending) if (!decided.has(a.award)) pendingAwards.set(a.award, a);
      const pick = document.getElementById("meter-history-progressive");
      const keep = pick.value;
      pick.replaceChildren(...progs.map((p) => el("option", {value: p.name}, p.name)));
      if (progs.some((p) => p.name === keep)) pick.value = keep;
      meters(); pending(); updated();
      await history();
      await meterHistory();
      if (croupier.readsReports(croupier.session())) await hold();
    } catch (e) {
      status().textContent = describe(e);
    }
  }

  function ask(award) {
    validating = award;
    const d = document.getElementById("validate-dialog");
    document.getElementById("validate-award").textContent = `${awardWords(award).replace(/^award /, "")}: ${award.amount}, ${award.outcome}`;
    const prob = document.getElementById("validate-problem");
    prob.hidden = true; prob.textContent = "";
    document.getElementById("validate-form").reset();
    d.showModal();
    document.getElementById("validate-user").focus();
  }

  async function validate(ev) {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const prob = document.getElementById("validate-problem");
    try {
      const login = await token(f.get("username"), f.get("password"));
      const a = await api(`/awards/${validating.award}/validate`, {method: "POST", auth: login});
      document.getElementById("validate-dialog").close();
      status().textContent = `${awardWords(a).replace(/^a/, "A")} validated by ${login.user} (${login.role}): ${a.amount} ${a.status}.`;
    } catch (e) {
      prob.textContent = `Refused — ${describe(e)}`;
      prob.hidden = false;
    }
  }

  async function verify() {
    const out = document.getElementById("verified");
    try {
      const v = await api("/verify");
      const meters = Object.entries(v.verified).map(([n, lv]) => `${n}: ${Object.entries(lv).map(([l, m]) => `${l} ${m}`).join(", ")}`);
      out.textContent = `Verified at ${new Date().toLocaleTimeString()}: ${v.events} events, chain ${v.chain_checked ? "checked" : "not checked"}; ${meters.join("; ")}.`;
    } catch (e) {
      out.textContent = describe(e);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("validate-form").addEventListener("submit", validate);
    document.getElementById("validate-cancel").addEventListener("click", () => document.getElementById("validate-dialog").close());
    document.getElementById("verify").addEventListener("click", verify);
    document.getElementById("meter-history-progressive").addEventListener("change", () => meterHistory().catch((e) => { status().textContent = describe(e); }));
    croupier.loginForm((s) => {
      if (unfollow) { unfollow(); unfollow = null; }
      document.getElementById("hold-section").hidden = !croupier.readsReports(s);
      document.getElementById("meter-history-section").hidden = !s;
      if (!s) return;
      // the stream first, then the state read: nothing made in between is missed
      const live = document.getElementById("live");
      unfollow = croupier.follow("/events", handlers, (state) => { live.textContent = state; });
      load();
    });
  });
})();
