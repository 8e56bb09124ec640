"""The terminal faces: ``hearts play`` (a full-screen game, :mod:`hearts.tui.app`) and the
``hearts score`` screen (:mod:`hearts.tui.score_app`). Nothing is imported here, so the
text game can read the game settings without loading Textual."""
