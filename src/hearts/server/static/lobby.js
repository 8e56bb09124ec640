// The lobby: create a table, list open public tables, join or watch one.
import { playerKey } from "./playerkey.js";
import { fillCounts, fillSeats as fillSeatChoices, option } from "./seat-choices.js";

const $ = (id) => document.getElementById(id);
let config = null;

function presetInfo() {
  return config.presets.find((p) => p.name === $("create-preset").value);
}

function fillPlayers() {
  const preset = presetInfo();
  fillCounts($("create-players"), preset);
  $("preset-help").textContent = preset.help;
  $("create-target").value = preset.target;
  fillSeats();
}

function fillSeats() {
  fillSeatChoices($("seat-choices"), Number($("create-players").value), config.levels,
                  "create-seat", [["human", "a friend (invite link)"]]);
}

// Creates a table and goes to it; a refusal is shown in `errorBox` and nothing else happens.
async function openTable(body, errorBox) {
  errorBox.textContent = "";
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, player_key: playerKey() }),
  });
  const data = await response.json();
  if (!response.ok) {
    errorBox.textContent = data.message;
    return;
  }
  localStorage.setItem(`hearts-token-${data.table.id}`, data.token);
  localStorage.setItem("hearts-name", body.name);
  location.href = data.url;
}

function createTable(event) {
  event.preventDefault();
  const seats = ["human", ...[...$("seat-choices").querySelectorAll("select")].map((s) => s.value)];
  return openTable({
    name: $("create-name").value.trim(), preset: $("create-preset").value,
    players: Number($("create-players").value), target: Number($("create-target").value),
    options: $("create-options").value.trim(), public: $("create-public").checked, seats,
  }, $("create-error"));
}

// One click to a game: the first preset with its usual target, four players (or the nearest
// count the preset allows), computers at the middle level in every other seat, unlisted.
function playNow() {
  const preset = config.presets[0];
  const players = Math.min(Math.max(4, preset.players[0]), preset.players[1]);
  const level = config.levels.includes("normal") ? "normal" : config.levels[0];
  const name = $("create-name").value.trim() || localStorage.getItem("hearts-name") || "Player";
  return openTable({
    name, preset: preset.name, players, target: preset.target, options: "", public: false,
    seats: ["human", ...Array(players - 1).fill(level)],
  }, $("quick-error"));
}

async function refreshTables() {
  const response = await fetch("/api/tables");
  const { tables } = await response.json();
  const body = $("open-tables");
  body.replaceChildren();
  $("no-tables").hidden = tables.length > 0;
  for (const table of tables) {
    const row = document.createElement("tr");
    row.dataset.testid = `open-table-${table.id}`;
    const seats = table.seats.map((s) => s.name || "(free)").join(", ");
    for (const text of [table.title, table.rules, seats]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    const actions = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/t/${table.id}`;
    link.dataset.testid = table.free.length ? `join-${table.id}` : `watch-${table.id}`;
    link.textContent = table.free.length ? "Join" : "Watch";
    actions.append(link);
    row.append(actions);
    body.append(row);
  }
}

async function main() {
  config = await (await fetch("/api/config")).json();
  for (const preset of config.presets) $("create-preset").append(option(preset.name, preset.name));
  $("create-name").value = localStorage.getItem("hearts-name") || "";
  $("create-preset").addEventListener("change", fillPlayers);
  $("create-players").addEventListener("change", fillSeats);
  $("create-form").addEventListener("submit", createTable);
  // a refusal speaks of the form as it was sent: an edit since makes it stale
  $("create-form").addEventListener("input", () => {  // Play now reads the form's name too
    $("create-error").textContent = "";
    $("quick-error").textContent = "";
  });
  $("quick-play").addEventListener("click", playNow);
  $("refresh-tables").addEventListener("click", refreshTables);
  fillPlayers();
  await refreshTables();
  document.body.dataset.ready = "true";
}

main();
