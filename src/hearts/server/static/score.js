// The scorekeeper page (/score): keep a real-deck game's sheet on a phone, offline.
//
// Rounds are checked by scorer.js with the rule facts the server publishes for the
// sheet's rules (kept in localStorage, so a known rule set works offline); the sheet itself
// lives in localStorage in the file form of `hearts score`. The same page at /score/s/{id}
// shows a shared sheet read-only and follows it while it changes.

import {MoonChoiceNeeded, ScoreError, Sheet, cardPoints} from "./scorer.js";
import {download} from "./download.js";

const CURRENT_KEY = "hearts-score/current";
const FACTS_KEY = "hearts-score/facts";
const PRESETS_KEY = "hearts-score/presets";
const POLL_MS = 2000;

const $ = (id) => document.getElementById(id);

// A button whose action cannot be taken back (deleting a round, closing the sheet) asks
// once more: the first tap says what a second does, which must come within 5 seconds.
const armed = new Set();  // the questions asked and not yet answered: each one's disarm

function askTwice(button, question, action) {
  const label = button.textContent;
  let timer = null;
  const disarm = () => {
    clearTimeout(timer);
    timer = null;
    button.textContent = label;
    armed.delete(disarm);
  };
  button.addEventListener("click", () => {
    if (timer === null) {
      button.textContent = question;
      timer = setTimeout(disarm, 5000);
      armed.add(disarm);
      return;
    }
    disarm();
    action();
  });
}

// The sheet changed since a first tap: that question was about another sheet (a round
// entered in between would otherwise be the one a second tap deletes).
function disarmQuestions() {
  for (const disarm of [...armed]) disarm();
}

// ------------------------------------------------------------------ storage
function readJSON(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

function writeJSON(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

/** The rule facts of a rules text (and the names' count), from the server or, offline,
 *  from the ones this phone fetched before. */
async function factsFor(rulesText, players = null) {
  const key = `${rulesText}|${players ?? ""}`;
  const known = readJSON(FACTS_KEY, {});
  const query = new URLSearchParams({rules: rulesText});
  if (players !== null) query.set("players", String(players));
  let response;
  try {
    response = await request(`/api/score/rules?${query}`);
  } catch {
    if (known[key]) return known[key];
    throw new ScoreError(`you are offline and this phone has not seen the rules ${rulesText} ` +
                         "yet; connect once, or choose a preset without options");
  }
  const body = await response.json();
  if (!response.ok) throw new ScoreError(body.message, "rules");
  known[key] = body;
  known[`${body.rules}|`] = body;
  writeJSON(FACTS_KEY, known);
  return body;
}

/** Every preset's facts for each of its player counts, so a new game starts offline. */
async function learnPresets() {
  const response = await request("/api/score/presets");
  const {presets} = await response.json();
  writeJSON(PRESETS_KEY, presets);
  for (const preset of presets) {
    for (let count = preset.players[0]; count <= preset.players[1]; count += 1) {
      await factsFor(preset.name, count);
    }
  }
  return presets;
}

// ------------------------------------------------------------------ state
const keeper = {
  sheet: null,       // the Sheet being kept
  share: null,       // {id, key, url} once shared
  synced: true,      // whether the shared copy has the last change
  mode: "cards",     // "cards" or "points"
  owners: {},        // point card name -> seat that took it (tap entry)
  taker: 0,          // the seat the next tapped card goes to
  correcting: false, // entering the last round again
  pending: null,     // a round waiting for the shooter's choice
};

function save() {
  writeJSON(CURRENT_KEY, {sheet: keeper.sheet.toJSON(), share: keeper.share});
}

async function restore() {
  const saved = readJSON(CURRENT_KEY, null);
  if (!saved?.sheet) return false;
  const facts = await factsFor(saved.sheet.rules);
  keeper.sheet = Sheet.fromJSON(saved.sheet, facts);
  keeper.share = saved.share ?? null;
  keeper.synced = false;
  return true;
}

// ------------------------------------------------------------------ rendering
const signed = (n) => (n >= 0 ? `+${n}` : String(n));

function winnerText(sheet) {
  const names = sheet.winners.map((s) => sheet.names[s]).join(", ");
  if (!names) return "";
  return sheet.winners.length > 1 ? `Winners (tied): ${names}` : `Winner: ${names}`;
}

function rulesLine(facts) {
  const moon = facts.moon.choice === null ? "the shooter chooses: subtract or add"
    : facts.moon.choice === "subtract" ? `the shooter −${facts.moon.points}`
      : `everyone else +${facts.moon.points}`;
  return `${facts.rules} · to ${facts.target} · moon: ${moon}`;
}

function cell(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  return el;
}

/** The numbered sheet: a line a round with each player's points and new total. */
function renderSheet(table, sheet) {
  const head = document.createElement("tr");
  head.append(cell("th", "Round", {scope: "col"}),
              ...sheet.names.map((n) => cell("th", n, {scope: "col"})));
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren(...sheet.results.map((result) => {
    const row = document.createElement("tr");
    row.dataset.testid = `sheet-row-${result.round_no}`;
    row.append(cell("th", `${result.round_no}.`, {scope: "row"}));
    result.points.forEach((points, seat) => {
      // stacked so that six players fit a phone; the text still reads "+5 = 12"
      const moon = result.shooter === seat ? "*" : "";
      const td = document.createElement("td");
      td.append(cell("span", `${signed(points)}${moon}`, {class: "pts"}), cell("span", " = ", {class: "eq"}),
                cell("span", String(result.totals[seat]), {class: "tot"}));
      if (moon) td.title = "shot the moon";
      row.append(td);
    });
    return row;
  }));
  const foot = document.createElement("tr");
  foot.append(cell("th", "Total", {scope: "row"}), ...sheet.totals.map((total, seat) => {
    const td = cell("td", String(total), {"data-testid": `total-${seat}`});
    if (sheet.winners.includes(seat)) td.classList.add("won");
    return td;
  }));
  table.tFoot.replaceChildren(foot);
}

function renderOver(el, sheet) {
  el.hidden = !sheet.isOver;
  el.textContent = sheet.isOver ? `Game over. ${winnerText(sheet)}` : "";
}

function renderTakers() {
  const {sheet} = keeper;
  $("takers").replaceChildren(...sheet.names.map((name, seat) => {
    const taken = takenFromTaps()[seat];
    const button = cell("button", "", {type: "button", "data-testid": `taker-${seat}`,
                                       "aria-pressed": String(seat === keeper.taker)});
    button.append(cell("span", name, {class: "name"}),
                  cell("span", `${cardPoints(sheet.facts, taken)} pts`, {class: "pts"}));
    button.addEventListener("click", () => { keeper.taker = seat; renderEntry(); });
    return button;
  }));
}

function renderCards() {
  const {sheet} = keeper;
  $("point-cards").replaceChildren(...sheet.facts.cards.map((card) => {
    const owner = keeper.owners[card.card];
    const who = owner === undefined ? "" : sheet.names[owner];
    const button = cell("button", "", {
      type: "button", class: `pc ${card.kind}`, "data-testid": `card-${card.card}`,
      "data-owner": owner === undefined ? "" : String(owner),
      "aria-label": `${card.spoken}${who ? `, taken by ${who}` : ", not taken yet"}`,
    });
    button.append(cell("span", card.label, {class: "face", "aria-hidden": "true"}),
                  cell("span", who, {class: "who", "aria-hidden": "true"}));
    button.addEventListener("click", () => {
      if (keeper.owners[card.card] === keeper.taker) delete keeper.owners[card.card];
      else keeper.owners[card.card] = keeper.taker;
      renderEntry();
    });
    return button;
  }));
  const left = sheet.facts.cards.filter((c) => keeper.owners[c.card] === undefined).length;
  $("cards-summary").textContent = left ? `${left} point card${left > 1 ? "s" : ""} not given to anyone yet`
    : "Every point card is given to someone.";
}

function renderPointInputs() {
  const {sheet} = keeper;
  const typed = [...$("points-inputs").querySelectorAll("input")].map((i) => i.value);
  $("points-inputs").replaceChildren(...sheet.names.map((name, seat) => {
    const label = cell("label", `${name}`, {for: `points-${seat}`});
    const input = cell("input", "", {id: `points-${seat}`, "data-testid": `points-${seat}`,
                                     inputmode: "numeric", autocomplete: "off",
                                     "aria-describedby": "entry-error"});
    input.value = typed.length === sheet.names.length ? typed[seat] : "";
    const row = document.createElement("div");
    row.append(label, input);
    return row;
  }));
  const jack = sheet.facts.jack.scores && sheet.facts.jack.in_deck;
  $("jack-choice").hidden = !jack;
  if (jack) {
    const chosen = $("jack-taker").value;
    $("jack-taker").replaceChildren(cell("option", "choose…", {value: ""}),
                                     ...sheet.names.map((n, seat) => cell("option", n, {value: String(seat)})));
    $("jack-taker").value = chosen;
  }
}

function renderEntry() {
  const {sheet} = keeper;
  const number = sheet.results.length + (keeper.correcting ? 0 : 1);
  $("entry-heading").textContent = keeper.correcting ? `Correct round ${number}` : `Round ${number}`;
  $("entry").hidden = sheet.isOver && !keeper.correcting;
  $("entry-cancel").hidden = !keeper.correcting;
  $("mode-cards").setAttribute("aria-pressed", String(keeper.mode === "cards"));
  $("mode-points").setAttribute("aria-pressed", String(keeper.mode === "points"));
  $("cards-panel").hidden = keeper.mode !== "cards";
  $("points-panel").hidden = keeper.mode !== "points";
  $("rest").textContent = `The rest to ${sheet.names[keeper.taker]}`;
  renderTakers();
  renderCards();
  if (!$("points-inputs").children.length) renderPointInputs();
}

function renderShare() {
  const {share} = keeper;
  $("share").hidden = Boolean(share);
  $("share-line").hidden = !share;
  if (share) {
    const url = new URL(share.url, location.origin).href;
    $("share-link").href = url;
    $("share-link").textContent = url;
    $("share-status").textContent = keeper.synced ? "The link shows every round entered."
      : "Not sent yet: the link catches up when you are online.";
  }
}

function renderKeeper() {
  const {sheet} = keeper;
  document.body.dataset.mode = "keeper";
  $("setup").hidden = true;
  $("keeper").hidden = false;
  $("rules-line").textContent = rulesLine(sheet.facts);
  renderSheet(document.querySelector("#keeper table.sheet"), sheet);
  $("moon-note").hidden = !sheet.results.some((r) => r.shooter !== null);
  renderOver($("game-over"), sheet);
  $("edit-last").disabled = !sheet.results.length;
  $("undo-last").disabled = !sheet.results.length;
  renderEntry();
  renderShare();
  document.body.dataset.rounds = String(sheet.results.length);
}

// ------------------------------------------------------------------ entering rounds
function takenFromTaps() {
  return keeper.sheet.names.map((_, seat) => {
    const mine = keeper.sheet.facts.cards.filter((c) => keeper.owners[c.card] === seat);
    return {hearts: mine.filter((c) => c.kind === "heart").length,
            queen: mine.some((c) => c.kind === "queen"),
            jack: mine.some((c) => c.kind === "jack")};
  });
}

function roundFromPoints() {
  const {sheet} = keeper;
  const points = sheet.names.map((name, seat) => {
    const text = $(`points-${seat}`).value.trim();
    if (!/^[+-]?\d+$/.test(text)) {
      throw new ScoreError(text ? `${name}'s points are a whole number, not ${text}`
        : `enter ${name}'s points (0 if none)`);
    }
    return Number(text);
  });
  const jack = $("jack-choice").hidden || $("jack-taker").value === "" ? null : Number($("jack-taker").value);
  return {points, jack};
}

function clearEntry() {
  keeper.owners = {};
  keeper.pending = null;
  keeper.correcting = false;
  $("moon-panel").hidden = true;
  $("entry-error").textContent = "";
  $("points-inputs").replaceChildren();
}

function changed(sheet) {
  disarmQuestions();
  keeper.sheet = sheet;
  keeper.synced = false;
  save();
  clearEntry();
  renderKeeper();
  syncShare();
}

function enter(round) {
  try {
    changed(keeper.correcting ? keeper.sheet.correctLastRound(round) : keeper.sheet.addRound(round));
  } catch (exc) {
    if (!(exc instanceof ScoreError)) throw exc;
    if (exc instanceof MoonChoiceNeeded) {
      keeper.pending = round;
      const name = keeper.sheet.names[exc.shooter];
      const points = keeper.sheet.facts.moon.points;
      $("moon-question").textContent = `${name} shot the moon. ${name} chooses:`;
      $("moon-subtract").textContent = `${points} off ${name}`;
      $("moon-add").textContent = `${points} to everyone else`;
      $("moon-panel").hidden = false;
      $("entry-error").textContent = "";
      $("moon-subtract").focus();
      return;
    }
    $("entry-error").textContent = `Not added: ${exc.message}.`;
  }
}

function startCorrection() {
  const {sheet} = keeper;
  const last = sheet.entries.at(-1);
  keeper.correcting = true;
  keeper.owners = {};
  const hearts = sheet.facts.cards.filter((c) => c.kind === "heart");
  last.taken.forEach((taken, seat) => {
    for (const card of hearts.splice(0, taken.hearts)) keeper.owners[card.card] = seat;
    for (const card of sheet.facts.cards) {
      if ((card.kind === "queen" && taken.queen) || (card.kind === "jack" && taken.jack)) {
        keeper.owners[card.card] = seat;
      }
    }
  });
  $("points-inputs").replaceChildren();
  renderKeeper();
  last.taken.forEach((taken, seat) => { $(`points-${seat}`).value = String(cardPoints(sheet.facts, taken)); });
  const jack = last.taken.findIndex((t) => t.jack);
  if (!$("jack-choice").hidden) $("jack-taker").value = jack < 0 ? "" : String(jack);
  $("entry-heading").scrollIntoView();
}

// ------------------------------------------------------------------ sharing and files
let syncing = false;

/** Send the sheet to its share link; one request at a time, so an older sheet never
 *  lands after a newer one. */
async function syncShare() {
  const {share} = keeper;
  if (!share || keeper.synced || syncing) return;
  syncing = true;
  const sheet = keeper.sheet;
  try {
    const response = await request(`/api/score/sheets/${share.id}`, {
      method: "PUT", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({key: share.key, sheet: sheet.toJSON()}),
    });
    if (response.ok && keeper.sheet === sheet) keeper.synced = true;
    if (!response.ok) $("share-status").textContent = (await response.json()).message;
  } catch {
    // offline: the link catches up on the next change or when the phone is online again
    renderShare();
    return;
  } finally {
    syncing = false;
  }
  renderShare();
  if (keeper.sheet !== sheet) syncShare();
}

async function startShare() {
  try {
    const response = await request("/api/score/sheets", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({sheet: keeper.sheet.toJSON()}),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.message);
    keeper.share = {id: body.id, key: body.key, url: body.url};
    keeper.synced = true;
    save();
    renderShare();
  } catch (exc) {
    $("share-status").textContent = navigator.onLine === false || exc instanceof TypeError
      ? "Sharing needs a connection; try again when you are online." : exc.message;
  }
}

const fileStem = () => `hearts-score-${new Date().toISOString().slice(0, 10)}`;

async function exportAs(kind) {
  $("export-error").textContent = "";
  try {
    const response = await request(`/api/score/export?kind=${kind}`, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({sheet: keeper.sheet.toJSON()}),
    });
    if (!response.ok) throw new Error((await response.json()).message);
    download(`${fileStem()}.${kind}`, await response.blob());
  } catch (exc) {
    $("export-error").textContent = exc instanceof TypeError
      ? "CSV and Markdown are written by the server: they need a connection. The sheet file works offline."
      : exc.message;
  }
}

async function importFile(file) {
  $("setup-error").textContent = "";
  try {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      throw new ScoreError(`${file.name} is not a sheet file (it is not JSON)`);
    }
    if (typeof data?.rules !== "string") throw new ScoreError(`${file.name} is not a score sheet`);
    openSheet(Sheet.fromJSON(data, await factsFor(data.rules)));
  } catch (exc) {
    setupRefused(exc);
  }
}

// A new or imported sheet becomes the one kept here (not shared until asked).
function openSheet(sheet) {
  keeper.sheet = sheet;
  keeper.share = null;
  keeper.synced = true;
  keeper.taker = 0;
  save();
  clearEntry();
  renderKeeper();
}

// The setup form's answer to a sheet the core's rules refuse; anything else is a bug.
function setupRefused(exc) {
  if (!(exc instanceof ScoreError)) throw exc;
  $("setup-error").textContent = exc.message;
}

// ------------------------------------------------------------------ setup
function presetCounts() {
  const presets = readJSON(PRESETS_KEY, []);
  return presets.find((p) => p.name === $("setup-preset").value)?.players ?? [1, 0];
}

function renderNameInputs() {
  const fieldset = $("setup-names");
  const typed = [...fieldset.querySelectorAll("input")].map((i) => i.value);
  const count = Number($("setup-count").value);
  fieldset.replaceChildren(fieldset.querySelector("legend") ?? cell("legend", "Names, in seat order"));
  for (let seat = 0; seat < count; seat += 1) {
    const id = `setup-name-${seat}`;
    fieldset.append(cell("label", `Player ${seat + 1}`, {for: id}));
    const input = cell("input", "", {id, "data-testid": id, autocomplete: "off", maxlength: "24"});
    input.value = typed[seat] ?? "";
    fieldset.append(input);
  }
}

function renderCounts() {
  const preset = readJSON(PRESETS_KEY, []).find((p) => p.name === $("setup-preset").value);
  $("preset-help").textContent = preset?.help ?? "";
  const [low, high] = presetCounts();
  const chosen = Number($("setup-count").value) || high;
  const counts = [];
  for (let n = low; n <= high; n += 1) counts.push(cell("option", String(n), {value: String(n)}));
  $("setup-count").replaceChildren(...counts);
  $("setup-count").value = String(Math.min(Math.max(chosen, low), high));
  renderNameInputs();
}

function renderSetup() {
  document.body.dataset.mode = "setup";
  $("keeper").hidden = true;
  $("setup").hidden = false;
  const presets = readJSON(PRESETS_KEY, []);
  if (!$("setup-preset").options.length) {
    $("setup-preset").replaceChildren(...presets.map((p) => cell("option", p.name, {value: p.name})));
    renderCounts();
  }
  if (!presets.length) $("setup-error").textContent = "Connect once so this phone learns the rules.";
}

function rulesText() {
  const options = $("setup-options").value.trim();
  if (options.includes(":")) return options.replace(/\s+/g, "");
  const parts = options.split(",").map((p) => p.trim()).filter(Boolean);
  return parts.length ? `${$("setup-preset").value}:${parts.join(",")}` : $("setup-preset").value;
}

async function startSheet(event) {
  event.preventDefault();
  $("setup-error").textContent = "";
  const names = [...$("setup-names").querySelectorAll("input")].map((i) => i.value);
  try {
    openSheet(new Sheet(await factsFor(rulesText(), names.length), names));
  } catch (exc) {
    setupRefused(exc);
  }
}

// ------------------------------------------------------------------ the shared view
async function follow(sheetId) {
  document.body.dataset.mode = "shared";
  $("setup").hidden = true;
  $("shared").hidden = false;
  let version = 0;
  for (;;) {
    try {
      const response = await request(`/api/score/sheets/${encodeURIComponent(sheetId)}?since=${version}`,
                                   {cache: "no-store"});
      if (response.status === 200) {
        const body = await response.json();
        const sheet = Sheet.fromJSON(body.sheet, body.facts);
        version = body.version;
        $("shared-heading").textContent = `Live sheet: ${sheet.names.join(", ")}`;
        $("shared-rules").textContent = rulesLine(sheet.facts);
        renderSheet(document.querySelector("#shared table.sheet"), sheet);
        renderOver($("shared-over"), sheet);
        document.body.dataset.rounds = String(sheet.results.length);
      } else if (response.status !== 204) {
        $("shared-status").textContent = (await response.json()).message;
        return;
      }
      $("shared-status").textContent = `Read-only. Checked at ${new Date().toLocaleTimeString()}.`;
    } catch {
      $("shared-status").textContent = "Offline: the sheet updates when the connection is back.";
    }
    document.body.dataset.ready = "true";
    await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
  }
}

// ------------------------------------------------------------------ start
// Whether the server answered the last request: navigator.onLine says only that the phone
// has a network (a captive portal, or a page reloaded under a browser's offline mode, says
// true), so a request that fails to reach the server counts as offline too.
let reachable = true;

/** fetch, noting whether the server was reached (a network error is rethrown). */
async function request(url, options) {
  try {
    const response = await fetch(url, options);
    if (!reachable) { reachable = true; showNet(); }
    return response;
  } catch (exc) {
    if (reachable) { reachable = false; showNet(); }
    throw exc;
  }
}

function showNet() {
  const offline = navigator.onLine === false || !reachable;
  $("net").textContent = offline ? "Offline: the sheet is kept on this phone." : "";
}

function wire() {
  $("setup-form").addEventListener("submit", startSheet);
  $("setup-preset").addEventListener("change", renderCounts);
  $("setup-count").addEventListener("change", renderNameInputs);
  $("setup-import").addEventListener("change", (e) => { if (e.target.files[0]) importFile(e.target.files[0]); });
  $("mode-cards").addEventListener("click", () => { keeper.mode = "cards"; renderEntry(); });
  $("mode-points").addEventListener("click", () => { keeper.mode = "points"; renderEntry(); });
  $("rest").addEventListener("click", () => {
    for (const card of keeper.sheet.facts.cards) {
      if (keeper.owners[card.card] === undefined) keeper.owners[card.card] = keeper.taker;
    }
    renderEntry();
  });
  $("clear").addEventListener("click", () => { keeper.owners = {}; renderEntry(); });
  $("entry").addEventListener("submit", (event) => {
    event.preventDefault();
    $("moon-panel").hidden = true;
    try {
      enter(keeper.mode === "cards" ? {taken: takenFromTaps()} : roundFromPoints());
    } catch (exc) {
      if (!(exc instanceof ScoreError)) throw exc;
      $("entry-error").textContent = `Not added: ${exc.message}.`;
    }
  });
  for (const choice of ["subtract", "add"]) {
    $(`moon-${choice}`).addEventListener("click", () => enter({...keeper.pending, moon_choice: choice}));
  }
  $("entry-cancel").addEventListener("click", () => { clearEntry(); renderKeeper(); });
  $("edit-last").addEventListener("click", startCorrection);
  askTwice($("undo-last"), "Tap again to delete the last round", () => changed(keeper.sheet.dropLastRound()));
  $("share").addEventListener("click", startShare);
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("export-md").addEventListener("click", () => exportAs("md"));
  $("export-file").addEventListener("click", () => {
    download(`${fileStem()}.json`, new Blob([`${JSON.stringify(keeper.sheet.toJSON(), null, 1)}\n`],
                                            {type: "application/json"}));
  });
  askTwice($("new-game"), "Tap again to close this sheet (download it first to keep it)", () => {
    localStorage.removeItem(CURRENT_KEY);
    keeper.sheet = null;
    keeper.share = null;
    renderSetup();
  });
  // back online, as the browser says: a request tells whether the server is reached again
  window.addEventListener("online", () => { learnPresets().catch(() => {}); syncShare(); });
  window.addEventListener("offline", showNet);
}

async function main() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/score/sw.js", {scope: "/score"}).catch(() => {});
  }
  showNet();
  const shared = location.pathname.match(/^\/score\/s\/([^/]+)$/);
  if (shared) {
    follow(decodeURIComponent(shared[1]));
    return;
  }
  wire();
  // offline, the presets and facts fetched on an earlier visit serve
  const learning = learnPresets().catch(() => {});
  let restored = false;
  try {
    restored = await restore();
  } catch (exc) {
    $("setup-error").textContent = `The saved sheet could not be reopened: ${exc.message}`;
  }
  if (restored) {
    renderKeeper();
    syncShare();
  } else {
    await learning;
    renderSetup();
  }
  document.body.dataset.ready = "true";
}

main();
