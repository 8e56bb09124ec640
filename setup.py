"""Build the compiled engine: mypyc turns the core's hot modules into C extensions.

The pure-Python modules stay installed beside them and remain the reference. Next to
the extensions the build writes ``hearts/core/_native_sources.json``, the SHA-256 of
each source it compiled, so that ``hearts.core._native`` loads the compiled modules only
while their sources are unchanged (an editable checkout keeps the old extensions after
an edit). A build that cannot compile (no C compiler, say) warns and installs the pure
modules alone; ``HEARTS_PURE_PYTHON=1`` at install time does not try.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Keep in step with hearts.core._native.COMPILED_MODULES (a test checks they agree).
COMPILED_MODULES = (
    "hearts.core.deal", "hearts.core.scoring", "hearts.core.state", "hearts.core.tricks",
)
SOURCES = [f"src/{name.replace('.', '/')}.py" for name in COMPILED_MODULES]
MANIFEST = "_native_sources.json"


class BuildExtWithManifest(build_ext):
    """build_ext that also records the digest of every source it compiled."""

    def run(self) -> None:
        super().run()
        missing = [ext.name for ext in self.extensions
                   if not Path(self.get_ext_fullpath(ext.name)).is_file()]
        if missing:  # an optional extension failed: no manifest, so none is loaded
            print(f"warning: not compiled: {', '.join(missing)}; the engine runs as pure Python")
            return
        if self.inplace:
            package_dir = Path(self.get_finalized_command("build_py").get_package_dir(
                "hearts.core"))
        else:
            package_dir = Path(self.build_lib) / "hearts" / "core"
        digests = {name: hashlib.sha256(Path(source).read_bytes()).hexdigest()
                   for name, source in zip(COMPILED_MODULES, SOURCES, strict=True)}
        package_dir.mkdir(parents=True, exist_ok=True)
        (package_dir / MANIFEST).write_text(json.dumps(digests, indent=1) + "\n")


def extensions() -> list[object]:
    """The mypyc extensions, or none when a pure-Python install is asked for."""
    if os.environ.get("HEARTS_PURE_PYTHON") == "1":
        return []
    from mypyc.build import mypycify

    extensions = list(mypycify(SOURCES, opt_level="3", group_name="hearts_core"))
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the pure-Python engine
    return extensions


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtWithManifest})
