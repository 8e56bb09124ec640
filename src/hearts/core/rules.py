"""Rule options, the three presets, and their canonical text form.

Every rule the engine knows is one field of :class:`Rules`, a frozen object. A preset
is a named way to fill those fields for a player count (``../shared/RULES.md``).
The text form ``preset:option=value,...`` lists only what differs from the preset,
and parses back to equal rules::

    >>> Rules.parse("standard:moon=shooter-choice").text
    'standard:moon=shooter-choice'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Final

from hearts.core.cards import (
    CLUBS,
    FULL_DECK,
    JACK_MASK,
    POINT_MASK,
    SUIT_MASKS,
    CardSet,
    card_name,
    iter_mask,
    lowest_card,
)
from hearts.core.errors import InvalidCardError, InvalidRulesError
from hearts.core.inputs import MAX_DIGITS, echoed, is_whole_number, read_whole_number

__all__ = [
    "MAX_PASS_CYCLE",
    "MAX_ROUNDS",
    "MAX_TARGET",
    "OPTION_HELP",
    "PLAYER_COUNTS",
    "PRESETS",
    "PRESET_HELP",
    "FirstLead",
    "FirstTrick",
    "HeartsLead",
    "MoonRule",
    "Rules",
    "pass_direction_name",
]


class FirstLead(StrEnum):
    """Who leads the first trick of a round."""

    LOWEST_CLUB = "lowest-club"
    DEALER_LEFT = "dealer-left"


class FirstTrick(StrEnum):
    """What a player void in the suit led may discard on the first trick."""

    ANY = "any"
    NO_POINTS = "no-points"


class HeartsLead(StrEnum):
    """When a heart may be led."""

    ANY_TIME = "any-time"
    AFTER_HEART = "after-heart"
    AFTER_HEART_OR_QUEEN = "after-heart-or-queen"


class MoonRule(StrEnum):
    """What shooting the moon (every point card) does to the round's points."""

    SHOOTER_MINUS = "shooter-minus"
    OTHERS_PLUS = "others-plus"
    SHOOTER_CHOICE = "shooter-choice"


PRESET_HELP: Final = {
    # the rule texts' file names (000_, 002_, 003_) are for the code; a player reads these
    "card-commons": "Card Commons (default): 3-4 players, points anywhere, moon -26.",
    "standard": "Standard: 4 players, no points on trick one, Q♠ breaks hearts.",
    "classic": "Classic: 2-6 players, lowest club leads, moon shooter's choice.",
}

OPTION_HELP: Final = {
    "players": "number of players (card-commons 3-4, standard 4, classic 2-6)",
    "removed": "cards taken out so hands are equal, e.g. 2C+3C (none: -)",
    "pass_count": "cards each player passes",
    "pass_cycle": "pass offsets by round, e.g. left/right/across/hold or +1/-1/+2/0",
    "first_lead": "lowest-club: its holder leads it; dealer-left: left of dealer leads, any "
    "card first_trick and hearts_lead allow",
    "first_trick": "any: void players may discard points on trick one; no-points: not unless "
    "the hand holds only point cards",
    "hearts_lead": "any-time (after trick one), after-heart (a heart was discarded earlier), "
    "after-heart-or-queen (or Q♠ was played); a hand of only hearts may always lead one",
    "moon": "shooter-minus: shooter -26, others 0; others-plus: shooter 0, others +26; "
    "shooter-choice: the shooter picks",
    "target": "the game ends after the round in which someone reaches this total (1-10000)",
    "rounds": "the game ends after this many rounds, or sooner when someone reaches the "
    "target (0: play to the target alone; 1-1000)",
    "jack_of_diamonds": "house rule: taking J♦ scores -10 (on/off)",
}

_MIN_PLAYERS: Final = 2
_MAX_PLAYERS: Final = 6
MAX_TARGET: Final = 10_000
"""The highest ``target``: a longer game is a typo, and it would run for ever."""
MAX_ROUNDS: Final = 1000
"""The highest ``rounds``: a fixed-length game longer than this is a typo."""
MAX_PASS_CYCLE: Final = 16
"""The most rounds one ``pass_cycle`` may list."""

PLAYER_COUNTS: Final[dict[str, range]] = {
    "card-commons": range(3, 5),
    "standard": range(4, 5),
    "classic": range(2, 7),
}
"""The player counts each preset is played by."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete, validated set of rule options (build through a preset)."""

    preset: str = "card-commons"
    players: int = 4
    removed: int = 0
    pass_count: int = 3
    pass_cycle: tuple[int, ...] = (1, 3, 2, 0)
    first_lead: FirstLead = FirstLead.LOWEST_CLUB
    first_trick: FirstTrick = FirstTrick.ANY
    hearts_lead: HeartsLead = HeartsLead.ANY_TIME
    moon: MoonRule = MoonRule.SHOOTER_MINUS
    target: int = 100
    rounds: int = 0
    jack_of_diamonds: bool = False
    # the canonical text, worked out on first use (faces ask for it with every view)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    # ----------------------------------------------------------------- building
    @classmethod
    def preset_rules(cls, name: str = "card-commons", players: int | None = None) -> Rules:
        """The rules of a named preset for a player count (its default count if omitted)."""
        builder = PRESETS.get(name)
        if builder is None:
            raise InvalidRulesError(
                f"unknown preset {echoed(name)}; presets are: {', '.join(PRESETS)}"
            )
        return builder(4 if players is None else players)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``preset[:option=value,...]``; a bare option list uses card-commons.

        An empty text (or only spaces) is the default, card-commons for 4 players, as
        with no ``--rules`` at all. Each option may be given once (``players=3,players=5``
        is refused, not "last wins"), and numbers are ASCII digits only.

        >>> Rules.parse("") == Rules.preset_rules("card-commons", 4)
        True
        """
        return cls.from_options(*cls.split_text(text))

    @staticmethod
    def split_text(text: str) -> tuple[str, dict[str, str]]:
        """A rules text's preset and the options it states, unconverted (what a face asks
        to know whether, say, the text fixes the player count itself).

        >>> Rules.split_text("classic:players=4,target=50")
        ('classic', {'players': '4', 'target': '50'})
        """
        if not isinstance(text, str):
            raise InvalidRulesError(
                f"a rules text is text like 'standard:target=50', not {echoed(text)}")
        text = text.strip()
        if not text:
            return "card-commons", {}
        name, _, rest = text.partition(":")
        if "=" in name:
            name, rest = "card-commons", text
        options: dict[str, str] = {}
        for part in rest.split(","):
            part = part.strip()
            if not part:
                continue
            key, eq, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if not eq:
                raise InvalidRulesError(
                    f"option {echoed(part)} needs a value: write {key[:40]}=VALUE")
            if key not in OPTION_HELP:
                raise InvalidRulesError(
                    f"unknown rule option {echoed(key)}; options are: {', '.join(OPTION_HELP)}"
                )
            if key in options:
                raise InvalidRulesError(
                    f"option {key} is given twice ({key}={options[key]} and "
                    f"{key}={value.strip()}); give each option once")
            options[key] = value.strip()
        return name.strip(), options

    @classmethod
    def from_options(cls, preset: str, options: Mapping[str, object]) -> Rules:
        """Preset defaults for the player count, then the given overrides."""
        unknown = set(options) - set(OPTION_HELP)
        if unknown:
            raise InvalidRulesError(
                f"unknown rule option {echoed(sorted(unknown)[0])}; "
                f"options are: {', '.join(OPTION_HELP)}"
            )
        players = _to_int("players", options["players"]) if "players" in options else None
        base = cls.preset_rules(preset, players)
        changes = {
            key: _convert(key, value, base.players)
            for key, value in options.items()
            if key != "players"
        }
        try:
            return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
        except TypeError as exc:  # pragma: no cover - keys are checked above
            raise InvalidRulesError(str(exc)) from exc

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed (values as objects or text).

        Options this rule set shares with its preset follow the preset, so changing
        ``players`` brings that count's removed cards, pass count and cycle along.
        """
        base = Rules.preset_rules(self.preset, self.players)
        options = {k: v for k, v in self.options().items() if v != getattr(base, k)}
        options["players"] = self.players
        options.update({k.replace("-", "_"): v for k, v in changes.items()})
        return Rules.from_options(self.preset, options)

    # ---------------------------------------------------------------- text form
    def options(self) -> dict[str, object]:
        """Every option as a plain value."""
        return {key: getattr(self, key) for key in OPTION_HELP}

    def option_text(self, key: str) -> str:
        """One option's value in text form."""
        value = getattr(self, key)
        if key == "removed":
            return "+".join(card_name(c) for c in iter_mask(value)) or "-"
        if key == "pass_cycle":
            return "/".join(_offset_text(o, self.players) for o in value)
        if key == "jack_of_diamonds":
            return "on" if value else "off"
        if isinstance(value, Enum):
            return str(value.value)
        return str(value)

    @property
    def text(self) -> str:
        """Canonical text form: the preset plus every option that differs from it."""
        if self._text is None:
            object.__setattr__(self, "_text", self._make_text())
        assert self._text is not None
        return self._text

    def _make_text(self) -> str:
        base = Rules.preset_rules(self.preset, self.players)
        diffs = [
            f"{key}={self.option_text(key)}"
            for key in OPTION_HELP
            if getattr(self, key) != getattr(base, key)
        ]
        if self.players != 4:
            diffs.insert(0, f"players={self.players}")
        return self.preset + (":" + ",".join(diffs) if diffs else "")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Rules.parse({self.text!r})"

    # ------------------------------------------------------------ derived facts
    @property
    def deck(self) -> int:
        """Mask of the cards in play."""
        return FULL_DECK & ~self.removed

    @property
    def hand_size(self) -> int:
        """Cards each player is dealt."""
        return self.deck.bit_count() // self.players

    @property
    def lowest_club(self) -> int:
        """The lowest club in the deck (the first lead under ``lowest-club``)."""
        return lowest_card(self.deck & SUIT_MASKS[CLUBS])

    @property
    def point_cards(self) -> int:
        """Mask of the hearts and the Q♠ in the deck: a moon shot takes them all."""
        return self.deck & POINT_MASK

    @property
    def jack_scores(self) -> bool:
        """Whether the J♦ scores: the house rule is on and the J♦ is in the deck."""
        return self.jack_of_diamonds and bool(self.deck & JACK_MASK)

    def final_round(self, round_no: int) -> bool:
        """Whether the game ends after round ``round_no`` whatever the totals (the
        ``rounds`` option; never while it is 0).

        >>> Rules.parse("standard:rounds=2").final_round(2)
        True
        """
        return self.rounds_left(round_no) == 0

    def rounds_left(self, round_no: int) -> int | None:
        """How many rounds at most the game has still to play after round ``round_no``
        (the ``rounds`` option); None while it is 0 and only the target ends the game.

        >>> Rules.parse("standard:rounds=8").rounds_left(3), Rules.parse("standard").rounds_left(3)
        (5, None)
        """
        return max(self.rounds - round_no, 0) if self.rounds else None

    def pass_offset(self, round_no: int) -> int:
        """Seats to the left that a round's passes go (0: hold round), rounds from 1."""
        return self.pass_cycle[(round_no - 1) % len(self.pass_cycle)]

    def pass_target(self, seat: int, round_no: int) -> int | None:
        """The seat that receives ``seat``'s pass in a round (None on a hold round).

        >>> Rules.parse("standard").pass_target(0, 2)  # round 2 passes right
        3
        """
        offset = self.pass_offset(round_no)
        return (seat + offset) % self.players if offset else None

    def pass_source(self, seat: int, round_no: int) -> int | None:
        """The seat whose pass ``seat`` receives in a round (None on a hold round)."""
        offset = self.pass_offset(round_no)
        return (seat - offset) % self.players if offset else None


def pass_direction_name(offset: int, players: int) -> str:
    """``left``, ``right``, ``across``, ``hold`` or ``N to the left``."""
    offset %= players
    if offset == 0:
        return "hold"
    if offset == 1:
        return "left"
    if offset == players - 1:
        return "right"
    if players % 2 == 0 and offset == players // 2:
        return "across"
    if offset < players / 2:
        return f"{offset} to the left"
    return f"{players - offset} to the right"


def _offset_text(offset: int, players: int) -> str:
    name = pass_direction_name(offset, players)
    if " " not in name:
        return name
    return f"+{offset}" if offset < players / 2 else f"-{players - offset}"


# ---------------------------------------------------------------------- presets
def _lowest_clubs(count: int) -> int:
    return (1 << count) - 1  # clubs are cards 0.. upwards


def _default_cycle(players: int) -> tuple[int, ...]:
    if players == 2:
        return (1, 0)
    if players == 3:
        return (1, 2, 0)
    if players == 4:
        return (1, 3, 2, 0)
    offsets: list[int] = []
    for step in range(1, players // 2 + 1):
        offsets.append(step)
        if step != players - step:
            offsets.append(players - step)
    return (*offsets, 0)


def _check_players(preset: str, players: int) -> None:
    allowed = PLAYER_COUNTS[preset]
    if players not in allowed:
        raise InvalidRulesError(
            f"{preset} is played by {allowed.start} to {allowed.stop - 1} players, not {players}"
            if len(allowed) > 1
            else f"{preset} is played by {allowed.start} players, not {players}"
        )


def _card_commons(players: int) -> Rules:
    _check_players("card-commons", players)
    return Rules(
        preset="card-commons",
        players=players,
        removed=_lowest_clubs(1) if players == 3 else 0,
        pass_count=3,
        pass_cycle=_default_cycle(players),
        first_trick=FirstTrick.ANY,
        hearts_lead=HeartsLead.ANY_TIME,
        moon=MoonRule.SHOOTER_MINUS,
    )


def _standard(players: int) -> Rules:
    _check_players("standard", players)
    return Rules(
        preset="standard",
        players=4,
        first_trick=FirstTrick.NO_POINTS,
        hearts_lead=HeartsLead.AFTER_HEART_OR_QUEEN,
        moon=MoonRule.OTHERS_PLUS,
    )


def _classic(players: int) -> Rules:
    _check_players("classic", players)
    return Rules(
        preset="classic",
        players=players,
        removed=_lowest_clubs(52 % players),
        pass_count=4 if players == 3 else 3,
        pass_cycle=_default_cycle(players),
        first_trick=FirstTrick.NO_POINTS,
        hearts_lead=HeartsLead.AFTER_HEART,
        moon=MoonRule.SHOOTER_CHOICE,
    )


PRESETS: Final[dict[str, Callable[[int], Rules]]] = {
    "card-commons": _card_commons,
    "standard": _standard,
    "classic": _classic,
}


# ------------------------------------------------------------------- validation
def _validate(rules: Rules) -> None:
    for key in ("players", "removed", "pass_count", "target", "rounds"):
        value = getattr(rules, key)
        if not is_whole_number(value):  # 3.0 is not 3 players
            raise InvalidRulesError(f"{key} must be a whole number, not {echoed(value)}")
    if not isinstance(rules.pass_cycle, tuple) or not all(
            is_whole_number(o) for o in rules.pass_cycle):
        raise InvalidRulesError(f"pass_cycle must be whole numbers, not {echoed(rules.pass_cycle)}")
    if not isinstance(rules.jack_of_diamonds, bool):
        raise InvalidRulesError(f"jack_of_diamonds is on or off (True or False), not "
                                f"{echoed(rules.jack_of_diamonds)}")
    if rules.preset not in PRESETS:
        raise InvalidRulesError(
            f"unknown preset {echoed(rules.preset)}; presets are: {', '.join(PRESETS)}"
        )
    if not _MIN_PLAYERS <= rules.players <= _MAX_PLAYERS:
        raise InvalidRulesError(f"players must be 2 to 6, not {rules.players}")
    if rules.removed & ~FULL_DECK:
        raise InvalidRulesError("removed cards must be real cards")
    cards = rules.deck.bit_count()
    if cards % rules.players:
        raise InvalidRulesError(
            f"removing {52 - cards} card(s) leaves {cards}, which {rules.players} players "
            f"cannot share equally; remove {cards % rules.players} more or "
            f"{rules.players - cards % rules.players} fewer"
        )
    hand = cards // rules.players
    if not 0 <= rules.pass_count < hand:
        raise InvalidRulesError(f"pass_count must be 0 to {hand - 1} with {hand}-card hands")
    if not rules.pass_cycle:
        raise InvalidRulesError("pass_cycle needs at least one round (use hold for none)")
    for offset in rules.pass_cycle:
        if not 0 <= offset < rules.players:
            raise InvalidRulesError(
                f"pass offsets are 0 (hold) to {rules.players - 1} for {rules.players} players"
            )
    if rules.first_lead is FirstLead.LOWEST_CLUB and not rules.deck & SUIT_MASKS[CLUBS]:
        raise InvalidRulesError("first_lead=lowest-club needs a club in the deck")
    if not 1 <= rules.target <= MAX_TARGET:
        raise InvalidRulesError(
            f"target must be a positive score from 1 to {MAX_TARGET}, not {rules.target}")
    if not 0 <= rules.rounds <= MAX_ROUNDS:
        raise InvalidRulesError(
            f"rounds must be 0 (play to the target) or a number of rounds from 1 to "
            f"{MAX_ROUNDS}, not {echoed(rules.rounds)}")
    if len(rules.pass_cycle) > MAX_PASS_CYCLE:
        raise InvalidRulesError(
            f"pass_cycle lists at most {MAX_PASS_CYCLE} rounds, not {len(rules.pass_cycle)}")
    for key, kind in (("first_lead", FirstLead), ("first_trick", FirstTrick),
                      ("hearts_lead", HeartsLead), ("moon", MoonRule)):
        if not isinstance(getattr(rules, key), kind):
            raise InvalidRulesError(f"{key} must be a {kind.__name__}")


def _to_int(key: str, value: object) -> int:
    if isinstance(value, bool):
        raise InvalidRulesError(f"{key} must be a whole number, not {echoed(value)}")
    if is_whole_number(value):
        return value
    text = str(value).strip()
    number = read_whole_number(text)
    if number is None:
        raise InvalidRulesError(f"{key} must be a whole number in ASCII digits (0-9), at "
                                f"most {MAX_DIGITS} of them, not {echoed(text)}")
    return number


def _to_enum(key: str, value: object, kind: type[Enum]) -> Enum:
    if isinstance(value, kind):
        return value
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise InvalidRulesError(f"{key} must be one of {allowed}; not {echoed(value)}") from None


_OFFSET_WORDS: Final = {"hold": 0, "none": 0, "left": 1}


def _parse_offset(word: str, players: int) -> int:
    word = word.strip().lower()
    if word in _OFFSET_WORDS:
        return _OFFSET_WORDS[word]
    if word == "right":
        return players - 1
    if word == "across":
        if players % 2:
            raise InvalidRulesError(f"there is no across with {players} players")
        return players // 2
    offset = read_whole_number(word)
    if offset is None or not -players < offset < players:
        raise InvalidRulesError(
            f"pass direction {echoed(word)}: use left, right, across, hold or an offset like +2/-1 "
            f"(from -{players - 1} to +{players - 1} with {players} players)")
    return offset % players


def _convert(key: str, value: object, players: int) -> object:
    if key in ("pass_count", "target", "rounds"):
        return _to_int(key, value)
    if key == "removed":
        if is_whole_number(value):
            return value
        if isinstance(value, CardSet):
            return value.mask
        text = str(value).strip()
        if text in ("", "-", "none"):
            return 0
        try:
            return CardSet.parse(text.replace("+", " ")).mask
        except InvalidCardError as exc:
            raise InvalidRulesError(f"removed: {exc}") from None
    if key == "pass_cycle":
        if isinstance(value, tuple | list):
            return tuple(_to_int(key, v) % players for v in value)
        words = [w for w in str(value).replace(",", "/").split("/") if w.strip()]
        return tuple(_parse_offset(w, players) for w in words)
    if key == "jack_of_diamonds":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("on", "true", "yes", "1"):
            return True
        if text in ("off", "false", "no", "0"):
            return False
        raise InvalidRulesError(f"jack_of_diamonds must be on or off, not {echoed(value)}")
    kinds: dict[str, type[Enum]] = {
        "first_lead": FirstLead,
        "first_trick": FirstTrick,
        "hearts_lead": HeartsLead,
        "moon": MoonRule,
    }
    return _to_enum(key, value, kinds[key])
