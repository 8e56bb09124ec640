"""A player's statistics, by preset, computed from finished game records alone.

A pure function of records (no files, no clock): ``hearts stats`` feeds it the records the
terminal game saves, and a server's player page can feed it the records its store keeps.
It lives beside :mod:`hearts.scoresheet` and :mod:`hearts.replay` (a face-level module,
not the core) because it reads records, which the core writes and checks but never
interprets for a person; every fact it counts is asked of the core: each round's result
(points, the moon's shooter) from the re-checked record, the cards each seat took from the
state at the round's end, the point cards and the Q♠ from the core's masks.

Figures, for one player (a seat name, or the one person's seat, see :func:`player_seat`):

- games; wins, a tie's win split among its winners, and shared wins, the games won in a
  tie, each whole (the meaning every command gives them: :func:`hearts.arena.stats.win_share`
  and :func:`~hearts.arena.stats.shared_win`);
- hands played and the average points a hand (the points the score sheet gives each
  round, after a moon's effect);
- moons shot, and moons allowed (another seat shot);
- hands in which the player took the Q♠, and hands in which they took no point card.

Only complete games count: a game given up halfway has no winner to compare with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hearts.core import (
    QUEEN_MASK,
    GameState,
    InvalidRecordError,
    Phase,
    record_people,
    record_seats,
    replay_record,
)
from hearts.players.analysis import human_seats
from hearts.replay import walk

__all__ = ["GameLine", "PlayerStats", "game_line", "player_seat", "player_stats", "summarize"]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One complete game's figures for one seat: ``won`` whether it is among the winners,
    ``win_share`` its share of the win (a tie's win split), ``shared_win`` whether it won
    in a tie."""

    preset: str
    seat: int
    won: bool
    win_share: float
    shared_win: bool
    hands: int
    points: int
    moons_shot: int
    moons_allowed: int
    queens_taken: int
    clean_hands: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures over the games of one preset: ``wins`` adds up each game's
    share of the win (a tie's win split), ``shared_wins`` counts the games won in a tie."""

    preset: str
    games: int = 0
    wins: float = 0.0
    shared_wins: int = 0
    hands: int = 0
    points: int = 0
    moons_shot: int = 0
    moons_allowed: int = 0
    queens_taken: int = 0
    clean_hands: int = 0

    @property
    def average_points(self) -> float | None:
        """Average points a hand (None before any hand)."""
        return self.points / self.hands if self.hands else None

    def add(self, line: GameLine) -> PlayerStats:
        """These figures with one more game's."""
        return PlayerStats(self.preset, games=self.games + 1,
                           wins=self.wins + line.win_share,
                           shared_wins=self.shared_wins + line.shared_win,
                           hands=self.hands + line.hands, points=self.points + line.points,
                           moons_shot=self.moons_shot + line.moons_shot,
                           moons_allowed=self.moons_allowed + line.moons_allowed,
                           queens_taken=self.queens_taken + line.queens_taken,
                           clean_hands=self.clean_hands + line.clean_hands)

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON (the average rounded to hundredths, the wins as
        ``hearts simulate`` and the arena round them)."""
        average = self.average_points
        return {"preset": self.preset, "games": self.games, "wins": round(self.wins, 4),
                "shared_wins": self.shared_wins, "hands": self.hands, "points": self.points,
                "average_points": None if average is None else round(average, 2),
                "moons_shot": self.moons_shot, "moons_allowed": self.moons_allowed,
                "queens_taken": self.queens_taken, "clean_hands": self.clean_hands}


def player_seat(names: tuple[str, ...], player: str | None,
                people: tuple[int, ...] | None = None) -> int | None:
    """The seat ``player`` sat in (by name; a person's seat first where a computer has
    the name too), or with ``player`` None the one person's seat: ``people`` as the record
    states it, or for a record that does not say, the one seat not named as a computer is
    (the terminal game names its computers Left, Across, Right; see
    :func:`hearts.players.analysis.human_seats`). None when the player is not at this
    table, or ``player`` is None and the table had no person or several."""
    if player is None:
        persons = human_seats(names, people)
        return persons[0] if len(persons) == 1 else None
    named = [seat for seat, name in enumerate(names) if name == player]
    named_people = [seat for seat in named if people is not None and seat in people]
    return next(iter(named_people or named), None)


def _round_ends(final: GameState) -> Iterable[GameState]:
    """The state at each round's end (its tricks and result still showing)."""
    previous: GameState | None = None
    for step in walk(final):
        if step.action is None and previous is not None:
            yield previous
        previous = step.state
    if previous is not None and previous.phase in (Phase.DEAL, Phase.OVER):
        yield previous


def game_line(record: Mapping[str, Any], player: str | None = None) -> GameLine | None:
    """A complete game record's figures for ``player`` (see :func:`player_seat`); None when
    the game is unfinished or the player did not sit at it. An
    :class:`InvalidRecordError` for a record the rules refuse."""
    final = replay_record(record)
    if not final.is_over:
        return None
    seat = player_seat(record_seats(record, final.players), player,
                       record_people(record, final.players))
    if seat is None:
        return None
    # imported here: the arena's package loads NumPy, which a server need not load
    # before its first player page
    from hearts.arena.stats import shared_win, win_share

    hands = points = shot = allowed = queens = clean = 0
    for end in _round_ends(final):
        result = end.results[-1]
        hands += 1
        points += result.points[seat]
        if result.shooter is not None:
            shot += result.shooter == seat
            allowed += result.shooter != seat
        taken = end.taken(seat).mask
        queens += bool(taken & QUEEN_MASK)
        clean += not taken & final.rules.point_cards
    winners = final.winners
    return GameLine(final.rules.preset, seat, seat in winners, win_share(winners, seat),
                    shared_win(winners, seat), hands, points, shot, allowed, queens, clean)


def summarize(lines: Iterable[GameLine]) -> dict[str, PlayerStats]:
    """Games' figures added up by preset (presets in the order first met)."""
    by_preset: dict[str, PlayerStats] = {}
    for line in lines:
        by_preset[line.preset] = by_preset.get(line.preset, PlayerStats(line.preset)).add(line)
    return by_preset


def player_stats(records: Iterable[Mapping[str, Any]], player: str | None = None,
                 preset: str | None = None) -> dict[str, PlayerStats]:
    """A player's statistics by preset over ``records`` (only ``preset``'s when given);
    an :class:`InvalidRecordError` names the first record the rules refuse."""
    lines = []
    for number, record in enumerate(records, 1):
        try:
            line = game_line(record, player)
        except InvalidRecordError as exc:
            raise InvalidRecordError(f"record {number}: {exc}") from exc
        if line is not None and (preset is None or line.preset == preset):
            lines.append(line)
    return summarize(lines)
