// The play page: a game against the bots over the play API (docs/web.md, "Play").
// Every control offers only what the server lists as legal for the seat shown; the server
// holds the game, so a reload (the game's id is in the address) picks it up again.
// workshop.js (loaded first) gives T, LANG, $, el and onActivate.
"use strict";

const G = {
  id: null,        // the game shown
  seat: null,      // the seat whose view is shown (1-based)
  payload: null,   // the last answer
  timer: null,     // the next look at the game while a bot thinks
  busy: false,     // an action is on its way
  analysisShown: false,
  recordVersion: null,
  ui: {},          // per-game state of the page (a checker picked up, a square chosen …)
};

function fmt(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m));
}

async function call(method, url, body) {
  const options = method === "GET" ? {} : {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  };
  const response = await fetch(url, options);
  let data = {};
  try {
    data = await response.json();
  } catch (error) {
    data = { error: response.statusText };
  }
  return { ok: response.ok, status: response.status, data };
}

function actionButton(text, label, extra) {
  const button = el("button", Object.assign({ type: "button", "data-action": text }, extra || {}), label || text);
  button.addEventListener("click", () => act(text));
  return button;
}

function sideName(p, seat) {
  const s = p.seats[seat - 1];
  return s ? s.side : `p${seat}`;
}

function isPerson(p, seat) {
  const s = p.seats[seat - 1];
  return s && (s.plays === "you" || s.plays === "human");
}

function plays(p, seat) {
  const s = p.seats[seat - 1];
  if (!s) return "";
  if (s.plays === "you") return T.play_you;
  if (s.plays === "human") return T.play_person;
  return s.plays;
}

// ---------------------------------------------------------------------------------------------
// A new game

function setupPage() {
  const form = $("#play-form");
  const select = $("select[name=game]", form);
  const rules = $("input[name=rules]", form);
  let asked = 0;
  let timer = null;

  function described() {
    const option = select.selectedOptions[0];
    $("#play-params").textContent = option.dataset.params;
    $(".example", form).textContent = option.dataset.example ? `${T.play_example}: ${option.dataset.example}` : "";
  }

  async function seats() {
    const mine = ++asked;
    const params = new URLSearchParams({ game: select.value, rules: rules.value.trim() });
    const answer = await call("GET", "/api/play/seats?" + params);
    if (mine !== asked) return;
    const error = $("#play-seats-error");
    const start = $("#play-start");
    if (!answer.ok) {
      error.textContent = answer.data.error;
      error.hidden = false;
      start.disabled = true;
      return;
    }
    error.hidden = true;
    start.disabled = false;
    const info = answer.data;
    $("#play-set").hidden = !info.files.includes("board");
    const rows = $(".seat-rows", form);
    const before = [...rows.querySelectorAll("select")].map((s) => s.value);
    rows.replaceChildren();
    info.sides.forEach((side, index) => {
      const choice = el("select", { name: "seat-" + index, "data-seat": String(index + 1) });
      const options = [["you", T.play_you], ["human", T.play_person]]
        .concat(info.bots.map((name) => [name, `${T.play_bot}: ${name}`]));
      for (const [value, label] of options) choice.append(el("option", { value }, label));
      const kept = before[index];
      choice.value = kept && (kept === "you" || kept === "human" || info.bots.includes(kept)) ? kept
        : index === 0 ? "you" : info.default_bot;
      choice.addEventListener("change", () => {
        if (choice.value !== "you") return;
        for (const other of rows.querySelectorAll("select")) {
          if (other !== choice && other.value === "you") other.value = info.default_bot;
        }
      });
      const label = el("label", {}, `${T.play_seat} ${index + 1} (${side}) `);
      label.append(choice);
      rows.append(label);
    });
    if (![...rows.querySelectorAll("select")].some((s) => s.value === "you")) {
      rows.querySelector("select").value = "you";
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(seats, 350);
  }

  function files() {
    for (const part of ["board", "deck"]) {
      const from = $(`select[name=${part}_from]`, form).value;
      $(`input[name=${part}_file]`, form).hidden = from !== "file";
    }
  }

  const storedBoard = localStorage.getItem("runarch-board");
  const storedDeck = localStorage.getItem("runarch-deck");
  $("#play-stored-board").disabled = !storedBoard;
  $("#play-stored-deck").disabled = !storedDeck;
  for (const part of ["board", "deck"]) $(`select[name=${part}_from]`, form).addEventListener("change", files);
  select.addEventListener("change", () => { described(); seats(); });
  rules.addEventListener("input", later);
  described();
  files();
  seats();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("#play-form-error");
    error.hidden = true;
    const choices = [...form.querySelectorAll(".seat-rows select")];
    const you = choices.findIndex((s) => s.value === "you");
    const body = {
      game: select.value,
      rules: rules.value.trim(),
      seat: you + 1,
      bots: choices.filter((s, i) => i !== you).map((s) => s.value),
    };
    const delay = $("input[name=delay]", form).value.trim();
    if (delay !== "") body.delay = delay;
    const seed = $("input[name=seed]", form).value.trim();
    if (seed !== "") body.seed = seed;
    if (!$("#play-set").hidden) {
      for (const part of ["board", "deck"]) {
        const from = $(`select[name=${part}_from]`, form).value;
        if (from === "stored") body[part] = localStorage.getItem(`runarch-${part}`) || "";
        if (from === "file") {
          const file = $(`input[name=${part}_file]`, form).files[0];
          if (file) body[part] = await file.text();
        }
      }
    }
    const button = $("#play-start");
    button.disabled = true;
    $("#play-status").textContent = T.working;
    const answer = await call("POST", "/api/play", body);
    button.disabled = false;
    if (!answer.ok) {
      error.textContent = `${T.error}: ${answer.data.error}`;
      error.hidden = false;
      return;
    }
    open(answer.data.id, answer.data);
  });
  mine();
}

async function mine() {
  const answer = await call("GET", "/api/play");
  const box = $("#play-mine");
  if (!answer.ok || !answer.data.games.length) {
    box.hidden = true;
    return;
  }
  const list = $(".play-list", box);
  list.replaceChildren();
  for (const game of answer.data.games) {
    const item = el("li");
    const link = el("a", { href: `/play?id=${encodeURIComponent(game.id)}` }, game.game);
    const state = game.over ? T.play_over : game.your_turn ? T.play_your_turn : T.play_in_progress;
    const end = el("button", { type: "button", class: "small" }, T.play_end);
    end.addEventListener("click", async () => {
      await call("POST", `/api/play/${game.id}/end`);
      mine();
    });
    item.append(link, ` — ${state} `, end);
    list.append(item);
  }
  box.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// A game

function open(id, payload) {
  G.id = id;
  G.seat = null;
  G.analysisShown = false;
  G.recordVersion = null;
  G.ui = {};
  const url = new URL(location.href);
  url.searchParams.set("id", id);
  history.replaceState(null, "", url);
  for (const link of document.querySelectorAll(".switch a")) {
    const target = new URL(link.href);
    target.searchParams.set("id", id);
    link.href = target.pathname + target.search;
  }
  $("#play-setup").hidden = true;
  $("#play-game").hidden = false;
  if (payload) render(payload);
  else refresh();
}

async function refresh() {
  clearTimeout(G.timer);
  const query = G.seat ? `?seat=${G.seat}` : "";
  const answer = await call("GET", `/api/play/${G.id}${query}`);
  if (!answer.ok) {
    if (answer.status === 404) return gone(answer.data);
    $("#play-error").textContent = `${T.error}: ${answer.data.error}`;
    $("#play-error").hidden = false;
    G.timer = setTimeout(refresh, 2000);
    return;
  }
  render(answer.data);
}

function gone(data) {
  clearTimeout(G.timer);
  const why = { restart: T.play_gone_restart, idle: T.play_gone_idle, ended: T.play_gone_ended };
  const box = $("#play-gone");
  box.textContent = why[data.gone] || T.play_gone_unknown;
  box.dataset.gone = data.gone || "unknown";
  box.hidden = false;
  $("#play-game").hidden = true;
  $("#play-setup").hidden = false;
  const url = new URL(location.href);
  url.searchParams.delete("id");
  history.replaceState(null, "", url);
}

async function act(text) {
  if (G.busy || !G.payload) return;
  G.busy = true;
  const error = $("#play-error");
  error.hidden = true;
  const answer = await call("POST", `/api/play/${G.id}/action`,
    { action: text, seat: G.seat, version: G.payload.version });
  G.busy = false;
  if (!answer.ok) {
    if (answer.status === 404) return gone(answer.data);
    error.textContent = answer.data.error;
    error.hidden = false;
    refresh();
    return;
  }
  G.ui = {};
  render(answer.data);
}

async function undo() {
  const answer = await call("POST", `/api/play/${G.id}/undo`, { seat: G.seat });
  if (!answer.ok) {
    $("#play-error").textContent = answer.data.error;
    $("#play-error").hidden = false;
    return;
  }
  G.ui = {};
  render(answer.data);
}

function statusText(p) {
  if (p.error) return p.error;
  if (p.result) return resultText(p);
  const mover = p.to_move;
  if (mover === p.seat) return fmt(T.play_your_move, { side: sideName(p, mover) });
  if (p.next_in !== null) return fmt(T.play_thinking, { side: sideName(p, mover), bot: plays(p, mover) });
  return fmt(T.play_turn_of, { side: sideName(p, mover) });
}

function resultText(p) {
  const r = p.result;
  const winners = r.winners.map((w) => sideName(p, w));
  const who = winners.length ? winners.join(", ") : T.play_nobody;
  const mine = r.winners.includes(p.seat);
  const head = r.winners.length === 0 ? T.play_no_winner : mine ? T.play_you_won : T.play_you_lost;
  return `${head} ${fmt(T.play_result_line, { result: r.result, why: r.termination, winners: who })}`;
}

function render(p) {
  G.payload = p;
  clearTimeout(G.timer);
  G.seat = p.seat;
  $("#play-title").textContent = `${gameTitle(p.name)}: ${p.game}`;
  $("#play-seats-line").textContent = p.seats.map((s) =>
    `${s.side}: ${plays(p, s.seat)}${s.seat === p.seat ? " ◀" : ""}`).join(" · ");
  const status = $("#play-status");
  status.textContent = statusText(p);
  status.className = "status" + (p.to_move === p.seat ? " mine" : "");
  document.body.dataset.toMove = p.to_move === null ? "" : String(p.to_move);
  const board = $("#play-board");
  const controls = $("#play-controls");
  const kind = p.view.kind;
  const draw = RENDER[kind] || RENDER.generic;
  draw(p, board, controls);
  const legal = $("#play-legal");
  const list = $(".legal-list", legal);
  list.replaceChildren(...p.legal.map((text) => actionButton(text, text, { class: "legal" })));
  legal.hidden = kind === "generic" || !p.legal.length;
  $("#play-undo").hidden = !p.undo;
  $("#play-hint").hidden = !p.hint;
  $("#play-hint-box").hidden = true;
  $("#play-end").hidden = !!p.result;
  renderResult(p);
  renderLog(p);
  $("#play-game").dataset.version = String(p.version);
  $("#play-game").dataset.over = p.result ? "true" : "false";
  $("#play-game").dataset.kind = kind;
  if (p.next_in !== null) G.timer = setTimeout(refresh, 1000 * p.next_in + 40);
  curtain(p);
}

function gameTitle(name) {
  const option = document.querySelector(`#play-form select[name=game] option[value="${name}"]`);
  return option ? option.textContent : name;
}

// Several people at one screen: the next person's view only once they ask for it.
function curtain(p) {
  const box = $("#play-curtain");
  const mover = p.to_move;
  if (p.result || mover === null || mover === p.seat || !isPerson(p, mover)) {
    box.hidden = true;
    return;
  }
  $("#play-curtain-text").textContent = fmt(T.play_pass_to, { side: sideName(p, mover) });
  box.hidden = false;
  $("#play-curtain-show").onclick = () => {
    box.hidden = true;
    G.seat = mover;
    G.ui = {};
    refresh();
  };
  $("#play-curtain-show").focus();
}

async function renderResult(p) {
  const box = $("#play-result");
  const recordLine = $(".record", box);
  if (!p.result) {
    box.hidden = true;
    if (p.record) {
      recordLine.replaceChildren();
      $(".replay code", box).textContent = "";
    }
    return;
  }
  box.hidden = false;
  $(".result-line", box).textContent = resultText(p);
  const table = $(".scores", box);
  table.replaceChildren();
  const parts = [...new Set(p.result.scores.flatMap((s) => Object.keys(s)))];
  const head = el("tr");
  head.append(el("th", {}, ""), ...parts.map((part) => el("th", {}, part)));
  table.append(head);
  p.result.scores.forEach((score, i) => {
    const row = el("tr");
    row.append(el("td", {}, `${sideName(p, i + 1)} (${plays(p, i + 1)})`),
      ...parts.map((part) => el("td", {}, String(score[part] ?? ""))));
    table.append(row);
  });
  const analyze = $("#play-analyze");
  analyze.hidden = !p.analysis;
  if (G.recordVersion !== p.version) {
    G.recordVersion = p.version;
    const answer = await call("GET", `/api/play/${G.id}/record`);
    recordLine.replaceChildren();
    if (answer.ok && answer.data.files.length) {
      recordLine.append(`${T.play_record}: `);
      for (const file of answer.data.files) {
        recordLine.append(el("a", { href: file.url, download: file.name, "data-file": file.name }, file.name), " ");
      }
      $(".replay code", box).textContent = answer.data.replay;
    } else {
      recordLine.textContent = T.play_no_record;
    }
  }
}

function renderLog(p) {
  const list = $("#play-log ol");
  list.replaceChildren();
  for (const entry of p.log) {
    const item = el("li", { value: String(entry.n) });
    item.textContent = `${entry.who}: ${entry.text === null ? T.play_hidden_action : entry.text}`;
    list.append(item);
  }
}

async function hint() {
  const box = $("#play-hint-box");
  box.hidden = false;
  box.textContent = T.working;
  const answer = await call("GET", `/api/play/${G.id}/hint?seat=${G.seat}`);
  if (!answer.ok) {
    box.textContent = answer.data.error;
    return;
  }
  const hint = answer.data;
  box.replaceChildren(el("p", {}, fmt(T.play_hint_by, { source: hint.source })));
  if (hint.decision) box.append(el("p", {}, fmt(T.play_hint_decision, { decision: bgPhaseWord(hint.decision) })));
  const table = el("table", { class: "hint" });
  const head = el("tr");
  for (const title of ["", T.play_hint_play, T.play_hint_equity, T.play_hint_loss]) head.append(el("th", {}, title));
  table.append(head);
  hint.plays.forEach((row, i) => {
    const tr = el("tr");
    const pick = actionButton(row.action, String(i + 1), { class: "small", title: row.action });
    const cell = el("td");
    cell.append(pick);
    tr.append(cell, el("td", {}, row.action), el("td", {}, `${row.equity.toFixed(3)} (${row.plies}-ply)`),
      el("td", {}, i ? "−" + row.loss.toFixed(3) : ""));
    table.append(tr);
  });
  box.append(table);
}

async function analyze() {
  const box = $("#play-analysis");
  box.hidden = false;
  box.textContent = T.working;
  const answer = await call("GET", `/api/play/${G.id}/analysis?seat=${G.seat}`);
  if (!answer.ok) {
    box.textContent = answer.data.error;
    return;
  }
  const data = answer.data;
  box.replaceChildren(el("p", {}, fmt(T.play_analysis_by, { source: data.source })));
  const table = el("table");
  const head = el("tr");
  for (const title of ["", T.play_analysis_moves, T.play_analysis_error, T.play_analysis_rating]) head.append(el("th", {}, title));
  table.append(head);
  for (const side of data.sides) {
    const tr = el("tr");
    tr.append(el("td", {}, side.side), el("td", {}, String(side.moves)),
      el("td", {}, side.error_per_move.toFixed(4)), el("td", {}, side.rating));
    table.append(tr);
  }
  box.append(table);
  if (data.mistakes.length) {
    const list = el("ol", { class: "mistakes" });
    for (const m of data.mistakes) {
      list.append(el("li", {}, fmt(T.play_mistake, m)));
    }
    box.append(el("h3", {}, T.play_mistakes), list);
  }
}

// ---------------------------------------------------------------------------------------------
// Views, one per game; the generic one for any other game

const RENDER = {};

RENDER.generic = (p, board, controls) => {
  const table = el("table", { class: "fields" });
  for (const [key, value] of Object.entries(p.view.fields || {})) {
    const row = el("tr");
    row.append(el("th", {}, key), el("td", {}, typeof value === "string" ? value : JSON.stringify(value)));
    table.append(row);
  }
  board.replaceChildren(table);
  controls.replaceChildren(...p.legal.map((text) => actionButton(text)));
};

function die(face, extra) {
  return el("span", Object.assign({ class: "die" + (face === "?" ? " unknown" : "") }, extra || {}), face);
}

RENDER.bluff = (p, board, controls) => {
  const v = p.view;
  const table = el("div", { class: "bluff-table" });
  for (let seat = 1; seat <= v.players; seat++) {
    const row = el("div", { class: "bluff-seat" + (seat === p.seat ? " me" : "") + (seat === v.to_act ? " acting" : ""),
      "data-seat": String(seat) });
    row.append(el("span", { class: "who" }, `${sideName(p, seat)} (${plays(p, seat)})`));
    const dice = el("span", { class: "dice" });
    const shown = v.shown[seat - 1] || [];
    if (seat === p.seat) {
      for (const face of v.own) dice.append(die(face, { "data-own": face }));
      for (const face of shown) dice.append(die(face, { class: "die shown" }));
    } else {
      for (const face of shown) dice.append(die(face, { class: "die shown" }));
      for (let i = shown.length; i < v.dice[seat - 1]; i++) dice.append(die("?"));
    }
    if (!v.dice[seat - 1]) dice.append(el("span", { class: "out" }, T.bluff_out));
    row.append(dice);
    const bids = v.bids.filter((b) => b.seat === seat).map((b) => b.bid);
    row.append(el("span", { class: "bids" }, bids.join(" → ")));
    table.append(row);
  }
  const info = el("p", { class: "bluff-info" },
    fmt(T.bluff_info, { round: v.round, dice: v.in_play, hidden: v.hidden, standing: v.standing || "—" }));
  board.replaceChildren(info, table);
  if (v.results.length) {
    const last = v.results[v.results.length - 1];
    const reveal = el("div", { class: "bluff-reveal", "data-round": String(last.round) });
    reveal.append(el("h3", {}, fmt(T.bluff_reveal, { round: last.round })),
      el("p", {}, fmt(T.bluff_challenge, {
        bid: last.bid, bidder: sideName(p, last.bidder), doubter: sideName(p, last.doubter),
        counted: last.counted,
      })));
    last.hands.forEach((hand, i) => {
      const row = el("div", { class: "bluff-seat" });
      row.append(el("span", { class: "who" }, sideName(p, i + 1)));
      const dice = el("span", { class: "dice" });
      for (const face of hand) {
        const counts = face === v.star || face === last.bid.split("×")[1];
        dice.append(die(face, { class: "die" + (counts ? " counts" : "") }));
      }
      row.append(dice);
      if (last.lost[i]) row.append(el("span", { class: "lost" }, fmt(T.bluff_loses, { n: last.lost[i] })));
      reveal.append(row);
    });
    board.append(reveal);
  }
  // The scale: every bid in order, the ones still open to the player as buttons.
  const legal = new Set(p.legal);
  const scale = el("div", { class: "bluff-scale", role: "group", "aria-label": T.bluff_scale });
  v.scale.forEach((bid, rank) => {
    if (legal.has(bid)) scale.append(actionButton(bid, bid, { class: "bid" }));
    else scale.append(el("span", { class: "bid" + (rank <= v.standing_rank ? " past" : "") }, bid));
  });
  const parts = [];
  if (p.to_move === p.seat) {
    parts.push(el("h3", {}, T.bluff_scale), scale);
    const extra = el("p", { class: "bluff-extra" });
    for (const text of p.legal) {
      if (text === "doubt") extra.append(actionButton(text, T.bluff_doubt, { class: "primary" }));
      else if (text === "keep" || text.startsWith("show ")) extra.append(actionButton(text, text));
    }
    parts.push(extra);
  }
  controls.replaceChildren(...parts);
};

// ---------------------------------------------------------------------------------------------
// Vrhcáby: the board from the seat's side (its home board bottom right), checkers moved one
// at a time along the move graph the server sends (only steps that lead to a legal play).

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

const BG = { w: 36, bar: 30, tray: 44, m: 10, h: 170, gap: 44, r: 15 };

// Where point p (the seat's numbering; 25 the bar, 0 off) lies: x of its centre, top row or not.
function bgPlace(point) {
  const { w, bar, m } = BG;
  if (point >= 13) {
    const i = point - 13;  // 13 … 24 left to right along the top
    return { x: m + i * w + (i >= 6 ? bar : 0) + w / 2, top: true };
  }
  const i = 12 - point;  // 12 … 1 left to right along the bottom
  return { x: m + i * w + (i >= 6 ? bar : 0) + w / 2, top: false };
}

function bgBoardState(v) {
  return {
    mine: [v.off.mine, ...v.points.map((q) => q.mine), v.bar.mine],
    theirs: [v.off.theirs, ...v.points.map((q) => q.theirs), v.bar.theirs],
  };
}

function bgColours(v) {
  const white = { fill: "#f6f1e3", stroke: "#6b5a3a", text: "#222" };
  const black = { fill: "#2b2b2b", stroke: "#000", text: "#fff" };
  return v.my_side === "white" ? [white, black] : [black, white];
}

function bgDraw(p, holder, board, marks) {
  const v = p.view;
  const { w, bar, tray, m, h, gap, r } = BG;
  const width = 2 * m + 12 * w + bar + tray;
  const height = 2 * m + 2 * h + gap;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "bg-board", role: "group",
    "aria-label": T.bg_board });
  root.append(svg("rect", { x: 0, y: 0, width, height, rx: 8, fill: "#5b3a1e" }));
  root.append(svg("rect", { x: m, y: m, width: 12 * w + bar, height: 2 * h + gap, fill: "#e9dcc0" }));
  root.append(svg("rect", { x: m + 6 * w, y: m, width: bar, height: 2 * h + gap, fill: "#7a5230" }));
  const [mine, theirs] = bgColours(v);
  const midY = m + h + gap / 2;
  for (let point = 1; point <= 24; point++) {
    const { x, top } = bgPlace(point);
    const baseY = top ? m : m + 2 * h + gap;
    const tipY = top ? m + h - 8 : m + h + gap + 8;
    const colour = point % 2 ? "#a4462b" : "#2f5d50";
    const group = svg("g", { class: "point", "data-point": point });
    group.append(svg("polygon", { points: `${x - w / 2 + 1},${baseY} ${x + w / 2 - 1},${baseY} ${x},${tipY}`,
      fill: colour, class: "tri" }));
    group.append(svg("text", { x, y: top ? m - 1 : height - 1, "text-anchor": "middle",
      "font-size": 9, fill: "#f0e6d0" }, String(point)));
    group.append(svg("rect", { x: x - w / 2, y: top ? m : m + h + gap, width: w, height: h,
      fill: "transparent", class: "hit" }));
    const count = board.mine[point] || board.theirs[point];
    const who = board.mine[point] ? mine : theirs;
    for (let k = 0; k < Math.min(count, 5); k++) {
      const cy = top ? m + r + 1 + k * (2 * r - 2) : m + 2 * h + gap - r - 1 - k * (2 * r - 2);
      group.append(svg("circle", { cx: x, cy, r: r - 1, fill: who.fill, stroke: who.stroke,
        "stroke-width": 1.5, class: "checker" }));
      if (k === 4 && count > 5) {
        group.append(svg("text", { x, y: cy + 4, "text-anchor": "middle", "font-size": 12,
          "font-weight": "bold", fill: who.text }, String(count)));
      }
    }
    marks(group, point);
    root.append(group);
  }
  // The bar: the seat's checkers in its lower half, the opponent's in the upper.
  const barX = m + 6 * w + bar / 2;
  const barGroup = svg("g", { class: "point bar", "data-point": 25 });
  barGroup.append(svg("rect", { x: barX - bar / 2, y: midY, width: bar, height: h + gap / 2,
    fill: "transparent", class: "hit" }));
  for (const [count, who, dir] of [[board.mine[25], mine, 1], [board.theirs[25], theirs, -1]]) {
    for (let k = 0; k < Math.min(count, 4); k++) {
      barGroup.append(svg("circle", { cx: barX, cy: midY + dir * (r + 4 + k * (2 * r - 4)), r: r - 2,
        fill: who.fill, stroke: who.stroke, "stroke-width": 1.5 }));
    }
    if (count > 4) {
      barGroup.append(svg("text", { x: barX, y: midY + dir * (r + 8), "text-anchor": "middle",
        "font-size": 12, fill: who.text }, String(count)));
    }
  }
  marks(barGroup, 25);
  root.append(barGroup);
  // Borne off: the seat's checkers at the bottom of the tray, the opponent's at the top.
  const trayX = width - m - tray + 4;
  const off = svg("g", { class: "point off", "data-point": 0 });
  off.append(svg("rect", { x: trayX, y: m, width: tray - 4, height: 2 * h + gap, fill: "#3f2814",
    class: "hit" }));
  for (const [count, who, y] of [[board.mine[0], mine, m + 2 * h + gap - 4], [board.theirs[0], theirs, m + 4]]) {
    for (let k = 0; k < count; k++) {
      const yy = y > midY ? y - 8 - k * 9 : y + k * 9;
      off.append(svg("rect", { x: trayX + 4, y: yy, width: tray - 12, height: 7, rx: 2,
        fill: who.fill, stroke: who.stroke }));
    }
  }
  marks(off, 0);
  root.append(off);
  // Dice, the cube and the pip counts.
  const dice = v.dice;
  dice.forEach((face, i) => {
    const used = G.ui.used && G.ui.used[i];
    const x = m + 6 * w + bar + 3 * w - 26 + i * 30;
    root.append(svg("rect", { x, y: midY - 12, width: 24, height: 24, rx: 4,
      fill: v.on_roll === p.seat ? mine.fill : theirs.fill, stroke: "#000", opacity: used ? 0.4 : 1,
      class: "bg-die" }));
    root.append(svg("text", { x: x + 12, y: midY + 6, "text-anchor": "middle", "font-size": 16,
      "font-weight": "bold", fill: v.on_roll === p.seat ? mine.text : theirs.text }, String(face)));
  });
  const cubeY = v.cube_owner === "me" ? m + 2 * h + gap - 34 : v.cube_owner === "you" ? m + 6 : midY - 14;
  root.append(svg("rect", { x: m + 6 * w + 2, y: cubeY, width: bar - 4, height: 28, rx: 3,
    fill: "#fffdf5", stroke: "#000", class: "bg-cube" }));
  root.append(svg("text", { x: barX, y: cubeY + 19, "text-anchor": "middle", "font-size": 14,
    "font-weight": "bold" }, String(v.cube === 1 ? 64 : v.cube)));
  holder.replaceChildren(root);
}

function bgPhaseWord(text) {
  return T["bg_" + text.replace(/ /g, "_")] || text;
}

RENDER.backgammon = (p, board, controls) => {
  const v = p.view;
  const choices = p.choices || {};
  const graph = choices.moves || null;
  if (!G.ui.bg || G.ui.bg.version !== p.version) {
    G.ui = { bg: { version: p.version, node: 0, stack: [], board: bgBoardState(v), picked: null } };
  }
  const ui = G.ui.bg;
  const node = graph ? graph[ui.node] : null;
  const froms = new Set(node ? node.edges.map((e) => e[0]) : []);
  const tos = new Map();
  if (node && ui.picked !== null) {
    for (const edge of node.edges) if (edge[0] === ui.picked) tos.set(edge[1], edge);
  }
  const redraw = () => RENDER.backgammon(p, board, controls);
  const step = (edge) => {
    const [from, to, hit, child] = edge;
    ui.stack.push({ node: ui.node, board: JSON.parse(JSON.stringify(ui.board)) });
    ui.board.mine[from] -= 1;
    ui.board.mine[to] += 1;
    if (hit) {
      ui.board.theirs[to] -= 1;
      ui.board.theirs[25] += 1;
    }
    ui.node = child;
    ui.picked = null;
    redraw();
  };
  bgDraw(p, board, ui.board, (group, point) => {
    if (!graph) return;
    if (tos.has(point)) {
      group.classList.add("to");
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `${T.bg_to} ${point === 0 ? T.bg_off : point}`);
      onActivate(group, () => step(tos.get(point)));
    } else if (froms.has(point)) {
      group.classList.add("from");
      if (point === ui.picked) group.classList.add("picked");
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `${T.bg_from} ${point === 25 ? T.bg_bar : point}`);
      onActivate(group, () => {
        ui.picked = ui.picked === point ? null : point;
        redraw();
      });
    }
  });
  const parts = [];
  const score = v.match
    ? fmt(T.bg_match, { length: v.match, mine: v.score.mine, theirs: v.score.theirs })
    : fmt(T.bg_money, { mine: v.score.mine, theirs: v.score.theirs });
  parts.push(el("p", { class: "bg-info" }, `${score} · ${fmt(T.bg_pips, v.pips)}` +
    (v.crawford ? ` · ${T.bg_crawford}` : "") +
    ` · ${fmt(T.bg_cube, { value: v.cube, owner: T["bg_owner_" + v.cube_owner] })}`));
  if (graph) {
    const line = el("p", { class: "bg-move" });
    if (node.action) {
      line.append(actionButton(node.action, fmt(T.bg_play, { play: node.action }), { class: "primary" }));
    } else {
      line.append(ui.picked === null ? T.bg_pick : T.bg_pick_to);
    }
    if (ui.stack.length) {
      const back = el("button", { type: "button", class: "bg-back" }, T.bg_step_back);
      back.addEventListener("click", () => {
        const last = ui.stack.pop();
        ui.node = last.node;
        ui.board = last.board;
        ui.picked = null;
        redraw();
      });
      line.append(" ", back);
    }
    parts.push(line);
  } else if (choices.decisions) {
    const line = el("p", { class: "bg-decisions" });
    for (const text of choices.decisions) {
      line.append(actionButton(text, bgPhaseWord(text), { class: text === "roll" ? "primary" : "" }), " ");
    }
    parts.push(line);
  }
  if (v.resign_offer && p.to_move === p.seat) {
    parts.push(el("p", {}, fmt(T.bg_resign_offer, { kind: T["bg_kind_" + v.resign_offer] })));
  }
  controls.replaceChildren(...parts);
};

// ---------------------------------------------------------------------------------------------

function playPage() {
  setupPage();
  $("#play-undo").addEventListener("click", undo);
  $("#play-hint").addEventListener("click", hint);
  $("#play-analyze").addEventListener("click", analyze);
  $("#play-end").addEventListener("click", async () => {
    await call("POST", `/api/play/${G.id}/end`);
    location.href = "/play";
  });
  const id = new URL(location.href).searchParams.get("id");
  if (id) open(id);
}

if (document.body.dataset.page === "play") playPage();
