"""Game and hand records: a documented, versioned JSON form of every action.

A **game record** (``"format": "card-commons-hearts/game"``, version 1)::

    {
      "format": "card-commons-hearts/game", "version": 1,
      "deal_algorithm": "sha256-ctr-fisher-yates/1",
      "rules": "card-commons",                # canonical rules text
      "seed": "42",                           # game seed, or null if dealt externally
      "seats": ["You", "Bot 1", ...],         # one name a seat, seat 0 first
      "people": [0],                          # optional: the seats persons played
      "levels": [null, "expert", ...],        # optional: each computer's level as given
      "first_round": 1,                       # optional (1): number of the first round
      "scores": [0, 0, 0, 0],                 # optional (zeros): totals going in
      "rounds": [{
        "round": 1,
        "deal_seed": "42/1",                  # or null; if set, hands must match it
        "hands": [["2C", ...], ...],          # as dealt, seat order
        "pass_offset": 1,                     # 0 on a hold round
        "passes": [["QS", "AH", "KH"], ...],  # seat order; null entries: not yet chosen
        "plays": ["2C", "9C", ...],           # every card in play order
        "moon": {"shooter": 2, "choice": "subtract"} | null,  # null: none, or
                                              # the shooter has not chosen yet
        "points": [..], "totals": [..]        # absent while the round is unfinished
      }, ...],
      "complete": true, "totals": [..], "winners": [..]
    }

``people`` says who played: the seat numbers of the persons, each once and in
increasing order (``[]``: computers alone). The faces that keep a game a person played
state it, so that statistics and analysis find that person whatever name they chose
(``expert``, ``Left``, ``Bot 2``). A record without it (one written before the field)
says nothing of who played, and a reader guesses from the names as before. The field
adds to version 1 without changing it: every other field means what it meant, a record
without it reads as it always did, and a reader that knows no ``people`` passes over it
as over a record's other extra members (``challenge``, ``table``, a round's
``fairness``). A hand record has no ``people``.

``levels`` says which computer player sat where: one entry a seat, the level as it was
given (``"expert:iterations=200"``, at most :data:`MAX_LEVEL_TEXT` characters), ``null``
for a person's seat (exactly the seats of ``people`` when both are stated). The faces where
persons play computers state it; it adds to version 1 as ``people`` does.

A **hand record** (``"format": "card-commons-hearts/hand"``) holds one deal: the
same round fields plus ``rules``, ``round`` and ``scores`` (totals going in).
Replaying either re-applies every action through the rules and checks every
stated field (round numbers, pass offsets, the moon, points, totals, winners, a game's
``people`` and ``levels``; round numbers run from 1 to :data:`MAX_ROUND`); any disagreement is an
:class:`InvalidRecordError`. A round that states points before its last play
says what is missing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from hearts.core.actions import RoundResult
from hearts.core.cards import CardSet
from hearts.core.codec import (
    CodecError,
    decode_card,
    decode_cards,
    decode_moon_choice,
    encode_card,
    encode_cards,
    encode_moon_choice,
)
from hearts.core.deal import DEAL_ALGORITHM, deal_hands
from hearts.core.errors import HeartsError, IllegalActionError, InvalidRecordError
from hearts.core.inputs import JsonTextError, echoed, is_utf8_text, is_whole_number, read_json
from hearts.core.rules import Rules
from hearts.core.state import (
    ChooseMoon,
    Deal,
    GameState,
    PassCards,
    Phase,
    Play,
    new_hand,
)

__all__ = [
    "GAME_FORMAT",
    "HAND_FORMAT",
    "MAX_LEVEL_TEXT",
    "MAX_ROUND",
    "MAX_TOTAL",
    "RECORD_VERSION",
    "game_record",
    "hand_record",
    "parse_record",
    "record_people",
    "record_seats",
    "replay_game",
    "replay_hand",
    "replay_record",
    "round_steps",
    "seat_name",
]

GAME_FORMAT = "card-commons-hearts/game"
HAND_FORMAT = "card-commons-hearts/hand"
RECORD_VERSION = 1
MAX_ROUND = 100_000
"""The highest round number a record may state: more is not a game but a typo or a lie."""
MAX_TOTAL = 999_999_999
"""The largest total, up or down, a record, a position or a bot's view may state: more
than any real game reaches, and small enough for every player's 64-bit arithmetic."""
MAX_LEVEL_TEXT = 200
"""The longest computer level a record's ``levels`` may state (a level with its options)."""


# ---------------------------------------------------------------------- export
def _round_entries(state: GameState) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    players = state.players
    for action in state.history:
        if isinstance(action, Deal):
            current = {
                "round": len(rounds) + 1,
                "deal_seed": action.seed,
                "hands": [encode_cards(h) for h in action.hands],
                "pass_offset": 0,
                "passes": None,
                "plays": [],
                "moon": None,
            }
            rounds.append(current)
        elif current is None:
            raise InvalidRecordError("history starts without a deal")
        elif isinstance(action, PassCards):
            if current["passes"] is None:
                current["passes"] = [None] * players
            current["passes"][action.seat] = encode_cards(action.cards)
        elif isinstance(action, Play):
            current["plays"].append(encode_card(action.card))
        elif isinstance(action, ChooseMoon):
            current["moon"] = {"shooter": action.seat,
                               "choice": encode_moon_choice(action.choice)}
    return rounds


def _fill_round_facts(state: GameState, rounds: list[dict[str, Any]], first_round: int) -> None:
    by_round = {r.round_no: r for r in state.results}
    for index, entry in enumerate(rounds):
        round_no = first_round + index
        entry["round"] = round_no
        entry["pass_offset"] = state.rules.pass_offset(round_no)
        result = by_round.get(round_no)
        if result is not None:
            entry["points"] = list(result.points)
            entry["totals"] = list(result.totals)
            if result.shooter is not None and entry["moon"] is None:
                entry["moon"] = {"shooter": result.shooter,
                                 "choice": None if result.moon_choice is None
                                 else encode_moon_choice(result.moon_choice)}


def seat_name(seat: int) -> str:
    """The name of a seat that no one named: ``Seat 1`` for seat 0 and so on, as a person
    counts the seats around a table."""
    return f"Seat {seat + 1}"


def game_record(state: GameState, seats: Sequence[str] | None = None,
                people: Sequence[int] | None = None,
                levels: Sequence[str | None] | None = None) -> dict[str, Any]:
    """The record of a game so far (finished or not); ``people``, the seats persons play
    (``()``: computers alone), and ``levels``, each seat's computer level as given (None
    for a person's), are stated when given, and left out when not known."""
    names = list(seats) if seats is not None else [seat_name(s) for s in range(state.players)]
    if len(names) != state.players:
        raise InvalidRecordError(f"seats need {state.players} names, got {len(names)}")
    who: dict[str, Any] = {}
    if people is not None:
        who["people"] = _people(sorted(people), state.players)
    if levels is not None:
        who["levels"] = _levels(list(levels), state.players, who.get("people"))
    rounds = _round_entries(state)
    _fill_round_facts(state, rounds, state.first_round)
    return {
        "format": GAME_FORMAT,
        "version": RECORD_VERSION,
        "deal_algorithm": DEAL_ALGORITHM,
        "rules": state.rules.text,
        "seed": state.seed,
        "seats": names,
        **who,
        "first_round": state.first_round,
        "scores": list(state.start_totals),
        "rounds": rounds,
        "complete": state.is_over,
        "totals": list(state.totals),
        "winners": list(state.winners),
    }


def hand_record(state: GameState, round_no: int | None = None) -> dict[str, Any]:
    """The record of one round of a game (the current one by default)."""
    rounds = _round_entries(state)
    if not rounds:
        raise InvalidRecordError("no round has been dealt yet")
    _fill_round_facts(state, rounds, state.first_round)
    wanted = round_no if round_no is not None else rounds[-1]["round"]
    entry = next((r for r in rounds if r["round"] == wanted), None)
    if entry is None:
        raise InvalidRecordError(f"no round {wanted} in this game")
    before = next((r.totals for r in state.results if r.round_no == wanted - 1),
                  state.start_totals)
    return {
        "format": HAND_FORMAT,
        "version": RECORD_VERSION,
        "deal_algorithm": DEAL_ALGORITHM,
        "rules": state.rules.text,
        "scores": list(before),
        **entry,
    }


# ---------------------------------------------------------------------- import
def parse_record(text: str) -> dict[str, Any]:
    """Parse record JSON text into a dict, or raise InvalidRecordError."""
    try:
        data = read_json(text)
    except JsonTextError as exc:
        raise InvalidRecordError(str(exc)) from None
    if not isinstance(data, dict):
        raise InvalidRecordError("a record is a JSON object")
    return data


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise InvalidRecordError(f"{where}: missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and not is_whole_number(value)):
        raise InvalidRecordError(f"{where}: field {key!r} has the wrong type")
    return value


def _check_header(data: Mapping[str, Any], fmt: str) -> Rules:
    if not isinstance(data, Mapping):
        raise InvalidRecordError("a record is a JSON object")
    if data.get("format") != fmt:
        raise InvalidRecordError(f"format must be {fmt!r}, not {echoed(data.get('format'))}")
    if not _is(data.get("version"), RECORD_VERSION):
        raise InvalidRecordError(
            f"record version {echoed(data.get('version'))} is not supported "
            f"(supported: {RECORD_VERSION})"
        )
    algorithm = data.get("deal_algorithm", DEAL_ALGORITHM)
    if algorithm != DEAL_ALGORITHM:
        raise InvalidRecordError(f"unknown deal algorithm {echoed(algorithm)}; "
                                 f"known: {DEAL_ALGORITHM}")
    text = _field(data, "rules", str, "record")
    try:
        return Rules.parse(text)
    except HeartsError as exc:
        raise InvalidRecordError(f"rules: {exc}") from None


def _cards(value: Any, where: str) -> CardSet:
    try:
        return decode_cards(value, where)
    except CodecError as exc:
        raise InvalidRecordError(str(exc)) from None


def _apply(state: GameState, action: Any) -> GameState:
    try:
        return state.apply(action)
    except IllegalActionError as exc:
        raise InvalidRecordError(f"illegal action: {exc}", illegal=exc) from exc


def _replay_round(state: GameState, entry: Any, round_no: int, dealt: bool) -> GameState:
    """Apply one round entry; ``dealt`` says the state already holds its deal."""
    where = f"round {round_no}"
    if not isinstance(entry, Mapping):
        raise InvalidRecordError(f"{where}: a round is a JSON object")
    rules = state.rules
    stated_round = entry.get("round", round_no)
    if not is_whole_number(stated_round) or stated_round != round_no:
        raise InvalidRecordError(f"{where}: the record numbers this round {echoed(stated_round)}; "
                                 "rounds run on one by one from first_round")
    if "pass_offset" in entry and (not is_whole_number(entry["pass_offset"])
                                   or entry["pass_offset"] != rules.pass_offset(round_no)):
        raise InvalidRecordError(
            f"{where}: the record says pass_offset {echoed(entry['pass_offset'])}, the rules give "
            f"{rules.pass_offset(round_no)} (pass_cycle {rules.option_text('pass_cycle')})")
    hands_field = _field(entry, "hands", list, where)
    if len(hands_field) != rules.players:
        raise InvalidRecordError(f"{where}: hands need {rules.players} entries")
    hands = tuple(_cards(h, f"{where} hand {s}") for s, h in enumerate(hands_field))
    deal_seed = entry.get("deal_seed")
    if deal_seed is not None:
        if not is_utf8_text(deal_seed):
            raise InvalidRecordError(f"{where}: deal_seed must be text")
        derived = deal_hands(rules, deal_seed)
        if tuple(h.mask for h in hands) != derived:
            raise InvalidRecordError(
                f"{where}: the hands do not match deal seed {echoed(deal_seed, 80)} "
                f"under {DEAL_ALGORITHM}"
            )
    if dealt:
        held = tuple(state.dealt(s) for s in range(rules.players))
        if held != hands or state.deal_seed != deal_seed:
            raise InvalidRecordError(f"{where}: the deal differs from the game seed's deal")
    else:
        state = _apply(state, Deal(hands, deal_seed))
    passes = entry.get("passes")
    if passes is not None:
        if not isinstance(passes, list) or len(passes) != rules.players:
            raise InvalidRecordError(f"{where}: passes need {rules.players} entries or null")
        for seat, chosen in enumerate(passes):
            if chosen is not None:
                state = _apply(state, PassCards(seat, _cards(chosen, f"{where} pass {seat}")))
    plays = _field(entry, "plays", list, where)
    for index, name in enumerate(plays):
        try:
            card = decode_card(name, f"{where}: play {index + 1}")
        except CodecError as exc:
            raise InvalidRecordError(str(exc)) from None
        if state.phase is not Phase.PLAY:
            why = "before every pass was chosen" if state.phase is Phase.PASS \
                else "after the round ended"
            raise InvalidRecordError(f"{where}: play {index + 1} ({name}) {why}")
        state = _apply(state, Play(state.turn, card))
    moon = entry.get("moon")
    if moon is not None and not isinstance(moon, Mapping):
        raise InvalidRecordError(f"{where}: moon must be an object or null")
    # without a recorded choice the state stays waiting for the shooter (a paused game)
    if state.phase is Phase.MOON and moon is not None and moon.get("choice") is not None:
        try:
            choice = decode_moon_choice(moon["choice"], f"{where}: moon choice")
        except CodecError as exc:
            raise InvalidRecordError(str(exc)) from None
        state = _apply(state, ChooseMoon(_field(moon, "shooter", int, where), choice))
    result = next((r for r in state.results if r.round_no == round_no), None)
    if "moon" in entry:
        _check_moon(state, moon, result, where, len(plays))
    for key in ("points", "totals"):
        if key not in entry:
            continue
        if result is None:
            raise InvalidRecordError(f"{where} states {key} but {_unfinished(state, len(plays))}")
        actual = list(getattr(result, key))
        if not _is(entry[key], actual):
            raise InvalidRecordError(
                f"{where}: the record says {key} {entry[key]}, the rules give {actual}")
    return state


def _unfinished(state: GameState, plays: int) -> str:
    """Why a round has no result yet, in words."""
    if state.phase is Phase.PASS:
        chosen = sum(state.has_chosen(s) for s in range(state.players))
        return f"has only {chosen} of {state.players} passes chosen"
    if state.phase is Phase.MOON:
        return f"waits for the shooter, seat {state.shooter}, to choose the moon's effect"
    return f"has only {plays} of {state.rules.deck.bit_count()} plays"


def _check_moon(state: GameState, moon: Mapping[str, Any] | None, result: RoundResult | None,
                where: str, plays: int) -> None:
    """The stated moon (null: none) against the rules' shooter and the shooter's choice."""
    if result is not None:
        shooter = result.shooter
        choice = None if result.moon_choice is None else encode_moon_choice(result.moon_choice)
    elif state.phase is Phase.MOON:  # the shooter has not chosen: null is allowed too
        shooter, choice = state.shooter, None
        if moon is None:
            return
    else:
        shooter = choice = None
    if moon is None:
        if shooter is not None:
            raise InvalidRecordError(f"{where}: the record says moon null (no shooter), but "
                                     f"seat {shooter} took every point card")
        return
    stated = moon.get("shooter")
    if shooter is None:
        why = "no seat took every point card" if result is not None \
            else f"the round {_unfinished(state, plays)}"
        raise InvalidRecordError(f"{where}: the record says seat {echoed(stated)} shot the moon, "
                                 f"but {why}; write moon: null")
    if not is_whole_number(stated) or stated != shooter:
        raise InvalidRecordError(f"{where}: the record says seat {echoed(stated)} shot the moon, "
                                 f"the rules give seat {shooter}")
    if moon.get("choice") != choice:
        raise InvalidRecordError(f"{where}: the record says moon choice "
                                 f"{echoed(moon.get('choice'))}, the rules give {choice!r}")


def _scores(data: Mapping[str, Any], rules: Rules) -> list[int]:
    scores = data.get("scores", [0] * rules.players)
    if not isinstance(scores, list) or len(scores) != rules.players or not all(
            is_whole_number(s, -MAX_TOTAL, MAX_TOTAL) for s in scores):
        raise InvalidRecordError(f"record: scores need {rules.players} whole numbers from "
                                 f"-{MAX_TOTAL} to {MAX_TOTAL}")
    return scores


def _people(value: object, players: int) -> list[int]:
    """A game record's ``people`` as the format allows it: the seats persons played, each
    once, in increasing order; an :class:`InvalidRecordError` that says so otherwise."""
    if not isinstance(value, list) or not all(is_whole_number(seat, 0, players - 1)
                                              for seat in value) \
            or value != sorted(set(value)):
        raise InvalidRecordError(
            f"record: people lists the seats persons played, each once and in increasing "
            f"order, seat numbers from 0 to {players - 1} (e.g. [0]; [] for computers "
            f"alone), not {echoed(value)}")
    return value


def _levels(value: object, players: int, people: object) -> list[str | None]:
    """A game record's ``levels`` as the format allows it: a level text or null a seat,
    null exactly at the seats of ``people`` when that is stated."""
    persons = set(people) if isinstance(people, list) else None
    if not isinstance(value, list) or len(value) != players or not all(
            level is None or (is_utf8_text(level) and 0 < len(level) <= MAX_LEVEL_TEXT)
            for level in value) or (persons is not None and any(
                (level is None) != (seat in persons) for seat, level in enumerate(value))):
        raise InvalidRecordError(
            f"record: levels gives each of the {players} seats its computer's level as "
            f"given (text of 1 to {MAX_LEVEL_TEXT} characters) or null for a person's seat"
            f"{', null exactly at the seats of people' if persons is not None else ''}, "
            f"not {echoed(value)}")
    return value


def _is(stated: object, actual: int | list[int]) -> bool:
    """Whether a record's stated number or list of numbers is the one the rules give, as
    JSON says it: ``true`` is not 1 and ``1.0`` not 1, though Python holds them equal."""
    if isinstance(actual, list):
        return isinstance(stated, list) and len(stated) == len(actual) and all(
            _is(one, real) for one, real in zip(stated, actual, strict=True))
    return is_whole_number(stated) and stated == actual


def _round_number(value: object, key: str) -> int:
    if not is_whole_number(value, 1, MAX_ROUND):
        raise InvalidRecordError(
            f"record: {key} must be a whole number from 1 to {MAX_ROUND}, not {echoed(value)}")
    return value


def replay_game(data: Mapping[str, Any]) -> GameState:
    """Rebuild a game from its record, checking every action and stated result."""
    rules = _check_header(data, GAME_FORMAT)
    seed = data.get("seed")
    if seed is not None and not is_utf8_text(seed):
        raise InvalidRecordError("record: seed must be text or null")
    rounds = _field(data, "rounds", list, "record")
    first_round = _round_number(data.get("first_round", 1), "first_round")
    if first_round + len(rounds) - 1 > MAX_ROUND:
        raise InvalidRecordError(f"record: rounds are numbered at most {MAX_ROUND}")
    scores = _scores(data, rules)
    if "people" in data:
        _people(data["people"], rules.players)
    if "levels" in data:
        _levels(data["levels"], rules.players, data.get("people"))
    state = GameState._start(rules, seed, first_round, scores)
    for index, entry in enumerate(rounds):
        round_no = first_round + index
        if state.is_over:
            raise InvalidRecordError(f"round {round_no}: the game was already over")
        if state.round_no != round_no:
            raise InvalidRecordError(f"round {round_no}: the previous round is unfinished")
        state = _replay_round(state, entry, round_no, dealt=state.phase is not Phase.DEAL)
    for key, actual in (("totals", list(state.totals)), ("winners", list(state.winners))):
        if key in data and not _is(data[key], actual):
            raise InvalidRecordError(f"record says {key} {data[key]}, the rules give {actual}")
    if "complete" in data and data["complete"] is not state.is_over:
        raise InvalidRecordError(f"record says complete={data['complete']}, "
                                 f"the rules give {state.is_over}")
    return state


def replay_hand(data: Mapping[str, Any]) -> GameState:
    """Rebuild a single hand from its record, checking every action and stated result."""
    rules = _check_header(data, HAND_FORMAT)
    round_no = _round_number(_field(data, "round", int, "record"), "round")
    scores = _scores(data, rules)
    hands_field = _field(data, "hands", list, "record")
    if len(hands_field) != rules.players:
        raise InvalidRecordError(f"record: hands need {rules.players} entries")
    hands = tuple(_cards(h, f"hand {s}") for s, h in enumerate(hands_field))
    deal_seed = data.get("deal_seed")
    if deal_seed is not None and not is_utf8_text(deal_seed):
        raise InvalidRecordError("record: deal_seed must be text or null")
    try:
        state = new_hand(rules, hands, round_no=round_no, totals=scores, deal_seed=deal_seed)
    except IllegalActionError as exc:
        raise InvalidRecordError(f"record: {exc}") from exc
    return _replay_round(state, data, round_no, dealt=True)


def replay_record(data: Mapping[str, Any]) -> GameState:
    """Rebuild a game or a hand record, by its ``format``, checking everything it states."""
    if not isinstance(data, Mapping):
        raise InvalidRecordError("a record is a JSON object")
    kind = data.get("format")
    if kind == GAME_FORMAT:
        return replay_game(data)
    if kind == HAND_FORMAT:
        return replay_hand(data)
    raise InvalidRecordError(f"format must be {GAME_FORMAT!r} or {HAND_FORMAT!r}, "
                             f"not {echoed(kind)}")


def record_seats(data: Mapping[str, Any], players: int) -> tuple[str, ...]:
    """The seat names a record gives, or ``Seat 1``, ``Seat 2``... where it gives none (a
    hand record) or not one name a seat."""
    seats = data.get("seats")
    if isinstance(seats, list) and len(seats) == players and all(
            isinstance(name, str) and name for name in seats):
        return tuple(seats)
    return tuple(seat_name(seat) for seat in range(players))


def record_people(data: Mapping[str, Any], players: int) -> tuple[int, ...] | None:
    """The seats a game record says persons played (its ``people``), or None where it does
    not say (a record written before the field, a hand record): the reader then guesses
    from the seat names. An :class:`InvalidRecordError` for a ``people`` the format
    refuses, as :func:`replay_game` gives."""
    if "people" not in data:
        return None
    return tuple(_people(data["people"], players))


def round_steps(final: GameState) -> Iterator[tuple[int, PassCards | Play | ChooseMoon | None,
                                                     GameState]]:
    """Every position of the game ``final`` ends, in order, as ``(round, action, state)``:
    each round from its deal (action None), restarted from its hand record (the cards
    dealt, the totals going in), then each of that round's actions and the state after it."""
    rounds: list[list[PassCards | Play | ChooseMoon]] = []
    for action in final.history:
        if isinstance(action, Deal) or not rounds:
            rounds.append([])
        if not isinstance(action, Deal):
            rounds[-1].append(action)
    for round_no, actions in enumerate(rounds, final.first_round):
        start = hand_record(final, round_no)
        state = new_hand(final.rules, tuple(CardSet.parse(" ".join(h)) for h in start["hands"]),
                         round_no=round_no, totals=start["scores"],
                         deal_seed=start["deal_seed"])
        yield round_no, None, state
        for action in actions:
            state = state.apply(action)
            yield round_no, action, state
