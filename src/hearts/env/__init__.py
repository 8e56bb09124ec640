"""Research environments on our rules (a face): PettingZoo, Gymnasium and OpenSpiel.

- :class:`HeartsAECEnv` (:func:`env`): every seat an agent, a PettingZoo AEC environment.
- :class:`HeartsEnv`: one seat against our computer players, a Gymnasium environment,
  registered as ``hearts/CardCommonsHearts-v0`` (whole games) and
  ``hearts/CardCommonsHeartsHand-v0`` (single hands) when this package is imported;
  ``gymnasium.make("hearts.env:hearts/CardCommonsHearts-v0")`` imports it by itself.
- :class:`BatchedHearts`: N games stepped together with Numba, observations, masks and
  rewards for all of them at once, with auto-reset (the fast simulator for training).
- :mod:`hearts.env.openspiel`: our game as the OpenSpiel Python game ``python_cc_hearts``
  (import it where ``open-spiel`` is installed).

The observation and action encoding is :mod:`hearts.players.observation`
(``docs/research.md``).
"""

from typing import Final

import gymnasium

from hearts.env.aec import HeartsAECEnv, env
from hearts.env.batched import BatchedHearts
from hearts.env.single import HeartsEnv
from hearts.env.table import UnknownOptionWarning

__all__ = ["GAME_ID", "HAND_ID", "BatchedHearts", "HeartsAECEnv", "HeartsEnv",
           "UnknownOptionWarning", "env"]

GAME_ID: Final = "hearts/CardCommonsHearts-v0"
HAND_ID: Final = "hearts/CardCommonsHeartsHand-v0"

for _id, _episode in ((GAME_ID, "game"), (HAND_ID, "hand")):
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="hearts.env.single:HeartsEnv",
                           kwargs={"episode": _episode})
