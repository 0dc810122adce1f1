// The par-sheet explorer's charts (Chart.js): each outcome's share of the return; the
// confidence band of the return against the rounds played (log axis); for a progressive, the
// return against the top meter.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const data = croupier.chartData();
  if (!data) return;
  new Chart(document.getElementById("chart-return"), {
    type: "bar",
    data: {
      labels: data.labels,
      datasets: [{label: "Return per unit wagered", data: data.returns,
        backgroundColor: data.returns.map((r) => (r < 0 ? "#b03a2e" : "#1e8449"))}],
    },
    options: {indexAxis: "y", maintainAspectRatio: false, plugins: {legend: {display: false}}},
  });
  if (data.bands) {
    // each level's low and high ends, the widest band (99 %) lightest; the expected return
    const colours = {"90%": "#2171b5", "95%": "#6baed6", "99%": "#9ecae1"};
    const b = data.bands;
    const point = (ys) => ys.map((y, i) => ({x: b.rounds[i], y}));
    const datasets = [];
    for (const lv of b.levels) {
      const colour = colours[lv.label] || "#4292c6";
      datasets.push({label: `${lv.label} band`, data: point(lv.high), borderColor: colour,
        backgroundColor: colour, pointRadius: 2});
      datasets.push({label: `${lv.label} band, low`, data: point(lv.low), borderColor: colour,
        backgroundColor: colour, borderDash: [4, 3], pointRadius: 2});
    }
    datasets.push({label: "expected", data: point(b.rounds.map(() => b.expected)),
      borderColor: "#000", pointRadius: 0, borderWidth: 1});
    new Chart(document.getElementById("chart-bands"), {
      type: "line",
      data: {datasets},
      options: {
        maintainAspectRatio: false,
        scales: {
          x: {type: "logarithmic", title: {display: true, text: "rounds played N"},
            ticks: {callback: (v) => (Math.log10(v) % 1 === 0 ? Number(v).toLocaleString("en-US") : "")}},
          y: {title: {display: true, text: "return to player (% of wagered)"}},
        },
        // one legend entry per level: its high end solid, its low end dashed
        plugins: {legend: {labels: {boxWidth: 12, font: {size: 10},
          filter: (item) => !item.text.endsWith(", low")}}},
      },
    });
  }
  if (data.meter) {
    new Chart(document.getElementById("chart-meter"), {
      type: "line",
      data: {
        labels: data.meter.labels,  // the server's format_money
        datasets: [{label: `Return at the ${data.meter.level} meter`, data: data.meter.returns,
          borderColor: "#1f4e79", pointRadius: 0}],
      },
      options: {maintainAspectRatio: false, scales: {y: {title: {display: true, text: "return per unit"}}}},
    });
  }
});
