// The game page: the position drawn as the server's SVG, its legal turns as buttons (picking a square of the
// board, by click or by keyboard, keeps the turns whose id starts with that square's name), the search
// player's advice and move at the difficulty chosen (its budget of playouts), the evaluation of the position
// (a bar split between the sides by its win chance, the search's expected line, why in a sentence), greyed
// as stale once the board shows another position, a new game from the opening, taking back, setting a
// position up by hand (the rule set's palette of pieces, placed on squares picked the same way, checked by the
// server before play starts from it), and replaying a game of a self-play run. Everything goes through
// /api/play/{rule_set}/...; nothing here knows the rules: each square's name and contents in words come with
// the position (`squares`).
"use strict";

const table = document.body.dataset.ruleSet;
const api = (what) => "/api/play/" + table + "/" + what;
let shown = null; // the position shown: {position, status, turns, svg}
let past = []; // earlier positions shown, for taking back
let filter = null; // the square picked on the board, or null
let seed = 1;
let editing = null; // while setting up: the position being edited, shown as the board
let busy = false;
let cursor = null; // the board square in the Tab order: the last one focused, kept across redraws
let sides = []; // the sides' names in the rule set's order (the palette's): the bar's left part, then its right
let evaluated = null; // the position the evaluation shown belongs to, as JSON text

// The board is drawn 720 px wide and shown narrower (half that on a phone), its text with it: each text is
// enlarged to at least this many CSS pixels on screen (see legible).
const SMALLEST_TEXT = 12;

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
  const focused = document.activeElement;
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
    refocus(focused);
  }
}

// Disabling the controls, or redrawing what was pressed (a turn played), takes the focus away: it goes back to
// the control pressed, or to the board's square, so that a keyboard user goes on from where they were.
function refocus(focused) {
  if (document.activeElement !== document.body) return;
  if (focused && focused.isConnected && !focused.disabled && !focused.closest("[hidden]")) focused.focus();
  else focusCursor();
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
  delete $("advice").dataset.playoutScore;
  markEvaluation();
  if (played) $("history").append(Object.assign(document.createElement("li"), { textContent: played }));
  listTurns();
  markOver();
}

function draw(view) {
  const hadFocus = $("board").contains(document.activeElement);
  $("board").innerHTML = view.svg;
  operable($("board"), view);
  if (hadFocus) focusCursor();
}

// The board's name for screen readers: the picture's own text read out is a jumble of labels.
function boardName(view) {
  if (editing) return "Board being set up, " + view.status.to_move + " to move";
  const s = view.status;
  return "Board, " + (s.over ? statusLine(s).toLowerCase() : s.to_move + " to move, after " + s.turns_played + " turns");
}

// The squares of the picture: the first of its square rects (the fills, drawn before the grid lines), one per
// square the server names, in the same order (the board picture's squares run row by row from the bottom).
function cellRects(svg, count) {
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.width.baseVal.value;
  const rects = [...svg.querySelectorAll("rect")].filter((r) => {
    const w = r.width.baseVal.value, h = r.height.baseVal.value;
    return w > 0 && Math.abs(w - h) <= 0.1 * w && w < width / 2; // squares drawn on whole pixels differ by a pixel or two
  });
  return count >= 4 && rects.length >= count ? rects.slice(0, count) : null;
}

// The board made operable: a named group whose picture text is hidden from screen readers (each square's name
// says what it holds), each square a button named "e5: white stack of 2 (rest stone, R)", one of them in the
// Tab order, the arrow keys moving between them and Enter or Space picking one as a click does.
function operable(holder, view) {
  const svg = holder.querySelector("svg");
  const cells = svg && view.squares && cellRects(svg, view.squares.length);
  if (!cells) return;
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", boardName(view));
  svg.setAttribute("aria-describedby", "board-help");
  // Without this Chromium stops Tab on the svg itself before its square (seen driving the page by keyboard).
  svg.setAttribute("tabindex", "-1");
  for (const t of svg.querySelectorAll("text")) t.setAttribute("aria-hidden", "true");
  if (!view.squares.some((s) => s.name === cursor)) cursor = view.squares[0].name;
  cells.forEach((r, i) => {
    const square = view.squares[i];
    r.classList.add("cell");
    r.dataset.square = square.name;
    r.setAttribute("role", "button");
    r.setAttribute("aria-label", square.name + ": " + square.text);
    r.setAttribute("tabindex", square.name === cursor ? "0" : "-1");
  });
  markPicked(svg);
  const ring = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  ring.setAttribute("class", "ring");
  ring.setAttribute("aria-hidden", "true");
  svg.append(ring);
  svg.addEventListener("focusin", (ev) => ev.target.matches(".cell:focus-visible") && ringAround(ring, ev.target));
  svg.addEventListener("focusout", () => ring.classList.remove("on"));
  svg.addEventListener("keydown", (ev) => ev.target.classList.contains("cell") && key(ev, cells));
  svg.addEventListener("click", (ev) => {
    // Discs and labels lie over the squares: the square is whatever cell rect lies under the point.
    const hit = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.classList && e.classList.contains("cell"));
    if (hit) pick(hit); else if (!editing) pickSquare(null);
  });
  legible(svg);
}

// The focus ring: a rect drawn over the focused square, above the discs that would hide its own outline.
function ringAround(ring, cell) {
  for (const a of ["x", "y", "width", "height"]) ring.setAttribute(a, cell.getAttribute(a));
  ring.classList.add("on");
}

// Arrow keys move to the next square (up is towards the higher rows, drawn above), Home and End to the ends
// of the row; Enter and Space pick the square.
function key(ev, cells) {
  const n = Math.round(Math.sqrt(cells.length));
  const at = cells.indexOf(ev.target), col = at % n;
  const to = { ArrowRight: col < n - 1 ? at + 1 : at, ArrowLeft: col > 0 ? at - 1 : at, ArrowUp: at + n, ArrowDown: at - n,
    Home: at - col, End: at - col + n - 1 }[ev.key];
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    pick(ev.target);
  } else if (to !== undefined) {
    ev.preventDefault();
    if (cells[to]) moveCursor(cells, cells[to]);
  }
}

function moveCursor(cells, cell) {
  for (const c of cells) c.setAttribute("tabindex", c === cell ? "0" : "-1");
  cursor = cell.dataset.square;
  cell.focus();
}

function focusCursor() {
  const cell = $("board").querySelector(".cell[tabindex=\"0\"]");
  if (cell && !$("board").closest("[hidden]")) cell.focus();
}

// A square picked: set up, it takes the chosen piece; in play, the turns are those from it.
function pick(cell) {
  moveCursor([...$("board").querySelectorAll(".cell")], cell);
  if (editing) act(() => place(cell.dataset.square));
  else pickSquare(cell.dataset.square);
}

function pickSquare(square) {
  filter = square;
  markPicked($("board"));
  listTurns();
}

function markPicked(holder) {
  for (const c of holder.querySelectorAll(".cell")) {
    c.classList.toggle("picked", c.dataset.square === filter);
    if (editing) c.removeAttribute("aria-pressed");
    else c.setAttribute("aria-pressed", String(c.dataset.square === filter));
  }
}

// The radius of the widest circle at each centre ("x,y"): a disc, not the dot that marks a square over it.
function discRadii(svg) {
  const discs = new Map();
  for (const c of svg.querySelectorAll("circle")) {
    const at = c.getAttribute("cx") + "," + c.getAttribute("cy");
    discs.set(at, Math.max(discs.get(at) || 0, c.r.baseVal.value));
  }
  return discs;
}

// Every text of the picture at least SMALLEST_TEXT pixels on screen, in the picture's units at the scale it
// is shown at; a label wider than its disc then is squeezed to the disc's width rather than spill over it.
function legible(svg) {
  const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width || 1);
  if (!scale) return;
  const discs = discRadii(svg);
  const height = svg.viewBox.baseVal.height;
  for (const t of svg.querySelectorAll("text")) {
    const own = Number(t.getAttribute("font-size")) || 0, size = Math.max(own, SMALLEST_TEXT / scale);
    t.style.fontSize = size + "px";
    // A text hung from its top grows downwards: the caption above the picture is raised by as much, so that
    // it does not reach down onto the picture (the axis labels below it have room to grow into).
    const y = Number(t.getAttribute("y"));
    if (t.getAttribute("dy") === "0.76em" && y < height / 2) t.style.transform = "translateY(" + -(size - own) + "px)";
    const room = 1.7 * (discs.get(t.getAttribute("x") + "," + t.getAttribute("y")) || 0);
    t.removeAttribute("textLength");
    if (room && t.getComputedTextLength() > room) {
      t.setAttribute("textLength", room);
      t.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
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

// The search's score in words: its rating of the turn, a mean over short playouts, never called a chance
// (the evaluation's chance is the bar's).
function scored(a, side) {
  if (a.playouts === 0) return "it wins at once";
  const [visits, playouts] = [a.visits, a.playouts].map((n) => n.toLocaleString("en"));
  return "playout score " + a.playout_score.toFixed(2) + " for " + side + " over " + visits + " of " + playouts +
    " short playouts: its rating of the turn, not a chance of winning";
}

// The budget of playouts the difficulty chosen gives the search, for its advice and its own turns.
const budget = () => Number($("difficulty").value);

async function advise() {
  const asked = shown;
  const a = await call("advice", JSON.stringify({ position: asked.position, seed: seed, budget: budget() }));
  $("advice").textContent = "The engine plays " + a.turn.text + (a.turn.text === a.turn.id ? "" : " (" + a.turn.id + ")") + ": " +
    scored(a, asked.status.to_move) + ".";
  $("advice").dataset.turn = a.turn.id;
  $("advice").dataset.playoutScore = a.playout_score;
  for (const b of $("turns").children) b.classList.toggle("best", b.dataset.turn === a.turn.id);
  showEvaluation(asked, a.evaluation, a.line);
  return a;
}

async function engineMove() {
  const side = shown.status.to_move;
  const a = await advise();
  seed += 1;
  await play(a.turn);
  $("advice").textContent = "The engine played " + a.turn.text + " (" + scored(a, side) + ").";
  if (shown.status.over) return;
  // The board now shows the position after the engine's turn. Its evaluation depends on the position alone,
  // not on the search (API.md), so one playout asks for it; the line is the rest of the engine's own, which
  // starts from here.
  const now = shown;
  const after = await call("advice", JSON.stringify({ position: now.position, seed: seed, budget: 1 }));
  showEvaluation(now, after.evaluation, a.line.slice(1));
}

const percent = (chance) => Math.round(100 * chance);
const named = (side) => side.charAt(0).toUpperCase() + side.slice(1);

// The evaluation of position `view` (null when the rule set has none), and the line of play the search
// expects from it: the bar gives the first side the side to move's chance when it is to move, else the rest.
function showEvaluation(view, evaluation, line) {
  if (view !== shown) return; // an answer for a position no longer shown is never drawn as this one's
  evaluated = JSON.stringify(view.position);
  const panel = $("evaluation");
  panel.hidden = false;
  $("eval-text").hidden = $("eval-bar").hidden = $("why").hidden = !evaluation;
  if (evaluation) {
    const toMove = view.status.to_move;
    const [first, second] = sides.length === 2 ? sides : [toMove, "the other side"];
    const firstChance = toMove === first ? evaluation.win_chance : 1 - evaluation.win_chance;
    const [a, b] = [percent(firstChance), 100 - percent(firstChance)];
    const text = named(first) + " " + a + "% · " + named(second) + " " + b + "%";
    $("eval-text").textContent = text;
    const bar = $("eval-bar");
    const meaning = "the evaluation's chance of winning for the side to move (" + toMove + ", " +
      percent(evaluation.win_chance) + "%), calibrated in self-play; the other side's is the rest";
    bar.setAttribute("aria-label", text + ": " + meaning);
    bar.title = named(meaning);
    bar.children[0].style.width = a + "%";
    bar.children[1].style.width = b + "%";
    panel.dataset.chance = evaluation.win_chance;
    panel.dataset.toMove = toMove;
    $("why").textContent = evaluation.why;
  } else {
    delete panel.dataset.chance;
    delete panel.dataset.toMove;
  }
  $("line").dataset.turns = line.map((t) => t.id).join(" ");
  $("line").textContent = "Expected line: " + (line.length ? line.map((t) => t.text).join(", ") :
    "none yet (the search tried no reply often enough to expect one)");
  markEvaluation();
}

// The evaluation belongs to one position: greyed, with a note saying so, while the board shows another (a
// turn played, taken back, a new game), and current again when that position comes back.
function markEvaluation() {
  const panel = $("evaluation");
  const stale = evaluated !== null && (!shown || JSON.stringify(shown.position) !== evaluated);
  panel.classList.toggle("stale", stale);
  const note = panel.querySelector(".stale-note");
  note.hidden = !stale;
  note.textContent = !stale ? "" : "From an earlier position" +
    (shown && !shown.status.over ? ": ask the engine to evaluate this one." : ".");
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
  const palette = await (await fetch(api("palette"))).json();
  const pieces = palette.pieces;
  sides = palette.sides;
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
  $("board-help").textContent = "Arrow keys move between the squares; Enter or Space " +
    (on ? "puts the piece picked in the palette on the square." : "picks one and lists its turns.");
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
  const svg = $("replay-board").querySelector("svg");
  // The replay's board is a picture only: one name, its text not read out piece by piece.
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Replayed board at position " + replay.at + ": " + $("replay-turn").textContent);
  legible(svg);
  replay.view = view;
}

function wire() {
  $("new-game").addEventListener("click", () => act(newGame));
  $("ask").addEventListener("click", () => act(advise, "The engine is thinking…"));
  $("engine-move").addEventListener("click", () => act(engineMove, "The engine is thinking…"));
  $("undo").addEventListener("click", () => act(async () => undo()));
  $("clear-filter").addEventListener("click", () => pickSquare(null));
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
// The board's text is sized for the width it is shown at, again whenever that changes.
const resized = new ResizeObserver(() => document.querySelectorAll(".board svg").forEach(legible));
resized.observe($("board"));
resized.observe($("replay-board"));
act(async () => { await newGame(); await loadPalette(); await replayConfigs(); });
