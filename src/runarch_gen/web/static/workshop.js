// The RunArch workshop's pages: plain JavaScript over the JSON API (docs/web.md).
"use strict";

const T = JSON.parse(document.getElementById("strings").textContent);
const LANG = document.body.dataset.lang;
const $ = (selector, root) => (root || document).querySelector(selector);

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

async function post(url, body, type) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": type || "application/json" },
    body: type ? body : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// A click target that the keyboard reaches too (Enter or Space).
function onActivate(node, action) {
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
}

async function fetchText(url, signal) {
  const response = await fetch(url, { signal });
  const text = await response.text();
  if (!response.ok) throw new Error(JSON.parse(text).error);
  return text;
}

// SVG made by this server (never user text) is placed as markup.
function placeSvgText(holder, text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  holder.replaceChildren(document.importNode(doc.documentElement, true));
}

async function placeSvg(holder, url) {
  placeSvgText(holder, await fetchText(url));
}

// ---------------------------------------------------------------------------------------------
// Boards

const SEED = /^[0-9]{1,19}$/;  // seeds stay strings: JavaScript numbers round beyond 2^53
const MAX_SEED = 9223372036854775807n;

function seedError(text) {
  return text === "" || (SEED.test(text) && BigInt(text) <= MAX_SEED) ? null : T.seed_bad;
}

function boardsPage() {
  const state = { fix: new Map(), forbid: [], tile: "5Y", board: null, seed: null, count: null };
  // Answers are matched to the request that is current: each refresh has a number, and an
  // answer to an older one is dropped (its request is aborted, so the server stops too).
  let current = 0;
  let pending = null;

  function query(extra) {
    const params = new URLSearchParams();
    if ($("#diagonals").checked) params.set("diagonals", "true");
    for (const [square, code] of state.fix) params.append("fix", `${square}=${code}`);
    for (const item of state.forbid) params.append("forbid", item);
    for (const [key, value] of Object.entries(extra || {})) params.set(key, value);
    return params;
  }

  function showOptions() {
    const parts = [...state.fix].map(([s, c]) => `--fix ${s}=${c}`)
      .concat(state.forbid.map((f) => `--forbid ${f}`));
    if ($("#diagonals").checked) parts.unshift("--diagonals");
    $("#options").textContent = parts.length ? parts.join(" ") : T.none;
  }

  async function refresh(focusSquare) {
    showOptions();
    const mine = ++current;
    if (pending) pending.abort();
    const controller = new AbortController();
    pending = controller;
    const signal = controller.signal;
    const extra = { lang: LANG };
    if (state.board) extra.board = state.board.join(",");
    try {
      const [svg, counted] = await Promise.all([
        fetchText("/api/runarch/grid.svg?" + query(extra), signal),
        fetch("/api/runarch/count?" + query({ lang: LANG }), { signal })
          .then(async (r) => ({ ok: r.ok, body: await r.json() })),
      ]);
      if (mine !== current) return;  // a newer click has been made meanwhile
      placeSvgText($("#grid"), svg);
      for (const square of document.querySelectorAll("#grid .sq")) {
        onActivate(square, () => clickSquare(square.dataset.square));
      }
      if (focusSquare) {
        const again = $(`#grid .sq[data-square="${focusSquare}"]`);
        if (again) again.focus();
      }
      if (counted.ok) {
        state.count = counted.body.count;
        $("#count").textContent = counted.body.count.toLocaleString(LANG);
        $("#conflict").hidden = true;
        $("#draw").disabled = false;
      } else {
        state.count = 0;
        $("#count").textContent = "0";
        const why = counted.body.error.replace(/^(contradictory options|protichůdné volby): /, "");
        $("#conflict").textContent = `${T.conflict}: ${why}`;
        $("#conflict").hidden = false;
        $("#draw").disabled = true;
      }
      many();
    } catch (error) {
      if (error.name === "AbortError" || mine !== current) return;
      $("#conflict").textContent = `${T.error}: ${error.message}`;
      $("#conflict").hidden = false;
    }
  }

  function clickSquare(square) {
    const item = `${square}=${state.tile}`;
    if ($("input[name=mode]:checked").value === "fix") {
      if (state.fix.get(square) === state.tile) state.fix.delete(square);
      else state.fix.set(square, state.tile);
    } else {
      const at = state.forbid.indexOf(item);
      if (at >= 0) state.forbid.splice(at, 1);
      else state.forbid.push(item);
    }
    forget();
    refresh(square);
  }

  function forget() {
    state.board = null;
    $("#validity").hidden = true;
    $("#downloads").hidden = true;
  }

  async function draw() {
    const seed = $("#seed").value.trim();
    const bad = seedError(seed);
    if (bad) {
      $("#conflict").textContent = bad;
      $("#conflict").hidden = false;
      return;
    }
    const params = query(seed ? { seed: seed, format: "json" } : { format: "json" });
    const button = $("#draw");
    button.disabled = true;
    try {
      const response = await fetch("/api/runarch/board?" + params);
      const text = await response.text();
      if (!response.ok) throw new Error(JSON.parse(text).error);
      const answer = JSON.parse(text);
      state.board = answer.tiles.flat();
      state.seed = response.headers.get("x-seed");  // the seed's digits, never a rounded number
      await refresh();
      await check(text, answer);
      const link = (format) => "/api/runarch/board?" +
        query({ seed: state.seed, format: format, download: "1", lang: LANG });
      for (const format of ["text", "json", "png", "svg"]) {
        $("#dl-" + format).href = link(format);
      }
      $("#downloads").hidden = false;
      localStorage.setItem("runarch-board", text);
      localStorage.setItem("runarch-board-seed", state.seed);
    } catch (error) {
      $("#conflict").textContent = `${T.error}: ${error.message}`;
      $("#conflict").hidden = false;
    } finally {
      button.disabled = state.count === 0;
    }
  }

  async function check(text, answer) {
    const params = $("#diagonals").checked ? "?diagonals=true" : "";
    const report = await post("/api/runarch/check" + params, text, "text/plain");
    const valid = report.exit_code === 0;
    const holds = [...state.fix].every(([square, code]) => cell(square) === code) &&
      state.forbid.every((item) => cell(item.split("=")[0]) !== item.split("=")[1]);
    const box = $("#validity");
    box.textContent = `${T.drawn} (${T.seed.toLowerCase()} ${state.seed}): ` +
      `${valid ? T.valid : T.not_valid} — ${holds ? T.holds : T.breaks}.` +
      (valid ? "" : " " + report.lines.join(" "));
    box.className = "validity " + (valid && holds ? "ok" : "bad");
    box.dataset.valid = String(valid);
    box.dataset.holds = String(holds);
    box.dataset.seed = state.seed;
    box.hidden = false;
    return answer;
  }

  function cell(square) {
    const column = "abcde".indexOf(square[0]);
    const row = Number(square.slice(1)) - 1;
    return state.board[row * 5 + column];
  }

  async function palette() {
    await placeSvg($("#palette"), "/api/runarch/palette.svg?lang=" + LANG);
    const choose = (pick) => {
      state.tile = pick.dataset.code;
      $("#chosen").textContent = state.tile;
      for (const other of document.querySelectorAll("#palette .pick")) {
        other.classList.toggle("chosen", other === pick);
        other.setAttribute("aria-pressed", String(other === pick));
      }
    };
    for (const pick of document.querySelectorAll("#palette .pick")) {
      onActivate(pick, () => choose(pick));
      if (pick.dataset.code === state.tile) choose(pick);
    }
  }

  // "Draw distinct boards": a whole number from 1 to the limit, and no more than remain.
  function many() {
    const link = $("#dl-many");
    const note = $("#many-note");
    const text = $("#many").value.trim();
    const max = Number($("#many").max);
    const seed = $("#seed").value.trim();
    let problem = null;
    if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1) problem = T.many_bad.replace("{max}", max.toLocaleString(LANG));
    else if (Number(text) > max) problem = T.many_limit.replace("{max}", max.toLocaleString(LANG));
    else if (state.count === 0) problem = "";
    else if (state.count !== null && Number(text) > state.count) problem = T.many_fewer.replace("{count}", state.count.toLocaleString(LANG));
    else problem = seedError(seed);
    note.textContent = problem || "";
    note.hidden = !problem;
    if (problem !== null) {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
    } else {
      link.href = "/api/runarch/boards?" +
        query(Object.assign({ count: text, download: "1" }, seed ? { seed } : {}));
      link.removeAttribute("aria-disabled");
    }
  }

  $("#diagonals").addEventListener("change", () => { forget(); refresh(); });
  $("#clear").addEventListener("click", () => {
    state.fix.clear();
    state.forbid = [];
    forget();
    refresh();
  });
  $("#draw").addEventListener("click", draw);
  $("#many").addEventListener("input", many);
  $("#seed").addEventListener("input", many);
  many();
  palette();
  refresh();
}

// ---------------------------------------------------------------------------------------------
// Jobs: submit a form, follow the job, show what it made

function formValues(form) {
  const values = {};
  for (const input of form.elements) {
    if (!input.name || input.type === "file" || input.type === "submit") continue;
    if (input.disabled) continue;  // another game's field (the kit page), or not offered
    if (input.type === "checkbox") {
      if (input.name === "only") {
        values.only = values.only || [];
        if (input.checked) values.only.push(input.value);
      } else values[input.name] = input.checked;
    } else if (input.type === "number") {
      if (input.value.trim() !== "") values[input.name] = Number(input.value);
    } else if (input.value.trim() !== "") values[input.name] = input.value.trim();
  }
  return values;
}

function progressText(p) {
  // The command's progress in the page's language: "games 120/500", or its steps so far.
  const label = T["label_" + p.label] || p.label;
  if (p.total) return `${T.working}: ${label} ${p.done.toLocaleString(LANG)}/${p.total.toLocaleString(LANG)}`;
  return `${T.working}: ${label} (${p.steps.toLocaleString(LANG)} ${T.steps})`;
}

function followJob(form, box, url, values, show) {
  const cancel = $(".cancel", form);
  const submit = $("button[type=submit]", form);
  const bar = $("progress", box);
  const state = $(".state", box);
  const error = $(".error", box);
  const result = $(".result", box);
  box.hidden = false;
  error.hidden = true;
  result.hidden = true;
  bar.removeAttribute("value");
  state.textContent = T.queued;
  submit.disabled = true;  // one job of a kind at a time: enabled again when it ends
  const finish = () => { submit.disabled = false; cancel.hidden = true; };
  post(url, values).then((job) => {
    cancel.hidden = false;
    cancel.onclick = () => post(`/api/jobs/${job.id}/cancel`, {});
    const poll = async () => {
      let status;
      try {
        status = await getJson(`/api/jobs/${job.id}`);
      } catch (failure) {
        status = { state: "failed", error: failure.message };
      }
      if (status.state === "queued" || status.state === "running") {
        const p = status.progress;
        if (p && p.total) {
          bar.max = p.total;
          bar.value = Math.min(p.done, p.total);
        } else bar.removeAttribute("value");
        state.textContent = status.state === "queued" || !p ? T.queued : progressText(p);
        setTimeout(poll, 400);
        return;
      }
      finish();
      bar.max = 1;
      bar.value = status.state === "done" ? 1 : 0;
      state.textContent = T[status.state] || status.state;
      box.dataset.state = status.state;
      if (status.state !== "done") {
        if (status.state !== "cancelled") {
          error.textContent = `${T.error}: ${status.error}`;
          error.hidden = false;
        }
        return;
      }
      const files = $(".files", box);
      files.replaceChildren();
      for (const name of status.files.filter((n) => !CARD_FILE.test(n))) {
        const link = el("a", { href: `/api/jobs/${job.id}/files/${encodeURIComponent(name)}?download=1`,
          download: name, "data-file": name }, name);
        files.append(link, " ");
      }
      show(status, job.id);
      result.hidden = false;
    };
    poll();
  }).catch((failure) => {
    finish();
    state.textContent = T.failed;
    box.dataset.state = "refused";
    error.textContent = `${T.error}: ${failure.message}`;
    error.hidden = false;
  });
}

const CARD_FILE = /^card-\d+\.svg$/;  // one file per card: shown, not listed

function fileUrl(id, name) {
  return `/api/jobs/${id}/files/${encodeURIComponent(name)}`;
}

function decksPage() {
  const form = $("#deck-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(form);
    values.lang = LANG;
    followJob(form, $("#deck-job"), "/api/runarch/deck", values, (status, id) => {
      const report = status.result.report;
      $("#deck-job .report").textContent = status.result.report_text || JSON.stringify(report, null, 2);
      $("#deck-job .lines").textContent = status.result.check_lines.join("\n");
      $("#deck-job .cards").src = fileUrl(id, "cards.png");
      // The play page can play RunArch with this deck (kept in the browser, as the drawn board).
      fetch(fileUrl(id, "deck.json")).then((r) => (r.ok ? r.text() : null))
        .then((text) => { if (text) localStorage.setItem("runarch-deck", text); });
      const cards = $("#deck-job .card-list");
      cards.replaceChildren();
      for (const name of status.files.filter((n) => CARD_FILE.test(n))) {
        cards.append(el("img", { src: fileUrl(id, name), alt: name, loading: "lazy" }));
      }
    });
  });
  $("#check-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("#check-form input[type=file]").files[0];
    const out = $("#check-report");
    out.hidden = false;
    if (!file) return;
    const params = $("#check-form input[name=diagonals]").checked ? "?diagonals=true" : "";
    try {
      const report = await post("/api/runarch/check" + params, await file.text(), "text/plain");
      out.textContent = report.lines.join("\n");
      out.className = report.exit_code === 0 ? "ok" : "bad";
    } catch (failure) {
      out.textContent = `${T.error}: ${failure.message}`;
      out.className = "bad";
    }
  });
}

function kitPage() {
  const form = $("#kit-form");
  const game = $("select[name=game]", form);
  $("select[name=lang]", form).value = LANG;  // the kit in the page's language, unless changed
  const stored = localStorage.getItem("runarch-board");
  if (stored) {
    const board = JSON.parse(stored);
    const seed = localStorage.getItem("runarch-board-seed") || "";
    $("#stored-board").textContent = `(${T.seed.toLowerCase()} ${seed}: ${board.tiles[0].join(" ")} …)`;
  }
  // The chosen game's fields only: its kinds, and its seed, board and deck (RunArch) or rules.
  const show = (part, on) => {
    part.hidden = !on;
    for (const input of part.querySelectorAll("input, select")) input.disabled = !on;
  };
  const chosen = () => {
    const own = game.selectedOptions[0].dataset.own === "true";
    for (const part of form.querySelectorAll(".kit-own")) show(part, own);
    for (const part of form.querySelectorAll(".kit-generic")) show(part, !own);
    for (const part of form.querySelectorAll("fieldset.only")) show(part, part.dataset.game === game.value);
    if (!stored) $("#use-board").disabled = true;
  };
  game.addEventListener("change", chosen);
  chosen();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = formValues(form);
    const own = game.selectedOptions[0].dataset.own === "true";
    if (values.use_board && stored) values.board = stored;
    delete values.use_board;
    if (own) {
      for (const part of ["board", "deck"]) {
        const file = $(`input[name=${part}_file]`, form).files[0];
        if (file) values[part] = await file.text();
      }
    }
    const kinds = {};
    for (const box of form.querySelectorAll(`fieldset.only[data-game="${game.value}"] input`)) {
      kinds[box.value.replaceAll("-", "_")] = box.parentElement.textContent.trim();
    }
    followJob(form, $("#kit-job"), "/api/kit", values, (status, id) => {
      const manifest = status.result.manifest;
      const counts = manifest.components.map((c) => `${kinds[c.kind] || c.kind}: ${c.count}`).join(", ");
      $("#kit-job .report").textContent = `kit.pdf — ${T.kit_pages}: ${manifest.pages} (${counts})`;
      const previews = $("#kit-job .previews");
      previews.replaceChildren();
      for (const name of status.files.filter((n) => n.endsWith(".png"))) {
        const figure = el("figure");
        figure.append(el("img", { src: fileUrl(id, name), alt: name, loading: "lazy" }),
          el("figcaption", {}, name));
        previews.append(figure);
      }
    });
  });
}

function playtestPage() {
  const form = $("#playtest-form");
  const select = $("select[name=game]", form);
  const bots = () => {
    const known = select.selectedOptions[0].dataset.bots;
    $("#known-bots").textContent = known.replaceAll(",", ", ");
    $("#known-params").textContent = select.selectedOptions[0].dataset.params;
  };
  select.addEventListener("change", bots);
  bots();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(form);
    values.lang = LANG;  // the verdict, the report and the charts in the page's language
    followJob(form, $("#playtest-job"), "/api/playtest", values, (status, id) => {
      const result = status.result;
      const verdict = $("#playtest-job .verdict");
      const playable = result.verdict.playable;
      const title = select.selectedOptions[0].textContent;
      verdict.textContent = `${title}: ${playable ? T.playable : T.not_playable}`;
      verdict.className = "verdict " + (playable ? "ok" : "bad");
      $("#playtest-job .verdict-lines").textContent = result.verdict_lines.join("\n");
      $("#playtest-job .metrics").replaceChildren(metricsTable(result.verdict.metrics));
      $("#playtest-job .report").textContent = result.summary;
      const tables = $("#playtest-job .tables");
      tables.replaceChildren();
      if (result.report) tables.append(winsTable(result.report));
      const charts = $("#playtest-job .previews");
      charts.replaceChildren();
      for (const name of result.charts) {
        charts.append(el("img", { src: fileUrl(id, name), alt: name, loading: "lazy" }));
      }
    });
  });
}

function metricsTable(metrics) {
  // The design metrics of the verdict, each with its 95 % interval (docs/metrics.md).
  const table = el("table");
  const head = el("tr");
  for (const title of ["", T.value, T.rate_interval]) head.append(el("th", {}, title));
  table.append(head);
  const number = (x, digits) =>
    x.toLocaleString(LANG, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  for (const [name, m] of Object.entries(metrics || {})) {
    const share = m.unit.startsWith("share");
    const show = (x) => (x === null ? "–" : share ? number(100 * x, 1) + " %"
      : m.unit === "points" ? number(100 * x, 1) : number(x, 3));
    const unit = share || m.value === null ? "" : " " + (T["unit_" + m.unit] || m.unit);
    const tr = el("tr");
    tr.append(el("td", { title: name }, T["metric_" + name] || name), el("td", {}, show(m.value) + unit),
      el("td", {}, m.low === null ? "" : `${show(m.low)} – ${show(m.high)}`));
    table.append(tr);
  }
  return table;
}

function winsTable(report) {
  // The report's win rates (by bot, by seat, …) with their 95 % intervals.
  const table = el("table");
  const head = el("tr");
  for (const title of ["", T.wins, T.of, T.rate, T.rate_interval]) head.append(el("th", {}, title));
  table.append(head);
  const percent = (x) => (100 * x).toLocaleString(LANG, { maximumFractionDigits: 1, minimumFractionDigits: 1 }) + " %";
  for (const [group, rows] of Object.entries(report.wins || {})) {
    if (!group.startsWith("by_") || typeof rows !== "object" || rows === null) continue;
    for (const [name, row] of Object.entries(rows)) {
      const rate = row && (row.win_rate || row);
      if (!rate || rate.rate === undefined) continue;
      const tr = el("tr");
      const kind = group.replace("by_", "");
      tr.append(el("td", {}, `${T["group_" + kind] || kind}: ${name}`),
        el("td", {}, String(rate.count)), el("td", {}, String(rate.total)),
        el("td", {}, percent(rate.rate)),
        el("td", {}, `${percent(rate.low)} – ${percent(rate.high)}`));
      table.append(tr);
    }
  }
  return table;
}

const PAGES = { boards: boardsPage, decks: decksPage, kit: kitPage, playtest: playtestPage };
// A page with a script of its own (play.js) is not listed here.
if (PAGES[document.body.dataset.page]) PAGES[document.body.dataset.page]();
