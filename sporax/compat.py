"""``import mindspore`` -> sporax, for one process.

:func:`alias_mindspore` installs an import hook so that ``mindspore`` and every ``mindspore.x.y`` resolve
to ``sporax`` / ``sporax.x.y`` (the very same module objects, so ``mindspore.nn.Cell is sporax.nn.Cell``).
It is an importlib alias, not a fake distribution: nothing is installed under the name ``mindspore``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

__all__ = ["alias_mindspore", "unalias_mindspore"]

_SOURCE = "mindspore"
_TARGET = "sporax"


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # importlib stamped the alias spec ('mindspore.x') on the real module; give it its own back, or
        # its relative imports would see __package__ != __spec__.parent.
        module.__spec__ = self._spec


class _MindSporeAlias(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _SOURCE and not fullname.startswith(_SOURCE + "."):
            return None
        real = _TARGET + fullname[len(_SOURCE) :]
        if importlib.util.find_spec(real) is None:
            raise ModuleNotFoundError(
                f"No module named '{fullname}': sporax has no '{real}'. If your script needs it, please report it.",
                name=fullname,
            )
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real))


_finder = _MindSporeAlias()


def alias_mindspore() -> None:
    """Make ``import mindspore`` (and its submodules) import sporax in this process."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def unalias_mindspore() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in [n for n in sys.modules if n == _SOURCE or n.startswith(_SOURCE + ".")]:
        del sys.modules[name]
