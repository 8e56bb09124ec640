// Card names and numbering shared with the Python core: card = suit * 13 + rank,
// suits 0 clubs, 1 diamonds, 2 spades, 3 hearts; rank 0 is the 2, 12 the ace.
export const RANKS = "23456789TJQKA";
export const SUITS = "CDSH";
const SUIT_WORDS = ["clubs", "diamonds", "spades", "hearts"];
const SUIT_SYMBOLS = ["♣", "♦", "♠", "♥"];
const RANK_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace"];

export function cardNumber(name) {
  const rank = RANKS.indexOf(name[0]);
  const suit = SUITS.indexOf(name[1]);
  if (name.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${name}`);
  return suit * 13 + rank;
}

export function cardName(number) {
  return RANKS[number % 13] + SUITS[Math.floor(number / 13)];
}

export function suitOf(name) { return SUITS.indexOf(name[1]); }

export function spoken(name) {
  return `${RANK_WORDS[RANKS.indexOf(name[0])]} of ${SUIT_WORDS[suitOf(name)]}`;
}

export function pretty(name) {
  const rank = name[0] === "T" ? "10" : name[0];
  return rank + SUIT_SYMBOLS[suitOf(name)];
}

export function isRed(name) { const s = suitOf(name); return s === 1 || s === 3; }

// The suit's word, used as a class name so a style can colour each suit (four-colour deck).
export function suitWord(name) { return SUIT_WORDS[suitOf(name)]; }
