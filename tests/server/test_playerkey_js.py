"""The browser's player key (``static/playerkey.js``), run in Node: the keys it makes are
random, 192 bits, kept, and accepted by the server; it accepts a pasted key exactly when
the server would (:func:`hearts.server.player_routes.player_key`); its exported file
imports back to the same key."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.server.player_routes import player_key
from hearts.server.protocol import RequestError

STATIC = Path(__file__).parents[2] / "src" / "hearts" / "server" / "static"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# A browser's localStorage, enough for the module.
_STORAGE = """
const storage = new Map();
globalThis.localStorage = {
  getItem: (k) => (storage.has(k) ? storage.get(k) : null),
  setItem: (k, v) => storage.set(k, String(v)),
  removeItem: (k) => storage.delete(k),
};
"""


def run_node(directory: Path, script: str) -> Any:
    (directory / "playerkey.mjs").write_text((STATIC / "playerkey.js").read_text())
    (directory / "main.mjs").write_text(
        _STORAGE + 'import * as pk from "./playerkey.mjs";\n' + script)
    assert NODE is not None
    done = subprocess.run([NODE, str(directory / "main.mjs")], capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def server_accepts(key: str) -> bool:
    try:
        return player_key({"player_key": key}) == key
    except RequestError:
        return False


def test_keys_are_random_kept_and_accepted_by_the_server(tmp_path: Path) -> None:
    made = run_node(tmp_path, """
const keys = [];
for (let i = 0; i < 200; i += 1) {
  localStorage.removeItem("hearts-player-key");
  keys.push(pk.playerKey());
}
const kept = [pk.playerKey(), pk.playerKey()];
const file = await pk.keyFile().text();
console.log(JSON.stringify({ keys, kept, file, back: pk.readKey(file) }));
""")
    keys = made["keys"]
    assert len(set(keys)) == len(keys)
    for key in keys:
        assert server_accepts(key)
        assert len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))) == 24  # 192 bits
    assert made["kept"] == [keys[-1], keys[-1]]
    assert json.loads(made["file"])["key"] == keys[-1] == made["back"]


PASTED = st.text(st.sampled_from("aZ09-_/+= .ä{}\"\n"), max_size=140) | st.text(
    st.sampled_from("abcXYZ019-_"), min_size=18, max_size=132)


@settings(max_examples=5, deadline=None)
@given(st.lists(PASTED, min_size=40, max_size=40))
def test_a_pasted_key_is_taken_exactly_when_the_server_takes_it(tmp_path_factory: Any,
                                                                 texts: list[str]) -> None:
    directory = tmp_path_factory.mktemp("paste")
    verdicts = run_node(directory, f"""
const texts = {json.dumps(texts)};
console.log(JSON.stringify(texts.map((t) => {{
  try {{ return pk.readKey(t); }} catch (exc) {{ return null; }}
}})));
""")
    for text, verdict in zip(texts, verdicts, strict=True):
        # the page trims what was pasted; what it then sends is what the server judges
        assert (verdict is not None) == server_accepts(text.strip()), text
        if verdict is not None:
            assert verdict == text.strip()


def test_a_file_that_is_not_a_key_file_is_refused(tmp_path: Path) -> None:
    messages = run_node(tmp_path, """
const out = [];
for (const text of ['{"format": "something else", "key": "abcdefghijklmnopqrstuvwxyz"}',
                    '{not json', '{"format": "hearts-player-key", "key": "short"}']) {
  try { pk.readKey(text); out.push(null); } catch (exc) { out.push(exc.message); }
}
console.log(JSON.stringify(out));
""")
    assert messages == ["this file is not a player key file (it has no key)",
                        "this file is not a player key file (it is not JSON)",
                        "a player key is 22 to 128 characters: letters, digits, - and _"]
