"""The browser's port of the deal and the fairness scheme agrees with the Python core."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hearts.core import CardSet, Rules, commitment, deal_hands, derive_deal_seed

STATIC = Path(__file__).parents[2] / "src" / "hearts" / "server" / "static"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

CASES = [
    ("card-commons", 4, "s3cr3t", ["b", "a"]),
    ("card-commons", 3, "0" * 64, []),
    ("classic", 5, "seed-five", ["x_1", "Y-2", "z"]),
    ("classic", 6, "ffeeddcc", ["only"]),
    ("classic", 2, "two players", ["e1", "e2"]),
]


def run_node(tmp_path: Path, script: str) -> object:
    for name in ("cards.js", "deal.js"):
        (tmp_path / name.replace(".js", ".mjs")).write_text(
            (STATIC / name).read_text().replace('./cards.js"', './cards.mjs"'))
    (tmp_path / "main.mjs").write_text(script)
    assert NODE is not None
    done = subprocess.run([NODE, str(tmp_path / "main.mjs")], capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


def test_js_deal_and_seed_derivation_match_python(tmp_path: Path) -> None:
    cases = []
    for preset, players, server_seed, entropy in CASES:
        rules = Rules.preset_rules(preset, players)
        cases.append({"removed": CardSet(rules.removed).names(), "players": players,
                      "server_seed": server_seed, "entropy": entropy})
    script = (
        'import { dealHands, deriveDealSeed, fullDeck, sha256Hex } from "./deal.mjs";\n'
        f"const cases = {json.dumps(cases)};\n"
        "const out = [];\n"
        "for (const c of cases) {\n"
        "  const seed = await deriveDealSeed(c.server_seed, c.entropy);\n"
        "  out.push({commit: await sha256Hex(c.server_seed), seed,\n"
        "            hands: await dealHands(fullDeck(c.removed), c.players, seed)});\n"
        "}\n"
        "console.log(JSON.stringify(out));\n"
    )
    results = run_node(tmp_path, script)
    assert isinstance(results, list) and len(results) == len(CASES)
    for (preset, players, server_seed, entropy), got in zip(CASES, results, strict=True):
        rules = Rules.preset_rules(preset, players)
        seed = derive_deal_seed(server_seed, entropy)
        assert got["commit"] == commitment(server_seed)
        assert got["seed"] == seed
        assert got["hands"] == [CardSet(h).names() for h in deal_hands(rules, seed)]


def test_js_verify_round_catches_a_wrong_seed_and_a_wrong_hand(tmp_path: Path) -> None:
    rules = Rules()
    seed = derive_deal_seed("abc", ["e"])
    hand0 = CardSet(deal_hands(rules, seed)[0]).names()
    other = CardSet(deal_hands(rules, seed)[1]).names()
    reveal = {"server_seed": "abc", "commitment": commitment("abc"), "entropy": ["e"],
              "deal_seed": seed}
    bad_commit = dict(reveal, commitment=commitment("abd"))
    script = (
        'import { verifyRound } from "./deal.mjs";\n'
        f"const reveal = {json.dumps(reveal)}; const bad = {json.dumps(bad_commit)};\n"
        "const base = {removed: [], players: 4, seat: 0, entropy: 'e'};\n"
        "console.log(JSON.stringify([\n"
        f"  await verifyRound(reveal, {{...base, dealt: {json.dumps(hand0)}}}),\n"
        f"  await verifyRound(reveal, {{...base, dealt: {json.dumps(other)}}}),\n"
        f"  await verifyRound(bad, {{...base, dealt: {json.dumps(hand0)}}}),\n"
        f"  await verifyRound(reveal, {{...base, entropy: 'mine', dealt: {json.dumps(hand0)}}}),\n"
        "]));\n"
    )
    results = run_node(tmp_path, script)
    assert isinstance(results, list)
    assert [r["ok"] for r in results] == [True, False, False, False]
