"""The open bot protocol: JSON lines that let outside engines play our games, and ours theirs.

See ``docs/bot-protocol.md``. :mod:`~hearts.protocol.messages` defines the messages
(no I/O), :mod:`~hearts.protocol.views` rebuilds a ``PlayerView`` from JSON,
:mod:`~hearts.protocol.host` seats an outside program as a player, and
:mod:`~hearts.protocol.bot` makes a built-in player answer a host.
"""

from hearts.protocol.bot import serve
from hearts.protocol.errors import ProtocolError
from hearts.protocol.host import DEFAULT_TIMEOUT, ExternalPlayer
from hearts.protocol.messages import PROTOCOL_NAME, PROTOCOL_VERSION
from hearts.protocol.views import view_from_json

__all__ = [
    "DEFAULT_TIMEOUT",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "ExternalPlayer",
    "ProtocolError",
    "serve",
    "view_from_json",
]
