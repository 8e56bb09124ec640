"""A bot program for the arena's tests, on the bot protocol (docs/bot-protocol.md): it
plays the first legal cards, or fails as its argument says, and gives the environment's
``SCRIPTED_BOT_NAME`` as its name in ``ready`` (a new version of one program, under one
command line).

``python scripted_bot.py MODE``, MODE one of ``good`` (whole games), ``nohello`` (reads
hello and never answers) and ``crash`` (exits at its fifth decision, unanswered).
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Answer the host's lines on stdin as MODE says."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    name = os.environ.get("SCRIPTED_BOT_NAME", f"scripted {mode}")
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        if mode == "nohello" or message.get("type") not in ("hello", "decide"):
            continue
        if message["type"] == "hello":
            answer: dict[str, object] = {"type": "ready", "name": name}
        else:
            decisions += 1
            if mode == "crash" and decisions == 5:
                sys.exit(3)
            view = message["view"]
            answer = {"type": "action", "id": message["id"]}
            if message["decision"] == "pass":
                answer["cards"] = view["legal"][: view["pass_count"]]
            elif message["decision"] == "play":
                answer["card"] = view["legal"][0]
            else:
                answer["choice"] = "subtract"
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
