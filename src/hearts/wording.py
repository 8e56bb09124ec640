"""Words shared by every face: a count with its noun in the number that agrees with it,
a round's pass in a sentence, and the seats' names by place at the table.

A leaf below every layer (it imports nothing of the game), so the command line, the
arena's reports and the terminal say "1 deal set" and "2 deal sets" the same way, and the
text game and the full-screen game call the seat on your left "Left".
"""

from __future__ import annotations

__all__ = ["counted", "partner_note", "pass_where", "passing", "seat_names", "sentence"]


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and its noun: "1 game", "2 games", "-1 point", "0 blunders";
    ``plural`` for a noun that does not take an "s" ("inaccuracies")."""
    if abs(number) == 1:
        return f"{number} {noun}"
    return f"{number} {plural if plural is not None else noun + 's'}"


def sentence(text: str) -> str:
    """``text`` as a sentence, its first letter a capital and a full stop at the end: how a
    face says a refusal's reason to a player ("5♦ cannot be played: you must follow
    suit.").

    >>> sentence("not a card: 'purple'")
    "Not a card: 'purple'."
    """
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def pass_where(direction: str) -> str:
    """Where a round's cards go, from the view's ``pass_direction`` (``left``, ``across``,
    ``2 to the left``): "to the left", "across", "2 to the left"."""
    return f"to the {direction}" if direction in ("left", "right") else direction


def passing(count: int, direction: str) -> str:
    """A round's pass as words, from the view's ``pass_direction``: "pass 3 cards to the
    left", "pass 1 card across", "pass 3 cards 2 to the left"."""
    return f"pass {counted(count, 'card')} {pass_where(direction)}"


def partner_note(direction: str, partner: str) -> str:
    """What to add to a pass said by its direction to name the seat it goes to: nothing
    where the seat is named by that place (:func:`seat_names`: "to the left" goes to
    Left), else ", to NAME" (at a table of two the one other seat is Across, while the
    rules call the pass left).

    >>> partner_note("2 to the left", "Left 2"), partner_note("left", "Across")
    ('', ', to Across')
    """
    count, _, side = direction.partition(" to the ")
    place = f"{side.capitalize()} {count}" if side else direction.capitalize()
    return "" if partner == place else f", to {partner}"


def seat_names(players: int, human_seat: int, human: str = "You") -> tuple[str, ...]:
    """Short names by place at the table as the human sees it: You, Left, Across, Right...
    (with more players: Left 2, Right 2, counted round from the human)."""
    names = []
    for seat in range(players):
        offset = (seat - human_seat) % players
        if offset == 0:
            names.append(human)
        elif players % 2 == 0 and offset == players // 2:
            names.append("Across")
        elif offset < players / 2:
            names.append("Left" if offset == 1 else f"Left {offset}")
        else:
            back = players - offset
            names.append("Right" if back == 1 else f"Right {back}")
    return tuple(names)
