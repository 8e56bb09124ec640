// The table page: one websocket to the server, which sends this seat's view and nothing more.
// The page restates no rule: what it shows beyond the view (the hand this seat was dealt,
// where its pass goes, who is winning the trick, the last trick by seat, whether the game
// is over, what a moon is worth) comes in the server's `facts` and `table`.
// It draws a card table: the seats round an oval with this browser's seat at the bottom, the
// trick in the middle (each card toward the seat that played it), the hand fanned below, the
// pass as a tray, the score sheet and settings in a drawer. Movement is cosmetic (animate.js).
import { copyField } from "./copy.js";
import { centreOf, gather, slideIn } from "./animate.js";
import { isRed, pretty, spoken, suitWord } from "./cards.js";
import { verifyRound } from "./deal.js";
import { playerKey } from "./playerkey.js";
import { fourColour, moveMs, setFourColour, setSpeed, speed } from "./settings.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `hearts-token-${tableId}`;
let token = localStorage.getItem(tokenKey);
let socket = null;
let backoff = 500;
let seat = null;
let view = null;
let facts = null;
let stateId = -1;
let table = null;
let hintsAvailable = false;
let lastTrick = null;
let selected = new Set();
let pendingPass = null;
// the state a play was sent from: a second click before the table moves on is the same
// play again, which the server would refuse naming the card once it has been played
let playSentAt = null;
let requestSeq = 0;
// The last move by the up or down arrow between the hand's rows: {from, to} cards, step.
let rowMove = null;
// The join form's asking the table for its free seats now and then (a timer), and what
// its choice of seat shows: drawn again only when a seat changes, so that a choice being
// made is not redrawn under the person making it.
let seatsTimer = null;
let seatChoiceShown = "";
const entropyByRound = {};
const dealtByRound = {};
const checkedRounds = new Set();

function send(data) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
}

// A player's own move or request: while the connection is down it is said, not lost
// unsaid (the page reconnects by itself; the move is made again once it has).
function sendMove(data) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(data));
    return true;
  }
  $("error-text").textContent = "Not sent: the connection to the table is down. " +
    "It reconnects by itself; try again once the top of the page says connected.";
  return false;
}

function nameOf(s) {
  const info = table && table.seats[s];
  return info && info.name ? info.name : `Seat ${s + 1}`;
}

// A card's face as people see it: rank over suit symbol, coloured by suit.
function cardFace(name, tag = "span") {
  const el = document.createElement(tag);
  el.className = `card ${suitWord(name)}${isRed(name) ? " red" : ""}`;
  const rank = document.createElement("span");
  const text = pretty(name);
  rank.textContent = text.slice(0, -1);
  // "10", two figures, narrowed to the width the next card of a fanned hand leaves
  rank.className = rank.textContent.length > 1 ? "rank two-figures" : "rank";
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = text.slice(-1);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = suit.textContent;
  el.append(rank, suit, pip);
  if (tag === "span") el.setAttribute("aria-hidden", "true");
  return el;
}

// A card the page names: it carries its name for reading and its words for screen readers.
function cardElement(name, tag = "span") {
  const el = cardFace(name, tag);
  el.dataset.card = name;
  if (tag === "span") {
    el.removeAttribute("aria-hidden");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", spoken(name));
  }
  return el;
}

// ----------------------------------------------------------------- connection
function setConnection(text) { $("connection").textContent = text; }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    backoff = 500;
    setConnection(token ? "connected" : "connected (watching)");
    if ($("error-text").textContent.startsWith("Not sent:")) $("error-text").textContent = "";
    send({ type: "hello", token });
  });
  socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setConnection("disconnected: reconnecting…");
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
}

function sendEntropy(round) {
  if (seat === null || entropyByRound[round]) return;
  // kept only once sent: a round whose entropy went nowhere sends it on the welcome after
  // reconnecting, which names the round again
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  entropyByRound[round] = value;
  send({ type: "entropy", value });
}

// ----------------------------------------------------------------- messages
function handle(message) {
  switch (message.type) {
    case "welcome":
      seat = message.seat;
      playSentAt = null;  // a new connection: a play sent on the old one may never have arrived
      hintsAvailable = message.hints;
      table = message.table;
      if (token && seat === null) {
        // A token this table refuses (an older server's, say): forget it, offer a free seat.
        setConnection("connected (watching: this browser's seat token was not accepted)");
        token = null;
        localStorage.removeItem(tokenKey);
        offerSeat(table);
      }
      applyState(message);
      if (view.phase === "deal" && view.results.length) showRoundEnd(view.results[view.results.length - 1]);
      for (const fair of message.fairness) {
        if (fair.server_seed) checkReveal(fair);
        else if (view.phase === "deal" && fair.round === view.round) {
          $("fairness-commitment").textContent = fair.commitment;
          sendEntropy(fair.round);
        }
      }
      break;
    case "state":
      table = message.table;
      applyState(message);
      for (const event of message.events || []) onEvent(event);
      break;
    case "table":
      table = message.table;
      render();
      break;
    case "commit":
      $("fairness-commitment").textContent = message.commitment;
      sendEntropy(message.round);
      break;
    case "reveal":
      checkReveal(message);
      break;
    case "ack":
      if (pendingPass && message.id === pendingPass.id) pendingPass = null;
      break;
    case "hint":
      showHint(message.hint);
      break;
    case "error":
      onError(message);
      break;
    default:
      break;
  }
}

function onError(message) {
  if (["entropy_taken", "no_commitment"].includes(message.code)) return;
  // a refused seat token: the welcome says so at the top and offers a free seat
  if (message.code === "bad_token") return;
  if (message.code === "stale_state" && pendingPass && !pendingPass.retried) {
    // Passing is simultaneous: another seat's pass changed the state id, not our cards.
    pendingPass.retried = true;
    pendingPass.state_id = message.state_id;
    send(pendingPass);
    return;
  }
  playSentAt = null;  // the play was refused: the person may choose again
  $("error-text").textContent = message.message;
}

function onEvent(event) {
  if (event.kind === "trick") {
    showTrickTaken();
  } else if (event.kind === "round_end" && !facts.over) {
    // the last round's line shows under the game's end (render), not in place of it
    showRoundEnd(event);
  }
}

// What a finished round did: its number, this seat's points, a moon.
function roundLine(result) {
  const mine = seat === null ? "" : ` You took ${result.points[seat]}.`;
  const moon = result.shooter === null ? "" : ` ${nameOf(result.shooter)} shot the moon!`;
  return `Round ${result.round} is over.${mine}${moon}`;
}

// A finished round's line (a round_end event or the view's last result); it stays open
// into the next round until closed.
function showRoundEnd(result) {
  $("round-end").hidden = false;
  $("round-end-title").textContent = roundLine(result);
}

function applyState(message) {
  stateId = message.state_id;
  // a new trick begun: the last trick's box gives the middle of the table back to it
  const newTrick = Boolean(view) && message.view.trick.length === 1 && view.trick.length !== 1;
  view = message.view;
  facts = message.facts;
  if (view.phase !== "pass") selected = new Set();
  for (const card of selected) if (!view.hand.includes(card)) selected.delete(card);
  // What this browser was shown of its deal, kept to check against the revealed seed.
  if (facts.dealt) dealtByRound[view.round] = facts.dealt;
  // The last trick stays on show after the next deal, until a trick of the new round.
  if (facts.last_trick) lastTrick = facts.last_trick;
  if (newTrick) toggleLastTrick(false);
  render();
}

async function checkReveal(reveal) {
  if (checkedRounds.has(reveal.round) || !table) return;
  checkedRounds.add(reveal.round);
  let result;
  if (!globalThis.crypto || !crypto.subtle) {
    // Browsers offer SHA-256 only on https or localhost pages: the deal is not checked
    // here, which is not a failed check (a player would read "FAILED" as a rigged deal).
    result = { ok: null, reason: "this browser checks deals only on an https (or localhost) page; check the downloaded record with `hearts verify`" };
  } else {
    result = await verifyRound(reveal, {
      removed: table.removed, players: table.players, seat,
      dealt: dealtByRound[reveal.round], entropy: entropyByRound[reveal.round],
    });
  }
  const item = document.createElement("li");
  item.dataset.testid = `fairness-result-${reveal.round}`;
  item.dataset.ok = String(result.ok);
  const verdict = result.ok === null ? "not checked" : result.ok ? "verified" : "FAILED";
  item.className = result.ok === null ? "unchecked" : result.ok ? "ok" : "fail";
  item.textContent = `Round ${reveal.round}: ${verdict}: ${result.reason}`;
  $("fairness-results").append(item);
}

// What a moon choice does, with what a moon is worth under this table's rules.
function moonWords(choice) {
  return choice === "add" ? `Add ${table.moon_points} to everyone else`
    : `Take ${table.moon_points} off my score`;
}

// A hint's move in words, as the terminal writes it: "play Q♠", "pass Q♠ A♥ K♥".
function hintMove(hint) {
  if (hint.kind === "moon") return moonWords(hint.choice).toLowerCase();
  return `${hint.kind} ${hint.cards.map(pretty).join(" ")}`;
}

function showHint(hint) {
  $("hint-text").textContent = `Hint: ${hintMove(hint)}. ${hint.text}`;
  // The search's own figures for every move it weighed, a table shown on demand.
  showFigures(hint.figures, hint.chances);
  $("hint-figures-button").hidden = !hint.figures.length;
  showHintDetails(false);
  $("hint-panel").scrollTop = 0;
  for (const button of $("hand").querySelectorAll("button.card")) {
    button.dataset.hinted = String(hint.cards.includes(button.dataset.card));
  }
}

// The chances a figures table may show, as the protocol names them; the hint names those
// worth a column (hints.shown_chances: 1% or more for some move, losing the game also
// whenever the game ends in 1% or more of the deals).
const CHANCES = [["Q♠", "queen"], ["your moon", "moon_mine"], ["others' moon", "moon_against"],
  ["game lost", "game_lost"]];

function showFigures(figures, shown) {
  const box = $("hint-details");
  box.replaceChildren();
  if (!figures.length) return;
  // the server names the chances worth a column (hints.shown_chances)
  const chances = CHANCES.filter(([, key]) => shown.includes(key));
  const grid = document.createElement("table");
  grid.createCaption().textContent =
    `The search's figures over the same ${figures[0].worlds.toLocaleString("en")} deals, hint first`;
  const columns = ["Move", "Value", "Points", ...chances.map(([name]) => name)];
  const foot = grid.createTFoot().insertRow().insertCell();
  foot.colSpan = columns.length;
  const note = document.createElement("div");  // as wide as the columns, no wider
  note.textContent = "Value: the others' average points this round minus yours, plus what "
    + "the round does to your chance of winning the game. Points: the points you take this "
    + "round, on average."
    + (figures.some((f) => f.alike.length) ? " (= …): cards that play alike, weighed as one." : "");
  foot.append(note);
  const head = grid.createTHead().insertRow();
  for (const name of columns) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = name;
    head.append(cell);
  }
  const body = grid.createTBody();
  for (const f of figures) {
    const row = body.insertRow();
    const move = document.createElement("th");
    move.scope = "row";
    move.textContent = f.cards.map(pretty).join(" ")  // in the hint line's order
      + (f.alike.length ? ` (= ${f.alike.map(pretty).join(" ")})` : "");
    row.append(move);
    const value = `${f.utility >= 0 ? "+" : "−"}${Math.abs(f.utility).toFixed(1)}`;
    for (const text of [value, f.points.toFixed(1),
      ...chances.map(([, key]) => `${Math.round(100 * f[key])}%`)]) {
      row.insertCell().textContent = text;
    }
  }
  box.append(grid);
}

function showHintDetails(shown) {
  const panel = $("hint-panel");
  $("hint-details").hidden = !shown;
  $("hint-figures-button").setAttribute("aria-expanded", String(shown));
  fitHint();
  // the figures asked for come into view in the panel, where it scrolls
  if (shown) {
    panel.scrollTop += $("hint-details").getBoundingClientRect().top
      - panel.getBoundingClientRect().top;
  }
}

// A line of the hint's text, and the least of the panel that is kept: two lines.
const LINE_PX = 16;
const HINT_LEAST_PX = 2 * LINE_PX;

// The hint and its figures scroll together in a few lines' height (style.css), and give
// the table back its room: while the pass tray meets this player's seat the panel is held
// a line shorter, down to two lines. (A hint with figures once left a phone's table so
// short that the tray covered the player's own seat.) Where it scrolls, the keys reach it.
function fitHint() {
  const panel = $("hint-panel");
  const scrolled = panel.scrollTop;  // kept while the panel is measured again
  panel.style.maxHeight = "";
  const mine = $("seats").querySelector("[data-me='true']");
  if (mine && !$("pass-panel").hidden) {
    let height = panel.clientHeight;
    while (height > HINT_LEAST_PX && overlapping(mine, $("pass-panel"))) {
      height = Math.max(HINT_LEAST_PX, height - LINE_PX);
      panel.style.maxHeight = `${height}px`;
    }
  }
  panel.scrollTop = scrolled;
  if (panel.scrollHeight > panel.clientHeight) panel.tabIndex = 0;
  else panel.removeAttribute("tabindex");
}

function overlapping(one, other) {
  const a = one.getBoundingClientRect();
  const b = other.getBoundingClientRect();
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// ----------------------------------------------------------------- actions
function myTurn() { return Boolean(facts && facts.my_turn); }

function activateCard(card) {
  if (!myTurn()) return;
  $("error-text").textContent = "";
  if (view.phase === "pass") {
    if (selected.has(card)) selected.delete(card);
    else if (selected.size < view.pass_count) selected.add(card);
    render();
  } else if (view.phase === "play" && view.legal.includes(card) && playSentAt !== stateId) {
    if (sendMove({ type: "play", card, state_id: stateId, id: ++requestSeq })) playSentAt = stateId;
  }
}

function passSelected() {
  if (!myTurn() || view.phase !== "pass" || selected.size !== view.pass_count) return;
  const pass = { type: "pass", cards: [...selected], state_id: stateId, id: ++requestSeq };
  if (sendMove(pass)) pendingPass = pass;
}

function onHandKey(event) {
  const buttons = [...$("hand").querySelectorAll("button.card")];
  const index = buttons.indexOf(document.activeElement);
  const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  const rows = buttons.some((button) => handRow(button) > 1);
  if (rows && index >= 0 && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    const from = buttons[index];
    const step = event.key === "ArrowDown" ? 1 : -1;
    // the opposite key goes back where the last move between rows came from
    const back = rowMove && rowMove.to === from.dataset.card && rowMove.step === -step
      ? buttons.find((button) => button.dataset.card === rowMove.from) : null;
    const next = back || nearestInRow(buttons, from, step);
    if (next) {
      rowMove = { from: from.dataset.card, to: next.dataset.card, step };
      moveHandFocus(buttons, next);
    }
    event.preventDefault();
  } else if (event.key in steps) {
    const next = buttons[(Math.max(index, 0) + steps[event.key] + buttons.length) % buttons.length];
    if (next) moveHandFocus(buttons, next);
    event.preventDefault();
  } else if (event.key === "Home" || event.key === "End") {
    moveHandFocus(buttons, event.key === "Home" ? buttons[0] : buttons[buttons.length - 1]);
    event.preventDefault();
  } else if (/^[1-9]$/.test(event.key)) {
    const legal = buttons.filter((b) => b.dataset.legal === "true");
    const chosen = legal[Number(event.key) - 1];
    if (chosen) { moveHandFocus(buttons, chosen); activateCard(chosen.dataset.card); }
  }
}

// A card's row and its first column in the hand's grid (fanHand), from 1.
function handRow(button) { return Number(button.style.gridRowStart) || 1; }
function handColumn(button) { return Number(button.style.gridColumnStart) || 1; }

// The card of the row below (step 1) or above (-1) nearest to `from`, or null at the bottom
// or top row. A row a card short sits half a card along: of the two as near, the right one.
function nearestInRow(buttons, from, step) {
  let best = null;
  let distance = Infinity;
  for (const button of buttons) {
    if (handRow(button) !== handRow(from) + step) continue;
    const along = handColumn(button) - handColumn(from);
    const away = Math.abs(along) - (along > 0 ? 0.1 : 0);
    if (away < distance) [best, distance] = [button, away];
  }
  return best;
}

// The focused card becomes the hand's one place in the tab order.
function moveHandFocus(buttons, target) {
  for (const button of buttons) button.tabIndex = button === target ? 0 : -1;
  target.focus();
}

function onPageKey(event) {
  if (["INPUT", "SELECT"].includes(event.target.tagName)) return;
  if (event.key === "h" && hintsAvailable && myTurn()) sendMove({ type: "hint", id: ++requestSeq });
  else if (event.key === "l" && lastTrick) toggleLastTrick();
  else if (event.key === "Escape") { toggleDrawer(false); toggleLastTrick(false); }
}

function toggleDrawer(show = $("drawer").hidden) {
  const wasOpen = !$("drawer").hidden;
  $("drawer").hidden = !show;
  $("drawer-button").setAttribute("aria-expanded", String(show));
  if (show) $("drawer-close").focus();
  else if (wasOpen) $("drawer-button").focus();
}

// While the drawer is open, Tab goes round inside it, as in a dialog: it covers the table
// (the whole width of a phone), and the focus once went on behind it to the header.
function keepTabInDrawer(event) {
  if (event.key !== "Tab") return;
  const stops = [...$("drawer").querySelectorAll("button, a[href], input, select, textarea")]
    .filter((el) => !el.disabled && el.getClientRects().length > 0);
  if (!stops.length) return;
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    last.focus();
    event.preventDefault();
  } else if (!event.shiftKey && document.activeElement === last) {
    first.focus();
    event.preventDefault();
  }
}

function startSettings() {
  $("setting-speed").value = speed();
  $("setting-speed").addEventListener("change", (event) => setSpeed(event.target.value));
  $("setting-four-colour").checked = fourColour();
  $("setting-four-colour").addEventListener("change", (event) => {
    setFourColour(event.target.checked);
    document.body.classList.toggle("four-colour", event.target.checked);
  });
  document.body.classList.toggle("four-colour", fourColour());
}

// ----------------------------------------------------------------- rendering
function render() {
  if (!table || !view) return;
  showHeader(table);
  const inviting = !table.started;
  // while this browser's person chooses a seat, the join form has the table's middle alone
  $("invite-panel").hidden = !$("join-panel").hidden
    || !(inviting || table.seats.some((s) => !s.taken));
  $("invite-link").value = `${location.origin}/t/${tableId}`;
  // the server says who may start now (its creator, or anyone while the creator is away)
  $("start-now").hidden = !(inviting && seat !== null && table.may_start.includes(seat));
  $("fairness-challenge").hidden = !table.challenge;
  if (!$("join-panel").hidden) seatsChanged(table);
  document.body.classList.toggle("four-colour", fourColour());
  renderStatus();
  renderSeats();
  renderTrick();
  renderLastTrick();
  renderHand();
  renderTray();
  fitHint();
  renderSheet();
  if (facts.over) {
    $("round-end").hidden = false;
    $("round-end-title").textContent = "The game is over.";
    $("last-round").textContent = roundLine(view.results[view.results.length - 1]);
    $("last-round").hidden = false;
    const totals = view.totals.map((total, s) => `${nameOf(s)} ${total}`).join(" · ");
    $("winners").textContent = `Winner${view.winners.length > 1 ? "s" : ""}: ${view.winners.map(nameOf).join(", ")}.`;
    $("final-totals").textContent = `Totals: ${totals}.`;
    const link = $("download-record");
    link.href = `/api/tables/${encodeURIComponent(tableId)}/record`;
    link.hidden = false;
    $("replay-link").href = `/replay?table=${encodeURIComponent(tableId)}`;
    $("replay-link").hidden = false;
    if (table.challenge) {
      $("challenge-link").href = `/c/${encodeURIComponent(table.challenge)}`;
      $("challenge-link").hidden = false;
    }
    $("my-games-link").hidden = false;
  }
  document.body.dataset.stateId = String(stateId);
  document.body.dataset.phase = view.phase;
}

function renderStatus() {
  let text;
  const finished = view.results.length ? `Round ${view.results[view.results.length - 1].round} is over. ` : "";
  if (!table.started) {
    text = "Waiting for players to take their seats…";
    if (seat !== null && !table.may_start.includes(seat)) {
      text += ` ${nameOf(0)}, who made this table, can start it with computers.`;
    }
  }
  else if (facts.over) text = "The game is over.";
  else if (view.phase === "deal") text = `${finished}Shuffling round ${view.round}…`;
  else if (myTurn() && view.phase === "pass") text = `Your turn: choose ${view.pass_count} cards to pass ${view.pass_direction} to ${nameOf(facts.pass_target)}.`;
  else if (myTurn() && view.phase === "play") text = "Your turn: play a card.";
  else if (myTurn() && view.phase === "moon") text = "You shot the moon: choose how it scores.";
  else if (view.phase === "pass") text = "Waiting for the others to choose their passes…";
  else text = `Waiting for ${view.to_act.map(nameOf).join(", ")}…`;
  $("status").textContent = text;
  document.body.dataset.myTurn = String(myTurn());
}

// Where seat `s` sits round the oval as the person in seat `me` sees it (this browser's
// seat; a spectator sees from seat 1's), x and y from -1 to 1: `me` at the bottom, the next
// seats going round to its left (clockwise, as the play goes). The table draws each seat
// there, and the join form says by it where a seat's neighbours would sit.
function seatSpot(s, me = seat === null ? 0 : seat, count = table.seats.length) {
  const angle = (((s - me + count) % count) / count) * 2 * Math.PI;
  return { x: -Math.sin(angle), y: Math.cos(angle) };
}

// A spot round the table (seatSpot) in the words of the person at the bottom.
function placeWords(spot) {
  if (Math.abs(spot.x) < 1e-9) return "across";
  return spot.x < 0 ? "on your left" : "on your right";
}

// How far from the middle the seats sit, in percent of the table's width and height.
const SEAT_REACH_X = 44;
const SEAT_REACH_Y = 42;

function placeAt(element, spot, reachX, reachY) {
  element.style.setProperty("--x", `${50 + reachX * spot.x}%`);
  element.style.setProperty("--y", `${50 + reachY * spot.y}%`);
  element.style.setProperty("--dy", spot.y.toFixed(3));
}

// A trick's card lies between the centre and the seat that played it (the style sets how far).
function placeInTrick(element, s) {
  const spot = seatSpot(s);
  element.style.setProperty("--sx", spot.x.toFixed(3));
  element.style.setProperty("--sy", spot.y.toFixed(3));
}

function renderSeats() {
  const box = $("seats");
  box.replaceChildren();
  table.seats.forEach((info, s) => {
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.testid = `seat-${s}`;
    el.dataset.seat = String(s);
    el.dataset.toAct = String(view.to_act.includes(s));
    el.dataset.me = String(s === seat);
    const spot = seatSpot(s);
    placeAt(el, spot, SEAT_REACH_X, SEAT_REACH_Y);
    el.dataset.wide = String(Math.abs(spot.x) < 0.5);  // at the top or the bottom
    const who = info.name || "(free seat)";
    const state = info.kind !== "human" ? "computer" : info.away ? "away: a computer stands in"
      : info.connected ? "here" : info.taken ? "disconnected" : "free";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = `${who}${s === seat ? " (you)" : ""}`;
    const kind = document.createElement("div");
    kind.className = "kind";
    kind.textContent = state;
    const numbers = document.createElement("div");
    numbers.className = "numbers";
    numbers.textContent = `cards ${view.hand_sizes[s]} · taken ${view.points_taken[s]} · total ${view.totals[s]}`;
    const acting = view.to_act.includes(s) ? ", to act" : "";
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", `Seat ${s + 1}: ${name.textContent}, ${state}, ${numbers.textContent}${acting}`);
    el.append(name, kind, numbers);
    box.append(el);
  });
  // The pass tray keeps between the side seats level with it (the middle half of the
  // table's height), which at 3 or 6 seats sit nearer the middle than the table's edge.
  const level = table.seats.map((_, s) => seatSpot(s))
    .filter((spot) => Math.abs(spot.x) >= 0.5 && Math.abs(spot.y) <= 0.5 + 1e-9);
  const reach = SEAT_REACH_X * Math.min(1, ...level.map((spot) => Math.abs(spot.x)));
  $("felt").style.setProperty("--side-reach", `${reach}%`);
  keepOverlaysClear();
}

// The invitation and the join form keep between the seats above and below them, as the
// style keeps them between the side seats: on a phone, the join form that a refused seat
// token shows over the table it watches once covered the seats at the top and the bottom.
function keepOverlaysClear() {
  const felt = $("felt");
  const shown = [...felt.querySelectorAll(".overlay")].filter((panel) => !panel.hidden)
    .map((panel) => panel.getBoundingClientRect());
  if (!shown.length) return;
  const left = Math.min(...shown.map((box) => box.left));
  const right = Math.max(...shown.map((box) => box.right));
  const top = felt.getBoundingClientRect().top + felt.clientTop;
  const bottom = top + felt.clientHeight;
  let above = 0;
  let below = 0;
  for (const place of $("seats").children) {
    const box = place.getBoundingClientRect();
    if (box.right <= left || box.left >= right) continue;  // beside the panels
    if (box.top + box.height / 2 < (top + bottom) / 2) above = Math.max(above, box.bottom - top);
    else below = Math.max(below, bottom - box.top);
  }
  felt.style.setProperty("--clear-above", `${Math.ceil(above)}px`);
  felt.style.setProperty("--clear-below", `${Math.ceil(below)}px`);
}

function renderTrick() {
  const box = $("trick");
  const before = new Map([...box.querySelectorAll("[data-card]")].map((el) => [el.dataset.card, el]));
  box.replaceChildren();
  // The pass tray takes the middle of the table; the round's last trick is under "Last trick".
  if (view.phase === "pass") return;
  const winning = facts.winning ? facts.winning[0] : null;
  for (const [s, card] of view.trick) {
    const slot = document.createElement("div");
    slot.className = "slot";
    slot.dataset.testid = `trick-slot-${s}`;
    slot.dataset.winning = String(s === winning);
    slot.dataset.card = card;
    placeInTrick(slot, s);
    const who = document.createElement("span");
    who.className = "sr-only";
    who.textContent = s === winning ? `${nameOf(s)} (winning):` : `${nameOf(s)}:`;
    slot.append(who, cardElement(card));
    if (s === winning) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = "winning";
      slot.append(badge);
    }
    box.append(slot);
    if (!before.has(card)) slideIn(slot, playedFrom(s, card));
  }
}

// Where a card just played came from: this seat's own card from its hand, another's from
// their place at the table.
function playedFrom(s, card) {
  const inHand = $("hand").querySelector(`[data-card="${card}"]`);
  if (s === seat && inHand) return centreOf(inHand);
  const place = $("seats").querySelector(`[data-seat="${s}"]`);
  return centreOf(place || $("trick"));
}

// A trick just taken: its cards, copied where they lay, gather toward the seat that took it.
function showTrickTaken() {
  if (!lastTrick || !moveMs()) return;
  const layer = $("fly-layer");
  const taker = $("seats").querySelector(`[data-seat="${lastTrick.winner}"]`);
  if (!taker) return;
  const copies = lastTrick.plays.map(([s, card]) => {
    const copy = document.createElement("div");
    copy.className = "slot";
    placeInTrick(copy, s);
    copy.append(cardFace(card));
    return copy;
  });
  gather(layer, copies, centreOf(taker));
}

function renderLastTrick() {
  const last = $("last-trick");
  last.replaceChildren();
  $("last-trick-button").disabled = !lastTrick;
  if (!lastTrick) return;
  for (const [s, card] of lastTrick.plays) {
    const item = document.createElement("span");
    item.className = "played-by";
    const el = cardElement(card);
    el.dataset.testid = `last-trick-card-${card}`;
    el.dataset.seat = String(s);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = nameOf(s);
    item.append(el, who);
    last.append(item);
  }
  const note = document.createElement("span");
  note.dataset.testid = "last-trick-winner";
  note.className = "taken-by";
  note.textContent = ` taken by ${nameOf(lastTrick.winner)}`;
  last.append(note);
}

function toggleLastTrick(show = $("last-trick-box").hidden) {
  // closed with the focus inside it (its Close button): the focus goes back to its button
  if (!show && $("last-trick-box").contains(document.activeElement)) $("last-trick-button").focus();
  $("last-trick-box").hidden = !show;
  $("last-trick-button").setAttribute("aria-expanded", String(show));
}

// A finger's width (the usual 44 px touch target): the least of a card a hand shows.
const TOUCH_PX = 44;
// The most of the window's height the hand's rows may take.
const HAND_SHARE = 0.35;

// The hand overlaps its cards just enough to fit its rows across the screen, in as few rows
// as leave every card a finger's width: a phone's 13 cards in one row showed 25 px each.
// The columns are half a card wide, so that a row a card short sits centred under the other.
function fanHand(hand) {
  const cards = [...hand.children];
  if (!cards.length) return;
  // Measured in one column: cards in the columns of the hand before could reach past the
  // screen's edge meanwhile, and a phone's browser then widens the page.
  hand.style.gridTemplateColumns = "";
  for (const card of cards) card.style.gridArea = "";
  const width = cards[0].offsetWidth;
  const shown = (perRow) => (perRow < 2 ? width
    : Math.min(width, (hand.clientWidth - width) / (perRow - 1)));
  const screenHeight = document.documentElement.clientHeight;
  const mostRows = Math.max(1, Math.floor((screenHeight * HAND_SHARE) / cards[0].offsetHeight));
  let rows = 1;
  while (rows < mostRows && shown(Math.ceil(cards.length / rows)) < Math.min(TOUCH_PX, width)) {
    rows += 1;
  }
  const perRow = Math.ceil(cards.length / rows);
  if (perRow < 2) return;  // one card: the one column it was measured in
  const half = "calc(var(--card-w) / 2)";
  hand.style.gridTemplateColumns = `repeat(${2 * perRow - 2}, minmax(0, ${half})) ${half} ${half}`;
  cards.forEach((card, index) => {
    const row = Math.floor(index / perRow);
    const inRow = Math.min(perRow, cards.length - row * perRow);
    card.style.gridRow = String(row + 1);
    card.style.gridColumn = `${perRow - inRow + 2 * (index - row * perRow) + 1} / span 2`;
  });
}

function renderHand() {
  const hand = $("hand");
  const active = document.activeElement;
  const focused = active && active.dataset.card;
  // A card just played by keys (or a pass just sent from its button) leaves the hand: the
  // focus goes on to the card that now has its place, not to the page, where keys do
  // nothing. After a click or a tap it does not: an unseen focus would let a stray Space
  // play a card nobody chose.
  const byKeys = Boolean(active) && active.matches(":focus-visible");
  const before = [...hand.children].map((el) => el.dataset.card);
  const passing = view.phase === "pass" && myTurn();
  const keepFocus = byKeys && (Boolean(focused) || (active.id === "pass-submit" && !passing));
  const place = focused ? Math.max(before.indexOf(focused), 0) : 0;
  hand.replaceChildren();
  const received = new Set(view.received || []);
  const playable = view.hand.filter((card) => view.legal.includes(card) && myTurn());
  // One card of the hand is in the tab order; the arrow keys move along the rest.
  const tabStop = view.hand.includes(focused) ? focused
    : keepFocus && view.hand.length ? view.hand[Math.min(place, view.hand.length - 1)]
      : playable[0] || view.hand[0];
  for (const card of view.hand) {
    const button = cardElement(card, "button");
    button.type = "button";
    button.dataset.testid = `card-${card}`;
    const legal = playable.includes(card);
    button.dataset.legal = String(legal);
    button.dataset.received = String(received.has(card));
    button.tabIndex = card === tabStop ? 0 : -1;
    const note = passing ? (selected.has(card) ? "selected to pass" : "can pass")
      : legal ? "playable" : "not playable now";
    button.setAttribute("aria-label", `${spoken(card)}, ${note}${received.has(card) ? ", received" : ""}`);
    if (passing) button.setAttribute("aria-pressed", String(selected.has(card)));
    button.addEventListener("click", () => activateCard(card));
    hand.append(button);
    if (card === focused || (keepFocus && card === tabStop)) button.focus();
  }
  fanHand(hand);
  // The pass's line stays until the first trick is taken; the received cards stay marked.
  const got = $("received");
  const showPass = Boolean(view.received) && view.tricks.length === 0;
  got.hidden = !showPass;
  got.replaceChildren();
  if (showPass) {
    got.append(`You passed ${view.passed.map(pretty).join(" ")} to ${nameOf(facts.pass_target)} and got from ${nameOf(facts.pass_source)}:`);
    for (const card of view.received) {
      const el = cardElement(card);
      el.dataset.testid = `received-card-${card}`;
      el.className += " mini";
      got.append(el);
    }
  }
  $("moon-panel").hidden = !(view.phase === "moon" && myTurn());
  $("moon-subtract").textContent = moonWords("subtract");
  $("moon-add").textContent = moonWords("add");
  $("hint-button").hidden = !(hintsAvailable && myTurn());
  if (!myTurn()) {
    $("hint-text").textContent = "";
    $("hint-figures-button").hidden = true;
    showHintDetails(false);
  }
}

// The pass tray in the middle of the table: the chosen cards, the empty places still to
// fill, and an arrow toward the seat the cards go to.
function renderTray() {
  const passing = view.phase === "pass" && myTurn();
  $("pass-panel").hidden = !passing;
  $("pass-submit").hidden = !passing;
  $("pass-submit").disabled = selected.size !== view.pass_count;
  $("pass-count").textContent = view.pass_count;
  $("pass-direction").textContent = view.pass_direction;
  $("pass-target").textContent = facts.pass_target === null ? "" : `to ${nameOf(facts.pass_target)}`;
  const slots = $("tray-slots");
  slots.replaceChildren();
  if (!passing) return;
  for (const card of selected) slots.append(cardElement(card));
  for (let free = selected.size; free < view.pass_count; free += 1) {
    const place = document.createElement("span");
    place.className = "card empty";
    place.setAttribute("aria-hidden", "true");
    slots.append(place);
  }
  if (facts.pass_target !== null) {
    const to = seatSpot(facts.pass_target);
    $("pass-arrow").style.transform = `rotate(${Math.atan2(to.y, to.x)}rad)`;
  }
}

function renderSheet() {
  const sheet = $("score-sheet");
  sheet.replaceChildren();
  const head = document.createElement("tr");
  for (const text of ["Round", ...table.seats.map((_, s) => nameOf(s))]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  sheet.append(head);
  for (const result of view.results) {
    const row = document.createElement("tr");
    row.dataset.testid = `sheet-row-${result.round}`;
    const number = document.createElement("td");
    number.textContent = `${result.round}.`;
    row.append(number);
    result.points.forEach((points, s) => {
      const cell = document.createElement("td");
      cell.dataset.testid = `sheet-cell-${result.round}-${s}`;
      const moon = result.shooter === s ? " (moon)" : "";
      cell.textContent = `${points >= 0 ? "+" : ""}${points} = ${result.totals[s]}${moon}`;
      row.append(cell);
    });
    sheet.append(row);
  }
}

// ----------------------------------------------------------------- start
function showHeader(info) {
  document.title = `${info.title} — Card Commons Hearts`;
  $("title").textContent = info.title;
  $("rules").textContent = info.rules;
  $("howto").href = `/how-to-play/${info.preset}`;
}

function offerSeat(info) {
  if (!showSeatChoice(info)) return;
  $("join-name").value = $("join-name").value || localStorage.getItem("hearts-name") || "";
  $("join-panel").hidden = false;
  // nothing connects until the person joins or watches (a refused token's socket tells
  // the page of every seat taken, render); until then the page asks now and then
  if (!socket) {
    setConnection("not joined yet");
    followSeats(true);
  }
}

// How often the open join form asks the table which seats are free.
const SEATS_ASKED_MS = 2000;

function followSeats(on) {
  clearInterval(seatsTimer);
  seatsTimer = on ? setInterval(askSeats, SEATS_ASKED_MS) : null;
}

async function askSeats() {
  let info;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    if (!response.ok) return;
    info = await response.json();
  } catch {
    return;  // asked again in a moment
  }
  if (!$("join-panel").hidden) seatsChanged(info);
}

// Seats taken (or freed) while the join form is open: the choice shows those free now.
function seatsChanged(info) {
  const offered = !$("join-seats").hidden;
  if (showSeatChoice(info) || !offered) return;
  $("join-error").textContent = "The last free seat was taken after this page opened.";
  // the focus was on a seat or the button that went with it
  if (document.activeElement === document.body) $("watch-only").focus();
}

// Who sits in a seat, as the join form names a neighbour: [words, a person sits there].
function sitter(info, s) {
  const other = info.seats[s];
  if (other.kind !== "human") return [`Computer (${other.kind})`, false];
  return other.taken ? [other.name, true] : [`Seat ${s + 1} (free)`, false];
}

// Who would sit round seat `s`, where the table would draw them for its taker: the next
// seat going round (on the left, where play goes and the first pass goes), the seat across
// (at an even count) and the last one going round (on the right). Each is [words, a person
// sits there, where].
function seatPlace(info, s) {
  const count = info.seats.length;
  const others = Array.from({ length: count - 1 }, (_, i) => (s + 1 + i) % count);
  return others.map((other) => [other, placeWords(seatSpot(other, s, count))])
    .filter(([, where], i) => i === 0 || i === others.length - 1 || where === "across")
    .map(([other, where]) => [...sitter(info, other), where]);
}

// The join form's choice of seat: a radio button for each free seat with its place, the
// one chosen before kept while it is free, else the first. Returns how many seats are free.
function showSeatChoice(info) {
  const free = info.free;  // the seats a person may take, as the server says
  const shown = JSON.stringify([free, info.seats.map((s) => [s.kind, s.name])]);
  if (shown === seatChoiceShown) return free.length;
  seatChoiceShown = shown;
  const before = chosenSeat();
  const keep = free.includes(before) ? before : free[0];
  const list = $("join-seat-list");
  const focused = list.contains(document.activeElement);
  list.replaceChildren();
  for (const s of free) {
    const option = document.createElement("label");
    option.className = "seat-option";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "join-seat";
    input.value = String(s);
    input.dataset.testid = `join-seat-${s}`;
    input.checked = s === keep;
    input.addEventListener("change", nameJoinButton);
    const title = document.createElement("strong");
    title.textContent = `Seat ${s + 1}`;
    const place = document.createElement("span");
    place.className = "place";
    place.dataset.testid = `join-seat-place-${s}`;
    const lines = seatPlace(info, s).map(([who, person, where]) => {
      const line = document.createElement("span");
      const name = document.createElement(person ? "strong" : "span");
      name.textContent = who;
      line.append(name, ` ${where}`);
      place.append(line);
      return line.textContent;
    });
    // read out as one sentence (the box shows a line for each neighbour)
    input.setAttribute("aria-label", `${title.textContent}: ${lines.join(", ")}`);
    option.append(input, title, place);
    list.append(option);
    if (focused && input.checked) input.focus();
  }
  // with no seat left the form only offers to watch
  $("join-seats").hidden = !free.length;
  $("join-submit").hidden = !free.length;
  $("join-name").closest("label").hidden = !free.length;
  nameJoinButton();
  return free.length;
}

function chosenSeat() {
  const chosen = document.querySelector("input[name='join-seat']:checked");
  return chosen ? Number(chosen.value) : null;
}

function nameJoinButton() {
  const s = chosenSeat();
  $("join-submit").textContent = s === null ? "Take a seat" : `Take seat ${s + 1}`;
}

// The server refused the seat (someone took it after this page asked): say so in the
// server's words (a sentence, as it sends it) and show the seats free now.
async function seatRefused(said) {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) {
    $("join-error").textContent = said;
    return;
  }
  const info = await response.json();
  if (showSeatChoice(info)) {
    $("join-error").textContent = `${said} It was taken after this page opened: choose `
      + "one of the seats free now.";
    document.querySelector("input[name='join-seat']:checked").focus();
  } else {
    $("join-error").textContent = `${said} The last free seat was taken after this page `
      + "opened.";
    $("watch-only").focus();
  }
}

async function joinTable(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  const wanted = { name, player_key: playerKey() };
  const s = chosenSeat();
  if (s !== null) wanted.seat = s;
  $("join-submit").disabled = true;  // one request at a time: a double tap takes one seat
  $("join-error").textContent = "";
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(wanted),
    });
    const data = await response.json();
    if (!response.ok) {
      if (data.error === "no_seat") await seatRefused(data.message);
      else $("join-error").textContent = data.message;
      return;
    }
    token = data.token;
  } catch {
    $("join-error").textContent = "The table did not answer: check the connection and try again.";
    return;
  } finally {
    $("join-submit").disabled = false;
  }
  localStorage.setItem(tokenKey, token);
  localStorage.setItem("hearts-name", name);
  $("join-panel").hidden = true;
  followSeats(false);
  if (socket) socket.close(); else connect();
}

async function main() {
  $("hand").addEventListener("keydown", onHandKey);
  addEventListener("resize", () => {
    fanHand($("hand"));
    keepOverlaysClear();
    fitHint();
  });
  document.addEventListener("keydown", onPageKey);
  $("pass-submit").addEventListener("click", passSelected);
  $("moon-subtract").addEventListener("click", () => sendMove({ type: "moon", choice: "subtract", state_id: stateId, id: ++requestSeq }));
  $("moon-add").addEventListener("click", () => sendMove({ type: "moon", choice: "add", state_id: stateId, id: ++requestSeq }));
  $("hint-button").addEventListener("click", () => sendMove({ type: "hint", id: ++requestSeq }));
  $("hint-figures-button").addEventListener("click", () => showHintDetails($("hint-details").hidden));
  $("start-now").addEventListener("click", () => sendMove({ type: "start" }));
  $("round-end-close").addEventListener("click", () => { $("round-end").hidden = true; });
  $("last-trick-button").addEventListener("click", () => toggleLastTrick());
  $("drawer-button").addEventListener("click", () => toggleDrawer());
  $("round-end-sheet").addEventListener("click", () => toggleDrawer(true));
  $("drawer-close").addEventListener("click", () => toggleDrawer(false));
  $("drawer").addEventListener("keydown", keepTabInDrawer);
  $("last-trick-close").addEventListener("click", () => toggleLastTrick(false));
  startSettings();
  $("copy-invite").addEventListener("click", () => copyField($("invite-link"), $("copy-invite")));
  $("join-form").addEventListener("submit", joinTable);
  $("watch-only").addEventListener("click", () => {
    $("join-panel").hidden = true;
    followSeats(false);
    if (socket) render(); else connect();  // a refused token's socket watches already
  });
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) {  // a mistyped or old link: say so, and lead back to the lobby
    const lobby = document.createElement("a");
    lobby.href = "/";
    lobby.textContent = "Open or join a table in the lobby";
    lobby.dataset.testid = "no-table-lobby";
    $("status").replaceChildren("There is no table at this address. ", lobby);
    $("last-trick-button").disabled = true;
    $("drawer-button").hidden = true;  // no sheet, no commitment: nothing to open
    setConnection("no table");
    document.body.dataset.ready = "true";
    return;
  }
  const info = await response.json();
  showHeader(info);
  if (!token && info.free.length) offerSeat(info);
  else connect();
  document.body.dataset.ready = "true";
}

main();
