"""MindSpore's other import paths for names that live elsewhere here.

Code written for MindSpore imports many names from the module that defines them in MindSpore's own source tree, or
that merely imports them there: ``from mindspore.common import set_seed`` (in 500 files of MindSpore's model zoo),
``from mindspore.train.serialization import export``, ``from mindspore.nn.metrics import Accuracy``. This project
defines those names once, in its own layout; a module of MindSpore's layout reaches them through :func:`reexport`
(named names) or :func:`fallback` (every name of a module), lazily, so that no import order or cycle changes, and
:func:`names_over_submodules` keeps a package's function from being replaced by its same-named submodule.
"""
import importlib
import sys
import types

__all__ = ["reexport", "fallback", "names_over_submodules"]


def reexport(module_name, sources):
    """A module ``__getattr__`` (PEP 562) for ``module_name`` that resolves each name of ``sources`` -- a mapping
    ``{home module: names}`` -- from its home module, at each use. Any other name raises ``AttributeError``.

    Nothing is cached on the module: a name set there would become a global of the module's own code, and names
    such as ``any`` or ``max`` (functions of ``mindspore.ops``) would then shadow Python's builtins in it."""
    where = {name: home for home, names in sources.items() for name in names.split()}

    def __getattr__(name):
        if name not in where:
            raise AttributeError(f"module '{module_name}' has no attribute '{name}'")
        return getattr(importlib.import_module(where[name]), name)

    return __getattr__


def fallback(module_name, home):
    """A module ``__getattr__`` for ``module_name`` that resolves any public name of module ``home``, at each use.
    MindSpore's ``mindspore.ops.function.<family>_func`` modules each hold a part of ``mindspore.ops``, cut
    differently from this project's families; any ``mindspore.ops`` function imported from one of them is found.
    As with :func:`reexport`, nothing is cached on the module (``any`` would shadow the builtin in its code)."""

    def __getattr__(name):
        if not name.startswith("_"):
            try:
                return getattr(importlib.import_module(home), name)
            except AttributeError:
                pass
            if name.endswith("_ext"):
                found = _mint_function(name[:-len("_ext")], module_name.endswith(".nn_func"))
                if found is not None:
                    return found
        raise AttributeError(f"module '{module_name}' has no attribute '{name}'")

    return __getattr__


def _mint_function(name, nn_first=False):
    """MindSpore 2.10's ``ops.function.<family>_func.<name>_ext`` (``math_func.amax_ext``, ``nn_func.softmax_ext``,
    which mint's docstring examples call) is the function ``mindspore.mint`` exports as ``<name>`` (or
    ``mint.nn.functional``, looked at first for ``nn_func``): mostly the same object there, a thin overload of it
    otherwise."""
    modules = ("mindspore.mint", "mindspore.mint.nn.functional")
    for module in modules[::-1] if nn_first else modules:
        found = getattr(importlib.import_module(module), name, None)
        if callable(found):
            return found
    return None


def names_over_submodules(module_name, names):
    """Keep ``module_name``'s attributes ``names`` what they are (functions) when a submodule of the same name is
    imported: MindSpore's package binds e.g. ``mindspore.common.mutable`` to the function ``mutable`` after loading
    the module ``mindspore.common.mutable``, so the function is what ``from mindspore.common import mutable`` gives
    whatever was imported before; the submodule stays reachable as ``sys.modules[...]``."""
    module = sys.modules[module_name]
    protected = frozenset(names)

    class _Package(type(module)):
        def __setattr__(self, name, value):
            if name in protected and isinstance(value, types.ModuleType):
                return   # the import system binding the submodule: the function keeps the name
            super().__setattr__(name, value)

    module.__class__ = _Package
