"""What a table is created with, how the server behaves (timeouts, limits), and
``ServerConfigError`` for a set-up that cannot work."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from hearts.core import HeartsError, InvalidRulesError, Rules, shown_name
from hearts.players import LEVELS

__all__ = ["HUMAN", "TITLE_LENGTH", "ServerConfig", "ServerConfigError", "TableSettings",
           "default_takeover_level", "table_title"]


class ServerConfigError(HeartsError, ValueError):
    """A server set up in a way that cannot work (processes on a bus without a shared
    store, a collector that never sweeps); says what to give instead."""


HUMAN = "human"


def default_takeover_level() -> str:
    """The level that stands in for a player who left: ``normal`` when it exists."""
    return "normal" if "normal" in LEVELS else next(iter(LEVELS))


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Server-wide behaviour; the defaults suit people, tests shorten the waits."""

    grace_s: float = 60.0
    entropy_timeout_s: float = 3.0
    bot_delay_s: float = 0.7
    max_message_bytes: int = 4096
    rate_burst: int = 20
    rate_per_s: float = 10.0
    # a hint is a search: few per seat, however many connections the seat opens
    hint_burst: int = 3
    hint_per_s: float = 0.5
    max_seat_connections: int = 4
    send_queue: int = 256
    takeover_level: str = field(default_factory=default_takeover_level)
    # the start of every table id this process creates (``--route-tag``): a proxy that reads
    # it sends the table's clients to the process that owns it, sparing the relay
    table_prefix: str = ""


TITLE_LENGTH = 60
"""The most characters of a table's title that the lobby and the table show."""


def table_title(given: str, creator: str) -> str:
    """The title a table shows: the one given, as every face shows a name (at most
    :data:`TITLE_LENGTH` characters), else the creator's ("Ann's table")."""
    return shown_name(given, TITLE_LENGTH) or f"{creator}'s table"


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's fixed settings: the rules and who sits where (``human`` or a level)."""

    rules: str
    seats: tuple[str, ...]
    public: bool
    title: str
    bot_seed: str
    challenge: str | None = None
    """A duplicate challenge's code (``hearts.challenge``): its deals and its computers."""

    @classmethod
    def build(cls, *, preset: str, players: int, options: str, target: int | None,
              seats: list[str], public: bool, title: str, bot_seed: str) -> TableSettings:
        """Validated settings (``title`` as :func:`table_title` makes it); raises
        InvalidRulesError saying what is wrong."""
        text = f"{preset}:players={players}"
        if target is not None:
            text += f",target={target}"
        if options.strip():
            text += "," + options.strip()
        rules = Rules.parse(text)
        if len(seats) != rules.players:
            raise InvalidRulesError(f"give one seat kind for each of the {rules.players} seats")
        for kind in seats:
            if kind != HUMAN and kind not in LEVELS:
                raise InvalidRulesError(
                    f"unknown seat kind {kind!r}: use {HUMAN!r} or a level: {', '.join(LEVELS)}")
        if seats[0] != HUMAN:
            raise InvalidRulesError("seat 1 is the creator's and must be human")
        return cls(rules.text, tuple(seats), public, title, bot_seed)

    @property
    def parsed_rules(self) -> Rules:
        """The rules object."""
        return Rules.parse(self.rules)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form for the store."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        """Settings back from the store."""
        challenge = data.get("challenge")  # settings stored before challenges have none
        return cls(str(data["rules"]), tuple(data["seats"]), bool(data["public"]),
                   str(data["title"]), str(data["bot_seed"]),
                   None if challenge is None else str(challenge))
