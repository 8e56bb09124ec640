"""The terminal faces: ``hearts play`` (a full-screen game) and the ``hearts score`` screen."""

from hearts.tui.app import HeartsApp

__all__ = ["HeartsApp"]
