// The lobby's challenge form: a preset, a computer level for each seat after the player's
// and a number of deals make a challenge (what is allowed: GET /api/challenges); the answer
// is its link, to play and to share.
import { copyField } from "./copy.js";
import { fillCounts, fillSeats, option } from "./seat-choices.js";

const $ = (id) => document.getElementById(id);
let config = null;

function fillPlayers() {
  const preset = config.presets.find((p) => p.name === $("challenge-preset").value);
  fillCounts($("challenge-players"), preset);
  fillOpponents();
}

function fillOpponents() {
  fillSeats($("challenge-opponents"), Number($("challenge-players").value), config.levels,
            "challenge-seat");
}

async function create(event) {
  event.preventDefault();
  $("challenge-error").textContent = "";
  const response = await fetch("/api/challenges", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      preset: $("challenge-preset").value, deals: Number($("challenge-deals").value),
      opponents: [...$("challenge-opponents").querySelectorAll("select")].map((s) => s.value),
      seed: $("challenge-seed").value.trim(),
    }),
  });
  const data = await response.json();
  if (!response.ok) {
    $("challenge-error").textContent = data.message;
    return;
  }
  $("challenge-link").value = `${location.origin}${data.url}`;
  $("challenge-open").href = data.url;
  $("challenge-made").hidden = false;
}

async function main() {
  config = await (await fetch("/api/challenges")).json();
  $("challenge-deals").max = config.max_deals;
  for (const preset of config.presets) $("challenge-preset").append(option(preset.name, preset.name));
  $("challenge-preset").addEventListener("change", fillPlayers);
  $("challenge-players").addEventListener("change", fillOpponents);
  $("challenge-form").addEventListener("submit", create);
  $("challenge-copy").addEventListener("click",
    () => copyField($("challenge-link"), $("challenge-copy")));
  fillPlayers();
  document.body.dataset.challengeReady = "true";
}

main();
