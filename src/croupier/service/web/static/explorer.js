// The par-sheet explorer's charts (Chart.js): each outcome's share of the return; for a
// progressive, the return against the top meter.
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
