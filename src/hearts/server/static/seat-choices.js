// The lobby's two forms (a table, a challenge) choose a player count and who sits in each
// seat after the player's in the same way: these fill their selects, keeping what was
// chosen where it still fits.

export function option(value, text) {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = text;
  return el;
}

// The counts a preset allows, keeping the chosen one (or 4) within them.
export function fillCounts(select, preset) {
  const keep = Number(select.value) || 4;
  select.replaceChildren();
  for (let n = preset.players[0]; n <= preset.players[1]; n += 1) select.append(option(n, n));
  select.value = Math.min(Math.max(keep, preset.players[0]), preset.players[1]);
}

// A select for each seat after the player's: the `extra` options first, then every level
// as a computer; a seat keeps its earlier choice, else plays `normal`.
export function fillSeats(box, players, levels, testid, extra = []) {
  const previous = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  const fallback = levels.includes("normal") ? "normal" : levels[0];
  for (let seat = 1; seat < players; seat += 1) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat + 1} `;
    const select = document.createElement("select");
    select.dataset.testid = `${testid}-${seat}`;
    for (const [value, text] of extra) select.append(option(value, text));
    for (const level of levels) select.append(option(level, `computer: ${level}`));
    select.value = previous[seat - 1] || fallback;
    label.append(select);
    box.append(label);
  }
}
