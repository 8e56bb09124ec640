"""Every rule fact has one home, :mod:`hearts.core`: nothing outside it restates one.

A rule written twice will disagree (a hint once explained the first trick without the
core's exception for a hand of only point cards). So no module outside ``hearts.core``
may write a card number or mask, a rule constant, the pass geometry or a test of a rule
option's member; it asks the core. The Numba kernel of the search player is the one
allowed copy (``test_search_kernel`` ties it to the core), and the browser gets the facts
it shows from the server's messages.

The check reads the sources (an AST walk, a regex scan for the browser's scripts), so it
fails on the line that restates a rule and names the core function to ask instead.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import hearts
from hearts.core import PRESETS

PACKAGE = Path(hearts.__file__).parent
CORE = PACKAGE / "core"
STATIC = PACKAGE / "server" / "static"

# The one allowed restatement: the search player's compiled kernel, kept honest by its
# cross-check test against the core.
KERNEL = PACKAGE / "players" / "search" / "kernel.py"

# (file under src/hearts, construct) -> why that file may write it. Keep this short: each
# line is a rule fact written a second time.
ALLOWED: dict[tuple[str, str], str] = {
    **{("arena/openspiel.py", member): "checks that the rules are the ones OpenSpiel's hearts"
       " plays before handing it a game" for member in (
           "FirstLead.LOWEST_CLUB", "FirstTrick.NO_POINTS", "HeartsLead.AFTER_HEART_OR_QUEEN",
           "MoonRule.OTHERS_PLUS")},
    ("server/static/cards.js", "* 13"): "card numbers in the fairness check (deal.js), which"
    " rebuilds the deal from the revealed seed to prove it by itself",
    ("server/static/cards.js", "% 13"): "the same card numbering, name from number",
    ("server/static/cards.js", "/ 13"): "the same card numbering, name from number",
    ("server/static/deal.js", "52"): "the fairness check shuffles the whole deck by itself",
    ("server/static/scorer.js", "a game-end comparison"): "the offline score sheet applies the"
    " target the server publishes; tests/server/test_score_js.py ties it to hearts.core.Sheet",
}

CARDS = "hearts.core.cards (Card.suit, Card.rank, SUIT_MASKS, cards_above, cards_below)"
RULE_ENUMS = frozenset({"FirstTrick", "FirstLead", "HeartsLead", "MoonRule"})
ENUM_HOMES = ("hearts.core.tricks (points_barred, hearts_open, first_leader, play_rules) or"
              " hearts.core.scoring (moon_points, fixed_moon_choice, round_points)")
# Card arithmetic: a card's suit and rank, a suit's mask.
SUIT_OPERATORS = {ast.FloorDiv: "//", ast.Mod: "%", ast.Mult: "*", ast.LShift: "<<",
                  ast.RShift: ">>"}
# Literals that are a card, a mask or a rule constant wherever they appear.
LITERALS = {
    13: f"13 (cards in a suit, a hand, the Q♠'s points): rules.hand_size, {CARDS},"
        " hearts.core.scoring.card_points",
    26: "26 (a moon's worth): hearts.core.scoring.moon_points(rules)",
    36: "36 (the Q♠'s number): hearts.core.cards.QUEEN_OF_SPADES / QUEEN_MASK",
    52: "52 (the deck): rules.deck, hearts.core.cards.FULL_DECK / ALL_CARDS",
    0x1FFF: f"0x1FFF (a suit's mask): {CARDS}",
}
GAME_END = "hearts.core.scoring.game_over(totals, rules) / game_winners(totals, rules)"
PASS_GEOMETRY = ("rules.pass_target(seat, round_no) / rules.pass_source(seat, round_no),"
                 " view.pass_target / view.pass_source")


class Restatement(NamedTuple):
    """A rule fact written outside the core: where, what, and what to ask instead."""

    path: str
    line: int
    construct: str
    instead: str

    def __str__(self) -> str:
        return f"src/hearts/{self.path}:{self.line}: `{self.construct}`: use {self.instead}"


def _int(node: ast.AST | None) -> int | None:
    """The value of an integer literal (not a bool), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _counts(node: ast.AST) -> bool:
    """Whether ``node`` writes a number of players: a number, a tuple of them, a range."""
    if isinstance(node, ast.Tuple | ast.List):
        return all(_int(e) is not None for e in node.elts)
    return _int(node) is not None or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range")


def _pass_offset(node: ast.AST, aliases: set[str]) -> bool:
    """Whether ``node`` reads a pass offset: ``x.pass_offset``, ``x.pass_offset(...)``, or
    a local name bound to one."""
    if isinstance(node, ast.Call):
        node = node.func
    return ((isinstance(node, ast.Attribute) and node.attr == "pass_offset")
            or (isinstance(node, ast.Name) and node.id in aliases))


def _offset_aliases(tree: ast.AST) -> set[str]:
    """Names bound to a pass offset (``offset = view.pass_offset``, or in a tuple
    assignment ``seat, offset = view.seat, view.pass_offset``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = (zip(target.elts, node.value.elts, strict=False)
                     if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                     else [(target, node.value)])
            names.update(t.id for t, v in pairs
                         if isinstance(t, ast.Name) and _pass_offset(v, set()))
    return names


def restatements(where: str, source: str) -> Iterator[Restatement]:
    """Every rule fact that the Python module ``where`` (its ``source``) writes for itself."""
    tree = ast.parse(source, where)
    aliases = _offset_aliases(tree)

    def found(node: ast.AST, construct: str, instead: str) -> Restatement:
        return Restatement(where, getattr(node, "lineno", 0), construct, instead)

    flagged_literals: set[int] = set()  # literals already reported as part of a bigger construct
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            symbol = SUIT_OPERATORS.get(type(node.op))
            if symbol and 13 in (_int(node.left), _int(node.right)):
                flagged_literals.update(id(n) for n in (node.left, node.right))
                yield found(node, f"{symbol} 13", f"{CARDS}")
            elif isinstance(node.op, ast.LShift) and _int(node.left) == 1 and _int(
                    node.right) is not None:
                flagged_literals.update(id(n) for n in (node.left, node.right))
                yield found(node, f"1 << {_int(node.right)}",
                            "a named mask of hearts.core.cards (QUEEN_MASK, JACK_MASK,"
                            " HEART_MASK, POINT_MASK) or 1 << Card(...)")
            elif _pass_offset(node.left, aliases) or _pass_offset(node.right, aliases):
                yield found(node, "pass_offset arithmetic", PASS_GEOMETRY)
            elif any(isinstance(o, ast.Attribute) and o.attr == "dealer"
                     for o in (node.left, node.right)):
                yield found(node, "a seat counted from .dealer",
                            "hearts.core.tricks.first_leader(play_rules, held, dealer),"
                            " state.turn / view.to_act")
        elif isinstance(node, ast.Dict) and any(
                isinstance(key, ast.Constant) and key.value in PRESETS and _counts(value)
                for key, value in zip(node.keys, node.values, strict=True)):
            yield found(node, "player counts per preset", "hearts.core.PLAYER_COUNTS[preset]")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "divmod" and any(_int(a) == 13 for a in node.args)):
            flagged_literals.update(id(a) for a in node.args)
            yield found(node, "divmod(_, 13)", CARDS)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Attribute) and o.attr == "target" for o in operands):
                yield found(node, "a comparison with .target", GAME_END)
            elif 100 in map(_int, operands):
                yield found(node, "a comparison with 100", GAME_END)
            if (any(isinstance(o, ast.Attribute) and o.attr == "suit" for o in operands)
                    and any(_int(o) is not None for o in operands)):
                yield found(node, "a suit compared with a number",
                            "the suit constants CLUBS..HEARTS of hearts.core.cards")
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
              and node.value.id == "SUIT_MASKS" and _int(node.slice) is not None):
            flagged_literals.add(id(node.slice))
            yield found(node, f"SUIT_MASKS[{_int(node.slice)}]",
                        "the suit constants CLUBS..HEARTS, or HEART_MASK")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id in RULE_ENUMS):
            yield found(node, f"{node.value.id}.{node.attr}", ENUM_HOMES)
    for node in ast.walk(tree):
        value = _int(node)
        if value in LITERALS and id(node) not in flagged_literals:
            yield found(node, f"0x{value:X}" if value > 0xFF else str(value), LITERALS[value])


# Browser scripts: a card's suit and rank, the deck, the moon, the pass geometry, game end.
JS_PATTERNS = [
    (re.compile(r"([%/*])\s*13\b"), lambda m: f"{m.group(1)} 13",
     "the card names and facts that the server's messages carry"),
    (re.compile(r"\b13\s*\*"), lambda m: "* 13",
     "the card names and facts that the server's messages carry"),
    (re.compile(r"\b(26|36|52)\b"), lambda m: m.group(1),
     "the facts that the server's messages carry (moon worth, cards, deck)"),
    (re.compile(r"pass_?[oO]ffset\w*\s*[-+*/%]|[-+*/%]\s*[\w.]*pass_?[oO]ffset"),
     lambda m: "pass_offset arithmetic", "the pass_target / pass_source of the server's view"),
    (re.compile(r"[<>]=?\s*100\b|\b100\s*[<>]=?|\.target\s*[<>]|[<>]=?\s*[\w.]+\.target\b"),
     lambda m: "a game-end comparison", "the server's game_over / winners facts"),
]


def _code_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of a script without its comments (``//`` to the line's end, ``/* */``)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.DOTALL)
    for number, line in enumerate(text.splitlines(), 1):
        yield number, re.sub(r"(^|\s)//.*$", "", line)


def script_restatements(where: str, text: str) -> Iterator[Restatement]:
    """Every rule fact that the browser script ``where`` (its ``text``) writes for itself."""
    for number, line in _code_lines(text):
        for pattern, construct, instead in JS_PATTERNS:
            for match in pattern.finditer(line):
                yield Restatement(where, number, construct(match), instead)


def _found_everywhere() -> list[Restatement]:
    """Every restatement in the Python modules outside the core (the kernel aside) and in
    the browser's scripts, allowed or not."""
    def where(path: Path) -> str:
        return path.relative_to(PACKAGE).as_posix()

    sources = [p for p in sorted(PACKAGE.rglob("*.py")) if CORE not in p.parents and p != KERNEL]
    found = [r for p in sources for r in restatements(where(p), p.read_text(encoding="utf-8"))]
    return found + [r for p in sorted(STATIC.glob("*.js"))
                    for r in script_restatements(where(p), p.read_text(encoding="utf-8"))]


def test_no_rule_fact_is_written_outside_the_core() -> None:
    found = [r for r in _found_everywhere() if (r.path, r.construct) not in ALLOWED]
    assert not found, (f"{len(found)} rule fact(s) restated outside hearts.core; ask the core"
                       " (or, if this is truly a place that builds or shows options, add it"
                       " with a reason to ALLOWED in tests/test_one_home.py):\n"
                       + "\n".join(map(str, found)))


def test_every_allowed_restatement_is_still_there() -> None:
    present = {(r.path, r.construct) for r in _found_everywhere()}
    stale = sorted(set(ALLOWED) - present)
    assert not stale, f"allowed but no longer written, remove from ALLOWED: {stale}"


PYTHON_SAMPLE = """
def suit(card): return card // 13
def hearts_of(mask): return mask & SUIT_MASKS[3]
def over(totals, rules): return max(totals) >= rules.target
def over_100(total): return total >= 100
def receiver(view, seat):
    offset = view.pass_offset
    return (seat + offset) % view.rules.players
def barred(rules): return rules.first_trick is FirstTrick.NO_POINTS
def is_heart(card): return card.suit == 3
def first(view): return (view.dealer + 1) % view.players
SEATS = {"card-commons": (3, 4), "classic": range(2, 7)}
QUEEN = 1 << 36
MOON = 26
def receiver_of(view): seat, shift = view.seat, view.pass_offset; return seat + shift
SUIT = 0x1FFF
"""


def test_the_check_sees_each_kind_of_python_restatement() -> None:
    found = list(restatements("players/sample.py", PYTHON_SAMPLE))
    assert {r.construct for r in found} == {
        "// 13", "SUIT_MASKS[3]", "a comparison with .target", "a comparison with 100",
        "pass_offset arithmetic", "FirstTrick.NO_POINTS", "a suit compared with a number",
        "1 << 36", "26", "a seat counted from .dealer", "player counts per preset", "0x1FFF"}
    assert sorted(r.line for r in found if r.construct == "pass_offset arithmetic") == [8, 15]
    assert str(found[0]).startswith("src/hearts/players/sample.py:")


def test_the_check_sees_each_kind_of_script_restatement() -> None:
    script = """
const suit = Math.floor(card / 13);  // the suit
const rank = card % 13;
/* a comment with 52 in it */ const deck = 52;
const to = (seat + state.pass_offset) % players;
if (totals[seat] >= 100) over();
"""
    found = [(r.line, r.construct) for r in script_restatements("server/static/x.js", script)]
    assert found == [(2, "/ 13"), (3, "% 13"), (4, "52"), (5, "pass_offset arithmetic"),
                     (6, "a game-end comparison")]
