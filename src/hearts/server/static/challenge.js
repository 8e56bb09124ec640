// The challenge page: what the challenge is, a way to play it, and its leaderboard, read
// again every few seconds while the page is in view. The server ranks the results and
// re-checks every record; the page lays out what it is told and restates no rule.
import { copyField } from "./copy.js";
import { playerKey } from "./playerkey.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").pop());
const api = `/api/challenges/${encodeURIComponent(code)}`;
const REFRESH_MS = 4000;
let challenge = null;

function cell(tag, text, testid) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (testid) el.dataset.testid = testid;
  return el;
}

function describe(info) {
  const opponents = info.opponents.map((level, i) => `${level} (seat ${i + 2})`).join(", ");
  const deals = info.deals === 1 ? "One deal" : `${info.deals} deals`;
  return `${deals} of ${info.preset} for ${info.players} players: you in seat 1, against ` +
    `computer players ${opponents}.`;
}

function showChallenge(info) {
  challenge = info;
  document.title = `Challenge ${info.code} — Card Commons Hearts`;
  $("about-heading").textContent = `Challenge ${info.code}`;
  $("summary").textContent = describe(info);
  $("share-link").value = `${location.origin}/c/${info.code}`;
  $("play-command").textContent = `hearts play --challenge ${info.code}`;
  for (const id of ["about", "board-panel", "submit-panel"]) $(id).hidden = false;
  // A challenge of older computer players: its board stands, it cannot be played here.
  $("stale-text").textContent = info.stale || "";
  $("stale-text").hidden = !info.stale;
  $("play-form").hidden = Boolean(info.stale);
  $("submit-panel").hidden = Boolean(info.stale);
}

function showBoard(rows) {
  const head = $("board-head");
  head.replaceChildren(cell("th", "Place"), cell("th", "Player"));
  for (let deal = 1; deal <= challenge.deals; deal += 1) head.append(cell("th", `Deal ${deal}`));
  head.append(cell("th", "Total"));
  const body = $("board-rows");
  body.replaceChildren();
  rows.forEach((row, index) => {
    const line = document.createElement("tr");
    line.dataset.testid = `board-row-${index}`;
    line.append(cell("td", String(row.place), `board-place-${index}`),
      cell("td", row.name, `board-name-${index}`));
    row.points.forEach((points, deal) => {
      const td = cell("td", String(points), `board-deal-${index}-${deal + 1}`);
      // The fewest points of a deal, as the server placed them, stand out.
      td.dataset.best = String(row.deal_places[deal] === 1);
      td.title = `place ${row.deal_places[deal]} on deal ${deal + 1}`;
      line.append(td);
    });
    line.append(cell("td", String(row.total), `board-total-${index}`));
    body.append(line);
  });
  $("board-empty").hidden = rows.length > 0;
  if (challenge.stale) $("board-empty").textContent = "No results.";
  $("board-note").textContent = `Updated ${new Date().toLocaleTimeString()}; it updates by ` +
    "itself while this page is open.";
  document.body.dataset.entries = String(rows.length);
}

async function refresh() {
  const response = await fetch(api);
  const data = await response.json();
  if (!response.ok) {
    $("missing-text").textContent = data.message;
    $("missing").hidden = false;
    return false;
  }
  if (!challenge) showChallenge(data.challenge);
  showBoard(data.leaderboard);
  return true;
}

async function play(event) {
  event.preventDefault();
  $("play-error").textContent = "";
  const name = $("play-name").value.trim();
  const response = await fetch(`${api}/play`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, player_key: playerKey() }),
  });
  const data = await response.json();
  if (!response.ok) {
    $("play-error").textContent = data.message;
    return;
  }
  localStorage.setItem(`hearts-token-${data.table.id}`, data.token);
  localStorage.setItem("hearts-name", name);
  location.href = data.url;
}

// A record played elsewhere: the server re-checks it and answers its place (or why not).
async function sendRecord() {
  const file = $("entry-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("entry-result").textContent = "Checking the record…";
  const response = await fetch(`${api}/entries`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: text,
  });
  const data = await response.json();
  $("entry-result").className = response.ok ? "ok" : "error";
  $("entry-result").textContent = response.ok
    ? `Checked: ${data.entry.name}, ${data.entry.total} points, place ${data.place}` +
      `${data.added ? "" : " (it was on the leaderboard already)"}.`
    : data.message;
  if (response.ok) await refresh();
}

async function main() {
  $("play-name").value = localStorage.getItem("hearts-name") || "";
  $("play-form").addEventListener("submit", play);
  $("copy-link").addEventListener("click", () => copyField($("share-link"), $("copy-link")));
  $("entry-file").addEventListener("change", sendRecord);
  if (await refresh()) {
    const again = () => {
      if (document.hidden) return;
      refresh().catch(() => {
        $("board-note").textContent = "The server did not answer; trying again in a moment.";
      });
    };
    setInterval(again, REFRESH_MS);
    document.addEventListener("visibilitychange", again);
  }
  document.body.dataset.ready = "true";
}

main();
