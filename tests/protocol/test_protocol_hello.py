"""What ``hello`` tells a bot: labels of the other seats, never their command lines (one
may hold a token), and a seed of its own, so that seeded matches with outside bots
replay the same (a bot author's report: neither held)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from tests.protocol.scripted_bots import play_with_random, serve_lines, write_bot

from hearts.arena.match import MatchConfig, run_match
from hearts.arena.specs import public_names
from hearts.core import GameState, Rules
from hearts.players import Player, RandomPlayer, make_player
from hearts.protocol import ExternalPlayer
from hearts.protocol.messages import SEED_LIMIT, hello_message, hello_seed

RULES = Rules.parse("standard:target=30")
ROOT = Path(__file__).resolve().parents[2]
HELLO = hello_message(0, RULES)

# Writes every hello it gets to the file named by its argument.
_LOG_HELLO = 'with open(sys.argv[1], "a") as log:\n    log.write(line)'

# ``hearts bot random`` seeding its player from hello, through the protocol's serve.
_SEEDED_RANDOM_BOT = (
    "import sys\n"
    "from hearts.players import RandomPlayer\n"
    "from hearts.protocol import serve\n"
    "sys.exit(serve(lambda seat, rules, *, seed: RandomPlayer(seed), sys.stdin.buffer,\n"
    "               sys.stdout, name='seeded random'))\n")


def test_other_bots_command_lines_never_reach_a_bot(tmp_path: Path) -> None:
    logger = write_bot(tmp_path, "logging", on_hello=_LOG_HELLO, ready_as="logger")
    log = tmp_path / "hellos.jsonl"
    plain = "ext:" + shlex.join([*logger, str(log)])
    secret = "ext:" + shlex.join(["env", "API_TOKEN=s3cret", *logger, str(log)])
    lineup = (plain, secret, "hard:iterations=4#fast", "normal")
    run_match(MatchConfig(RULES, lineup, 1, "names"))
    hellos = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(hellos) == 8  # two outside bots in each of the four rotations
    for hello in hellos:
        sent = json.dumps(hello)
        for private in ("s3cret", "API_TOKEN", str(tmp_path), "ext:", "iterations"):
            assert private not in sent
        assert sorted(hello["names"]) == ["ext bot 1", "ext bot 2", "hard#fast", "normal"]
        assert hello["names"][hello["seat"]].startswith("ext bot")


def test_hello_seeds_come_from_the_bot_seed_so_the_match_seed_cannot_be_worked_back(
        tmp_path: Path) -> None:
    """A hello seed derived from the match seed alone let a bot try small match seeds
    (``--seed 42``) until one gave its seed, and then deal every hand: the seed now comes
    from a secret beside it, and without one hello gives none."""
    logger = write_bot(tmp_path, "logging", on_hello=_LOG_HELLO, ready_as="logger")
    log = tmp_path / "hellos.jsonl"
    bot = "ext:" + shlex.join([*logger, str(log)])
    run_match(MatchConfig(RULES, (bot, "random", "random", "random"), 1, "42"))
    assert all("seed" not in json.loads(line) for line in log.read_text().splitlines())
    log.unlink()
    run_match(MatchConfig(RULES, (bot, "random", "random", "random"), 1, "42",
                          bot_seed="9f2c61d0e4a7b3c85d1e6f0a2b4c7d9e"))
    seen = {json.loads(line)["seed"] for line in log.read_text().splitlines()}
    assert len(seen) == 4  # one a rotation, a seat of its own each time
    from_match_alone = {hello_seed(f"42/d0/r{r}/s{s}") for r in range(4) for s in range(4)}
    assert not seen & from_match_alone


def test_public_names_keep_kinds_and_tags_and_drop_the_rest() -> None:
    assert public_names(["ext:./bot --key=1", "expert:iterations=5#fast", "policy:/home/a.npz",
                         "ext:./other", " ext:./bot --key=1", "random"]) == \
        ["ext bot 1", "expert#fast", "policy", "ext bot 2", "ext bot 1", "random"]


def test_hello_seed_is_stable_in_range_and_tells_nothing_of_the_seed() -> None:
    seeds = {hello_seed(f"m/d{d}/r0/s{s}") for d in range(5) for s in range(4)}
    assert len(seeds) == 20 and all(0 <= seed < SEED_LIMIT for seed in seeds)
    assert hello_seed("m/d0/r0/s0") == hello_seed("m/d0/r0/s0") == 1937821364832020
    message = hello_message(0, RULES, seed=hello_seed("secret-match/d0/r0/s0"))
    assert "secret-match" not in json.dumps(message)


def _seeded_game(seed: str) -> GameState:
    """A game with the seeded random bot at seat 0 (host seed ``seed``) and seeded random
    players elsewhere."""
    external = ExternalPlayer([sys.executable, "-c", _SEEDED_RANDOM_BOT], 0, RULES,
                              fallback=make_player("random", 1), seed=seed)
    state = play_with_random(external, RULES, "seeded-game")
    assert external.error is None, external.error
    return state


def test_a_bot_seeded_from_hello_plays_a_seeded_game_the_same() -> None:
    first, again = _seeded_game("m/d0/r0/s0"), _seeded_game("m/d0/r0/s0")
    assert first.history == again.history
    assert _seeded_game("m/d0/r0/s1").history != first.history


def test_seeded_matches_with_the_example_bot_replay_the_same() -> None:
    bot = "ext:" + shlex.join([sys.executable, str(ROOT / "examples" / "external_bot.py")])
    config = MatchConfig(RULES, (bot, "random", bot, "random"), 1, "replay",
                         keep_records=True, bot_seed="a secret")
    first, again = run_match(config), run_match(config)
    assert [o.record for o in first.outcomes] == [o.record for o in again.outcomes]


def test_the_bot_side_hands_hello_seed_to_a_factory_that_takes_one() -> None:
    given: list[int | None] = []

    def factory(seat: int, rules: Rules, *, seed: int | None) -> Player:
        given.append(seed)
        return RandomPlayer(seed)

    _, replies = serve_lines([HELLO | {"seed": 12345}, HELLO], factory)
    assert [r["type"] for r in replies] == ["ready", "ready"]
    assert given == [12345, None]
    # a factory of seat and rules alone is still called as before
    _, replies = serve_lines([HELLO | {"seed": 1}], lambda seat, rules: RandomPlayer(seat))
    assert replies[0]["type"] == "ready"


@pytest.mark.parametrize("seed", [True, -1, 2**53, 1.5, "7"])
def test_a_seed_that_is_not_a_whole_number_in_range_is_refused(seed: object) -> None:
    _, replies = serve_lines([HELLO | {"seed": seed}, HELLO],
                             lambda seat, rules: RandomPlayer(seat))
    assert replies[0]["type"] == "error" and replies[0]["code"] == "bad_message"
    assert "seed is a whole number from 0 to 9007199254740991" in replies[0]["message"]
    assert replies[1]["type"] == "ready"
