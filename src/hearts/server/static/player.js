// The player page: this browser's finished games and their statistics by rules, as the server
// works them out from the games' records (POST /api/me with the private player key), and the
// key's export and import. The page counts nothing itself: every figure, who won and each
// seat's points come from the server.
import { KEY_HELP, keyFile, playerKey, readKey, useKey } from "./playerkey.js";
import { download } from "./download.js";

const $ = (id) => document.getElementById(id);

// A count with its noun in the number that agrees with it, as hearts.wording.counted says it.
const counted = (number, noun) => `${number} ${noun}${Math.abs(number) === 1 ? "" : "s"}`;

// The figures of a preset, in the order shown, with the words that label them (a tie's
// win is shared among its winners in "Wins" and counted whole in "Shared wins", as every
// command counts them: hearts.arena.stats.win_share).
const FIGURES = [
  ["games", "Games"], ["wins", "Wins"], ["shared_wins", "Shared wins"], ["hands", "Hands"],
  ["average_points", "Average points a hand"], ["moons_shot", "Moons shot"],
  ["moons_allowed", "Moons allowed"], ["queens_taken", "Q♠ taken"],
  ["clean_hands", "Hands with no points"],
];

function element(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  return el;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function showStats(stats) {
  const box = $("stats");
  box.replaceChildren();
  $("no-stats").hidden = stats.length > 0;
  for (const preset of stats) {
    const card = element("section", undefined, { class: "stat-card", "data-testid": `stats-${preset.preset}`,
      "aria-label": `Statistics: ${preset.preset} rules` });
    card.append(element("h3", preset.preset));
    const list = element("dl", undefined, { class: "figures" });
    for (const [name, label] of FIGURES) {
      const item = element("div");
      const value = preset[name] === null ? "—" : String(preset[name]);
      item.append(element("dt", label), element("dd", value, { "data-figure": name }));
      list.append(item);
    }
    card.append(list);
    box.append(card);
  }
}

function resultText(game) {
  const winners = game.winners.map((s) => game.names[s]);
  const mine = counted(game.points, "point");
  if (game.won) {
    const shared = winners.length > 1 ? ` (shared with ${winners.filter((_, i) => game.winners[i] !== game.seat).join(", ")})` : "";
    return `You won with ${mine}${shared}.`;
  }
  return `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}. You: ${mine}.`;
}

function showGames(games) {
  const list = $("games");
  list.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const game of games) {
    const item = element("li", undefined, { class: "game", "data-testid": `game-${game.table}`,
      "data-won": String(game.won) });
    const head = element("p", undefined, { class: "game-head" });
    head.append(element("strong", game.title), element("span",
      ` ${when(game.date)} · ${game.rules} · seat ${game.seat + 1} · ${counted(game.hands, "hand")}`, { class: "muted" }));
    const result = element("p", resultText(game), { class: "result", "data-testid": `result-${game.table}` });
    const totals = element("p", game.names.map((name, s) => `${name} ${game.totals[s]}`).join(" · "),
      { class: "totals muted" });
    const links = element("p", undefined, { class: "game-links" });
    const replay = element("a", "Replay", { href: game.replay, "data-testid": `replay-${game.table}` });
    const record = element("a", "Record", { href: game.record, download: `hearts-${game.table}.json`,
      "data-testid": `record-${game.table}` });
    links.append(replay, record);
    item.append(head, result, totals, links);
    list.append(item);
  }
}

// The unfinished tables, each by its title (a player who left several must tell them apart).
function showPlaying(playing) {
  const list = $("playing");
  list.replaceChildren();
  $("playing-panel").hidden = playing.length === 0;
  for (const table of playing) {
    const item = element("li", undefined, { class: "game", "data-testid": `playing-${table.table}` });
    const head = element("p", undefined, { class: "game-head" });
    head.append(element("strong", table.title),
      element("span", `${when(table.date)} · seat ${table.seat + 1}`, { class: "muted" }));
    const links = element("p", undefined, { class: "game-links" });
    links.append(element("a", "Back to the table", { href: table.url,
      "data-testid": `back-${table.table}`, "aria-label": `Back to the table: ${table.title}` }));
    item.append(head, links);
    list.append(item);
  }
}

async function load() {
  $("me-error").textContent = "";
  $("me-status").textContent = "Loading…";
  let data;
  try {
    const response = await fetch("/api/me", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ player_key: playerKey() }),
    });
    data = await response.json();
    if (!response.ok) throw new Error(data.message);
  } catch (exc) {
    $("me-status").textContent = "";
    $("me-error").textContent = `Your games could not be loaded: ${exc.message}`;
    return;
  }
  $("most").textContent = String(data.most);
  const count = data.games.length;
  $("me-status").textContent = counted(count, "finished game") +
    (data.playing.length ? `, ${data.playing.length} still being played.` : ".");
  showStats(data.stats);
  showGames(data.games);
  showPlaying(data.playing);
  document.body.dataset.loaded = "true";
}

function showKey() {
  $("key-text").value = playerKey();
}

function toggleShown() {
  const shown = $("key-text").type === "text";
  $("key-text").type = shown ? "password" : "text";
  $("key-show").textContent = shown ? "Show" : "Hide";
  $("key-show").setAttribute("aria-pressed", String(!shown));
}

async function copyKey() {
  try {
    await navigator.clipboard.writeText(playerKey());
    $("key-status").textContent = "The key is copied. Paste it on the other device's “Your games” page.";
  } catch {
    toggleShown();
    $("key-text").select();
    $("key-status").textContent = "This browser did not let the page copy: the key is shown and selected, copy it yourself.";
  }
}

// Use an imported key: from then on this browser's games are that key's.
async function adopt(text) {
  let key;
  try {
    key = readKey(text);
  } catch (exc) {
    $("key-status").textContent = `Not imported: ${exc.message}.`;
    return;
  }
  if (key === playerKey()) {
    $("key-status").textContent = "This browser uses that key already.";
    return;
  }
  useKey(key);
  showKey();
  $("import-text").value = "";
  $("key-status").textContent = "Key imported: this browser now shows (and adds to) that key's games.";
  document.body.dataset.loaded = "false";
  await load();
}

function main() {
  showKey();
  $("key-format").textContent = KEY_HELP;
  $("key-show").addEventListener("click", toggleShown);
  $("key-copy").addEventListener("click", copyKey);
  $("key-download").addEventListener("click", () => {
    download("hearts-player-key.json", keyFile());
    $("key-status").textContent = "The key file is downloaded. Open it on the other device's “Your games” page.";
  });
  $("import-form").addEventListener("submit", (event) => {
    event.preventDefault();
    adopt($("import-text").value);
  });
  $("import-file").addEventListener("change", async () => {
    const file = $("import-file").files[0];
    if (file) await adopt(await file.text());
    $("import-file").value = "";
  });
  document.body.dataset.ready = "true";
  load();
}

main();
