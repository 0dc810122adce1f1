// croupier's page: what every view shares — the staff log-in (POST /token), JSON calls to the
// service with the bearer token, problem details shown as one line with their section.
"use strict";
const croupier = (() => {
  const KEY = "croupier.login";
  function session() {
    try { return JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch { return null; }
  }
  // This terminal's mark for a member, from their last log-in here: sent with the next, it is
  // not held back when too many failed log-ins came from the pit's address (only the member's
  // own lockout holds it back). A mark is no token: it grants nothing else.
  const TERMINAL = "croupier.terminal.";
  function mark(user, value) {
    try {
      if (value === undefined) return localStorage.getItem(TERMINAL + user);
      localStorage.setItem(TERMINAL + user, value);
    } catch { /* no storage: an ordinary log-in */ }
    return null;
  }
  async function token(username, password) {
    const headers = {"Content-Type": "application/x-www-form-urlencoded"};
    const known = mark(String(username).trim());
    if (known) headers["Croupier-Terminal"] = known;
    const r = await fetch("/token", {
      method: "POST",
      headers,
      body: new URLSearchParams({username, password}),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw problem(data, r.status);
    if (data.terminal) mark(data.user, data.terminal);
    return data;
  }
  function problem(data, status) {
    const e = new Error((data && data.detail) || `HTTP ${status}`);
    e.section = data && data.section;
    e.status = status;
    return e;
  }
  // The problem as the CLI prints it: its one line (the rule's section cited in it, else added),
  // no error-class name.
  function describe(e) {
    const sec = e.section && !String(e.message).includes(e.section) ? ` (§ ${e.section})` : "";
    return `${e.message}${sec}`;
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  }
  // One Idempotency-Key per intended action until it is answered: a request whose response was
  // lost (the network failed, the page was reloaded, the service answered 5xx) is sent again
  // with the same key when the same member asks the same thing of the same route again, so the
  // service answers it once (a dealer's second click does not place the step twice). A
  // different request to that route, or any answer (2xx, 4xx), ends it.
  const PENDING = "croupier.pending-keys";
  function pending() {
    try { return JSON.parse(sessionStorage.getItem(PENDING) || "{}"); } catch { return {}; }
  }
  function keyFor(action, text) {
    const all = pending();
    const was = all[action];
    if (was && was.body === text) return was.key;
    all[action] = {body: text, key: newKey()};
    sessionStorage.setItem(PENDING, JSON.stringify(all));
    return all[action].key;
  }
  function answered(action) {
    const all = pending();
    delete all[action];
    sessionStorage.setItem(PENDING, JSON.stringify(all));
  }
  async function api(path, {method = "GET", body, auth} = {}) {
    const login = auth || session();
    const headers = {};
    if (login) headers.Authorization = `Bearer ${login.access_token}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (text !== undefined) headers["Content-Type"] = "application/json";
    const action = method === "GET" ? null : `${login ? login.user : ""} ${method} ${path}`;
    if (action) headers["Idempotency-Key"] = keyFor(action, text ?? "");
    const r = await fetch(path, {method, headers, body: text});  // a network failure keeps the key
    if (action && r.status < 500) answered(action);
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw problem(data, r.status);
    return data;
  }
  // The live event stream (GET /events, Server-Sent Events) read with fetch, so that the bearer
  // token goes in Authorization as with every other call (an EventSource sends no header).
  // handlers: {name: (data, id) => …}, and onState(text) for the connection's state. The stream
  // is followed again after a network failure or the service's "end" (it stopped), from the
  // last id seen (Last-Event-ID): nothing is missed. A token refused (401, or "end" for a
  // revoked one) stops following. Returns a function that stops it.
  function follow(path, handlers, onState = () => {}) {
    let stopped = false, last = null, controller = null;
    async function once() {
      const login = session();
      const headers = {Accept: "text/event-stream"};
      if (login) headers.Authorization = `Bearer ${login.access_token}`;
      if (last !== null) headers["Last-Event-ID"] = String(last);
      controller = new AbortController();
      const r = await fetch(path, {headers, signal: controller.signal});
      if (!r.ok) {
        const data = await r.json().catch(() => ({}));
        throw problem(data, r.status);
      }
      onState("live");
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "", ended = null;
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id = null, name = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const at = line.indexOf(":");
            const field = at < 0 ? line : line.slice(0, at);
            const text = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
            if (field === "id") id = Number(text);
            else if (field === "event") name = text;
            else if (field === "data") data += text;
          }
          if (!data) continue;
          if (id !== null) last = id;
          const payload = JSON.parse(data);
          if (name === "end") ended = payload.reason;
          const h = handlers[name];
          if (h) h(payload, id);
        }
      }
      return ended;
    }
    (async () => {
      while (!stopped) {
        try {
          const ended = await once();
          if (stopped) return;
          if (ended && /token/.test(ended)) { onState(`stopped: ${ended}`); return; }
          onState("reconnecting…");
        } catch (e) {
          if (stopped) return;
          if (e.status === 401 || e.status === 403) { onState(`stopped: ${describe(e)}`); return; }
          onState("reconnecting…");
        }
        await new Promise((done) => setTimeout(done, 2000));
      }
    })();
    return () => { stopped = true; if (controller) controller.abort(); };
  }
  // the roles that read the financial reports (croupier.operations.progressives.REPORT_READER:
  // a pit manager or above, accounting, an auditor): a page shows a report only to them
  const REPORT_READERS = ["pit-manager", "assistant-shift-manager", "shift-manager", "accounting", "auditor"];
  const readsReports = (login) => Boolean(login && REPORT_READERS.includes(login.role));
  // text shown as the command line shows it (croupier.errors.one_line): a control, format or
  // separator character escaped, so a newline or a RIGHT-TO-LEFT OVERRIDE in a name or an id
  // stored before the name rule can neither break a row nor reverse what follows it
  const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/gu;
  const ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"};
  function shown(text) {
    return String(text).replace(UNPRINTABLE,
      (c) => ESCAPES[c] ?? "\\u" + c.codePointAt(0).toString(16).padStart(4, "0"));
  }
  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(shown(c ?? "")));
    return e;
  }
  // the log-in form of the pit and dealer views; onChange(login or null) after each change
  function loginForm(onChange) {
    const form = document.getElementById("login");
    if (!form) return;
    const who = document.getElementById("whoami");
    const out = document.getElementById("logout");
    const initial = who.textContent;
    function show() {
      const s = session();
      who.textContent = s ? `Logged in as ${s.user} (${s.role})` : initial;
      out.hidden = !s;
      onChange(s);
    }
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = new FormData(form);
      try {
        const t = await token(f.get("username"), f.get("password"));
        sessionStorage.setItem(KEY, JSON.stringify(t));
        form.reset();
        show();
      } catch (e) {
        who.textContent = describe(e);
      }
    });
    out.addEventListener("click", () => { sessionStorage.removeItem(KEY); show(); });
    show();
  }
  // the wager pickers: choosing a wager offers its paytables and deck counts
  function pickers() {
    const cat = document.getElementById("catalogue");
    if (!cat) return;
    const wagers = JSON.parse(cat.textContent);
    const w = document.getElementById("wager"), p = document.getElementById("paytable");
    const d = document.getElementById("decks");
    const fill = (sel, values) => {
      const keep = sel.value;
      sel.replaceChildren(...values.map((v) => el("option", {value: v}, String(v))));
      if (values.map(String).includes(keep)) sel.value = keep;
    };
    const decks = () => {
      const wg = wagers.find((x) => x.wager === w.value);
      if (!wg || !d) return;
      const t = p ? wg.paytables.find((x) => x.paytable === p.value) : null;
      fill(d, t ? t.decks : wg.decks);
    };
    w.addEventListener("change", () => {
      const wg = wagers.find((x) => x.wager === w.value);
      if (p && wg) fill(p, wg.paytables.map((x) => x.paytable));
      decks();
    });
    if (p) p.addEventListener("change", decks);
  }
  const pct = (x) => `${(x * 100).toFixed(4)}%`;
  document.addEventListener("DOMContentLoaded", pickers);
  // A chart page's figures (the JSON in #chart-data), Chart.js's animation turned off; null
  // where the page has none or Chart.js is not loaded: nothing is drawn.
  function chartData() {
    const node = document.getElementById("chart-data");
    if (!node || typeof Chart === "undefined") return null;
    const data = JSON.parse(node.textContent);
    if (!data) return null;
    Chart.defaults.animation = false;
    return data;
  }
  // an award as people are told it (croupier.progressive.records.award_words): a meter award by
  // its number with the id the API takes, "award 1 (id 3)"; an odds or envy pay by its id
  function awardWords(a) {
    if (a.number != null) return `award ${a.number} (id ${a.award})`;
    return `${a.kind === "envy" ? "envy bonus" : "odds pay"} (id ${a.award})`;
  }
  return {api, token, describe, el, follow, loginForm, readsReports, session, pct, shown, chartData, awardWords};
})();
