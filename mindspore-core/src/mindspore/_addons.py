"""Friendly errors for add-on subpackages that are not installed.

``mindspore.dataset`` comes from mindspore-data, ``mindspore.communication`` and
``mindspore.parallel`` from mindspore-parallel. A finder placed at the *end* of ``sys.meta_path``
sees an import of one of them only after every real finder has failed, i.e. only when the add-on
is missing, and turns the bare ``ModuleNotFoundError`` into one that names the ``pip install``.
"""
import importlib.abc
import sys

ADDONS = {
    "mindspore.dataset": "mindspore-data",
    "mindspore.mindrecord": "mindspore-data",
    "mindspore.communication": "mindspore-parallel",
    "mindspore.parallel": "mindspore-parallel",
}


class _MissingAddonFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        for prefix, dist in ADDONS.items():
            if fullname != prefix and prefix in sys.modules:
                continue  # the add-on is there: a submodule it lacks is a plain ModuleNotFoundError
            if fullname == prefix or fullname.startswith(prefix + "."):
                raise ModuleNotFoundError(
                    f"No module named '{fullname}': it is provided by the add-on distribution '{dist}'. "
                    f"Install it with 'pip install {dist}'.", name=fullname)
        return None


def install_missing_addon_hint():
    if not any(isinstance(f, _MissingAddonFinder) for f in sys.meta_path):
        sys.meta_path.append(_MissingAddonFinder())
