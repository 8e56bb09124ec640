"""The score sheet of a game played with a real deck (``000_…txt``, "Playing with
your own deck"): rounds are entered as each player's points or as the hearts and
Q♠ each took, checked against the deck, and added as numbered lines with totals.

Every entry is turned into the point cards each player took, so the points come
from :func:`card_points` and the moon from the rules' :class:`MoonRule`. Reading typed
entries and exporting the sheet (CSV, Markdown) are the faces' part:
:mod:`hearts.scoresheet`. ::

    >>> sheet = Sheet(Rules.parse("card-commons:target=30"), ("Ann", "Bo", "Cy", "Di"))
    >>> sheet = sheet.add_round(points=(26, 0, 0, 0))
    >>> sheet.results[-1].points
    (-26, 0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.core.cards import HEART_MASK, JACK_MASK, QUEEN_MASK, iter_mask
from hearts.core.errors import HeartsError
from hearts.core.inputs import echoed, is_utf8_text, is_whole_number, same_name, shown_name
from hearts.core.rules import Rules
from hearts.core.scoring import (
    MoonChoice,
    card_points,
    fixed_moon_choice,
    game_over,
    game_winners,
    moon_points,
    moon_shooter,
    round_points,
)
from hearts.core.state import RoundResult

__all__ = [
    "SHEET_FORMAT",
    "InvalidRoundError",
    "InvalidSheetError",
    "MoonChoiceNeededError",
    "RoundEntry",
    "Sheet",
    "Taken",
]

SHEET_FORMAT: Final = "card-commons-hearts/sheet"
_SHEET_VERSION: Final = 1


class InvalidRoundError(HeartsError, ValueError):
    """A round entry that no deal can produce; the message says what is wrong."""


class MoonChoiceNeededError(InvalidRoundError):
    """A moon was shot where the shooter chooses: ask them, then enter the round again."""

    def __init__(self, shooter: int, name: str) -> None:
        self.shooter = shooter
        super().__init__(
            f"{name} shot the moon; under these rules the shooter chooses: "
            f"subtract (take the moon's points off {name}) or add (give them to everyone else)")


class InvalidSheetError(HeartsError, ValueError):
    """Bad player names, a sheet file that does not load, or a round past the game's end."""


@dataclass(frozen=True, slots=True)
class Taken:
    """The point cards one player took in a round: how many hearts, the Q♠, the J♦."""

    hearts: int = 0
    queen: bool = False
    jack: bool = False


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round as entered and checked: the point cards each player took, the moon choice."""

    taken: tuple[Taken, ...]
    moon_choice: MoonChoice | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A frozen score sheet: the rules, the players' names and the rounds entered so far."""

    rules: Rules
    names: tuple[str, ...]
    entries: tuple[RoundEntry, ...] = ()
    results: tuple[RoundResult, ...] = field(init=False, repr=False, compare=False)
    """One :class:`RoundResult` a round: points after the moon rule, running totals."""

    def __post_init__(self) -> None:
        given = tuple(str(n).strip() for n in self.names)
        if len(given) != self.rules.players:
            raise InvalidSheetError(
                f"{self.rules.preset} with {self.rules.players} players needs "
                f"{self.rules.players} names, got {len(given)}")
        if not all(given):
            raise InvalidSheetError("every player needs a name")
        if not all(is_utf8_text(name) for name in given):
            raise InvalidSheetError("a name is text that UTF-8 can write (a byte of another "
                                    "encoding was typed, or a lone surrogate)")
        names = tuple(shown_name(name) or "" for name in given)
        if not all(names):
            unseen = ", ".join(echoed(name) for name, shown
                               in zip(given, names, strict=True) if not shown)
            raise InvalidSheetError(f"every player needs a name that shows a letter, digit or "
                                    f"sign; {unseen} has none")
        if len({same_name(n) for n in names}) != len(names):
            raise InvalidSheetError(f"names must differ: {', '.join(names)}")
        object.__setattr__(self, "names", names)
        # Scoring every entry again also checks entries that did not come through add_round.
        object.__setattr__(self, "results", _score_all(self.rules, self.names, self.entries))

    # ------------------------------------------------------------- observation
    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's total so far."""
        return self.results[-1].totals if self.results else (0,) * len(self.names)

    @property
    def is_over(self) -> bool:
        """True after the round in which someone reached the target (or the last round
        of a game of a fixed number of ``rounds``)."""
        return game_over(self.totals, self.rules, len(self.results))

    @property
    def winners(self) -> tuple[int, ...]:
        """Players tied for the lowest total once the game is over (ties share the win)."""
        return game_winners(self.totals, self.rules, len(self.results))

    # ------------------------------------------------------------------ entry
    def add_round(self, *, points: Sequence[int] | None = None,
                  taken: Sequence[Taken] | None = None, jack: int | None = None,
                  moon_choice: MoonChoice | None = None) -> Sheet:
        """The sheet with one more round, entered as ``points`` per player (as counted in
        the tricks, J♦ included; ``jack`` names its taker under that house rule) or as
        ``taken`` cards per player. Raises :class:`InvalidRoundError` saying what is wrong."""
        if self.is_over:
            winners = " and ".join(self.names[s] for s in self.winners)
            raise InvalidRoundError(f"the game is over ({winners} won); no round can follow")
        entry = self.check_round(points=points, taken=taken, jack=jack, moon_choice=moon_choice)
        return Sheet(self.rules, self.names, (*self.entries, entry))

    def correct_last_round(self, *, points: Sequence[int] | None = None,
                           taken: Sequence[Taken] | None = None, jack: int | None = None,
                           moon_choice: MoonChoice | None = None) -> Sheet:
        """The sheet with its last round replaced by a new entry."""
        return self.drop_last_round().add_round(
            points=points, taken=taken, jack=jack, moon_choice=moon_choice)

    def drop_last_round(self) -> Sheet:
        """The sheet without its last round."""
        if not self.entries:
            raise InvalidRoundError("there is no round to correct yet")
        return Sheet(self.rules, self.names, self.entries[:-1])

    def check_round(self, *, points: Sequence[int] | None = None,
                    taken: Sequence[Taken] | None = None, jack: int | None = None,
                    moon_choice: MoonChoice | None = None) -> RoundEntry:
        """Check one round's entry and return it as the cards each player took."""
        if (points is None) == (taken is None):
            raise InvalidRoundError("enter a round either as points or as the cards taken")
        cards = (_taken_from_points(self.rules, self.names, points, jack) if points is not None
                 else _check_taken(self.rules, self.names, taken or ()))
        entry = RoundEntry(cards, moon_choice)
        _score_round(self.rules, self.names, entry)
        return entry

    # ------------------------------------------------------------- the sheet file
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that :meth:`from_json` reads back."""
        return {
            "format": SHEET_FORMAT,
            "version": _SHEET_VERSION,
            "rules": self.rules.text,
            "names": list(self.names),
            "rounds": [
                {
                    "taken": [{"hearts": t.hearts, "queen": t.queen, "jack": t.jack}
                              for t in entry.taken],
                    "moon_choice": None if entry.moon_choice is None else entry.moon_choice.value,
                    "points": list(result.points),
                    "totals": list(result.totals),
                }
                for entry, result in zip(self.entries, self.results, strict=True)
            ],
            "complete": self.is_over,
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sheet:
        """Read a sheet back, checking every round again."""
        if not isinstance(data, Mapping) or data.get("format") != SHEET_FORMAT:
            raise InvalidSheetError(f"not a score sheet (format {SHEET_FORMAT!r} expected)")
        version = data.get("version")
        if not is_whole_number(version) or version != _SHEET_VERSION:
            raise InvalidSheetError(f"sheet version {echoed(version)} is not supported")
        rules_text, names_given = data.get("rules"), data.get("names")
        if not isinstance(rules_text, str) or not isinstance(names_given, list) or not all(
                isinstance(name, str) for name in names_given):
            raise InvalidSheetError("sheet: rules is a rules text and names a list of names, "
                                    f"not {echoed(rules_text)} and {echoed(names_given)}")
        try:
            rules = Rules.parse(rules_text)
            names = tuple(names_given)
            entries = tuple(
                RoundEntry(
                    tuple(_taken_from_json(t) for t in entry["taken"]),
                    None if entry["moon_choice"] is None else MoonChoice(entry["moon_choice"]))
                for entry in data["rounds"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidSheetError):  # says "sheet:" already
                raise
            if isinstance(exc, HeartsError):
                raise InvalidSheetError(f"sheet: {exc}") from exc
            raise InvalidSheetError(f"sheet: malformed field ({exc})") from None
        try:
            sheet = cls(rules, names, entries)
        except InvalidRoundError as exc:
            raise InvalidSheetError(f"sheet: a saved round does not add up: {exc}") from exc
        sheet._check_saved_figures(data)
        return sheet

    def _check_saved_figures(self, data: Mapping[str, Any]) -> None:
        """Refuse a file whose written points, totals, end or winners are not what its
        cards taken make (a hand edit of a total would otherwise be dropped unsaid)."""
        for number, (entry, result) in enumerate(zip(data["rounds"], self.results,
                                                     strict=True), 1):
            for key, made in (("points", result.points), ("totals", result.totals)):
                if key in entry and entry[key] != list(made):
                    raise InvalidSheetError(
                        f"sheet: round {number} says {key} {echoed(entry[key])}, but its cards "
                        f"taken make {', '.join(map(str, made))}")
        written: tuple[tuple[str, object], ...] = (("complete", self.is_over),
                                                   ("winners", list(self.winners)))
        for field_name, shown in written:
            if field_name in data and data[field_name] != shown:
                raise InvalidSheetError(f"sheet: it says {field_name} {echoed(data[field_name])},"
                                        f" but its rounds make {shown!r}")


def _taken_from_json(data: Mapping[str, Any]) -> Taken:
    """One player's cards taken in a saved round, each field of its own kind (a file's
    ``2.7`` hearts or ``"false"`` queen is refused, not read as 2 or as taken)."""
    hearts, queen, jack = data["hearts"], data["queen"], data["jack"]
    if not is_whole_number(hearts):
        raise InvalidSheetError(f"sheet: hearts taken is a whole number, not {echoed(hearts)}")
    if not isinstance(queen, bool) or not isinstance(jack, bool):
        raise InvalidSheetError(f"sheet: queen and jack are true or false, not {echoed(queen)} "
                                f"and {echoed(jack)}")
    return Taken(hearts, queen, jack)


# ---------------------------------------------------------------------------- checks
def _deck_hearts(rules: Rules) -> int:
    return (rules.deck & HEART_MASK).bit_count()


def _has(rules: Rules, mask: int) -> bool:
    return bool(rules.deck & mask)


def _check_count(names: Sequence[str], values: Sequence[object], what: str) -> None:
    if len(values) != len(names):
        raise InvalidRoundError(
            f"enter {what} for each of the {len(names)} players "
            f"({', '.join(names)}); got {len(values)}")


def _check_taken(rules: Rules, names: Sequence[str], taken: Sequence[Taken]) -> tuple[Taken, ...]:
    _check_count(names, taken, "the cards taken")
    hearts = _deck_hearts(rules)
    for name, cards in zip(names, taken, strict=True):
        if not 0 <= cards.hearts <= hearts:
            raise InvalidRoundError(
                f"{name} took {cards.hearts} hearts; a player takes 0 to {hearts}")
    total = sum(t.hearts for t in taken)
    if total != hearts:
        raise InvalidRoundError(f"hearts add to {total}, there are {hearts}")
    _check_single(rules, names, [t.queen for t in taken], QUEEN_MASK, "Q♠")
    if rules.jack_of_diamonds:
        _check_single(rules, names, [t.jack for t in taken], JACK_MASK, "J♦")
        return tuple(taken)
    # Without the house rule the J♦ scores nothing, so a ticked J♦ is simply dropped.
    return tuple(Taken(t.hearts, t.queen) for t in taken)


def _check_single(rules: Rules, names: Sequence[str], flags: Sequence[bool], mask: int,
                  card: str) -> None:
    holders = [names[s] for s, flag in enumerate(flags) if flag]
    if not _has(rules, mask):
        if holders:
            raise InvalidRoundError(f"the {card} is not in this deck; {holders[0]} cannot take it")
        return
    if len(holders) > 1:
        raise InvalidRoundError(
            f"only one player can take the {card}; {' and '.join(holders)} are marked")
    if not holders:
        raise InvalidRoundError(f"nobody is marked with the {card}; one player takes it")


def _taken_from_points(rules: Rules, names: Sequence[str], points: Sequence[int],
                       jack: int | None) -> tuple[Taken, ...]:
    """The cards each player must have taken to score ``points`` (as counted in the tricks)."""
    _check_count(names, points, "points")
    jack_value = card_points(JACK_MASK, rules)
    if rules.jack_scores:
        if jack is None or not 0 <= jack < len(names):
            raise InvalidRoundError(
                f"with the J♦ house rule ({jack_value}), say who took the J♦")
    elif jack is not None:
        raise InvalidRoundError("the J♦ scores nothing under these rules; leave it out")
    hearts = _deck_hearts(rules)
    queen = card_points(QUEEN_MASK, rules) if _has(rules, QUEEN_MASK) else 0
    expected = moon_points(rules)
    counted = [int(p) - (jack_value if seat == jack else 0) for seat, p in enumerate(points)]
    for seat, value in enumerate(counted):
        if value < 0:
            raise InvalidRoundError(
                f"{names[seat]} has {points[seat]} points; points taken cannot be negative "
                f"(for a moon enter the shooter's {expected}: the sheet applies the moon rule)")
        if value > hearts + queen:
            raise InvalidRoundError(
                f"{names[seat]} has {points[seat]} points; nobody can take more than "
                f"{hearts + queen + (jack_value if seat == jack else 0)}")
    if sum(counted) != expected:
        parts = [f"{hearts} hearts"]
        if queen:
            parts.append(f"the Q♠ {queen}")
        if jack is not None:
            parts.append(f"the J♦ {jack_value}")
        holds = expected + (jack_value if jack is not None else 0)
        raise InvalidRoundError(f"the points add up to {sum(points)}; a round holds {holds}: "
                                f"{' and '.join(parts)}")
    holder: int | None = None
    if queen:
        over = [s for s, v in enumerate(counted) if v > hearts]
        if len(over) > 1:
            raise InvalidRoundError(
                f"only one player can take the Q♠, but {' and '.join(names[s] for s in over)} "
                f"have more points than the {hearts} hearts")
        for seat in over:
            if counted[seat] < queen:
                raise InvalidRoundError(
                    f"{names[seat]} has {points[seat]} points: more than the {hearts} hearts "
                    f"but less than the Q♠ {queen}")
        able = over or [s for s, v in enumerate(counted) if v >= queen]
        if not able:
            raise InvalidRoundError(
                f"nobody has {queen} or more points, so nobody took the Q♠ ({queen}); "
                "one player must")
        holder = able[0]
    return tuple(
        Taken(value - (queen if seat == holder else 0), seat == holder, seat == jack)
        for seat, value in enumerate(counted))


# --------------------------------------------------------------------------- scoring
def _taken_mask(rules: Rules, taken: Sequence[Taken]) -> list[int]:
    """Concrete point cards for each player's counts (which hearts does not matter)."""
    free_hearts = list(iter_mask(rules.deck & HEART_MASK))
    masks = []
    for cards in taken:
        mask = 0
        for _ in range(cards.hearts):
            mask |= 1 << free_hearts.pop()
        if cards.queen:
            mask |= QUEEN_MASK
        if cards.jack:
            mask |= JACK_MASK
        masks.append(mask)
    return masks


def _score_round(rules: Rules, names: Sequence[str], entry: RoundEntry) -> tuple[
        tuple[int, ...], int | None, MoonChoice | None]:
    """Round points after the moon rule, the shooter and the choice applied."""
    masks = _taken_mask(rules, entry.taken)
    shooter = moon_shooter(masks, rules)
    if shooter is None:
        if entry.moon_choice is not None:
            raise InvalidRoundError("nobody shot the moon, so there is no moon choice to make")
        return round_points(masks, rules), None, None
    choice = fixed_moon_choice(rules) or entry.moon_choice
    if choice is None:
        raise MoonChoiceNeededError(shooter, names[shooter])
    if entry.moon_choice is not None and entry.moon_choice is not choice:
        raise InvalidRoundError(
            f"under {rules.preset} the moon rule is {rules.moon.value}; the shooter has no choice")
    return round_points(masks, rules, shooter, choice), shooter, choice


def _score_all(rules: Rules, names: Sequence[str],
               entries: Sequence[RoundEntry]) -> tuple[RoundResult, ...]:
    totals = [0] * len(names)
    results = []
    for number, entry in enumerate(entries, start=1):
        if game_over(totals, rules, number - 1):
            raise InvalidSheetError(f"round {number} follows the end of the game")
        checked = _check_taken(rules, names, entry.taken)
        points, shooter, choice = _score_round(rules, names, RoundEntry(checked,
                                                                        entry.moon_choice))
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        results.append(RoundResult(number, points, tuple(totals), shooter, choice))
    return tuple(results)
