// The replay page: steps through the frames the server works out (POST /api/replay) with
// every hand open. Every position, trick winner and point comes from the server; this page
// only draws them, moves between frames and reads keys, buttons and swipes.
import { isRed, pretty, spoken, suitWord } from "./cards.js";

const $ = (id) => document.getElementById(id);
let replay = null;   // the server's answer: names, rounds, frames (and analysis)
let recordText = ""; // the record as given, sent again to ask for the analysis
let index = 0;
let marks = new Map(); // frame index -> analysed decision

// Where each seat sits, seat 0 at the bottom and turns going left (clockwise on screen).
const PLACES = { 2: ["b", "t"], 3: ["b", "l", "r"], 4: ["b", "l", "t", "r"],
  5: ["b", "l", "tl", "tr", "r"], 6: ["b", "l", "tl", "t", "tr", "r"] };

function card(name, mini) {
  const element = document.createElement("span");
  element.className = `card ${mini ? "mini " : ""}${suitWord(name)}${isRed(name) ? " red" : ""}`;
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", spoken(name));
  const shown = pretty(name);
  element.innerHTML = `<span class="rank" aria-hidden="true"></span><span class="suit" aria-hidden="true"></span>`;
  element.firstChild.textContent = shown.slice(0, -1);
  element.lastChild.textContent = shown.slice(-1);
  return element;
}

function nameOf(seat) { return replay.names[seat]; }

// A name without its trailing qualifier in brackets ("Computer 2 (hard)": the level).
const unqualified = (name) => name.replace(/\s*\([^()]*\)$/, "");

// The name on a trick card's badge, which has a card's width: the qualifier is left out
// where the rest still tells the seats apart (the seat's box gives the whole name).
function badgeName(seat) {
  const short = unqualified(nameOf(seat));
  const alike = replay.names.filter((name) => unqualified(name) === short).length;
  return short && alike === 1 ? short : nameOf(seat);
}

function actionText(frame) {
  const action = frame.action;
  if (!action) return `Round ${frame.round}: the deal (passing ${frame.pass_direction})`;
  const who = nameOf(action.seat);
  let text;
  if (action.kind === "play") text = `${who} plays ${pretty(action.card)}`;
  else if (action.kind === "pass") text = `${who} passes ${action.cards.map(pretty).join(" ")}`;
  else text = `${who} chooses: ${action.choice}`;
  if (frame.took !== null) text += `; ${nameOf(frame.took)} takes the trick`;
  if (frame.result && frame.phase !== "play") {
    text += `. Round points: ${frame.result.points.join(", ")}`;
    if (frame.result.shooter !== null) text += ` (${nameOf(frame.result.shooter)} shot the moon)`;
  }
  if (frame.winners.length && frame.phase === "over") text += `. Won by ${frame.winners.map(nameOf).join(" and ")}`;
  return text;
}

function render() {
  const frame = replay.frames[index];
  const felt = $("replay-table");
  felt.replaceChildren();
  const places = PLACES[replay.players];
  frame.hands.forEach((hand, seat) => {
    const box = document.createElement("section");
    box.className = `replay-seat place-${places[seat]}`;
    box.dataset.seat = String(seat);
    box.dataset.toAct = String(frame.to_act.includes(seat));
    const head = document.createElement("h2");
    head.className = "name";
    head.textContent = nameOf(seat);
    const score = document.createElement("p");
    score.className = "score";
    score.textContent = `${frame.points_taken[seat]} this round · ${frame.totals[seat]} total`;
    const cards = document.createElement("div");
    cards.className = "open-hand";
    cards.setAttribute("aria-label", `${nameOf(seat)}'s hand`);
    cards.setAttribute("role", "group");
    hand.forEach((name) => cards.append(card(name, true)));
    if (!hand.length) cards.textContent = "no cards";
    box.append(head, score, cards);
    felt.append(box);
  });
  const trick = document.createElement("section");
  trick.className = "replay-trick";
  trick.setAttribute("aria-label", "The trick");
  frame.table.forEach(([seat, name]) => {
    const slot = document.createElement("div");
    slot.className = `replay-slot place-${places[seat]}`;
    slot.dataset.winning = String(frame.took === seat);
    slot.append(card(name, false));
    const who = document.createElement("span");
    who.className = "badge";
    who.textContent = badgeName(seat);
    slot.append(who);
    trick.append(slot);
  });
  const note = document.createElement("p");
  note.className = "trick-note";
  note.textContent = frame.took !== null ? `${nameOf(frame.took)} took trick ${frame.trick}`
    : frame.phase === "pass" ? `Pass ${frame.pass_direction}` : frame.trick ? `Trick ${frame.trick}` : "";
  trick.append(note);
  felt.append(trick);
  $("replay-status").textContent = `Move ${index} of ${replay.frames.length - 1} · ${actionText(frame)}`;
  const mark = marks.get(index);
  $("replay-mark").textContent = !mark ? ""
    : mark.choices < 2 ? "Analysis: forced"
    : `Analysis: ${mark.verdict || "fine"}, cost ${mark.loss.toFixed(1)} points; best ${shownAction(mark.best, mark.kind)}`;
  $("round-select").value = String(frame.round);
  document.body.dataset.frame = String(index);
}

function shownAction(taken, kind) {
  if (kind === "pass") return taken.map(pretty).join(" ");
  return kind === "play" ? pretty(taken) : taken;
}

// --------------------------------------------------------------------- moves
function trickEnd(frame) { return frame.took !== null || frame.action === null; }

function move(kind) {
  if (!replay) return;
  const frames = replay.frames;
  const last = frames.length - 1;
  const starts = replay.rounds.map((r) => r.frame);
  if (kind === "card") index = Math.min(index + 1, last);
  else if (kind === "card-back") index = Math.max(index - 1, 0);
  else if (kind === "trick") {
    const next = frames.findIndex((f, i) => i > index && trickEnd(f));
    index = next < 0 ? last : next;
  } else if (kind === "trick-back") {
    const before = frames.slice(0, index).findLastIndex(trickEnd);
    index = Math.max(before, 0);
  } else if (kind === "round") index = starts.find((s) => s > index) ?? index;
  else if (kind === "round-back") index = starts.filter((s) => s < index).pop() ?? 0;
  else if (kind === "start") index = 0;
  else if (kind === "end") index = last;
  render();
}

const KEYS = { ArrowRight: "card", ArrowLeft: "card-back", ArrowDown: "trick", ArrowUp: "trick-back",
  PageDown: "round", PageUp: "round-back", Home: "start", End: "end" };

document.addEventListener("keydown", (event) => {
  const kind = KEYS[event.key];
  if (!kind || !replay || event.target.closest("select, input")) return;
  event.preventDefault();
  move(kind);
});

document.querySelectorAll("[data-move]").forEach((button) => {
  button.addEventListener("click", () => move(button.dataset.move));
});

let touchX = null;
$("replay-table").addEventListener("touchstart", (event) => { touchX = event.touches[0].clientX; },
  { passive: true });
$("replay-table").addEventListener("touchend", (event) => {
  if (touchX === null) return;
  const dx = event.changedTouches[0].clientX - touchX;
  touchX = null;
  if (Math.abs(dx) > 40) move(dx < 0 ? "card" : "card-back");
});

$("round-select").addEventListener("change", (event) => {
  const wanted = replay.rounds.find((r) => String(r.round) === event.target.value);
  if (wanted) { index = wanted.frame; render(); }
});

// --------------------------------------------------------------------- loading
function showError(message) {
  $("replay-error").textContent = message;
}

// The controls work once a record is open.
function enableControls() {
  document.querySelectorAll("[data-move], #round-select, #analyze-button")
    .forEach((control) => { control.disabled = !replay; });
}
enableControls();

async function load(text, analyze = false) {
  showError("");
  try {
    JSON.parse(text);
  } catch (error) {
    showError(`This file is not a record: it is not JSON (${error.message}).`);
    return;
  }
  const answer = await fetch(`/api/replay${analyze ? "?analyze=1" : ""}`, { method: "POST", body: text,
    headers: { "Content-Type": "application/json" } });
  const data = await answer.json();
  if (!answer.ok) {
    showError(data.message || "The server refused this record.");
    return;
  }
  const keep = replay && analyze ? index : 0;
  replay = data;
  recordText = text;
  index = keep;
  marks = new Map((data.analysis?.decisions || []).map((d) => [d.frame, d]));
  $("replay-rules").textContent = `Rules: ${data.rules}`;
  $("round-select").replaceChildren(...data.rounds.map((r) => new Option(String(r.round), String(r.round))));
  showCostly(data.analysis);
  document.body.dataset.loaded = "true";
  enableControls();
  render();
}

function showCostly(analysis) {
  const list = $("costly");
  list.replaceChildren();
  list.hidden = !analysis;
  if (!analysis) return;
  const byIndex = new Map(analysis.decisions.map((d) => [d.index, d]));
  if (!analysis.costly.length) list.append(Object.assign(document.createElement("li"),
    { textContent: "Every decision was fine." }));
  analysis.costly.forEach((number) => {
    const decision = byIndex.get(number);
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Round ${decision.round}, ${nameOf(decision.seat)}: ${shownAction(decision.taken, decision.kind)} `
      + `(${decision.verdict || "fine"}, ${decision.loss.toFixed(1)})`;
    button.addEventListener("click", () => { index = decision.frame; render(); });
    item.append(button);
    list.append(item);
  });
}

$("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) await load(await file.text());
});

$("analyze-button").addEventListener("click", async () => {
  if (!recordText) { showError("Open a record first."); return; }
  const button = $("analyze-button");
  button.disabled = true;
  button.textContent = "Analysing…";
  await load(recordText, true);
  button.disabled = false;
  button.textContent = "Analyse";
});

const tableId = new URLSearchParams(location.search).get("table");
if (tableId) {
  fetch(`/api/tables/${encodeURIComponent(tableId)}/record`).then(async (answer) => {
    const text = await answer.text();
    if (!answer.ok) {
      let message = "it has no record to replay";
      try { message = JSON.parse(text).message || message; } catch { /* not JSON: keep ours */ }
      showError(`Cannot replay table ${tableId}: ${message}.`);
      return;
    }
    await load(text);
  });
}
