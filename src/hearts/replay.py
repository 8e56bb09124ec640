"""A finished game's replay: every position of a record, with every hand open.

A replay shows what nobody at the table could see while playing, so it is only for
records (finished games, or a hand once it is over), never for a game in progress. It is
a face-level module beside :mod:`hearts.scoresheet` because three faces step through the
same positions: ``hearts replay FILE --step`` (the terminal), the server's ``POST
/api/replay`` (the browser's ``/replay`` page) and ``hearts stats``, which reads each
round's end from :func:`walk`.

Nothing here decides a rule. The record is re-checked by the core (``replay_game`` or
``replay_hand``); each round is restarted from the core's hand record and its actions
re-applied by ``GameState.apply``; a frame holds the core's ``view`` of every seat (each
seat's own hand) and a spectator's view (the trick, who took it, points, totals). A
frame's JSON is what the browser shows, so the page restates nothing.

>>> from hearts.core import Rules, game_record, new_game
>>> from hearts.players import RandomPlayer
>>> from hearts.players.driver import run_game
>>> rules = Rules.preset_rules("card-commons", 4)
>>> final = run_game(new_game(rules, seed="doc"), [RandomPlayer(s) for s in range(4)])
>>> replay = build_replay(game_record(final))
>>> replay.frames[-1].spectator.totals == final.totals
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hearts.core import (
    MAX_TOTAL,
    Action,
    ChooseMoon,
    CodecError,
    GameState,
    InvalidRecordError,
    PassCards,
    Phase,
    Play,
    PlayerView,
    decode_card,
    decode_cards,
    decode_moon_choice,
    encode_card,
    encode_cards,
    encode_moon_choice,
    is_whole_number,
    record_seats,
    replay_record,
    round_steps,
    view,
)

__all__ = ["ANALYSIS_ITERATIONS", "ANALYSIS_SEED", "FRAMES_FORMAT", "MOST_COSTLY", "Frame",
           "Replay", "Step", "action_json", "analyze_for_replay", "build_replay",
           "marked_decisions", "most_costly", "walk"]

FRAMES_FORMAT: Final = "card-commons-hearts/replay"
"""The ``format`` of a replay's JSON (``docs/web-protocol.md``, the replay API)."""
MOST_COSTLY: Final = 5
"""How many of an analysis's costliest decisions a replay lists."""
ANALYSIS_ITERATIONS: Final = 200
"""Deals the search samples a decision in a replay's analysis: a whole game in seconds."""
ANALYSIS_SEED: Final = "replay"
"""A replay's analysis is seeded: the same record gets the same marks every time."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a game, with the state it led to (``action`` None: the deal)."""

    round_no: int
    action: Action | None
    state: GameState


def walk(final: GameState) -> Iterator[Step]:
    """Every position of the game ``final`` ends, in order (:func:`round_steps`)."""
    return (Step(*step) for step in round_steps(final))


def action_json(action: Action | None) -> dict[str, Any] | None:
    """An action as the replay shows it: its kind, seat and cards (or moon choice)."""
    if isinstance(action, PassCards):
        return {"kind": "pass", "seat": action.seat, "cards": encode_cards(action.cards)}
    if isinstance(action, Play):
        return {"kind": "play", "seat": action.seat, "card": encode_card(action.card)}
    if isinstance(action, ChooseMoon):
        return {"kind": "moon", "seat": action.seat,
                "choice": encode_moon_choice(action.choice)}
    return None


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of a replay: the action that led to it, every seat's view (its own
    hand), a spectator's view, and the trick on the table with who took it."""

    index: int
    round_no: int
    action: Action | None
    views: tuple[PlayerView, ...]
    spectator: PlayerView
    table: tuple[tuple[int, int], ...]
    took: int | None

    @property
    def trick_done(self) -> bool:
        """Whether this frame's play completed a trick."""
        return self.took is not None

    def to_json(self) -> dict[str, Any]:
        """The frame as the browser shows it (cards as canonical names)."""
        seen = self.spectator
        last = seen.results[-1] if seen.results and seen.results[-1].round_no == self.round_no \
            else None
        return {
            "index": self.index,
            "round": self.round_no,
            "phase": seen.phase.value,
            "trick": seen.trick_no + (0 if self.took is not None or not seen.trick else 1),
            "action": action_json(self.action),
            "hands": [encode_cards(v.hand) for v in self.views],
            "passed": [None if v.passed is None else encode_cards(v.passed)
                       for v in self.views],
            "received": [None if v.received is None else encode_cards(v.received)
                         for v in self.views],
            "pass_direction": seen.pass_direction,
            "to_act": list(seen.to_act) if seen.phase is not Phase.OVER else [],
            "table": [[seat, encode_card(card)] for seat, card in self.table],
            "took": self.took,
            "points_taken": list(seen.points_taken),
            "totals": list(seen.totals),
            "result": None if last is None else {
                "points": list(last.points), "shooter": last.shooter,
                "moon_choice": None if last.moon_choice is None
                else encode_moon_choice(last.moon_choice)},
            "winners": list(seen.winners),
        }


def _frame(index: int, step: Step) -> Frame:
    state = step.state
    views = tuple(view(state, seat) for seat in range(state.players))
    seen = view(state, None)
    took: int | None = None
    if seen.trick:
        table: tuple[tuple[int, int], ...] = tuple(seen.trick)
    elif isinstance(step.action, Play) and seen.tricks:
        table = seen.last_trick_plays
        took = seen.tricks[-1].winner
    else:
        table = ()
    return Frame(index, step.round_no, step.action, views, seen, table, took)


@dataclass(frozen=True, slots=True)
class Replay:
    """A record's frames, its seat names and rules, and where each round starts."""

    rules: str
    names: tuple[str, ...]
    frames: tuple[Frame, ...]

    @property
    def round_starts(self) -> dict[int, int]:
        """The first frame of each round, by round number."""
        starts: dict[int, int] = {}
        for frame in self.frames:
            starts.setdefault(frame.round_no, frame.index)
        return starts

    def next_trick(self, index: int) -> int:
        """The frame after ``index`` that completes a trick (or ends the round), else the last."""
        for frame in self.frames[index + 1:]:
            if frame.trick_done or frame.action is None or frame.index == len(self.frames) - 1:
                return frame.index
        return len(self.frames) - 1

    def previous_trick(self, index: int) -> int:
        """The frame before ``index`` that completed a trick (or dealt a round), else the first."""
        for frame in reversed(self.frames[:index]):
            if frame.trick_done or frame.action is None:
                return frame.index
        return 0

    def to_json(self) -> dict[str, Any]:
        """The whole replay as the browser steps through it."""
        return {"format": FRAMES_FORMAT, "rules": self.rules, "names": list(self.names),
                "players": len(self.names),
                "rounds": [{"round": r, "frame": i} for r, i in self.round_starts.items()],
                "frames": [frame.to_json() for frame in self.frames]}


def build_replay(data: Mapping[str, Any]) -> Replay:
    """The replay of a game or hand record (re-checked first: an :class:`InvalidRecordError`
    for a record the rules refuse)."""
    final = replay_record(data)
    frames = tuple(_frame(i, step) for i, step in enumerate(walk(final)))
    return Replay(final.rules.text, record_seats(data, final.players), frames)


def marked_decisions(replay: Replay, analysis: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The analysed decisions (``hearts analyze --json``'s ``decisions``), each with the
    ``frame`` its action leads to; an :class:`InvalidRecordError` when the analysis is of
    another game."""
    decisions = analysis.get("decisions") if isinstance(analysis, Mapping) else None
    if not isinstance(decisions, list):
        raise InvalidRecordError("an analysis is a JSON object with a list of decisions")
    by_action: dict[tuple[int, str], int] = {}
    for frame in replay.frames:
        shown = action_json(frame.action)
        if shown is not None:
            by_action[(frame.round_no, _action_key(shown))] = frame.index
    marked: list[dict[str, Any]] = []
    for decision in decisions:
        if not isinstance(decision, Mapping):
            raise InvalidRecordError("each decision of an analysis is a JSON object")
        choices, loss = decision.get("choices"), decision.get("loss")
        # a loss beyond any total is refused with NaN and the infinities (no comparison
        # holds for NaN), and so is a 400-digit int, which no float can hold
        if (not is_whole_number(choices) or isinstance(loss, bool)
                or not isinstance(loss, int | float) or not -MAX_TOTAL <= loss <= MAX_TOTAL
                or "best" not in decision):
            raise InvalidRecordError(
                "each decision of an analysis states its choices (a whole number), its loss "
                f"(a number from -{MAX_TOTAL} to {MAX_TOTAL}) and its best action, as hearts "
                "analyze --json writes them")
        taken = decision.get("taken")
        kind = decision.get("kind")
        field = "cards" if kind == "pass" else "card" if kind == "play" else "choice"
        shown = {"kind": kind, "seat": decision.get("seat"), field: taken}
        index = by_action.get((_round(decision), _action_key(shown)))
        if index is None:
            raise InvalidRecordError(
                f"the analysis has a decision this record lacks (round {decision.get('round')}, "
                f"seat {decision.get('seat')}, {kind} {taken}): it is the analysis of "
                "another game")
        try:  # shown as the taken action is: a card, the cards passed, a moon choice
            (decode_cards if kind == "pass" else decode_card if kind == "play"
             else decode_moon_choice)(decision["best"], "best")
        except CodecError as exc:
            raise InvalidRecordError(f"the analysis's best action for round "
                                     f"{decision.get('round')}, seat {decision.get('seat')}: "
                                     f"{exc}") from None
        marked.append({**decision, "frame": index})
    return marked


def analyze_for_replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The people's decisions judged by :func:`hearts.players.analysis.analyze`, seeded and
    with a fixed number of sampled deals (a bounded time), as JSON."""
    from hearts.players.analysis import analyze  # the search: loaded only when asked

    return analyze(record, seed=ANALYSIS_SEED, iterations=ANALYSIS_ITERATIONS).to_json()


def most_costly(decisions: Sequence[Mapping[str, Any]],
                count: int = MOST_COSTLY) -> list[Mapping[str, Any]]:
    """The ``count`` decisions that gave up most (a loss above zero), most costly first."""
    costly = [d for d in decisions if isinstance(d.get("loss"), int | float) and d["loss"] > 0
              and (d.get("choices") or 0) > 1]
    return sorted(costly, key=lambda d: -float(d["loss"]))[:count]


def _round(decision: Mapping[str, Any]) -> int:
    number = decision.get("round")
    return number if is_whole_number(number) else -1


def _action_key(shown: Mapping[str, Any]) -> str:
    cards = shown.get("cards")
    if isinstance(cards, list):
        cards = sorted(str(c) for c in cards)
    return repr((shown.get("kind"), shown.get("seat"), cards, shown.get("card"),
                 shown.get("choice")))
