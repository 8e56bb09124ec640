"""Card Commons Hearts: the Hearts card game, complete, fair and fast.

The public API is the pure core (``hearts.core``), re-exported here.
"""

from hearts.core import *  # noqa: F403
from hearts.core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
