"""Build the compiled modules: mypyc turns the hot modules into C extensions, in two groups.

``hearts_core``: the game core's hot modules; ``hearts_players``: the ``normal``
player's decision. The pure-Python modules stay installed beside them and remain the
reference. Next to each group's package the build writes ``_native_sources.json``, the
SHA-256 of each source it compiled, so that ``hearts.core._native`` (and
``hearts.players._native``, through the same code) loads a group's compiled modules only
while their sources are unchanged (an editable checkout keeps the old extensions after
an edit). A group that cannot compile (no C compiler, say) warns and leaves its pure
modules alone; ``HEARTS_PURE_PYTHON=1`` at install time does not try.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Per package, its compiled group's modules: keep in step with COMPILED_MODULES of
# hearts.core._native and hearts.players._native (a test checks they agree).
COMPILED_GROUPS = {
    "hearts.core": (
        "hearts.core.deal", "hearts.core.scoring", "hearts.core.state", "hearts.core.tricks",
        "hearts.core.view",
    ),
    "hearts.players": (
        "hearts.players.knowledge", "hearts.players.rulebased.moon",
        "hearts.players.rulebased.passing", "hearts.players.rulebased.player",
        "hearts.players.rulebased.playing",
    ),
}
MANIFEST = "_native_sources.json"


def source(name: str) -> str:
    """A module's source file, relative to this file."""
    return f"src/{name.replace('.', '/')}.py"


class BuildExtWithManifest(build_ext):
    """build_ext that also records, per group, the digest of every source it compiled."""

    def run(self) -> None:
        super().run()
        built = {ext.name for ext in self.extensions
                 if Path(self.get_ext_fullpath(ext.name)).is_file()}
        for package, modules in COMPILED_GROUPS.items():
            shared_library = f"{package.replace('.', '_')}__mypyc"
            missing = [name for name in (*modules, shared_library) if name not in built]
            if missing:  # an optional extension failed: no manifest, so none is loaded
                print(f"warning: not compiled: {', '.join(missing)}; {package} runs as "
                      "pure Python")
                continue
            self.write_manifest(package, modules)

    def write_manifest(self, package: str, modules: tuple[str, ...]) -> None:
        """Record the digests of one group's sources beside its package's modules."""
        if self.inplace:
            package_dir = Path(self.get_finalized_command("build_py").get_package_dir(package))
        else:
            package_dir = Path(self.build_lib, *package.split("."))
        digests = {name: hashlib.sha256(Path(source(name)).read_bytes()).hexdigest()
                   for name in modules}
        package_dir.mkdir(parents=True, exist_ok=True)
        (package_dir / MANIFEST).write_text(json.dumps(digests, indent=1) + "\n")


def extensions() -> list[object]:
    """The mypyc extensions, group by group, or none when a pure-Python install is asked
    for."""
    if os.environ.get("HEARTS_PURE_PYTHON") == "1":
        return []
    from mypyc.build import mypycify

    extensions: list[object] = []
    for package, modules in COMPILED_GROUPS.items():
        try:
            group = list(mypycify([source(name) for name in modules], opt_level="3",
                                  group_name=package.replace(".", "_")))
        except (Exception, SystemExit) as error:  # mypyc refused a source (it exits on errors)
            print(f"warning: mypyc could not compile {package} ({error!r}); it runs as pure "
                  "Python")
            continue
        for extension in group:
            extension.optional = True  # a failed compile leaves the pure-Python modules
        extensions += group
    return extensions


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtWithManifest})
