"""Duplicate challenges: the same deals against the same computer opponents, for anyone.

A challenge is a preset, its computer opponents' levels, a number of deals and a seed.
Its deals are those of a seeded game (``hearts.core.round_deal_seed``); its rules are the
preset's with ``rounds`` set to the deals and the target out of reach, so every deal is
played. Seat 0 is the challenger; every other seat's every decision comes from a fresh
player of its level seeded from the challenge seed, the seat and the decision's place in
the game, searching exactly ``iterations`` worlds (no clock), so the same view always
gets the same answer on any machine. That is what lets :func:`check_entry` re-derive a
submitted record's every computer action and refuse one that was not really played.

The code names all of it in a short, URL-safe, case-insensitive text: its revision,
the preset's letter, the player count, one letter per opponent, the deals and the
iterations (two characters each), the seed's length and the seed, and a check character.
Its alphabet has no ``i l o u v`` (easily misread); the check is a weighted sum modulo 31,
which refuses every one-character typo and every swap of two neighbouring characters, and
the stated lengths refuse a code cut short or run on.

The revision (:data:`CODE_VERSION`) is the computer players' version: when a change to a
level changes any challenge decision, the revision goes up (a golden test of challenge
games fails until it does). A code of an older revision still names its challenge, but
this program's computers would not play its deals as they were played: it is
:attr:`Challenge.stale`, and it can be neither played nor checked here.

Pure: no I/O and no clock; a face draws the seed and stores the entries.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hearts.core import (
    MAX_TARGET,
    PLAYER_COUNTS,
    PRESETS,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    HeartsError,
    InvalidRecordError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    encode_action,
    is_whole_number,
    new_game,
    record_seats,
    replay_record,
    round_deal_seed,
    view,
)
from hearts.players.base import Player, decide
from hearts.players.levels import make_player

__all__ = [
    "CODE_ALPHABET",
    "CODE_VERSION",
    "DEFAULT_ITERATIONS",
    "MAX_DEALS",
    "MAX_ITERATIONS",
    "MAX_SEED_LENGTH",
    "OPPONENT_LEVELS",
    "Challenge",
    "ChallengeError",
    "ChallengeResult",
    "ForgedEntryError",
    "LeaderboardRow",
    "StaleChallengeError",
    "check_entry",
    "fingerprint",
    "leaderboard",
    "seed_error",
]

CODE_ALPHABET: Final = "0123456789abcdefghjkmnpqrstwxyz"
"""The characters of a code and of a seed: digits and letters but ``i l o u v``."""
CODE_VERSION: Final = "4"
"""The revision of new codes: the computer players' version (see the module's text)."""
_REVISIONS: Final = CODE_ALPHABET[1:CODE_ALPHABET.index(CODE_VERSION) + 1]
DEFAULT_ITERATIONS: Final = 200
"""Worlds an ``expert`` opponent samples a decision (``hard``: a quarter of them): on one
core a decision takes about 0.015 s, a pass at most about 0.2 s, and re-checking a deal
against three experts about 1 s."""
MAX_ITERATIONS: Final = 500
"""The most worlds a decision: every entry is re-checked by replaying every decision."""
MAX_DEALS: Final = 20
MAX_SEED_LENGTH: Final = 16

# One letter each, from CODE_ALPHABET; "policy:PATH" needs a file and cannot be shared.
_PRESET_LETTERS: Final = {"card-commons": "c", "standard": "s", "classic": "k"}
OPPONENT_LEVELS: Final = {"random": "r", "easy": "e", "normal": "n", "hard": "h",
                          "expert": "x", "shooter": "s"}
"""The levels a challenge seats, with their letters in the code."""

_HARD_SHARE: Final = 4
"""``hard`` searches a quarter of the worlds ``expert`` does (its time budget is 0.2 s to
expert's 0.7 s): fixed here, not derived from the budgets, so old codes replay the same."""
_BASE: Final = len(CODE_ALPHABET)  # 31, a prime: the check relies on it
_VALUES: Final = {char: value for value, char in enumerate(CODE_ALPHABET)}
_NUMBER_WIDTH: Final = 2
_CHALLENGER: Final = 0


class ChallengeError(HeartsError, ValueError):
    """A challenge code or specification that is not valid; says what is allowed."""


class ForgedEntryError(ChallengeError):
    """A record that is not a true play of the challenge: names the first difference."""


class StaleChallengeError(ChallengeError):
    """A challenge of an older revision: its computers are not this program's."""


def _check_value(body: str) -> int:
    """The value that makes the weighted sum of ``body`` and it 0 modulo 31.

    Weights run 1, 2, ... along the code, which is shorter than 31: a changed character
    changes the sum by a non-zero multiple of a unit, and swapping two neighbours by
    their difference, so neither can keep it 0.
    """
    total = sum((index + 1) * _VALUES[char] for index, char in enumerate(body))
    weight = len(body) + 1
    return (-total * pow(weight, -1, _BASE)) % _BASE


def _number(value: int) -> str:
    high, low = divmod(value, _BASE)
    return CODE_ALPHABET[high] + CODE_ALPHABET[low]


def _read_number(text: str) -> int:
    return _VALUES[text[0]] * _BASE + _VALUES[text[1]]


def seed_error(seed: object) -> str | None:
    """What is wrong with a challenge seed (its code is made of it), or None."""
    if not isinstance(seed, str) or not 1 <= len(seed) <= MAX_SEED_LENGTH:
        return f"a challenge seed is 1 to {MAX_SEED_LENGTH} characters, not {seed!r}"
    wrong = sorted({char for char in seed if char not in _VALUES})
    if wrong:
        return (f"seed {seed!r}: {', '.join(repr(c) for c in wrong)} cannot be in a code; "
                f"use digits and lowercase letters but i, l, o, u, v")
    return None


@dataclass(frozen=True, slots=True)
class Challenge:
    """A duplicate challenge: the same deals and the same computer opponents for all."""

    preset: str
    players: int
    opponents: tuple[str, ...]
    deals: int
    seed: str
    iterations: int = DEFAULT_ITERATIONS
    revision: str = CODE_VERSION

    def __post_init__(self) -> None:
        if not isinstance(self.revision, str) or self.revision not in _REVISIONS:
            raise ChallengeError(f"a challenge's revision is one of {', '.join(_REVISIONS)}, "
                                 f"not {self.revision!r}")
        if self.preset not in PRESETS:
            raise ChallengeError(f"unknown preset {self.preset!r}; presets are: "
                                 f"{', '.join(PRESETS)}")
        allowed = PLAYER_COUNTS[self.preset]
        if not isinstance(self.opponents, tuple) or self.players != len(self.opponents) + 1 \
                or self.players not in allowed:
            raise ChallengeError(
                f"{self.preset} is played by {allowed.start} to {allowed.stop - 1} players: "
                f"give {allowed.start - 1} to {allowed.stop - 2} opponents, not "
                f"{len(self.opponents)}" if len(allowed) > 1 else
                f"{self.preset} is played by {allowed.start} players: give "
                f"{allowed.start - 1} opponents, not {len(self.opponents)}")
        for level in self.opponents:
            if level not in OPPONENT_LEVELS:
                raise ChallengeError(f"a challenge opponent is one of "
                                     f"{', '.join(OPPONENT_LEVELS)}, not {level!r}")
        for name, value, most in (("deals", self.deals, MAX_DEALS),
                                  ("iterations", self.iterations, MAX_ITERATIONS)):
            if not is_whole_number(value, 1, most):
                raise ChallengeError(f"{name} must be a whole number from 1 to {most}, "
                                     f"not {value!r}")
        problem = seed_error(self.seed)
        if problem:
            raise ChallengeError(problem)

    # ----------------------------------------------------------------- building
    @classmethod
    def create(cls, preset: str, opponents: Sequence[str], deals: int, seed: str,
               iterations: int = DEFAULT_ITERATIONS) -> Challenge:
        """A validated challenge (the seed is taken in lowercase); ChallengeError says
        what is wrong and what is allowed."""
        if isinstance(opponents, str):
            raise ChallengeError("opponents are a list of levels, one a computer seat")
        levels = tuple(str(level).strip().lower() for level in opponents)
        seed = seed.strip().lower() if isinstance(seed, str) else seed
        return cls(preset, len(levels) + 1, levels, deals, seed, iterations, CODE_VERSION)

    @property
    def code(self) -> str:
        """The short, URL-safe code that names this challenge (with its check character)."""
        body = (self.revision + _PRESET_LETTERS[self.preset] + str(self.players)
                + "".join(OPPONENT_LEVELS[level] for level in self.opponents)
                + _number(self.deals) + _number(self.iterations)
                + CODE_ALPHABET[len(self.seed)] + self.seed)
        return body + CODE_ALPHABET[_check_value(body)]

    @classmethod
    def parse(cls, code: str) -> Challenge:
        """The challenge a code names; ChallengeError says what is wrong with it."""
        if not isinstance(code, str):
            raise ChallengeError(f"a challenge code is text, not {code!r}")
        text = code.strip().lower()
        shortest = 1 + 1 + 1 + 1 + 2 * _NUMBER_WIDTH + 1 + 1 + 1
        if not shortest <= len(text) < _BASE:
            raise ChallengeError(f"a challenge code is {shortest} to {_BASE - 1} characters; "
                                 f"{code!r} has {len(text)}")
        wrong = sorted({char for char in text if char not in _VALUES})
        if wrong:
            raise ChallengeError(
                f"challenge code {code!r}: {', '.join(repr(c) for c in wrong)} is not in a "
                f"code (digits and letters but i, l, o, u, v)")
        body, check = text[:-1], text[-1]
        if CODE_ALPHABET[_check_value(body)] != check:
            raise ChallengeError(f"challenge code {code!r} does not check out: a character "
                                 "is mistyped or two are swapped")
        if body[0] not in _REVISIONS:
            raise ChallengeError(f"challenge code {code!r} is of revision {body[0]!r}, made "
                                 f"by a newer program; this one plays revision {CODE_VERSION}")
        presets = {letter: name for name, letter in _PRESET_LETTERS.items()}
        levels = {letter: name for name, letter in OPPONENT_LEVELS.items()}
        preset = presets.get(body[1])
        if preset is None or body[2] not in "23456789":
            raise ChallengeError(f"challenge code {code!r} names no preset and player count")
        players = int(body[2])
        rest = body[3:]
        if len(rest) < players - 1 + 2 * _NUMBER_WIDTH + 2:
            raise ChallengeError(f"challenge code {code!r} is cut short")
        letters, rest = rest[:players - 1], rest[players - 1:]
        if any(letter not in levels for letter in letters):
            raise ChallengeError(f"challenge code {code!r} names an unknown opponent level")
        deals = _read_number(rest[:_NUMBER_WIDTH])
        iterations = _read_number(rest[_NUMBER_WIDTH:2 * _NUMBER_WIDTH])
        seed_length, seed = _VALUES[rest[2 * _NUMBER_WIDTH]], rest[2 * _NUMBER_WIDTH + 1:]
        if len(seed) != seed_length:
            raise ChallengeError(f"challenge code {code!r} has a seed of {len(seed)} "
                                 f"characters where it says {seed_length}: cut short or run on")
        return cls(preset, players, tuple(levels[letter] for letter in letters), deals, seed,
                   iterations, body[0])

    @property
    def stale(self) -> str | None:
        """Why this challenge can be neither played nor checked here (None: it can)."""
        if self.revision == CODE_VERSION:
            return None
        return (f"Challenge {self.code} was made with revision {self.revision} of the "
                f"computer players. These are revision {CODE_VERSION} and would not play its "
                "deals as they were played, so it can no longer be played or checked here; "
                "its results stand. Make a new challenge to play again.")

    def require_playable(self) -> None:
        """Raise :class:`StaleChallengeError` if this program cannot play the challenge."""
        if self.stale is not None:
            raise StaleChallengeError(self.stale)

    # ------------------------------------------------------------------ the game
    @property
    def rules(self) -> Rules:
        """The preset for this many players, ending after ``deals`` rounds whatever the
        totals (the target set out of reach, so every deal is played)."""
        return Rules.preset_rules(self.preset, self.players).replace(
            rounds=self.deals, target=MAX_TARGET)

    def new_game(self) -> GameState:
        """The challenge's game, dealt as the seeded game of its seed deals it."""
        return new_game(self.rules, self.seed)

    def round_seed(self, round_no: int) -> str:
        """The deal seed of round ``round_no`` (its hands: ``deal_hands(rules, seed)``)."""
        return round_deal_seed(self.seed, round_no)

    def computer(self, seat: int) -> Player:
        """The computer opponent in ``seat`` (1 and up): the same view, the same action."""
        if not is_whole_number(seat, _CHALLENGER + 1, self.players - 1):
            raise ChallengeError(f"the computer seats are 1 to {self.players - 1}, not {seat!r}")
        return _Computer(self, seat)

    def describe(self) -> dict[str, Any]:
        """The challenge as JSON for pages and the API (what anyone with the code knows)."""
        return {"code": self.code, "preset": self.preset, "players": self.players,
                "opponents": list(self.opponents), "deals": self.deals,
                "iterations": self.iterations, "seed": self.seed, "rules": self.rules.text,
                "revision": self.revision, "stale": self.stale}


class _Computer:
    """A challenge opponent: a fresh, seeded player of its level for every decision."""

    def __init__(self, challenge: Challenge, seat: int) -> None:
        self.challenge = challenge
        self.seat = seat
        self.level = challenge.opponents[seat - 1]
        self.name = self.level

    def _player(self, seen: PlayerView) -> Player:
        if seen.seat != self.seat:
            raise ChallengeError(f"this is seat {self.seat}'s opponent, shown seat "
                                 f"{seen.seat}'s view")
        # the decision's place: each seat passes once, plays once a trick, chooses a moon once
        place = f"{seen.round_no}/{seen.phase.value}/{len(seen.tricks)}"
        seed = f"challenge/{self.challenge.seed}/{self.seat}/{place}"
        worlds = self.challenge.iterations
        if self.level == "hard":
            worlds = max(1, worlds // _HARD_SHARE)
        return make_player(self.level, seed, iterations=worlds)

    def choose_pass(self, view: PlayerView) -> CardSet:
        return self._player(view).choose_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        return self._player(view).choose_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self._player(view).choose_moon(view)


# ---------------------------------------------------------------------- entries
@dataclass(frozen=True, slots=True)
class ChallengeResult:
    """A checked entry: the challenger's points deal by deal."""

    name: str
    points: tuple[int, ...]
    total: int
    complete: bool
    fingerprint: str


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return f"plays {action.card}"
    if isinstance(action, PassCards):
        return f"passes {action.cards}"
    if isinstance(action, ChooseMoon):
        return f"chooses {action.choice.value} for the moon"
    return "deals"


def _where(state: GameState, seat: int) -> str:
    if state.phase is Phase.PLAY:
        return f"round {state.round_no}, trick {state.trick_no}, seat {seat}"
    return f"round {state.round_no} ({state.phase.value}), seat {seat}"


def _check_header(challenge: Challenge, record: Mapping[str, Any]) -> None:
    rules = record.get("rules")
    try:
        same = isinstance(rules, str) and Rules.parse(rules) == challenge.rules
    except HeartsError:
        same = False
    if not same:
        raise ForgedEntryError(f"the record's rules are {rules!r}; challenge "
                               f"{challenge.code} is played under {challenge.rules.text!r}")
    if record.get("seed") != challenge.seed:
        raise ForgedEntryError(f"the record's seed is {record.get('seed')!r}; challenge "
                               f"{challenge.code} deals from seed {challenge.seed!r}")


def check_entry(challenge: Challenge, record: Mapping[str, Any]) -> ChallengeResult:
    """Re-check a game record as a play of ``challenge`` and give its result.

    The rules and seed must be the challenge's; the replay through the core re-derives
    every deal from the seed and checks every action and stated result; then every
    computer seat's every action is decided again from that seat's view at that moment.
    :class:`ForgedEntryError` names the first thing that differs.
    """
    challenge.require_playable()
    if not isinstance(record, Mapping):
        raise ForgedEntryError("a challenge entry is a game record (a JSON object)")
    _check_header(challenge, record)
    try:
        final = replay_record(record)
    except InvalidRecordError as exc:
        raise ForgedEntryError(f"the record does not replay: {exc}") from exc
    if final.first_round != 1 or any(final.start_totals):
        raise ForgedEntryError("a challenge is played from round 1 with every total 0")
    state = challenge.new_game()
    if final.history[:len(state.history)] != state.history:
        raise ForgedEntryError("round 1 is not the challenge's first deal")
    computers = {seat: challenge.computer(seat) for seat in range(1, challenge.players)}
    for action in final.history[len(state.history):]:
        seat = _CHALLENGER if isinstance(action, Deal) else action.seat
        if seat != _CHALLENGER:
            expected = decide(computers[seat], view(state, seat))
            if expected != action:
                raise ForgedEntryError(
                    f"{_where(state, seat)}: the computer {_describe(expected)}, the record "
                    f"says it {_describe(action)}")
        state = state.apply(action)
    points = tuple(result.points[_CHALLENGER] for result in final.results)
    return ChallengeResult(
        name=record_seats(record, challenge.players)[_CHALLENGER],
        points=points, total=sum(points), complete=final.is_over,
        fingerprint=fingerprint(final))


def fingerprint(game: GameState) -> str:
    """A play's name on a leaderboard: a digest of every action but the deals, so the
    same play is one entry whoever sends it, and it needs no re-check to compute."""
    moves = [(action.seat, *encode_action(action)) for action in game.history
             if not isinstance(action, Deal)]
    digest = hashlib.sha256(json.dumps(moves, separators=(",", ":")).encode("utf-8"))
    return digest.hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One complete entry's standing: its place overall and on each deal (1: best)."""

    place: int
    result: ChallengeResult
    deal_places: tuple[int, ...]


def _places(scores: Sequence[int]) -> list[int]:
    """Standard competition places for points (fewest first; ties share, then a gap)."""
    return [1 + sum(other < score for other in scores) for score in scores]


def leaderboard(results: Sequence[ChallengeResult]) -> list[LeaderboardRow]:
    """The complete results ranked by total points (fewest first; ties share a place,
    in name order), each with its place on every deal among the same entries.
    Unfinished entries are not ranked."""
    complete = sorted((r for r in results if r.complete), key=lambda r: (r.total, r.name))
    if not complete:
        return []
    deals = min(len(r.points) for r in complete)
    overall = _places([r.total for r in complete])
    by_deal = [_places([r.points[deal] for r in complete]) for deal in range(deals)]
    return [LeaderboardRow(overall[i], result, tuple(places[i] for places in by_deal))
            for i, result in enumerate(complete)]
