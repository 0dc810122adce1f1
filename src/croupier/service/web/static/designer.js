// The designer: editing a pay asks the server for the edited paytable's exact figures (the same
// page, its figures section swapped in) and keeps the export link in step.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("design");
  if (!form) return;
  let timer = null;
  const query = () => {
    const q = new URLSearchParams(new FormData(form));
    q.delete("solve"); q.delete("target"); q.delete("do");
    return q;
  };
  async function update() {
    const r = await fetch(`/designer?${query()}`);
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    const fresh = doc.getElementById("designer-figures");
    const problem = doc.getElementById("problem");
    const old = document.getElementById("problem");
    if (old) old.remove();
    if (problem) document.getElementById("main").prepend(problem);
    if (fresh && r.ok) document.getElementById("designer-figures").replaceWith(fresh);
  }
  form.querySelectorAll("input[data-outcome]").forEach((i) => i.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(update, 300);
  }));
  const use = document.getElementById("use-solved");
  if (use) use.addEventListener("click", () => {
    document.getElementById(`pay-${use.dataset.outcome}`).value = use.dataset.pays;
    update();
  });
});
