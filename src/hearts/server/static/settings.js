// This browser's table settings, kept in localStorage: how fast cards move and whether the
// deck has four colours. Purely how the page looks; the server never hears of them.
const SPEED_KEY = "hearts-speed";
const FOUR_COLOUR_KEY = "hearts-four-colour";
// How long a card takes to move, in milliseconds, for each speed setting.
const MOVE_MS = { off: 0, fast: 160, normal: 380 };

export function speed() {
  const chosen = localStorage.getItem(SPEED_KEY);
  return chosen in MOVE_MS ? chosen : "normal";
}

export function setSpeed(value) {
  if (value in MOVE_MS) localStorage.setItem(SPEED_KEY, value);
}

// The time one card movement takes now: none when the person asked their system for less motion.
export function moveMs() {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return MOVE_MS[speed()];
}

export function fourColour() { return localStorage.getItem(FOUR_COLOUR_KEY) === "true"; }

export function setFourColour(on) { localStorage.setItem(FOUR_COLOUR_KEY, String(on)); }
