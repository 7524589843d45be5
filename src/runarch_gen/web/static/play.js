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

// An element holding ``children`` (nodes or texts).
function h(tag, attrs, ...children) {
  const node = el(tag, attrs);
  node.append(...children);
  return node;
}

function actionButton(text, label, extra) {
  const button = el("button", Object.assign({ type: "button", "data-action": text }, extra || {}), label || text);
  button.addEventListener("click", () => act(text));
  return button;
}

function sideName(p, seat) {
  const s = p.seats[seat - 1];
  const side = s ? s.side : `p${seat}`;
  return T["side_" + side] || side;
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
      const label = el("label", {}, `${T.play_seat} ${index + 1} (${T["side_" + side] || side}) `);
      label.append(choice);
      rows.append(label);
    });
    if (![...rows.querySelectorAll("select")].some((s) => s.value === "you")) {
      rows.querySelector("select").value = "you";
    }
    rows.dataset.for = params.get("rules");  // the rules these seats are for
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
  const winners = r.winners.map((w) => T["side_" + r.sides[w - 1]] || r.sides[w - 1] || sideName(p, w));
  const who = winners.length ? winners.join(", ") : T.play_nobody;
  const mine = r.winners.includes(p.seat);
  const head = r.winners.length === 0 ? T.play_no_winner : mine ? T.play_you_won : T.play_you_lost;
  return `${head} ${fmt(T.play_result_line, { result: r.result, why: r.termination, winners: who })}`;
}

function render(p) {
  G.payload = p;
  clearTimeout(G.timer);
  G.seat = p.seat;
  // The game string beside the title only when it says more than the game's name (its options).
  $("#play-title").textContent = p.game === p.name ? gameTitle(p.name) : `${gameTitle(p.name)}: ${p.game}`;
  $("#play-seats-line").textContent = p.seats.map((s) =>
    `${sideName(p, s.seat)}: ${plays(p, s.seat)}${s.seat === p.seat ? " ◀" : ""}`).join(" · ");
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
    row.append(el("td", {}, p.seats[i] ? `${sideName(p, i + 1)} (${plays(p, i + 1)})` : p.result.sides[i]),
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
      if (answer.data.files.length > 1) recordLine.append(el("small", {}, T.play_files_together));
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
  box.replaceChildren(el("p", {}, fmt(T.play_hint_by, { bot: hint.bot })));
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
  box.replaceChildren(el("p", {}, fmt(T.play_analysis_by, { bot: data.bot })));
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
  G.ui.bgDrop = (event) => {  // a drag released: on a marked point, the step is made
    const start = ui.drag;
    ui.drag = null;
    if (!start || Math.hypot(event.clientX - start.x, event.clientY - start.y) < 8) return;
    ui.pressed = false;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const group = target && target.closest("#play-board .point.to");
    if (group) step(tos2().get(Number(group.dataset.point)));
  };
  const tos2 = () => {
    const found = new Map();
    const here = graph ? graph[ui.node] : null;
    if (here && ui.picked !== null) {
      for (const edge of here.edges) if (edge[0] === ui.picked) found.set(edge[1], edge);
    }
    return found;
  };
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
        if (ui.pressed) {  // the click that ends a press on this point: picked already
          ui.pressed = false;
          return;
        }
        ui.picked = ui.picked === point ? null : point;
        redraw();
      });
      // A checker may be dragged too: pressed here, released on a marked point.
      group.addEventListener("pointerdown", (event) => {
        if (event.button !== 0) return;
        ui.picked = point;
        ui.pressed = true;
        ui.drag = { x: event.clientX, y: event.clientY };
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
// Malacca: your action cards, the open stakes, the ship, and each round's resolution step by step.

function mlCard(label) {
  return T["ml_card_" + label.replace("-", "_")] || label;
}

function mlResolution(p, r) {
  const box = el("div", { class: "ml-resolution", "data-round": String(r.round) });
  box.append(el("h3", {}, fmt(T.ml_resolution, { round: r.round, cargo: r.cargo })));
  if (!r.cards_seen) {
    box.append(el("p", {}, r.captured ? T.ml_captured : T.ml_not_captured));
    box.append(el("p", { class: "ml-changes" }, r.changes.map((c, i) =>
      `${sideName(p, i + 1)} ${c >= 0 ? "+" : ""}${c}`).join(" · ")));
    box.append(el("p", { class: "note" }, T.ml_cards_unseen));
    return box;
  }
  const list = el("ol", { class: "ml-steps" });
  const shown = G.ui.mlShown && G.ui.mlShown.round === r.round ? G.ui.mlShown.count : 1;
  r.steps.forEach((step, i) => {
    const item = el("li", { "data-step": step.kind });
    if (step.kind === "reveal") {
      item.textContent = T.ml_reveal + " " + step.seats.map((s) =>
        `${sideName(p, s.seat)}: ${mlCard(s.card)}${s.card.startsWith("wait") ? ` → ${T["ml_role_" + s.role]}` : ""}, ${T.ml_stake} ${s.stake}`).join(" · ");
    } else if (step.kind === "strength") {
      const verdict = step.useless ? T.ml_useless : step.captured ? T.ml_captured : T.ml_defended;
      item.textContent = fmt(T.ml_strength, { attack: step.attack, defence: step.defence, verdict });
    } else {
      const parts = step.parts.map((x) => `${T["ml_part_" + x.part] || x.part} ${x.value > 0 ? "+" : ""}${x.value}`);
      item.textContent = `${sideName(p, step.seat)} (${T["ml_role_" + step.role]}): ` +
        `${parts.join(", ") || T.ml_nothing} = ${step.change > 0 ? "+" : ""}${step.change}` +
        (step.cards ? ` · ${fmt(T.ml_draws, { n: step.cards })}` : "");
    }
    item.hidden = i >= shown;
    list.append(item);
  });
  box.append(list);
  if (shown < r.steps.length) {
    const next = el("button", { type: "button", class: "small ml-next" }, T.ml_next_step);
    next.addEventListener("click", () => {
      G.ui.mlShown = { round: r.round, count: shown + 1 };
      RENDER.malacca(p, $("#play-board"), $("#play-controls"));
    });
    const all = el("button", { type: "button", class: "small" }, T.ml_all_steps);
    all.addEventListener("click", () => {
      G.ui.mlShown = { round: r.round, count: r.steps.length };
      RENDER.malacca(p, $("#play-board"), $("#play-controls"));
    });
    box.append(h("p", {}, next, " ", all));
  }
  if (r.inferred) box.append(el("p", { class: "note" }, T.ml_inferred));
  return box;
}

RENDER.malacca = (p, board, controls) => {
  const v = p.view;
  const head = el("div", { class: "ml-ship" });
  head.append(el("span", { class: "ml-cargo" }, v.cargo === null ? "—" : String(v.cargo)),
    el("span", {}, fmt(T.ml_round, { round: Math.min(v.round, v.rounds), rounds: v.rounds }) + " · " +
      fmt(T.ml_ships_left, { ships: v.ships_left.join(", ") || "—" }) + " · " +
      fmt(T.ml_deck, { n: v.deck })));
  const table = el("table", { class: "ml-table" });
  const top = el("tr");
  for (const title of ["", T.ml_money, T.ml_laid, T.ml_stake, T.ml_specials, T.ml_equipment]) {
    top.append(el("th", {}, title));
  }
  table.append(top);
  for (const s of v.seats) {
    const row = el("tr", { class: (s.seat === p.seat ? "me" : "") + (s.seat === v.to_act ? " acting" : ""),
      "data-seat": String(s.seat) });
    const who = `${sideName(p, s.seat)} (${plays(p, s.seat)})` + (s.seat === v.captain ? " ⚓" : "") +
      (s.character ? ` · ${s.character.title}` : "");
    const laid = s.laid === null ? "" : s.laid === "hidden" ? T.ml_face_down
      : mlCard(s.laid) + (s.choice ? ` → ${T["ml_role_" + s.choice]}` : "");
    row.append(el("td", {}, who), el("td", {}, String(s.money)), el("td", {}, laid),
      el("td", {}, s.stake === null ? "" : String(s.stake)), el("td", {}, String(s.specials)),
      el("td", {}, s.equipment.some((n) => n) ? s.equipment.map((n, i) => n ? `${T["ml_role_" + ["attack", "defence", "trade"][i]]} ${n}` : "").filter(Boolean).join(", ") : ""));
    table.append(row);
  }
  const hand = el("p", { class: "ml-hand" }, `${T.ml_your_cards}: ` +
    ["attack", "defence", "trade"].map(mlCard).concat(
      Object.entries(v.hand).map(([card, n]) => `${mlCard(card)}${n > 1 ? " ×" + n : ""}`)).join(", "));
  const parts = [head, h("div", { class: "scroll" }, table), hand];
  if (v.bottom.length) parts.push(el("p", { class: "note" }, `${T.ml_bottom}: ${v.bottom.map((c) => c === "?" ? "?" : mlCard(c)).join(", ")}`));
  if (v.resolution) parts.push(mlResolution(p, v.resolution));
  board.replaceChildren(...parts);

  const choices = p.choices;
  const out = [];
  if (choices && choices.cards) {
    const ui = G.ui.ml || (G.ui.ml = { card: null, stake: 0 });
    if (!choices.cards.includes(ui.card)) ui.card = null;
    ui.stake = Math.min(ui.stake, choices.max_stake);
    const cards = el("p", { class: "ml-cards", role: "group", "aria-label": T.ml_your_cards });
    for (const card of choices.cards) {
      const button = el("button", { type: "button", "data-card": card, "aria-pressed": String(card === ui.card) }, mlCard(card));
      button.addEventListener("click", () => { ui.card = card; RENDER.malacca(p, board, controls); });
      cards.append(button, " ");
    }
    const stake = el("input", { type: "number", min: "0", max: String(choices.max_stake), step: "1",
      value: String(ui.stake), name: "stake", "aria-label": T.ml_stake });
    stake.addEventListener("input", () => {
      const n = Number(stake.value);
      ui.stake = Number.isInteger(n) ? Math.max(0, Math.min(n, choices.max_stake)) : 0;
      lay.dataset.action = `${ui.card} ${ui.stake}`;
      lay.textContent = fmt(T.ml_lay, { card: ui.card ? mlCard(ui.card) : "…", stake: ui.stake });
    });
    const lay = el("button", { type: "button", class: "primary ml-lay" },
      fmt(T.ml_lay, { card: ui.card ? mlCard(ui.card) : "…", stake: ui.stake }));
    lay.disabled = ui.card === null;
    lay.dataset.action = `${ui.card} ${ui.stake}`;
    lay.addEventListener("click", () => act(`${ui.card} ${Math.max(0, Math.min(ui.stake, choices.max_stake))}`));
    const stakeLine = el("label", {}, `${T.ml_stake} (0–${choices.max_stake}) `);
    stakeLine.append(stake);
    out.push(el("h3", {}, T.ml_lay_card), cards, stakeLine, h("p", {}, lay));
  } else if (choices && choices.buttons) {
    const line = el("p", { class: "ml-buttons" });
    for (const text of choices.buttons) line.append(actionButton(text, mlAction(text)), " ");
    out.push(line);
  }
  controls.replaceChildren(...out);
};

function mlAction(text) {
  const [verb, what] = text.split(" ");
  if (verb === "pass") return T.ml_pass;
  if (verb === "buy") return fmt(T.ml_buy, { what: T["ml_role_" + what] || what });
  if (verb === "choose") return fmt(T.ml_choose, { role: T["ml_role_" + what] || what });
  if (verb === "keep") return fmt(T.ml_keep, { card: mlCard(what) });
  return text;
}

// ---------------------------------------------------------------------------------------------
// RunArch: the board and its stones (two clicks swap), the hand with each card's valid lines and
// the points they score, the offer's match areas, archives, bets, the score frame, the automa.

function raAsset(name) {
  return `/api/play/${G.id}/assets/${name}.svg?lang=${LANG}`;
}

function raCardImage(card, extra) {
  const figure = el("figure", Object.assign({ class: "ra-card", "data-card": String(card.id) }, extra || {}));
  figure.append(el("img", { src: raAsset(`card-${card.id}`), alt: fmt(T.ra_card_alt, {
    id: card.id, pattern: card.pattern.join(" "), match: card.match, goal: card.goal, reward: card.reward,
  }), loading: "lazy" }));
  return figure;
}

function raSide(v, side) {
  const name = v.sides[side].name;
  return T["side_" + name] || name;
}

function raBoard(p, ui, swaps, line) {
  const v = p.view;
  const board = el("div", { class: "ra-board", role: "group", "aria-label": T.ra_board });
  const partners = new Map();
  if (ui.picked) {
    for (const s of swaps) {
      if (s.a === ui.picked) partners.set(s.b, s.action);
      if (s.b === ui.picked) partners.set(s.a, s.action);
    }
  }
  const movable = new Set(swaps.flatMap((s) => [s.a, s.b]));
  board.append(el("span", { class: "corner" }));
  for (const letter of "abcde") board.append(el("span", { class: "label" }, letter));
  for (let row = 0; row < 5; row++) {
    board.append(el("span", { class: "label" }, String(row + 1)));
    for (let col = 0; col < 5; col++) {
      const q = row * 5 + col;
      const name = "abcde"[col] + (row + 1);
      const cell = el("button", { type: "button", class: "sq", "data-square": name,
        "data-tile": v.tiles[q], "data-stone": v.stones[q],
        "aria-label": fmt(T.ra_square, { square: name, tile: v.tiles[q], stone: v.stones[q] }) });
      cell.append(el("img", { class: "tile", src: raAsset(`tile-${v.tiles[q]}`), alt: "" }),
        el("img", { class: "stone", src: raAsset(`stone-${v.stones[q]}`), alt: "" }));
      if (line && line.includes(name)) cell.classList.add("line");
      if (ui.picked === name) cell.classList.add("picked");
      if (partners.has(name)) {
        cell.classList.add("partner");
        cell.addEventListener("click", () => act(partners.get(name)));
      } else if (movable.has(name)) {
        cell.classList.add("movable");
        cell.addEventListener("click", () => {
          ui.picked = ui.picked === name ? null : name;
          RENDER.runarch(p, $("#play-board"), $("#play-controls"));
        });
      } else {
        cell.disabled = !movable.size;
      }
      board.append(cell);
    }
  }
  return board;
}

function raFrame(v) {
  const width = 400;
  const root = svg("svg", { viewBox: `0 0 ${width + 20} 46`, class: "ra-frame", role: "img",
    "aria-label": T.ra_frame });
  const x = (space) => 10 + (space / 100) * width;
  root.append(svg("rect", { x: 10, y: 16, width, height: 12, fill: "#eee", stroke: "#999" }));
  for (const mark of [25, 50, 75]) root.append(svg("line", { x1: x(mark), x2: x(mark), y1: 12, y2: 32, stroke: "#666" }));
  for (const token of v.frame) {
    if (!token.bet) continue;
    root.append(svg("rect", { x: x(token.start - 1), y: 16, width: x(token.end) - x(token.start - 1), height: 12,
      fill: token.bet === "gold" ? "#e0b030" : "#b8b8b8" }));
  }
  const colours = ["#f4f1e8", "#333"];
  v.sides.forEach((side, i) => {
    const space = side.total % 100;  // the frame wraps at 100
    root.append(svg("circle", { cx: x(space), cy: i ? 36 : 9, r: 6, fill: colours[i], stroke: "#000" }));
    root.append(svg("text", { x: x(space) + 9, y: i ? 40 : 13, "font-size": 10 }, String(side.total)));
  });
  return root;
}

function raEvent(v, e) {
  const who = raSide(v, e.side);
  if (e.kind === "swap") return fmt(T.ra_event_swap, { side: who, squares: e.squares.join(", ") });
  return fmt(e.filed ? T.ra_event_filed : T.ra_event_score, { side: who, points: e.points, total: e.total });
}

// Scoring a card: the archive, then the draw — each offered only as the legal options allow
// — and one button that names the whole action (the first of each chosen to begin with).
function raScoreChoice(p, ui, chosen, board, controls) {
  const box = el("div", { class: "ra-score" });
  const archives = [...new Set(chosen.options.map((o) => o.archive))];
  if (!archives.includes(ui.archive)) ui.archive = archives[0];
  const draws = chosen.options.filter((o) => o.archive === ui.archive).map((o) => o.draw);
  if (!draws.includes(ui.draw)) ui.draw = draws[0];
  const redraw = () => RENDER.runarch(p, board, controls);
  const drawWord = (draw) => draw === null ? T.ra_no_draw : draw === "pile" ? T.ra_draw_pile
    : fmt(T.ra_draw_offer, { slot: draw.split(" ")[1] });
  if (archives[0] !== null) {
    const row = el("p", { class: "ra-pick", role: "group", "aria-label": T.ra_archive });
    row.append(`${T.ra_archive}: `);
    for (const archive of archives) {
      const button = el("button", { type: "button", class: "small", "aria-pressed": String(archive === ui.archive) },
        `${archive}: ${T["ra_rule_" + p.view.archive_rules["LMR".indexOf(archive)]] || ""}`);
      button.addEventListener("click", () => { ui.archive = archive; redraw(); });
      row.append(button, " ");
    }
    box.append(row);
  }
  if (draws.length > 1 || draws[0] !== null) {
    const row = el("p", { class: "ra-pick", role: "group", "aria-label": T.ra_draw });
    row.append(`${T.ra_draw}: `);
    for (const draw of draws) {
      const button = el("button", { type: "button", class: "small", "aria-pressed": String(draw === ui.draw) }, drawWord(draw));
      button.addEventListener("click", () => { ui.draw = draw; redraw(); });
      row.append(button, " ");
    }
    box.append(row);
  }
  const option = chosen.options.find((o) => o.archive === ui.archive && o.draw === ui.draw);
  const where = option.archive ? fmt(T.ra_into, { archive: option.archive }) : "";
  box.append(h("p", { class: "ra-options" }, actionButton(option.action, fmt(T.ra_score_option, {
    card: chosen.card, line: chosen.line, score: chosen.score, where, draw: drawWord(option.draw),
  }), { class: "primary" })));
  return box;
}

RENDER.runarch = (p, board, controls) => {
  const v = p.view;
  const choices = p.choices || { swaps: [], lines: [], end: null, bets: [], setup: [] };
  if (!G.ui.ra || G.ui.ra.version !== p.version) {
    G.ui.ra = { version: p.version, picked: null, line: null };
  }
  const ui = G.ui.ra;
  const chosen = choices.lines.find((l) => `${l.slot}:${l.line}` === ui.line) || null;
  const left = [raBoard(p, ui, choices.swaps, chosen ? chosen.squares : null)];
  // The scores, the frame and the automa's or the other side's last moves.
  const scores = el("table", { class: "ra-scores" });
  const head = el("tr");
  for (const title of ["", T.ra_total, T.ra_best, T.ra_minimum, T.ra_phase]) head.append(el("th", {}, title));
  scores.append(head);
  for (const i of [0, 1]) {
    const s = v.sides[i];
    const row = el("tr", { class: i === v.me ? "me" : "" });
    row.append(el("td", {}, raSide(v, i) + (i === v.to_move - 1 && !p.result ? " ◀" : "")),
      el("td", {}, String(s.total)), el("td", {}, String(s.best)), el("td", {}, String(s.minimum)),
      el("td", {}, v.simple ? "—" : String(s.phase)));
    scores.append(row);
  }
  left.push(scores, raFrame(v));
  if (v.events.length) {
    const list = el("ul", { class: "ra-events" });
    for (const e of v.events.slice(-6)) list.append(el("li", {}, raEvent(v, e)));
    left.push(h("details", { class: "ra-events-box", open: "" }, el("summary", {}, T.ra_events), list));
  }
  board.replaceChildren(...left);

  const out = [];
  const stageWords = { setup: T.ra_stage_setup, play: T.ra_stage_play, bet: T.ra_stage_bet, over: T.ra_stage_over };
  out.push(el("p", { class: "ra-stage" }, `${stageWords[v.stage]} · ${fmt(T.ra_turn, { turn: v.turn })}` +
    (v.simple ? ` · ${fmt(T.ra_target, { target: v.target })}` : "")));
  if (choices.setup.length) {
    out.push(el("h3", {}, T.ra_setup));
    const dealt = el("div", { class: "ra-cards" });
    for (const card of v.dealt) dealt.append(raCardImage(card));
    out.push(dealt);
    const list = el("div", { class: "ra-options" });
    for (const option of choices.setup) {
      list.append(actionButton(option.action, fmt(T.ra_setup_option, {
        public: option.public.join(", "), secret: option.secret, keep: option.keep.join(", "),
      }), { class: "small" }));
    }
    out.push(list);
  }
  if (choices.bets.length) {
    out.push(el("h3", {}, fmt(T.ra_place_bet, { colour: T["ra_" + v.pending[0]] || v.pending[0] })));
    const list = el("div", { class: "ra-options" });
    for (const bet of choices.bets) {
      const label = bet.goal !== undefined ? fmt(T.ra_bet_goal, { goal: bet.goal })
        : fmt(T.ra_bet_archive, { archive: bet.archive, cards: bet.cards });
      list.append(actionButton(bet.action, label, { class: "small" }));
    }
    out.push(list);
  }
  if (v.stage === "play" && v.to_move - 1 === v.me && !p.result) {
    // The hand: each card with the lines it is valid on now, and what it would score there.
    out.push(el("h3", {}, T.ra_hand));
    const hand = el("div", { class: "ra-hand" });
    v.hand.forEach((card, slot) => {
      const box = el("div", { class: "ra-hand-card" });
      box.append(raCardImage(card));
      const mine = choices.lines.filter((l) => l.slot === slot + 1);
      const lines = el("div", { class: "ra-lines" });
      if (!mine.length) lines.append(el("span", { class: "note" }, T.ra_no_line));
      for (const l of mine) {
        const key = `${l.slot}:${l.line}`;
        const button = el("button", { type: "button", class: "small ra-line", "data-line": key,
          "aria-pressed": String(ui.line === key) },
          l.bonus ? fmt(T.ra_line_bonus, l) : fmt(T.ra_line, l));
        button.addEventListener("click", () => {
          ui.line = ui.line === key ? null : key;
          RENDER.runarch(p, board, controls);
        });
        lines.append(button);
      }
      box.append(lines);
      hand.append(box);
    });
    if (!v.hand.length) hand.append(el("p", { class: "note" }, T.ra_empty_hand));
    out.push(hand);
    if (chosen) out.push(raScoreChoice(p, ui, chosen, board, controls));
    const swapLine = el("p", { class: "ra-swap-note" });
    if (choices.swaps.length) {
      swapLine.append(ui.picked ? fmt(T.ra_pick_partner, { square: ui.picked }) : T.ra_pick_square);
      out.push(swapLine);
    }
    if (choices.end) out.push(h("p", {}, actionButton(choices.end, T.ra_end_turn, { class: "primary" })));
  }
  // What else the seat sees: the offer, goals, archives, bets, conditions.
  if (!v.simple) {
    const offer = el("div", { class: "ra-offer" });
    offer.append(el("span", {}, `${T.ra_offer}: `));
    v.offer.forEach((code, i) => offer.append(h("span", { class: "ra-match" },
      el("img", { src: raAsset(`tile-${code}`), alt: code }), el("small", {}, `${i + 1}`))));
    offer.append(el("span", {}, ` · ${fmt(T.ra_pile, { n: v.pile })}`));
    out.push(offer);
    if (v.secret || v.public_goals.length) {
      const goals = el("div", { class: "ra-cards small" });
      if (v.secret) goals.append(raCardImage(v.secret, { title: T.ra_secret }));
      for (const card of v.public_goals) goals.append(raCardImage(card, { title: T.ra_public }));
      out.push(h("details", {}, el("summary", {}, T.ra_goals), goals));
    }
    const archives = el("table", { class: "ra-archives" });
    const top = el("tr");
    top.append(el("th", {}, ""), ...v.archive_rules.map((rule, i) => el("th", {}, `${"LMR"[i]}: ${T["ra_rule_" + rule] || rule}`)));
    archives.append(top);
    v.sides.forEach((s, i) => {
      if (v.solo && i === 1) return;
      const row = el("tr");
      row.append(el("td", {}, raSide(v, i)));
      s.archives.forEach((cards, a) => {
        const bets = s.bets.filter((b) => b.archive === "LMR"[a]).map((b) => `${b.cards}${b.bet === "gold" ? "●" : "○"}`);
        row.append(el("td", {}, `${cards.map((c) => c.match).join(" ") || "—"} (${cards.length}/${v.capacity})` +
          (bets.length ? ` · ${T.ra_bets}: ${bets.join(" ")}` : "")));
      });
      archives.append(row);
    });
    out.push(archives);
    if (v.conditions.length) {
      out.push(el("p", { class: "note" }, `${T.ra_conditions}: ` + v.conditions.map((c) =>
        `${c.text}${c.bet ? (c.bet === "gold" ? " ●" : " ○") : " ✓"}`).join(" · ")));
    }
  }
  controls.replaceChildren(...out);
};

// ---------------------------------------------------------------------------------------------

function playPage() {
  setupPage();
  document.addEventListener("pointerup", (event) => { if (G.ui.bgDrop) G.ui.bgDrop(event); });
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
