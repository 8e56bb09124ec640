// The real-deck score sheet in the browser, so that rounds are checked offline.
//
// It states no rule of its own: every fact comes from the server's rule facts
// (GET /api/score/rules: the point cards and their points, the moon's worth and effect,
// the target and the rounds a game lasts), which the server asks of hearts.core. This module applies them the way
// hearts.core.scorekeeper.Sheet does, with the same messages; tests/server/test_score_js.py
// compares the two on many random rounds.

export const SHEET_FORMAT = "card-commons-hearts/sheet";
const SHEET_VERSION = 1;

/** A round or sheet that cannot be; its message says what is wrong. */
export class ScoreError extends Error {
  constructor(message, kind = "round") {
    super(message);
    this.name = "ScoreError";
    this.kind = kind;
  }
}

/** A moon under a rule where the shooter chooses: ask them, then enter the round again. */
export class MoonChoiceNeeded extends ScoreError {
  constructor(shooter, name) {
    super(`${name} shot the moon; under these rules the shooter chooses: ` +
          `subtract (take the moon's points off ${name}) or add (give them to everyone else)`,
          "moon");
    this.shooter = shooter;
  }
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

/** Round points of one player's cards, as counted in the tricks. */
export function cardPoints(facts, taken) {
  return taken.hearts * facts.heart_points
    + (taken.queen ? facts.queen.points : 0)
    + (taken.jack && facts.jack.scores ? facts.jack.points : 0);
}

/** Whether the game ends with these totals after `played` rounds: someone reached the
 * target, or the rules fix the number of rounds (facts.rounds, 0: none) and that was the last. */
export function gameOver(facts, totals, played) {
  return (totals.length > 0 && Math.max(...totals) >= facts.target)
    || (facts.rounds > 0 && played >= facts.rounds);
}

/** Players tied for the lowest total once the game is over; empty while it goes on. */
export function gameWinners(facts, totals, played) {
  if (!gameOver(facts, totals, played)) return [];
  const best = Math.min(...totals);
  return totals.flatMap((total, seat) => (total === best ? [seat] : []));
}

/** A name as every face shows it (hearts.core.shown_name): without control, format,
 * surrogate and private-use characters, its spaces collapsed, at most `length` characters;
 * null when no letter, digit, punctuation, symbol or unassigned character is left. */
export function shownName(text, length) {
  const kept = String(text).replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/gu, "")
    .split(/\s+/u).filter(Boolean).join(" ");
  const name = Array.from(kept).slice(0, length).join("").trimEnd();
  return /[\p{L}\p{N}\p{P}\p{S}\p{Cn}]/u.test(name) ? name : null;
}

/** A shown name as two are compared (hearts.core.same_name): "Straße" is "STRASSE". */
const sameName = (name) => name.toUpperCase().toLowerCase();

/** The players' names, checked as a sheet checks them; a ScoreError says what is wrong. */
export function checkNames(facts, names) {
  const given = names.map((n) => String(n).trim());
  if (given.length !== facts.players) {
    throw new ScoreError(`${facts.preset} with ${facts.players} players needs ` +
                         `${facts.players} names, got ${given.length}`, "sheet");
  }
  if (!given.every(Boolean)) throw new ScoreError("every player needs a name", "sheet");
  if (given.some((n) => /\p{Cs}/u.test(n))) {
    throw new ScoreError("a name is text that UTF-8 can write (a byte of another encoding " +
                         "was typed, or a lone surrogate)", "sheet");
  }
  const clean = given.map((n) => shownName(n, facts.name_length) ?? "");
  if (!clean.every(Boolean)) {
    const unseen = given.filter((n, seat) => !clean[seat]).map((n) => JSON.stringify(n).slice(0, 40));
    throw new ScoreError("every player needs a name that shows a letter, digit or sign; " +
                         `${unseen.join(", ")} has none`, "sheet");
  }
  if (new Set(clean.map(sameName)).size !== clean.length) {
    throw new ScoreError(`names must differ: ${clean.join(", ")}`, "sheet");
  }
  return clean;
}

function checkCount(names, values, what) {
  if (values.length !== names.length) {
    throw new ScoreError(`enter ${what} for each of the ${names.length} players ` +
                         `(${names.join(", ")}); got ${values.length}`);
  }
}

function checkSingle(names, flags, inDeck, card) {
  const holders = flags.flatMap((flag, seat) => (flag ? [names[seat]] : []));
  if (!inDeck) {
    if (holders.length) {
      throw new ScoreError(`the ${card} is not in this deck; ${holders[0]} cannot take it`);
    }
    return;
  }
  if (holders.length > 1) {
    throw new ScoreError(`only one player can take the ${card}; ${holders.join(" and ")} are marked`);
  }
  if (!holders.length) throw new ScoreError(`nobody is marked with the ${card}; one player takes it`);
}

/** The cards taken, checked against the deck (a J♦ that scores nothing is dropped). */
export function checkTaken(facts, names, taken) {
  checkCount(names, taken, "the cards taken");
  const hearts = facts.hearts;
  taken.forEach((cards, seat) => {
    if (!Number.isInteger(cards.hearts) || cards.hearts < 0 || cards.hearts > hearts) {
      throw new ScoreError(`${names[seat]} took ${cards.hearts} hearts; a player takes 0 to ${hearts}`);
    }
  });
  const total = sum(taken.map((t) => t.hearts));
  if (total !== hearts) throw new ScoreError(`hearts add to ${total}, there are ${hearts}`);
  checkSingle(names, taken.map((t) => Boolean(t.queen)), facts.queen.in_deck, "Q♠");
  if (facts.jack.scores) {
    checkSingle(names, taken.map((t) => Boolean(t.jack)), facts.jack.in_deck, "J♦");
    return taken.map((t) => ({hearts: t.hearts, queen: Boolean(t.queen), jack: Boolean(t.jack)}));
  }
  return taken.map((t) => ({hearts: t.hearts, queen: Boolean(t.queen), jack: false}));
}

/** The cards each player must have taken to score ``points`` (as counted in the tricks;
 *  ``jack`` is the J♦ taker's seat where it scores). */
export function takenFromPoints(facts, names, points, jack) {
  checkCount(names, points, "points");
  points.forEach((p, seat) => {
    if (!Number.isInteger(p)) throw new ScoreError(`${names[seat]}'s points are a whole number, not ${p}`);
  });
  const jackValue = facts.jack.scores ? facts.jack.points : 0;
  const hasJack = jack !== null && jack !== undefined;
  if (facts.jack.scores && facts.jack.in_deck) {
    if (!hasJack || !Number.isInteger(jack) || jack < 0 || jack >= names.length) {
      throw new ScoreError(`with the J♦ house rule (${jackValue}), say who took the J♦`);
    }
  } else if (hasJack) {
    throw new ScoreError("the J♦ scores nothing under these rules; leave it out");
  }
  const hearts = facts.hearts * facts.heart_points;
  const queen = facts.queen.in_deck ? facts.queen.points : 0;
  const expected = facts.moon.points;
  const counted = points.map((p, seat) => p - (seat === jack ? jackValue : 0));
  counted.forEach((value, seat) => {
    if (value < 0) {
      throw new ScoreError(`${names[seat]} has ${points[seat]} points; points taken cannot be negative ` +
                           `(for a moon enter the shooter's ${expected}: the sheet applies the moon rule)`);
    }
    if (value > hearts + queen) {
      throw new ScoreError(`${names[seat]} has ${points[seat]} points; nobody can take more than ` +
                           `${hearts + queen + (seat === jack ? jackValue : 0)}`);
    }
  });
  if (sum(counted) !== expected) {
    const parts = [`${facts.hearts} hearts`];
    if (queen) parts.push(`the Q♠ ${queen}`);
    if (hasJack) parts.push(`the J♦ ${jackValue}`);
    const holds = expected + (hasJack ? jackValue : 0);
    throw new ScoreError(`the points add up to ${sum(points)}; a round holds ${holds}: ${parts.join(" and ")}`);
  }
  let holder = null;
  if (queen) {
    const over = counted.flatMap((v, seat) => (v > hearts ? [seat] : []));
    if (over.length > 1) {
      throw new ScoreError(`only one player can take the Q♠, but ${over.map((s) => names[s]).join(" and ")} ` +
                           `have more points than the ${hearts} hearts`);
    }
    for (const seat of over) {
      if (counted[seat] < queen) {
        throw new ScoreError(`${names[seat]} has ${points[seat]} points: more than the ${hearts} hearts ` +
                             `but less than the Q♠ ${queen}`);
      }
    }
    const able = over.length ? over : counted.flatMap((v, seat) => (v >= queen ? [seat] : []));
    if (!able.length) {
      throw new ScoreError(`nobody has ${queen} or more points, so nobody took the Q♠ (${queen}); one player must`);
    }
    holder = able[0];
  }
  return counted.map((value, seat) => ({
    hearts: (value - (seat === holder ? queen : 0)) / (facts.heart_points || 1),
    queen: seat === holder,
    jack: seat === jack,
  }));
}

function moonShooter(facts, taken) {
  if (!facts.hearts && !facts.queen.in_deck) return null;
  const seat = taken.findIndex((t) => t.hearts === facts.hearts && (t.queen || !facts.queen.in_deck));
  return seat < 0 ? null : seat;
}

/** Round points after the moon rule: {points, shooter, choice}; MoonChoiceNeeded where the
 *  shooter chooses and ``entry.moon_choice`` is not given yet. */
export function scoreRound(facts, names, entry) {
  const shooter = moonShooter(facts, entry.taken);
  if (shooter === null) {
    if (entry.moon_choice) throw new ScoreError("nobody shot the moon, so there is no moon choice to make");
    return {points: entry.taken.map((t) => cardPoints(facts, t)), shooter: null, choice: null};
  }
  const choice = facts.moon.choice || entry.moon_choice || null;
  if (choice === null) throw new MoonChoiceNeeded(shooter, names[shooter]);
  if (entry.moon_choice && entry.moon_choice !== choice) {
    throw new ScoreError(`under ${facts.preset} the moon rule is ${facts.moon.rule}; the shooter has no choice`);
  }
  const moon = facts.moon.points;
  const points = entry.taken.map((t, seat) => {
    const jack = t.jack && facts.jack.scores ? facts.jack.points : 0;
    if (choice === "subtract") return jack - (seat === shooter ? moon : 0);
    return jack + (seat === shooter ? 0 : moon);
  });
  return {points, shooter, choice};
}

/** A frozen score sheet: the rule facts, the names and the checked rounds with results. */
export class Sheet {
  constructor(facts, names, entries = []) {
    this.facts = facts;
    this.names = checkNames(facts, names);
    this.entries = [];
    this.results = [];
    let totals = names.map(() => 0);
    entries.forEach((entry, index) => {
      if (gameOver(facts, totals, index)) throw new ScoreError(`round ${index + 1} follows the end of the game`, "sheet");
      const checked = {taken: checkTaken(facts, this.names, entry.taken), moon_choice: entry.moon_choice || null};
      const {points, shooter, choice} = scoreRound(facts, this.names, checked);
      totals = totals.map((t, seat) => t + points[seat]);
      this.entries.push(checked);
      this.results.push({round_no: index + 1, points, totals, shooter, choice});
    });
    Object.freeze(this);
  }

  get totals() {
    return this.results.length ? this.results.at(-1).totals : this.names.map(() => 0);
  }

  get isOver() { return gameOver(this.facts, this.totals, this.results.length); }

  get winners() { return gameWinners(this.facts, this.totals, this.results.length); }

  /** The round as the cards taken, checked; entered as {points, jack} or {taken}. */
  checkRound({points = null, taken = null, jack = null, moon_choice = null}) {
    if ((points === null) === (taken === null)) {
      throw new ScoreError("enter a round either as points or as the cards taken");
    }
    const cards = points !== null ? takenFromPoints(this.facts, this.names, points, jack)
      : checkTaken(this.facts, this.names, taken);
    const entry = {taken: cards, moon_choice: moon_choice || null};
    scoreRound(this.facts, this.names, entry);
    return entry;
  }

  /** The sheet with one more round (a ScoreError, or MoonChoiceNeeded, when refused). */
  addRound(round) {
    if (this.isOver) {
      const won = this.winners.map((s) => this.names[s]).join(" and ");
      throw new ScoreError(`the game is over (${won} won); no round can follow`);
    }
    return new Sheet(this.facts, this.names, [...this.entries, this.checkRound(round)]);
  }

  /** The sheet without its last round. */
  dropLastRound() {
    if (!this.entries.length) throw new ScoreError("there is no round to correct yet");
    return new Sheet(this.facts, this.names, this.entries.slice(0, -1));
  }

  /** The sheet with its last round replaced. */
  correctLastRound(round) { return this.dropLastRound().addRound(round); }

  /** The sheet file of ``hearts score`` (hearts.core.Sheet.to_json). */
  toJSON() {
    return {
      format: SHEET_FORMAT,
      version: SHEET_VERSION,
      rules: this.facts.rules,
      names: [...this.names],
      rounds: this.entries.map((entry, i) => ({
        taken: entry.taken.map((t) => ({hearts: t.hearts, queen: t.queen, jack: t.jack})),
        moon_choice: entry.moon_choice,
        points: [...this.results[i].points],
        totals: [...this.results[i].totals],
      })),
      complete: this.isOver,
      winners: this.winners,
    };
  }

  /** Read a sheet file back, checking every round again; ``facts`` are those of its rules. */
  static fromJSON(data, facts) {
    if (!data || typeof data !== "object" || data.format !== SHEET_FORMAT) {
      throw new ScoreError(`not a score sheet (format '${SHEET_FORMAT}' expected)`, "sheet");
    }
    if (data.version !== SHEET_VERSION) {
      throw new ScoreError(`sheet version ${JSON.stringify(data.version)} is not supported`, "sheet");
    }
    let entries;
    try {
      entries = data.rounds.map((round) => ({
        taken: round.taken.map((t) => ({hearts: t.hearts, queen: Boolean(t.queen), jack: Boolean(t.jack)})),
        moon_choice: round.moon_choice ?? null,
      }));
    } catch (exc) {
      throw new ScoreError(`sheet: malformed field (${exc.message})`, "sheet");
    }
    try {
      return new Sheet(facts, data.names, entries);
    } catch (exc) {
      if (exc instanceof ScoreError && exc.kind !== "sheet") {
        throw new ScoreError(`sheet: a saved round does not add up: ${exc.message}`, "sheet");
      }
      throw exc;
    }
  }
}
