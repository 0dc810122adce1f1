// The count analysis's chart (Chart.js): the effect of removal of each rank, in % of the wager,
// and, for a count of ranks, its tags on a second axis.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const data = croupier.chartData();
  if (!data) return;
  const datasets = [{
    type: "bar", label: "Effect of removal (% of the wager)", data: data.effects, yAxisID: "y",
    backgroundColor: data.effects.map((e) => (e > 0 ? "#1e8449" : "#b03a2e")),
  }];
  const scales = {y: {title: {display: true, text: "% of the wager"}}};
  if (data.tags) {
    datasets.push({type: "line", label: "Tag", data: data.tags, yAxisID: "tag",
      borderColor: "#1f4e79", backgroundColor: "#1f4e79", showLine: false, pointRadius: 5});
    scales.tag = {position: "right", grid: {drawOnChartArea: false}, ticks: {stepSize: 1},
      title: {display: true, text: "tag"}};
  }
  new Chart(document.getElementById("chart-eor"), {
    data: {labels: data.ranks, datasets},
    options: {maintainAspectRatio: false, scales},
  });
});
