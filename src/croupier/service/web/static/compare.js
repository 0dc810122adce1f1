// The paytable comparison: sort by any column (its header's button, by keyboard or pointer;
// aria-sort says which and how), and a chart of the house edges.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // the wager size picker offers the sizes the chosen wager's paytables take (none: hidden)
  const wager = document.getElementById("wager"), stake = document.getElementById("stake");
  const cat = document.getElementById("catalogue");
  if (wager && stake && cat) {
    const wagers = JSON.parse(cat.textContent);
    wager.addEventListener("change", () => {
      const sizes = (wagers.find((x) => x.wager === wager.value) || {stakes: []}).stakes;
      const own = new Option("each paytable's own", "");
      stake.replaceChildren(own, ...sizes.map((s) => new Option(s.text, String(s.cents / 100))));
      const none = sizes.length === 0;
      stake.hidden = stake.disabled = none;
      document.querySelector("label[for=stake]").hidden = none;
    });
  }
  const table = document.getElementById("compare");
  if (!table) return;
  const body = table.tBodies[0];
  table.querySelectorAll("th button[data-sort]").forEach((b) => {
    b.addEventListener("click", () => {
      const th = b.closest("th");
      const asc = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach((x) => x.hasAttribute("aria-sort") && x.setAttribute("aria-sort", "none"));
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      const k = b.dataset.sort, text = b.dataset.kind === "text";
      const val = (tr) => {
        const v = tr.dataset[k];
        if (text) return v;
        return v === "" ? Infinity : Number(v);
      };
      const rows = [...body.rows].sort((x, y) => {
        const a = val(x), c = val(y);
        const o = text ? String(a).localeCompare(String(c), "en", {numeric: true}) : a - c;
        return asc ? o : -o;
      });
      body.append(...rows);
    });
  });
  const node = document.getElementById("compare-data");
  if (!node || typeof Chart === "undefined") return;
  const rows = JSON.parse(node.textContent);
  Chart.defaults.animation = false;
  new Chart(document.getElementById("chart-compare"), {
    type: "bar",
    data: {
      labels: rows.map((r) => r.paytable),
      datasets: [
        {label: "House edge at the seed", data: rows.map((r) => r.house_edge * 100), backgroundColor: "#1f4e79"},
        {label: "Long-run edge", data: rows.map((r) => (1 - r.long_run_return) * 100), backgroundColor: "#c98a1b"},
      ],
    },
    options: {maintainAspectRatio: false, scales: {y: {title: {display: true, text: "% of the wager"}}}},
  });
});
