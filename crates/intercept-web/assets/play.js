// The game page: the position drawn as the server's SVG, its legal turns as buttons (clicking a square of the
// board keeps the turns whose id starts with that square's name), the search player's advice and move, a new
// game from the opening, taking back, setting a position up by hand (the rule set's palette of pieces, placed
// by clicking squares, checked by the server before play starts from it), and replaying a game of a self-play
// run. Everything goes through /api/play/{rule_set}/...; nothing here knows the rules.
"use strict";

const table = document.body.dataset.ruleSet;
const api = (what) => "/api/play/" + table + "/" + what;
let shown = null; // the position shown: {position, status, turns, svg}
let past = []; // earlier positions shown, for taking back
let filter = null; // the square picked on the board, or null
let seed = 1;
let editing = null; // while setting up: the position being edited, shown as the board
let busy = false;

async function call(what, body) {
  const reply = await fetch(api(what), { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = await reply.json();
  if (!reply.ok) throw new Error(answer.error);
  return answer;
}

function showError(e) {
  $("error").hidden = !e;
  $("error").textContent = e ? e.message || String(e) : "";
}

// Runs one request at a time: every button and choice disabled and a busy line shown until it answers; a
// refusal shown as its one line.
async function act(work, label) {
  if (busy) return;
  busy = true;
  showError(null);
  const controls = document.querySelectorAll("button, select, input");
  for (const c of controls) c.disabled = true;
  document.body.classList.add("busy");
  // A named wait (the engine thinking) shows at once; a plain request only if it takes a while.
  const timer = setTimeout(() => { $("busy").hidden = false; }, label ? 0 : 150);
  $("busy").textContent = label || "Waiting for the server…";
  try { await work(); } catch (e) { showError(e); } finally {
    clearTimeout(timer);
    $("busy").hidden = true;
    document.body.classList.remove("busy");
    for (const c of controls) c.disabled = false;
    busy = false;
    markOver();
  }
}

function statusLine(s) {
  if (!s.over) return s.to_move + " to move · " + s.turns_played + " turns played";
  return "Game over after " + s.turns_played + " turns: " + (s.winner ? s.winner + " wins" : "a draw");
}

function markOver() {
  const over = !shown || shown.status.over;
  $("ask").disabled = over;
  $("engine-move").disabled = over;
  $("undo").disabled = past.length === 0;
}

function show(next, played) {
  if (shown && played) past.push(shown);
  shown = next;
  filter = null;
  $("status").textContent = statusLine(next.status);
  draw(next);
  $("advice").textContent = "";
  delete $("advice").dataset.turn;
  delete $("advice").dataset.winChance;
  if (played) $("history").append(Object.assign(document.createElement("li"), { textContent: played }));
  listTurns();
  markOver();
}

function draw(view) {
  $("board").innerHTML = view.svg;
  squares($("board"));
}

// The board's squares in the picture: the first n×n square rects after the background, in cell order, named
// as the board's axes label them (columns a, b, …; rows 1, 2, …).
function squares(holder) {
  const svg = holder.querySelector("svg");
  if (!svg) return;
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.width.baseVal.value;
  const rects = [...svg.querySelectorAll("rect")].filter((r) => {
    const w = r.width.baseVal.value, h = r.height.baseVal.value;
    return w > 0 && Math.abs(w - h) <= 0.1 * w && w < width / 2; // squares drawn on whole pixels differ by a pixel or two
  });
  const n = Math.round(Math.sqrt(rects.length / 2));
  if (n < 2 || holder.id !== "board") return;
  const cells = rects.slice(0, n * n);
  cells.forEach((r, i) => { r.classList.add("cell"); r.dataset.square = String.fromCharCode(97 + (i % n)) + (Math.floor(i / n) + 1); });
  svg.addEventListener("click", (ev) => {
    // Discs and labels lie over the squares: the square is whatever cell rect lies under the point.
    const hit = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.classList && e.classList.contains("cell"));
    if (editing) { if (hit) act(() => place(hit.dataset.square)); return; }
    cells.forEach((r) => r.classList.remove("picked"));
    if (hit) hit.classList.add("picked");
    filter = hit ? hit.dataset.square : null;
    listTurns();
  });
}

function startsAt(id, square) {
  return id.startsWith(square) && !/[0-9]/.test(id.charAt(square.length));
}

function listTurns() {
  const turns = shown.turns.filter((t) => !filter || startsAt(t.id, filter));
  $("filter").hidden = !filter;
  $("filter-cell").textContent = filter || "";
  $("turn-count").textContent = "(" + turns.length + (filter ? " of " + shown.turns.length : "") + ")";
  $("turns").replaceChildren(...turns.map((t) => {
    const b = Object.assign(document.createElement("button"), { type: "button", textContent: t.text, title: t.id });
    b.dataset.turn = t.id;
    b.addEventListener("click", () => act(() => play(t)));
    return b;
  }));
}

async function play(turn) {
  const next = await call("turn", JSON.stringify({ position: shown.position, turn: turn.id }));
  show(next, shown.status.to_move + ": " + turn.text);
}

async function advise() {
  const a = await call("advice", JSON.stringify({ position: shown.position, seed: seed }));
  $("advice").textContent = "The engine plays " + a.turn.text + (a.turn.text === a.turn.id ? "" : " (" + a.turn.id + ")") + ": win chance " +
    (100 * a.win_chance).toFixed(1) + "% for " + shown.status.to_move + ", " + a.visits + " of " + a.playouts + " playouts.";
  $("advice").dataset.turn = a.turn.id;
  $("advice").dataset.winChance = a.win_chance;
  for (const b of $("turns").children) b.classList.toggle("best", b.dataset.turn === a.turn.id);
  return a;
}

async function engineMove() {
  const a = await advise();
  seed += 1;
  await play(a.turn);
  $("advice").textContent = "The engine played " + a.turn.text + " (win chance " + (100 * a.win_chance).toFixed(1) + "%).";
}

async function newGame() {
  past = [];
  $("history").replaceChildren();
  show(await call("opening", ""), null);
}

function undo() {
  if (!past.length) return;
  const back = past.pop();
  $("history").lastElementChild && $("history").lastElementChild.remove();
  shown = null;
  show(back, null);
}

// Set-up: the palette of what a square may hold, an edit per click, and the server's check before play.
async function loadPalette() {
  const { pieces, sides } = await (await fetch(api("palette"))).json();
  const radio = (id, text, side) => {
    const box = Object.assign(document.createElement("input"), { type: "radio", name: "piece", value: id });
    const label = Object.assign(document.createElement("label"), { className: "piece" + (side ? " " + side : "") });
    label.append(box, " " + text);
    return label;
  };
  $("palette").replaceChildren(...pieces.map((p) => radio(p.id, p.text, p.side)), radio("", "Empty", null));
  $("palette").querySelector("input").checked = true;
  $("setup-side").replaceChildren(...sides.map((s) => Object.assign(document.createElement("option"), { value: s, textContent: s })));
}

async function editWith(edit) {
  const view = await call("edit", JSON.stringify({ position: editing.position, edit }));
  editing = view;
  $("status").textContent = "Setting up · " + view.status.to_move + " to move";
  $("setup-side").value = view.status.to_move;
  draw(view);
}

function place(square) {
  const piece = $("palette").querySelector("input:checked").value;
  return editWith({ edit: "place", square, piece: piece || null });
}

function setUp(on) {
  editing = on ? shown : null;
  document.body.classList.toggle("setting-up", on);
  $("setup-panel").hidden = !on;
  $("controls").hidden = on;
  if (on) return editWith({ edit: "to_move", side: shown.status.to_move });
  show(shown, null);
}

async function playFromHere() {
  const next = await call("setup", JSON.stringify({ position: editing.position }));
  setUp(false);
  past = [];
  $("history").replaceChildren();
  show(next, null);
}

// Replay: the configs of this rule set in the server's folder, and game N of one as positions to step through.
let replay = null;

async function replayConfigs() {
  const { scenarios } = await (await fetch("/api/scenarios")).json();
  const mine = scenarios.filter((s) => s.rule_set === table && !s.error);
  $("replay-config").replaceChildren(...mine.map((s) => Object.assign(document.createElement("option"), { value: s.path, textContent: s.path })));
  $("replay-form").hidden = mine.length === 0;
}

async function loadReplay(ev) {
  ev.preventDefault();
  const path = $("replay-config").value;
  const toml = await (await fetch("/api/scenarios/" + path)).text();
  const game = Number($("replay-game").value);
  const r = await call("replay", JSON.stringify({ toml, game, name: path.split("/").pop() }));
  replay = { steps: r.turns.map((t) => ({ position: t.position, turn: t.turn })).concat([{ position: r.end, turn: null }]), at: 0 };
  $("replay-result").textContent = "Game " + r.game + ": " + r.result;
  $("replay-view").hidden = false;
  await replayShow(0);
}

async function replayShow(at) {
  replay.at = Math.max(0, Math.min(at, replay.steps.length - 1));
  const step = replay.steps[replay.at];
  const view = await call("position", JSON.stringify({ position: step.position }));
  $("replay-at").textContent = "position " + replay.at + " of " + (replay.steps.length - 1);
  $("replay-turn").textContent = step.turn ? view.status.to_move + " plays " + step.turn.text : statusLine(view.status);
  $("replay-board").innerHTML = view.svg;
  replay.view = view;
}

function wire() {
  $("new-game").addEventListener("click", () => act(newGame));
  $("ask").addEventListener("click", () => act(advise, "The engine is thinking…"));
  $("engine-move").addEventListener("click", () => act(engineMove, "The engine is thinking…"));
  $("undo").addEventListener("click", () => act(async () => undo()));
  $("clear-filter").addEventListener("click", () => { filter = null; $("board").querySelectorAll(".picked").forEach((r) => r.classList.remove("picked")); listTurns(); });
  $("setup").addEventListener("click", () => act(() => setUp(true)));
  $("setup-cancel").addEventListener("click", () => act(async () => setUp(false)));
  $("setup-clear").addEventListener("click", () => act(() => editWith({ edit: "clear" })));
  $("setup-side").addEventListener("change", () => act(() => editWith({ edit: "to_move", side: $("setup-side").value })));
  $("setup-play").addEventListener("click", () => act(playFromHere));
  $("replay-form").addEventListener("submit", (ev) => act(() => loadReplay(ev)));
  const step = (f) => () => act(() => replayShow(f(replay.at)));
  $("replay-first").addEventListener("click", step(() => 0));
  $("replay-prev").addEventListener("click", step((a) => a - 1));
  $("replay-next").addEventListener("click", step((a) => a + 1));
  $("replay-last").addEventListener("click", step(() => Infinity));
  $("replay-take").addEventListener("click", () => act(async () => {
    if (editing) setUp(false);
    past = [];
    $("history").replaceChildren();
    show(replay.view, null);
    window.scrollTo(0, 0);
  }));
}

wire();
act(async () => { await newGame(); await loadPalette(); await replayConfigs(); });
