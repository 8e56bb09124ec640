"""``hearts play``: a game against computer players.

In a terminal it opens the full-screen Textual game (:mod:`hearts.tui`); with
``--text``, or when input or output is not a terminal, it plays plain text line
by line (:mod:`hearts.cli.textplay`), so scripts and pipes keep working.
``--challenge CODE`` plays a duplicate challenge (:mod:`hearts.challenge`): its rules,
deals and computer opponents, the record kept for ``hearts challenge submit``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hearts.challenge import Challenge, ChallengeError
from hearts.cli.common import (
    DEFAULT_LEVEL,
    CommandLineError,
    add_rules_options,
    ask_line,
    check_output_file,
    level_spec,
    level_specs,
    levels_text,
    new_seed,
    rules_from_args,
    seed_text,
    write_record,
)
from hearts.cli.main import symbols_fit
from hearts.cli.textplay import Outcome, TextGame
from hearts.core import MAX_LEVEL_TEXT, HeartsError, new_game, shown_name
from hearts.tui.session import SPEEDS, computer_player
from hearts.wording import counted

__all__ = ["add_play_options", "challenge_code", "configure", "read_line",
           "run", "run_screen", "run_text"]

_MAX_NAME = 20
_INTERRUPTED = 130
"""The exit status after Ctrl-C (as ``hearts.cli.main`` gives it), the record kept."""


def add_play_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``hearts play`` in every mode (other modes add theirs after)."""
    add_rules_options(parser)
    # no default for argparse to read: a level is read by the arena's bot-spec parser,
    # which the text game with plain levels never loads (nor NumPy with it)
    parser.add_argument("--level", type=level_spec, metavar="LEVEL",
                        help=f"level of the computer players (default: {DEFAULT_LEVEL}; "
                             f"levels: {levels_text()}; options as LEVEL:key=value, e.g. "
                             "expert:iterations=300, as hearts simulate takes them)")
    parser.add_argument("--seed", type=seed_text, metavar="SEED",
                        help="seed of the deals and the computers (default: a random one, "
                             "printed so the game can be played again)")
    parser.add_argument("--name", default="You", help="your name on the score sheet")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="save the game's record here when it ends (or when you quit)")
    parser.add_argument("--text", action="store_true",
                        help="plain text, line by line (automatic when input or output is "
                             "not a terminal)")
    parser.add_argument("--levels", type=level_specs, metavar="L1,L2,...",
                        help="each opponent's level, from your left, with options as "
                             "--level takes them (e.g. expert:iterations=200,normal,normal; "
                             "default: --level for all)")
    parser.add_argument("--speed", choices=tuple(SPEEDS), default="normal",
                        help="full screen: how fast the computer players move "
                             "(default: normal)")
    parser.add_argument("--auto-play", action="store_true",
                        help="full screen: play a forced move (one legal card) by itself")
    parser.add_argument("--plain", action="store_true",
                        help="suits as letters (QS, 10H) for screen readers and terminals "
                             "without the symbols, full screen and with --text")
    parser.add_argument("--resume", action="store_true",
                        help="full screen: continue the unfinished game saved after every move")
    parser.add_argument("--challenge", type=challenge_code, metavar="CODE",
                        help="play a duplicate challenge: its rules, deals and opponents "
                             "(make one with 'hearts challenge new'); the record is saved "
                             "for 'hearts challenge submit'")


def challenge_code(text: str) -> Challenge:
    """An argparse type: a challenge code (or its link, ending ``/c/CODE``)."""
    try:
        return Challenge.parse(text.rstrip("/").rsplit("/c/", 1)[-1])
    except ChallengeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``play`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Play Hearts against computer players: full screen in a terminal "
                          "(keyboard or mouse; ? lists the keys), or plain text line by line "
                          "with --text or when run from a script (the game stops cleanly where "
                          "the input ends; 'help' at any prompt lists the commands).")
    add_play_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The full-screen game in a terminal, else (or with ``--text``) the line mode."""
    if args.challenge is not None:
        args.challenge.require_playable()
        _check_challenge_options(args)
    if args.text or not (sys.stdin.isatty() and sys.stdout.isatty()):
        if args.resume:
            raise CommandLineError("--resume continues a full-screen game; run it in a "
                                   "terminal without --text")
        return run_text(args)
    return run_screen(args)


def run_screen(args: argparse.Namespace) -> int:
    """The Textual game: the start screen (filled from the options), or a resumed game."""
    from hearts.persistence import data_dir
    from hearts.tui.app import HeartsApp
    from hearts.tui.session import HUMAN, GameSession, GameSettings

    data_dir()  # the game is saved there after every move: a bad $HEARTS_HOME says so now
    _check_record(args)
    session = None
    if args.resume:
        session = GameSession.resume()
        if session is None:
            raise CommandLineError(f"no unfinished game is saved in {data_dir()}; "
                                   "start one with: hearts play")
    challenge: Challenge | None = args.challenge
    rules = challenge.rules if challenge else rules_from_args(args)
    opponents = list(challenge.opponents) if challenge else _opponent_levels(args, rules.players)
    name = _player_name(args)
    settings = GameSettings(rules=rules.text, levels=(HUMAN, *opponents),
                            seed=challenge.seed if challenge else args.seed or "",
                            speed=args.speed, auto_play=args.auto_play,
                            plain=args.plain, name=name,
                            challenge=challenge.code if challenge else "")
    if challenge is not None:  # straight to the table: the challenge fixes what the start asks
        session = GameSession(settings)
    app = HeartsApp(settings, session)
    app.run()
    played = app.game
    if played is None:
        return 0
    if args.record is not None and played.state.history:
        write_record(args.record, played.record())
        print(f"Saved the game to {args.record}; check it with: hearts replay {args.record}")
    if played.challenge is not None:
        _say_submit(played.challenge, played.state.is_over, args.record or played.saved_to)
        if not played.state.is_over:
            print("The game is saved: continue it with  hearts play --resume")
        return 0
    seed = played.settings.seed
    print(f"Seed {seed}: play these deals again with "
          f"hearts play --rules {played.rules.text} --seed {seed}")
    if played.state.is_over:
        print(f"The game record is saved in {played.saved_to}")
    else:
        print("The game is saved: continue it with  hearts play --resume")
    return 0


def run_text(args: argparse.Namespace) -> int:
    """The line-mode game on standard input and output."""
    challenge: Challenge | None = args.challenge
    if challenge is not None:
        return _run_text_challenge(args, challenge)
    rules = rules_from_args(args)
    opponents = _opponent_levels(args, rules.players)
    name = _player_name(args)
    _check_record(args)
    seed: str = args.seed if args.seed is not None else new_seed()
    print(f"Seed {seed}: play these deals again with "
          f"hearts play --rules {rules.text} --seed {seed}", flush=True)
    computers = [computer_player(level, seat, rules, f"{seed}/seat-{seat}")
                 for seat, level in enumerate(opponents, start=1)]
    game = TextGame(new_game(rules, seed), computers, name=name, read=read_line, write=print,
                    symbols=_symbols(args), levels=opponents)
    outcome = game.play()
    record = game.record()
    if args.record is not None and game.state.history:
        write_record(args.record, record)
        state = "the game" if outcome is Outcome.FINISHED else "the game so far"
        print(f"Saved {state} to {args.record}; check it with: hearts replay {args.record}")
    if outcome is Outcome.FINISHED:
        _keep_finished(record)
    return _INTERRUPTED if outcome is Outcome.INTERRUPTED else 0


def _keep_finished(record: dict[str, Any]) -> None:
    """File a finished game among the user's games, as the full-screen game does, so that
    ``hearts stats`` counts it; a data folder it cannot write is said, and the game,
    already played, still ends well."""
    from hearts.persistence import save_finished_game

    try:
        kept = save_finished_game(record)
    except (OSError, HeartsError) as exc:  # a data folder that is a file, a full disk
        print(f"The game record could not be kept with your games: {exc}")
        return
    print(f"The game record is kept with your games in {kept} (hearts stats counts it)")


def _run_text_challenge(args: argparse.Namespace, challenge: Challenge) -> int:
    """A challenge in line mode; its record goes to ``--record`` or, by default, to a new
    ``challenge-CODE.json`` here (``-2``, ``-3``... where that is taken when the game
    ends: another play of the challenge in this folder, at the same time too, keeps its
    file), so that a play is never lost."""
    name = _player_name(args)
    record_path: Path = args.record or Path(f"challenge-{challenge.code}.json")
    check_output_file(record_path, "--record")
    print(f"Challenge {challenge.code}: {_challenge_line(challenge)}", flush=True)
    computers = [challenge.computer(seat) for seat in range(1, challenge.players)]
    game = TextGame(challenge.new_game(), computers, name=name, read=read_line, write=print,
                    symbols=_symbols(args), hints=False)
    outcome = game.play()
    if game.state.history:
        record = game.record()
        record["challenge"] = challenge.code
        if args.record is not None:
            write_record(record_path, record)
        else:
            record_path = _write_new_record(record_path, record)
        state = "the game" if outcome is Outcome.FINISHED else "the game so far"
        print(f"Saved {state} to {record_path}")
        if outcome is Outcome.FINISHED:
            _keep_finished(record)
        _say_submit(challenge, outcome is Outcome.FINISHED, record_path)
    return _INTERRUPTED if outcome is Outcome.INTERRUPTED else 0


def _challenge_line(challenge: Challenge) -> str:
    """A challenge in one line: the preset, the deals and the opponents from your left."""
    return (f"{challenge.preset}, {counted(challenge.deals, 'deal')} "
            f"against {', '.join(challenge.opponents)} (from your left)")


def _say_submit(challenge: Challenge, finished: bool, path: Path | None) -> None:
    """How to check and submit a challenge's record (or that an unfinished one cannot be)."""
    if path is None:
        return
    if not finished:
        print(f"Challenge {challenge.code} is not finished: only a complete play goes on "
              "a leaderboard")
        return
    print(f"Check it with:   hearts challenge check {path}")
    print(f"Submit it with:  hearts challenge submit {path} --server URL")


def _write_new_record(path: Path, record: dict[str, Any]) -> Path:
    """Write a record as :func:`write_record` does, to ``path`` or the first free
    ``NAME-2.json``, ``NAME-3.json``... when it is written, never over another file
    (:func:`hearts.persistence.save_new_file`); where it went."""
    from hearts.persistence import save_new_file

    try:
        return save_new_file(path, json.dumps(record) + "\n")
    except OSError as exc:
        raise CommandLineError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def _check_challenge_options(args: argparse.Namespace) -> None:
    """A challenge fixes the rules, the opponents and the seed: options that set them
    would play another game."""
    given = [option for option, value in (
        ("--rules", args.rules != "card-commons"), ("--players", args.players is not None),
        ("--level", args.level is not None), ("--levels", args.levels is not None),
        ("--seed", args.seed is not None), ("--resume", args.resume)) if value]
    if given:
        raise CommandLineError(f"--challenge sets the rules, the opponents and the deals; "
                               f"leave out {', '.join(given)}")


def _opponent_levels(args: argparse.Namespace, players: int) -> list[str]:
    """The computers' levels from your left, as given (``expert:iterations=200``):
    ``--levels``, else ``--level`` for all."""
    opponents: list[str] = args.levels or [args.level or DEFAULT_LEVEL] * (players - 1)
    if len(opponents) != players - 1:
        raise CommandLineError(f"--levels names {len(opponents)} levels; the game has "
                               f"{players - 1} opponents")
    for level in opponents:  # the game's record states each level as given
        if len(level) > MAX_LEVEL_TEXT:
            raise CommandLineError(f"a level the game records is at most {MAX_LEVEL_TEXT} "
                                   f"characters, options included, not {len(level)}")
    return opponents


def _symbols(args: argparse.Namespace) -> bool:
    """Whether the line mode shows the suit symbols: not with ``--plain`` (letters for a
    screen reader, as the full screen shows them), nor where the output cannot."""
    return not args.plain and symbols_fit(sys.stdout)


def _player_name(args: argparse.Namespace) -> str:
    name = shown_name(args.name, _MAX_NAME + 1)  # as every face shows a name
    if name is None or len(name) > _MAX_NAME:
        raise CommandLineError(f"--name must be 1 to {_MAX_NAME} characters of text, not "
                               f"{args.name!r}")
    return name


def _check_record(args: argparse.Namespace) -> None:
    """A ``--record`` file that cannot be written is said before the game, not after it."""
    if args.record is not None:
        check_output_file(args.record, "--record")


def read_line(prompt: str) -> str | None:
    """Prompt on standard output and read one line; None at end of input.

    When the input is not a terminal the answer is echoed, so a scripted game's
    output reads like a transcript.
    """
    return ask_line(prompt, sys.stdin, sys.stdout, echo=True)
