"""The figures of a match: per bot points per hand with a 95% interval, moons, wins, timing.

``report(result)`` is JSON-ready. Everything under ``figures`` follows from the match
seed and the code that played (``code``: :func:`~hearts.arena.match.playing_code`) alone
(it is what a rerun must reproduce; an outside bot's figures, from its program too);
``timing`` (per bot: decision count, mean, median, 95th percentile and maximum in
milliseconds of wall time, and the same of CPU time under ``cpu``, which a busy machine
does not inflate: the bot's own decisions only, never those its fallback made) and
``run`` vary from run to run.

Every interval (:func:`~hearts.arena.stats.t_interval`) is cut to the range its figure
can take (a win rate from 0 to one over the bot's seats; points per hand from the
fewest to the most a seat can take in a hand under the rules, :func:`hand_points_range`)
and lists its ``doubts``: ``few samples`` (fewer than
:data:`~hearts.arena.stats.TRUSTED_SAMPLES` deal sets) or ``no spread`` (every deal set
gave the same figure, so its width of zero says nothing); the text report says so under
its table.

Per bot (a bot is one spec text, however many seats it holds):

* ``points_per_hand``: the mean over deal sets of the bot's points per seat-hand in
  that deal set (every rotation, every hand), with a t interval over deal sets;
* ``margin``: per deal set, the other bots' points per seat-hand minus this bot's
  (positive: this bot took fewer points), with its t interval;
* ``by_deal_set``: both, and the win rate per seat (below), per deal set in deal-set
  order (the samples of the intervals, which :func:`pool` joins across reports);
* ``moons_shot``: hands in which one of its seats shot the moon; ``moons_allowed``:
  hands in which a seat of another bot did (``hearts stats`` and ``hearts simulate``
  name them so too; a report before version 2 named ``moons_shot`` ``moons_made``, and
  is read with today's name);
* ``wins``: games won, a tie's win split among its winners, and ``shared_wins``: games a
  seat of the bot won in a tie, each counted whole (every command counts them so:
  :func:`~hearts.arena.stats.win_share`, :func:`~hearts.arena.stats.shared_win`; None in
  a pool with a report from before them); ``win_rate_per_seat``:
  wins over games times seats held (an even share is one over the player count);
  ``win_rate``: the same rate per deal set, its mean with a t interval over deal sets
  (the rates themselves in ``by_deal_set``);
* ``fallbacks``: games in which a seat of the bot failed and was taken over, and
  ``fallback_moves``: the decisions the fallback made for it (the one the bot failed
  among them); ``includes_fallback``: whether its figures (points, margin, moons, wins)
  include a fallback's play, that is whether ``fallbacks`` is not 0 (the text report
  says so under the bot's row); ``errors``: the first few failures, and ``more_errors``:
  how many others there were;
* ``ready_names``, an ``ext:`` bot's alone: the names its program gave in ``ready``
  (``my-bot 1.0``), each once, in the order first given: the version of the program
  that played, which the code digest cannot cover, so :func:`pool` refuses reports in
  which one spec gave other names.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from hearts.arena.errors import ArenaError
from hearts.arena.match import MatchResult, first_code, rotations
from hearts.arena.specs import EXTERNAL
from hearts.arena.stats import (
    FEW_SAMPLES,
    NO_SPREAD,
    TRUSTED_SAMPLES,
    WINS_MEANING,
    interval_text,
    shared_win,
    t_interval,
    win_share,
)
from hearts.core import (
    JACK_MASK,
    JsonTextError,
    MoonChoice,
    Rules,
    card_points,
    echoed,
    fixed_moon_choice,
    moon_points,
    read_json,
)
from hearts.wording import counted

__all__ = ["REPORT_FORMAT", "REPORT_VERSION", "REPORT_WIDTH", "code_text", "current_names",
           "format_report", "hand_points_range", "pool", "pool_by", "read_report", "report",
           "seeds_text", "win_rate_text"]

_Key = TypeVar("_Key", bound=Hashable)

REPORT_FORMAT = "card-commons-hearts/arena"
REPORT_VERSION = 2
"""The report's version: 2 named ``moons_made`` ``moons_shot``, added ``shared_wins``, and
times a failed outside bot's own decisions alone (version 1 timed its fallback's too); a
report of version 1 is read with today's names (:func:`current_names`). The optional
fields ``ready_names``, ``includes_fallback`` and an interval's ``doubts`` came with
version 2; a report without them is read as before."""
_RENAMED = {"moons_made": "moons_shot"}  # a bot's figure's name in version 1 -> today's
_MAX_ERRORS = 3


def _bots(lineup: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(lineup))


def hand_points_range(rules: Rules) -> tuple[int, int]:
    """The fewest and the most points one seat can take in a hand under ``rules``, asked
    of the core's scoring: at most every point card's worth (taken, or a moon added to
    the others); at least the J♦'s worth where it scores, less a moon's worth where the
    shooter may take it off. The bounds of a points-per-hand interval.

    >>> hand_points_range(Rules.parse("standard")), hand_points_range(Rules.parse("card-commons"))
    ((0, 26), (-26, 26))
    """
    moon = moon_points(rules)
    jack = card_points(rules.deck & JACK_MASK, rules)
    subtracted = moon if fixed_moon_choice(rules) is not MoonChoice.ADD else 0
    return min(0, jack) - subtracted, moon


def _ranges(rules: Rules, seats: int) -> dict[str, tuple[float, float]]:
    """The range of each interval's figure, for a bot of ``seats`` seats: points per hand
    (:func:`hand_points_range`), the margin (the widest difference of two such), and the
    win rate a seat (a game's wins add up to one, shared among the bot's seats)."""
    lowest, highest = hand_points_range(rules)
    return {"points_per_hand": (lowest, highest),
            "margin": (lowest - highest, highest - lowest),
            "win_rate": (0.0, 1 / seats)}


def _is_external(bot: str) -> bool:
    """Whether a bot's spec names an outside program (``ext:COMMAND``)."""
    return bot.strip().partition(":")[0] == EXTERNAL


def _ready_names(result: MatchResult, bot: str) -> list[str]:
    """The names an ``ext:`` bot's program gave in ``ready``, each once, first given first."""
    return list(dict.fromkeys(
        name for outcome in result.outcomes for text, name in zip(
            outcome.seating, outcome.bot_names or (None,) * len(outcome.seating), strict=True)
        if text == bot and name is not None))


def _figures(result: MatchResult) -> dict[str, Any]:
    config = result.config
    bots = _bots(config.lineup)
    seats_held = {bot: config.lineup.count(bot) for bot in bots}
    # per deal set: bot -> [points, seat-hands]
    sums: dict[int, dict[str, list[int]]] = defaultdict(lambda: {b: [0, 0] for b in bots})
    shot = dict.fromkeys(bots, 0)
    allowed = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0.0)
    shared = dict.fromkeys(bots, 0)
    # per deal set: its games, and each bot's wins in them
    set_games: dict[int, int] = defaultdict(int)
    set_wins: dict[int, dict[str, float]] = defaultdict(lambda: dict.fromkeys(bots, 0.0))
    fallbacks = dict.fromkeys(bots, 0)
    fallback_moves = dict.fromkeys(bots, 0)
    errors: dict[str, list[str]] = {bot: [] for bot in bots}
    more_errors = dict.fromkeys(bots, 0)
    hands = 0
    for outcome in result.outcomes:
        seating = outcome.seating
        group = sums[outcome.deal_set]
        hands += len(outcome.points)
        for points, shooter in zip(outcome.points, outcome.shooters, strict=True):
            for seat, value in enumerate(points):
                group[seating[seat]][0] += value
                group[seating[seat]][1] += 1
            if shooter is not None:
                shot[seating[shooter]] += 1
                for bot in bots:
                    if bot != seating[shooter]:
                        allowed[bot] += 1
        set_games[outcome.deal_set] += 1
        for seat in outcome.winners:
            wins[seating[seat]] += win_share(outcome.winners, seat)
            shared[seating[seat]] += shared_win(outcome.winners, seat)
            set_wins[outcome.deal_set][seating[seat]] += win_share(outcome.winners, seat)
        for bot in {seating[s] for s, e in enumerate(outcome.failures) if e is not None}:
            fallbacks[bot] += 1
        for seat, moves in enumerate(outcome.fallback_moves):
            fallback_moves[seating[seat]] += moves
        for seat, error in enumerate(outcome.failures):
            if error is None:
                continue
            if len(errors[seating[seat]]) < _MAX_ERRORS:
                errors[seating[seat]].append(f"deal set {outcome.deal_set}, rotation "
                                             f"{outcome.rotation}, seat {seat}: {error}")
            else:
                more_errors[seating[seat]] += 1
    games = len(result.outcomes)
    per_bot = []
    for bot in bots:
        within = _ranges(config.rules, seats_held[bot])
        means = [g[bot][0] / g[bot][1] for _, g in sorted(sums.items())]
        margins = []
        if len(bots) > 1:
            for _, g in sorted(sums.items()):
                others = [v for b, v in g.items() if b != bot]
                other_mean = sum(v[0] for v in others) / sum(v[1] for v in others)
                margins.append(other_mean - g[bot][0] / g[bot][1])
        rates = [set_wins[d][bot] / (set_games[d] * seats_held[bot]) for d in sorted(set_games)]
        per_bot.append({
            "bot": bot,
            "seats": seats_held[bot],
            "seat_hands": sum(g[bot][1] for g in sums.values()),
            "points_per_hand": t_interval(means, within=within["points_per_hand"]).to_json(),
            "margin": (t_interval(margins, within=within["margin"]).to_json()
                       if margins else None),
            "by_deal_set": {"points_per_hand": [round(m, 6) for m in means],
                            "margin": [round(m, 6) for m in margins],
                            "win_rate_per_seat": [round(r, 6) for r in rates]},
            "moons_shot": shot[bot],
            "moons_allowed": allowed[bot],
            "wins": round(wins[bot], 4),
            "shared_wins": shared[bot],
            "win_rate_per_seat": round(wins[bot] / (games * seats_held[bot]), 4),
            "win_rate": t_interval(rates, within=within["win_rate"]).to_json() if rates else None,
            "fallbacks": fallbacks[bot],
            "fallback_moves": fallback_moves[bot],
            "includes_fallback": fallbacks[bot] > 0,
            "errors": errors[bot],
            "more_errors": more_errors[bot],
            **({"ready_names": _ready_names(result, bot)} if _is_external(bot) else {}),
        })
    return {
        "rules": config.rules.text,
        "seed": config.seed,
        **({"bot_seed": config.bot_seed} if config.bot_seed is not None else {}),
        "lineup": list(config.lineup),
        "deal_sets": config.deal_sets,
        "rotations": len(rotations(config.lineup)),
        "games": games,
        "hands": hands,
        "bots": per_bot,
    }


def _summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"mean_ms": None, "p50_ms": None, "p95_ms": None, "max_ms": None}
    ms = np.asarray(values) * 1000.0
    return {"mean_ms": round(float(ms.mean()), 3),
            "p50_ms": round(float(np.percentile(ms, 50)), 3),
            "p95_ms": round(float(np.percentile(ms, 95)), 3),
            "max_ms": round(float(ms.max()), 3)}


def _timing(result: MatchResult) -> dict[str, Any]:
    bots = _bots(result.config.lineup)
    wall: dict[str, list[float]] = {bot: [] for bot in bots}
    cpu: dict[str, list[float]] = {bot: [] for bot in bots}
    for outcome in result.outcomes:
        for seat, seconds in enumerate(outcome.decision_seconds):
            wall[outcome.seating[seat]].extend(seconds)
        for seat, seconds in enumerate(outcome.decision_cpu_seconds):
            cpu[outcome.seating[seat]].extend(seconds)
    return {bot: {"decisions": len(wall[bot]), **_summary(wall[bot]),
                  "cpu": _summary(cpu[bot])} for bot in bots}


def report(result: MatchResult) -> dict[str, Any]:
    """The JSON-ready report of a match (see the module docstring)."""
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "code": result.code,
        "figures": _figures(result),
        "timing": _timing(result),
        "run": {"workers": result.workers, "wall_seconds": round(result.wall_seconds, 3)},
    }


def _codes(data: dict[str, Any]) -> list[str]:
    """The codes that played a report: a pool's ``codes``, else its ``code``."""
    return list(data.get("codes", [data["code"]]))


def pool(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report of several matches of the same rules and lineup on different seeds
    (runs on several machines, or one after another, even in other sessions): the
    intervals over every deal set of them all, the counts summed, the decision times
    joined (:func:`_pooled_timing`). ArenaError, saying which, when a report is not an
    arena report, lacks its deal sets' figures (older than ``by_deal_set``) or its code
    digest, was played by code that does not play as the others' (:func:`first_code`),
    differs in rules or lineup, repeats a seed (the same deals again are no new
    evidence), or has an ``ext:`` bot whose program gave another name in ``ready`` than
    in the others (another version of it: :func:`_same_programs`; a report from before
    ``ready_names`` pools as before). Reports of several codes that play alike name them
    all under ``codes``; reports of version 1 pool with today's (:func:`current_names`)."""
    if not reports:
        raise ArenaError("nothing to pool: give at least one arena report")
    reports = [current_names(data) for data in reports]
    for data in reports:
        if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
            raise ArenaError(f"not an arena report (its format is not {REPORT_FORMAT!r})")
        if any("by_deal_set" not in bot for bot in data["figures"]["bots"]):
            raise ArenaError(f"the report of seed {data['figures']['seed']!r} has no figures "
                             "by deal set (a report from an older version): run it again")
        if "code" not in data:
            raise ArenaError(f"the report of seed {data['figures']['seed']!r} does not say "
                             "which code played (a report from an older version): run it "
                             "again")
    code = reports[0]["code"]
    line = first_code(code)
    codes = list(dict.fromkeys(played for data in reports for played in _codes(data)))
    first = reports[0]["figures"]
    seeds: list[str] = []
    for data in reports:
        figures = data["figures"]
        if first_code(data["code"]) != line:
            raise ArenaError(f"the match of seed {figures['seed']!r} was played by other "
                             f"code ({data['code']}, not {code}) not shown to play alike "
                             "(hearts.arena.match.PLAYS_AS): its bots are not the same bots")
        for key in ("rules", "lineup"):
            if figures[key] != first[key]:
                raise ArenaError(f"only matches of one {key} pool: {figures[key]!r} is not "
                                 f"{first[key]!r}")
        bots = [bot["bot"] for bot in figures["bots"]]
        if bots != [bot["bot"] for bot in first["bots"]] or not isinstance(
                data["timing"], dict) or sorted(data["timing"]) != sorted(bots):
            raise ArenaError(f"the report of seed {figures['seed']!r} does not list the "
                             "same bots in its figures and its timing as the first: a "
                             "damaged report")
        if figures["seed"] in seeds:
            raise ArenaError(f"seed {figures['seed']!r} appears twice: its deals would count "
                             "twice")
        seeds.append(figures["seed"])
    _same_programs(reports)
    games = sum(data["figures"]["games"] for data in reports)
    rules = Rules.parse(first["rules"])
    bots = []
    for place, bot in enumerate(first["bots"]):
        each = [data["figures"]["bots"][place] for data in reports]
        within = _ranges(rules, bot["seats"])
        points = [x for b in each for x in b["by_deal_set"]["points_per_hand"]]
        margins = [x for b in each for x in b["by_deal_set"]["margin"]]
        # reports older than the win rates by deal set pool without their interval
        rates = ([x for b in each for x in b["by_deal_set"]["win_rate_per_seat"]]
                 if all("win_rate_per_seat" in b["by_deal_set"] for b in each) else [])
        seats = bot["seats"]
        wins = sum(b["wins"] for b in each)
        bots.append({
            "bot": bot["bot"], "seats": seats,
            "seat_hands": sum(b["seat_hands"] for b in each),
            "points_per_hand": t_interval(points, within=within["points_per_hand"]).to_json(),
            "margin": (t_interval(margins, within=within["margin"]).to_json()
                       if margins else None),
            "by_deal_set": {"points_per_hand": points, "margin": margins,
                            **({"win_rate_per_seat": rates} if rates else {})},
            **{key: sum(b[key] for b in each)
               for key in ("moons_shot", "moons_allowed", "fallbacks", "fallback_moves",
                           "more_errors")},
            "wins": round(wins, 4),
            # reports older than the shared wins (or pools of them) pool without them,
            # rather than with a count of some of the games
            "shared_wins": (sum(b["shared_wins"] for b in each)
                            if all(b.get("shared_wins") is not None for b in each) else None),
            "win_rate_per_seat": round(wins / (games * seats), 4),
            "win_rate": t_interval(rates, within=within["win_rate"]).to_json() if rates else None,
            "includes_fallback": any(b["fallbacks"] for b in each),
            "errors": [e for b in each for e in b["errors"]][:_MAX_ERRORS],
            # an ext: bot's names, from the reports that kept them (not those before them)
            **({"ready_names": list(dict.fromkeys(
                name for b in each for name in b.get("ready_names", ())))}
               if any("ready_names" in b for b in each) else {}),
        })
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "code": code,
        **({"codes": codes} if len(codes) > 1 else {}),
        "figures": {
            "rules": first["rules"], "seed": " ".join(seeds), "lineup": first["lineup"],
            **{key: sum(data["figures"][key] for data in reports)
               for key in ("deal_sets", "games", "hands")},
            "rotations": first["rotations"], "bots": bots},
        "timing": {bot: _pooled_timing([data["timing"][bot] for data in reports])
                   for bot in reports[0]["timing"]},
        "run": {"workers": max(data["run"]["workers"] for data in reports),
                "wall_seconds": round(sum(data["run"]["wall_seconds"] for data in reports), 3),
                "pooled": len(reports)},
    }


def _same_programs(reports: list[dict[str, Any]]) -> None:
    """ArenaError, naming both names and their seeds, where one ``ext:`` bot's program
    gave other names in ``ready`` in these reports (in two of them, or in two games of
    one): another version of an outside program is another bot, which the code digest
    does not see. A report from before ``ready_names``, and a program that gave no name,
    say nothing of its version and pool as before."""
    for place, bot in enumerate(reports[0]["figures"]["bots"]):
        named: dict[str, str] = {}  # a name given -> the seed of the match it was given in
        for data in reports:
            figures = data["figures"]
            names = figures["bots"][place].get("ready_names", [])
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ArenaError(f"the report of seed {figures['seed']!r} keeps names given in "
                                 "ready that are no list of texts: a damaged report")
            for name in names:
                named.setdefault(name, figures["seed"])
        if len(named) > 1:
            (first, first_seed), (other, other_seed) = list(named.items())[:2]
            raise ArenaError(
                f"bot {echoed(bot['bot'], 60)} said it is {echoed(first, 60)} in the match of "
                f"seed {first_seed!r} and {echoed(other, 60)} in the match of seed "
                f"{other_seed!r}: other versions of a program are other bots, and their "
                "reports do not pool (pool each version's reports apart)")


def pool_by(reports: list[dict[str, Any]],
            key: Callable[[dict[str, Any]], _Key]) -> dict[_Key, dict[str, Any]]:
    """Reports of several kinds of match (curve points, pairings) grouped by ``key`` and
    each group pooled (:func:`pool`) with its runs in seed order, so that groups played on
    the same seeds still pair deal set by deal set; the groups in the order they first
    appear. ArenaError from :func:`pool` when a group's runs do not pool."""
    groups: dict[_Key, list[dict[str, Any]]] = defaultdict(list)
    for data in reports:
        groups[key(data)].append(data)
    return {group: pool(sorted(runs, key=lambda data: data["figures"]["seed"]))
            for group, runs in groups.items()}


def read_report(path: Path) -> dict[str, Any]:
    """One arena report written by ``--json`` (``hearts arena``, a benchmark's ``--json-out``);
    ArenaError naming the file if it is not."""
    try:
        data = read_json(path.read_bytes())
    except OSError as exc:
        raise ArenaError(f"{path}: cannot read it ({exc.strerror})") from None
    except JsonTextError as exc:
        raise ArenaError(f"{path}: not a JSON arena report ({exc})") from None
    if not isinstance(data, dict):
        raise ArenaError(f"{path}: not an arena report (a JSON object from --json)")
    try:  # pooled alone and written out, a report is read as every pool and every
        # report's text reads it: a bad one fails here
        format_report(pool([data]))
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
        why = f"it has no {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise ArenaError(f"{path}: not an arena report this version can pool: {why}") from None
    return current_names(data)


def current_names(data: dict[str, Any]) -> dict[str, Any]:
    """A report with its bots' figures under today's names (a report of version 1 named
    ``moons_shot`` ``moons_made``), so that every reader of kept reports reads one name;
    anything not shaped as a report is given back as it is, for the checks to refuse."""
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(figures, dict):
        return data
    bots = figures.get("bots")
    if not isinstance(bots, list) or not any(
            isinstance(bot, dict) and bot.keys() & _RENAMED for bot in bots):
        return data
    renamed = [{_RENAMED.get(key, key): value for key, value in bot.items()}
               if isinstance(bot, dict) else bot for bot in bots]
    return {**data, "figures": {**figures, "bots": renamed}}


def _pooled_timing(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Decision times of several reports: the decisions summed, their mean, and the
    largest of the reports' percentiles and maxima (an upper bound: the times themselves
    are not in the reports)."""
    def joined(summaries: list[dict[str, Any]]) -> dict[str, float | None]:
        weights = [row["decisions"] for row in rows]
        means = [(s["mean_ms"], w) for s, w in zip(summaries, weights, strict=True)
                 if s["mean_ms"] is not None]
        total = sum(w for _, w in means)
        highest = {key: max((s[key] for s in summaries if s[key] is not None), default=None)
                   for key in ("p50_ms", "p95_ms", "max_ms")}
        return {"mean_ms": round(sum(m * w for m, w in means) / total, 3) if total else None,
                **highest}
    return {"decisions": sum(row["decisions"] for row in rows), **joined(rows),
            "cpu": joined([row["cpu"] for row in rows])}


def win_rate_text(bot: dict[str, Any]) -> str:
    """A bot's games won per seat held, with its interval over deal sets when the report
    has one (``0.313 ± 0.045``)."""
    interval = bot.get("win_rate")
    if interval is None or interval["half_width"] is None:
        return f"{bot['win_rate_per_seat']:.3f}"
    return interval_text(interval)


def _shared_text(shared_wins: int | None) -> str:
    """A bot's shared wins after its wins; nothing where a pooled older report did not
    count them."""
    return "" if shared_wins is None else f" ({shared_wins} shared)"


def _fallback_text(games: int, moves: int) -> str:
    return f"{games} ({moves} moves)" if games else "0"


def seeds_text(figures: dict[str, Any]) -> str:
    """A report's seeds: named while they are few (a pool's up to four), counted when
    they are many, so a long pool's header stays one readable line."""
    seeds = figures["seed"].split()
    if len(seeds) > 4:
        return f"{len(seeds)} seeds"
    return f"seed{'s' if len(seeds) > 1 else ''} {' '.join(seeds)}"


def code_text(data: dict[str, Any]) -> str:
    """The code that played a report, or the codes of a pool of several that play alike."""
    if "codes" in data:
        return f"codes {', '.join(data['codes'])}, which play alike"
    return f"code {data['code']}"


REPORT_WIDTH = 80
"""The columns a text report fits where its bots' names allow: a terminal's classic
width (a bot is named whole, so a long name, such as an outside program's command,
widens its table)."""
_COLUMNS = ("bot", "seats", "pts/hand", "margin", "moons", "win/seat", "fallbacks", "p95")
_FOOTNOTE = ("pts/hand, margin and win/seat: the mean ± the half-width of its 95% t "
             "interval over deal sets (cut to the values the figure can take, the distance "
             "to the farther bound); margin: the other bots' points per hand minus this "
             "bot's (positive is better); moons: shot by the bot / by the others; "
             f"win/seat: wins over games times seats held; {WINS_MEANING}; "
             "fallbacks: games in which a seat of the bot failed and a built-in bot "
             "finished for it (and its moves); p95: the 95th percentile of its decision "
             "times in milliseconds (its own: never its fallback's).")
# each interval of a bot's row, by the column that shows it
_INTERVALS = {"points_per_hand": "pts/hand", "margin": "margin", "win_rate": "win/seat"}


def _bot_notes(bot: dict[str, Any]) -> list[str]:
    """What the table's row of a bot cannot say: the names an outside bot gave, that its
    seat was taken over and why, and its intervals of no width."""
    notes = []
    if "ready_names" in bot:
        names = bot["ready_names"]
        notes.append(f"ready as {', '.join(echoed(name, 60) for name in names)}" if names
                     else "gave no name in ready")
    if bot["fallbacks"]:
        notes.append(f"seat taken over in {counted(bot['fallbacks'], 'game')}; those games' "
                     "points include the fallback's play")
    more = bot.get("more_errors", 0)
    notes += [*(f"fallback: {error}" for error in bot["errors"]),
              *([f"... and {counted(more, 'more fallback')}"] if more else [])]
    flat = [column for key, column in _INTERVALS.items()
            if NO_SPREAD in ((bot.get(key) or {}).get("doubts") or ())]
    if flat:
        notes.append(f"{', '.join(flat)}: the same in every deal set, so no measure of "
                     "doubt: not to be trusted")
    return notes


def _doubt_note(figures: dict[str, Any]) -> list[str]:
    """A line under the table where intervals stand on too few deal sets to be trusted."""
    if not any(FEW_SAMPLES in ((bot.get(key) or {}).get("doubts") or ())
               for bot in figures["bots"] for key in _INTERVALS):
        return []
    return [f"{counted(figures['deal_sets'], 'deal set')}: intervals over fewer than "
            f"{TRUSTED_SAMPLES} are not to be trusted (play more deal sets, or pool "
            "reports)"]


def format_report(data: dict[str, Any]) -> str:
    """The report as a few lines of text for people, in :data:`REPORT_WIDTH` columns (each
    column as wide as its widest cell)."""
    figures = data["figures"]
    heading = [f"rules {figures['rules']}", seeds_text(figures),
               f"{counted(figures['deal_sets'], 'deal set')} x "
               f"{counted(figures['rotations'], 'rotation')} = "
               f"{counted(figures['games'], 'game')}, {counted(figures['hands'], 'hand')}"]
    if "bot_seed" in figures:
        heading.append(f"outside bots' seed {figures['bot_seed']}")
    if "code" in data:
        heading.append(code_text(data))
    rows: list[tuple[str, ...]] = []
    notes: list[list[str]] = []
    for bot in figures["bots"]:
        p95 = data["timing"].get(bot["bot"], {}).get("p95_ms")
        # whole names: two external bots may differ only at the end of their commands
        rows.append((
            bot["bot"], str(bot["seats"]), interval_text(bot["points_per_hand"]),
            interval_text(bot["margin"], signed=True),
            f"{bot['moons_shot']}/{bot['moons_allowed']}", win_rate_text(bot),
            _fallback_text(bot["fallbacks"], bot.get("fallback_moves", 0)),
            "-" if p95 is None else f"{p95:.1f}"))
        notes.append(_bot_notes(bot))
    widths = [max([len(title), *(len(row[column]) for row in rows)])
              for column, title in enumerate(_COLUMNS)]
    lines = [*_packed(heading, "  "), "", _table_row(_COLUMNS, widths)]
    for row, bot_notes in zip(rows, notes, strict=True):
        lines.append(_table_row(row, widths))
        for note in bot_notes:
            lines += textwrap.wrap(note, REPORT_WIDTH, initial_indent="    ",
                                   subsequent_indent="      ", break_long_words=False,
                                   break_on_hyphens=False)
    lines.append("")
    for note in _doubt_note(figures):
        lines += textwrap.wrap(note, REPORT_WIDTH, break_on_hyphens=False)
    lines += textwrap.wrap("wins: " + ", ".join(
        f"{bot['bot']} {bot['wins']:.2f}{_shared_text(bot.get('shared_wins'))}"
        for bot in figures["bots"]), REPORT_WIDTH, subsequent_indent="  ",
        break_long_words=False, break_on_hyphens=False)
    lines += textwrap.wrap(_FOOTNOTE, REPORT_WIDTH)
    run = data["run"]
    pooled = f", {run['pooled']} reports pooled" if "pooled" in run else ""
    lines.append(f"{run['workers']} worker(s), {run['wall_seconds']:.1f} s{pooled}")
    return "\n".join(lines)


def _table_row(cells: tuple[str, ...], widths: list[int]) -> str:
    """One line of the report's table: the bot's name to the left, the figures to the
    right of their columns."""
    return " ".join([f"{cells[0]:<{widths[0]}}",
                     *(f"{cell:>{width}}" for cell, width in zip(cells[1:], widths[1:],
                                                                  strict=True))]).rstrip()


def _packed(parts: list[str], gap: str) -> list[str]:
    """``parts`` joined by ``gap`` into as few lines of :data:`REPORT_WIDTH` as they fit
    whole (a part wider than a line is a line of its own)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(gap) + len(part) <= REPORT_WIDTH:
            lines[-1] += gap + part
        else:
            lines.append(part)
    return lines
