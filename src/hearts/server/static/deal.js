// The documented deal algorithm of hearts/core/deal.py and the commit-reveal scheme of
// hearts/core/fairness.py, ported so the browser can check every deal itself.
import { cardName, cardNumber } from "./cards.js";

export const FAIRNESS_SCHEME = "commit-reveal-sha256/1";
const encoder = new TextEncoder();

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

// Successive 4-byte big-endian draws from SHA-256 in counter mode over utf8(dealSeed).
async function* draws(dealSeed) {
  const prefix = encoder.encode(dealSeed);
  for (let counter = 0n; ; counter += 1n) {
    const input = new Uint8Array(prefix.length + 8);
    input.set(prefix);
    new DataView(input.buffer).setBigUint64(prefix.length, counter, false);
    const view = new DataView(await crypto.subtle.digest("SHA-256", input));
    for (let offset = 0; offset < 32; offset += 4) yield view.getUint32(offset, false);
  }
}

// The deck (card names, any order) shuffled by the Fisher-Yates of hearts.core.deal.
export async function shuffledDeck(deck, dealSeed) {
  const cards = deck.map(cardNumber).sort((a, b) => a - b);
  const stream = draws(dealSeed);
  const TWO32 = 2 ** 32;
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const bound = i + 1;
    const limit = TWO32 - (TWO32 % bound);
    let x = (await stream.next()).value;
    while (x >= limit) x = (await stream.next()).value;
    const j = x % bound;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards.map(cardName);
}

// Each seat's dealt hand (card names, ascending) for a deal seed.
export async function dealHands(deck, players, dealSeed) {
  const hands = Array.from({ length: players }, () => []);
  (await shuffledDeck(deck, dealSeed)).forEach((card, k) => hands[k % players].push(card));
  return hands.map((hand) => hand.sort((a, b) => cardNumber(a) - cardNumber(b)));
}

export async function deriveDealSeed(serverSeed, entropy) {
  return sha256Hex([FAIRNESS_SCHEME, serverSeed, ...[...entropy].sort()].join("\n"));
}

export function fullDeck(removed) {
  const out = new Set(removed);
  return Array.from({ length: 52 }, (_, i) => cardName(i)).filter((c) => !out.has(c));
}

// Check a revealed round: the commitment, our own entropy, and (when we sat in the round)
// that the hand we were dealt is the one the revealed seed derives for our seat.
export async function verifyRound(reveal, { removed, players, seat, dealt, entropy }) {
  if ((await sha256Hex(reveal.server_seed)) !== reveal.commitment) {
    return { ok: false, reason: "the revealed seed does not match the commitment" };
  }
  if (entropy && !reveal.entropy.includes(entropy)) {
    return { ok: false, reason: "our entropy was left out of the deal" };
  }
  const seed = await deriveDealSeed(reveal.server_seed, reveal.entropy);
  if (reveal.deal_seed && reveal.deal_seed !== seed) {
    return { ok: false, reason: "the deal seed is not the one the reveal derives" };
  }
  if (seat === null || seat === undefined || !dealt) {
    return { ok: true, reason: "commitment matches the revealed seed" };
  }
  const hands = await dealHands(fullDeck(removed), players, seed);
  const mine = [...dealt].sort((a, b) => cardNumber(a) - cardNumber(b));
  if (hands[seat].join(" ") !== mine.join(" ")) {
    return { ok: false, reason: "the hand we were dealt differs from the committed deal" };
  }
  return { ok: true, reason: "commitment and our dealt hand match" };
}
