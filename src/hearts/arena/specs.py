"""Bot specs: the text that names a player in a match, and building the player from it.

A spec is one of

* a level of :data:`hearts.players.levels.LEVELS` (``random``, ``easy``, ...),
  optionally with options passed to the level's factory (``expert:budget=0.5``);
* ``ext:COMMAND``: an outside program speaking the bot protocol (COMMAND is split
  like a shell would, e.g. ``ext:python3 examples/external_bot.py``);
* ``policy:PATH``: a trained policy file (:mod:`hearts.players.policy`);
* ``ismcts``: OpenSpiel's ISMCTS bot through :mod:`hearts.arena.openspiel` (needs
  the optional ``open-spiel`` package), options ``sims``, ``uct``, ``rollouts``.

The whole text is the bot's label in the results, so ``--bot expert --bot random
--bot expert --bot random`` is two bots with two seats each. A built-in bot may end
in ``#TAG`` to tell apart two bots of one kind (``random#a`` vs ``random#b``); the tag
comes last, after any options (``expert:iterations=5#fast``).

The other seats' labels an outside program is told (:func:`public_names`) are never the
specs themselves: an ``ext:`` command line may hold paths or secrets.
"""

from __future__ import annotations

import inspect
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hearts.arena.errors import BotSpecError
from hearts.core import Rules, echoed, read_whole_number
from hearts.players.base import Player
from hearts.players.errors import PlayerError
from hearts.players.levels import LEVELS, POLICY, make_player
from hearts.players.policy import PolicyFileError, load_layers
from hearts.protocol.host import DEFAULT_TIMEOUT, STARTUP_TIMEOUT, ExternalPlayer

__all__ = ["EXTERNAL", "ISMCTS", "BotSpec", "BotSpecError", "build_player", "default_fallback",
           "public_names"]

EXTERNAL: Final = "ext"
ISMCTS: Final = "ismcts"


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed bot spec (``text`` is also the bot's label)."""

    text: str
    kind: str
    options: tuple[tuple[str, str], ...] = ()
    command: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Parse ``LEVEL[:key=value,...][#TAG]``, ``ext:COMMAND`` or ``ismcts[:...]``."""
        text = text.strip()
        kind, _, rest = text.partition(":")
        if kind == EXTERNAL:
            try:
                command = tuple(shlex.split(rest))
            except ValueError as exc:
                raise BotSpecError(f"{text!r}: the command does not split: {exc}") from None
            if not command:
                raise BotSpecError("ext: needs a command, e.g. 'ext:python3 my_bot.py'")
            return cls(text, kind, (), command)
        if kind == POLICY:
            try:
                load_layers(rest)  # a bad file fails before any game starts
            except PolicyFileError as exc:
                raise BotSpecError(str(exc)) from None
            return cls(text, kind, (("path", rest),))
        body, _, tag = text.partition("#")
        if ":" in tag:  # options read as part of the tag would be ignored
            name, _, late = tag.partition(":")
            joined = f"{body}{',' if ':' in body else ':'}{late}#{name}" if late \
                else f"{body}#{name}"
            raise BotSpecError(f"{text!r}: options go before the tag, as in {joined!r}; "
                               "the tag is the spec's last part")
        kind, _, rest = body.partition(":")
        if kind != ISMCTS and kind not in LEVELS:
            raise BotSpecError(
                f"unknown bot {echoed(kind)}; bots are {', '.join(LEVELS)}, {ISMCTS} "
                f"(OpenSpiel), {POLICY}:PATH (a trained policy) or {EXTERNAL}:COMMAND")
        options = []
        for part in rest.split(","):
            if not part.strip():
                continue
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise BotSpecError(f"{text!r}: options are written key=value, not {part!r}")
            options.append((key.strip(), value.strip()))
        return cls(text, kind, tuple(options))

    @property
    def is_external(self) -> bool:
        """Whether the bot is an outside program."""
        return self.kind == EXTERNAL


def default_fallback() -> str:
    """The level that takes over a failed external bot's seat: ``normal`` where it exists."""
    return "normal" if "normal" in LEVELS else "random"


def _level_player(spec: BotSpec, seed: str) -> Player:
    factory = LEVELS[spec.kind]
    rng = random.Random(seed)
    if not spec.options:
        return factory(rng)
    parameters = inspect.signature(factory).parameters.values()
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    accepted = {p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD} - {"rng"}
    unknown = [key for key, _ in spec.options if key not in accepted and not open_ended]
    if unknown:
        allowed = ", ".join(sorted(accepted)) or "none"
        raise BotSpecError(f"{spec.text!r}: level {spec.kind} takes no option {unknown[0]!r} "
                           f"(its options: {allowed})")
    kwargs = {key: option_value(value) for key, value in spec.options}
    try:
        return factory(rng, **kwargs)
    except PlayerError as exc:
        raise BotSpecError(f"{spec.text!r}: {exc}") from None


def option_value(value: str) -> object:
    """An option's text as a whole number (ASCII digits: ``int()`` also reads "٣"), else
    as a float, else as it is: the player checks the kind it wants."""
    whole = read_whole_number(value)
    if whole is not None:
        return whole
    try:  # float() also reads "1_000" and other scripts' digits
        return float(value) if value.isascii() and "_" not in value else value
    except ValueError:
        return value


def public_names(specs: Sequence[str]) -> list[str]:
    """What an outside bot is told of each seat's bot (hello's ``names``): a built-in
    bot's kind and tag (``expert#fast``: no options), ``policy`` (no file's path), and
    ``ext bot N`` for the Nth different ``ext:`` spec (never its command line)."""
    external: dict[str, int] = {}
    names = []
    for text in (spec.strip() for spec in specs):
        kind = text.partition(":")[0]
        if kind == EXTERNAL:
            names.append(f"ext bot {external.setdefault(text, len(external) + 1)}")
        elif kind == POLICY:
            names.append(POLICY)
        else:
            body, hash_sign, tag = text.partition("#")
            names.append(body.partition(":")[0] + hash_sign + tag)
    return names


def build_player(spec: BotSpec, *, seat: int, rules: Rules, seed: str,
                 timeout: float = DEFAULT_TIMEOUT, startup_timeout: float = STARTUP_TIMEOUT,
                 fallback: str | None = None, names: Sequence[str] | None = None,
                 bot_seed: str | None = None) -> Player:
    """A fresh player for one game at ``seat``, its randomness derived from ``seed``.

    ``names`` are every seat's spec; an outside bot is told their :func:`public_names`,
    and a seed derived one-way from ``bot_seed`` (none without it: see
    :class:`~hearts.arena.match.MatchConfig`)."""
    if spec.kind == EXTERNAL:
        backup = BotSpec.parse(fallback or default_fallback())
        if backup.is_external:
            raise BotSpecError("the fallback must be a built-in bot, not an external one")
        return ExternalPlayer(spec.command, seat, rules, timeout=timeout,
                              startup_timeout=startup_timeout, name=spec.text, seed=bot_seed,
                              names=None if names is None else public_names(names),
                              fallback=build_player(backup, seat=seat, rules=rules,
                                                    seed=f"{seed}/fallback"))
    if spec.kind == ISMCTS:
        from hearts.arena.openspiel import ismcts_player  # optional dependency

        return ismcts_player(spec.text, dict(spec.options), seed)
    if spec.kind == POLICY:
        return make_player(spec.text)
    return _level_player(spec, seed)
