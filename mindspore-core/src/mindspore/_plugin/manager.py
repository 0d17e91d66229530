"""Plugin discovery: lazy, once, failure-isolated.

Discovery runs the first time something needs a backend (a computation, ``set_context`` with a
device target, ``python -m mindspore.info``, the first random fill of initial weights), never at
``import mindspore``. Every entry point of
the ``mindspore.plugins`` group is loaded inside its own ``try``; each hook of each plugin is
called through pluggy's per-implementation handles, also inside its own ``try``. A failure is
recorded on the plugin's :class:`PluginRecord` with its traceback, shown by ``mindspore.info``, and
chained into the error raised when the user asks for that plugin's target.

Environment variables:

* ``MINDSPORE_PLUGINS_AUTOLOAD=0`` -- load no entry points (only plugins given to
  :func:`register_plugin`).
* ``MINDSPORE_DISABLE_PLUGINS=name,name`` -- block these plugins (entry-point names).
* ``MINDSPORE_DEVICE_TARGET=CPU|GPU|Ascend`` -- pin the default target (see ``mindspore.context``).

Order: plugins of MindSpore's own distributions (``mindspore-*``) come first, then the others by
entry-point name, and every hook is called in that order; so a third-party kernel can only replace a
first-party one explicitly (``override=True``), whatever the names.

Caches built from plugins live above this module (the backend, the kernel and operator registries,
the backend passes); they check :data:`mindspore._generation.GENERATION`, which discovery changes, instead
of being reset from here.
"""
from __future__ import annotations

import dataclasses
import os
import threading
import traceback
from importlib import metadata

import pluggy

import mindspore._generation as _generation
from mindspore._plugin import hookspecs

__all__ = ["PluginRecord", "plugin_manager", "plugins", "register_plugin", "unregister_plugin", "call_each",
           "hookimpls", "reset", "sharding", "random_fill",
           "record", "FIRST_PARTY"]

#: Distributions whose plugins are MindSpore's own: they register first.
#: What a plugin's code may raise without taking the process down: any error, and ``sys.exit()`` (a plugin
#: that exits at import or in a hook is reported failed like any other); KeyboardInterrupt still propagates.
ISOLATED = (Exception, SystemExit)

FIRST_PARTY = frozenset({"mindspore-core", "mindspore-cpu", "mindspore-gpu", "mindspore-ascend", "mindspore-data",
                         "mindspore-parallel"})


@dataclasses.dataclass
class PluginRecord:
    """One plugin as found: where it came from and what happened when it was loaded."""

    name: str
    distribution: str = ""
    version: str = ""
    api_version: tuple = ()
    status: str = "loaded"  # loaded | blocked | failed | incompatible
    error: str = ""
    traceback: str = ""
    exception: BaseException | None = None
    probes: list = dataclasses.field(default_factory=list)
    obj: object = None

    def fail(self, status, exc, what):
        self.status = status
        self.error = f"{what}: {type(exc).__name__}: {exc}"
        self.traceback = "".join(traceback.format_exception(exc))
        self.exception = exc


_lock = threading.RLock()
_pm: pluggy.PluginManager | None = None
_records: dict[str, PluginRecord] = {}
_explicit: list[tuple[str, object]] = []


def reset():
    """Forget every discovered plugin; the next use discovers again (tests, after installing a plugin)."""
    with _lock:
        _reset()


def register_plugin(obj, name=None):
    """Register a plugin object by hand (tests, notebooks); takes effect at the next discovery. A plugin
    registered again under the same name replaces the earlier one."""
    name = name or getattr(obj, "__name__", repr(obj))
    with _lock:
        _explicit[:] = [(n, o) for n, o in _explicit if n != name]
        _explicit.append((name, obj))
        _reset()


def unregister_plugin(name):
    """Forget a plugin registered by hand; takes effect at the next discovery."""
    with _lock:
        _explicit[:] = [(n, o) for n, o in _explicit if n != name]
        _reset()


def _reset():
    global _pm
    _pm = None
    _records.clear()
    _generation.bump()


def _env_list(var):
    return {s.strip() for s in os.environ.get(var, "").split(",") if s.strip()}


def _check_version(rec: PluginRecord):
    major, minor = hookspecs.PLUGIN_API_VERSION
    try:
        p_major, p_minor = (int(v) for v in rec.api_version)
    except (TypeError, ValueError):
        rec.status = "incompatible"
        rec.error = f"declares no valid plugin API version (got {rec.api_version!r}); expected ({major}, {minor})"
        return
    if p_major != major or p_minor > minor:
        rec.status = "incompatible"
        rec.error = (f"built for plugin API {p_major}.{p_minor}, but mindspore-core {_core_version()} provides "
                     f"{major}.{minor}; install a version of '{rec.distribution or rec.name}' made for this core")


def _core_version():
    try:
        return metadata.version("mindspore-core")
    except metadata.PackageNotFoundError:
        return "(source)"


def _load_entry_points(pm, blocked):
    eps = metadata.entry_points(group=hookspecs.ENTRY_POINT_GROUP)
    found = []
    for ep in eps:
        dist = getattr(ep, "dist", None)
        found.append((ep, dist.metadata["Name"] if dist else "", dist.version if dist else ""))
    found.sort(key=lambda item: (item[1].lower() not in FIRST_PARTY, item[0].name))
    for ep, dist_name, dist_version in found:
        rec = PluginRecord(name=ep.name, distribution=dist_name, version=dist_version)
        _records[ep.name] = rec
        if ep.name in blocked:
            rec.status = "blocked"
            rec.error = "blocked by MINDSPORE_DISABLE_PLUGINS"
            continue
        try:
            rec.obj = ep.load()
        except ISOLATED as exc:  # isolation is the point
            rec.fail("failed", exc, "import failed")
            continue
        _admit(pm, rec)


def _admit(pm, rec):
    """Identify a loaded plugin, check its API version, and register it with pluggy if compatible."""
    info_fn = getattr(rec.obj, "ms_plugin_info", None)
    if info_fn is None:
        rec.status = "incompatible"
        rec.error = "has no ms_plugin_info hook"
        return
    try:
        info = info_fn() or {}
    except ISOLATED as exc:
        rec.fail("failed", exc, "ms_plugin_info failed")
        return
    if not isinstance(info, dict):
        rec.fail("failed", TypeError(f"ms_plugin_info must return a dict, but got {type(info).__name__}"),
                 "ms_plugin_info failed")
        return
    try:
        rec.api_version = tuple(info.get("api_version", ()))
    except TypeError:
        rec.api_version = (info.get("api_version"),)
    rec.version = str(info.get("version", rec.version))
    _check_version(rec)
    if rec.status != "loaded":
        return
    try:
        pm.register(rec.obj, name=rec.name)
    except ISOLATED as exc:
        rec.fail("failed", exc, "registration failed")


def plugin_manager() -> pluggy.PluginManager:
    """The pluggy manager with every compatible plugin registered (discovering on first call)."""
    global _pm
    with _lock:
        if _pm is not None:
            return _pm
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        blocked = _env_list("MINDSPORE_DISABLE_PLUGINS")
        if os.environ.get("MINDSPORE_PLUGINS_AUTOLOAD", "1").lower() not in ("0", "false", "no", "off"):
            _load_entry_points(pm, blocked)
        for name, obj in _explicit:
            rec = PluginRecord(name=name, distribution="(registered in code)", obj=obj)
            _records[name] = rec
            _admit(pm, rec)
        _pm = pm
        _probe_all()
        return pm


def _probe_all():
    for rec, probes in call_each("ms_backend_probe"):
        rec.probes = [p for p in (probes or [])]


def hookimpls(hook_name):
    """``(record, function)`` of each loaded plugin implementing ``hook_name``, in plugin order."""
    pm = _pm if _pm is not None else plugin_manager()
    impls = {impl.plugin_name: impl for impl in getattr(pm.hook, hook_name).get_hookimpls()}
    out = []
    for name, rec in list(_records.items()):
        impl = impls.get(name)
        if impl is not None and rec.status == "loaded":
            out.append((rec, impl.function))
    return out


def sharding():
    """The sharding functions the first plugin offering ``ms_sharding`` gives (a dict), or None."""
    for _rec, offer in call_each("ms_sharding"):
        if offer:
            return offer
    return None


def random_fill(kind):
    """The native fill of initial weights of ``kind`` (``"uniform"``, ``"normal"``, ``"truncated_normal"``) the
    first plugin offering one gives through ``ms_random_fills`` (discovering plugins on first use), or None."""
    for _rec, offer in call_each("ms_random_fills"):
        fill = (offer or {}).get(kind)
        if fill is not None:
            return fill
    return None


def call_each(hook_name, **kwargs):
    """Call ``hook_name`` on each loaded plugin separately; returns a list of ``(record, result)``.

    A plugin whose hook raises is marked failed (and skipped) instead of breaking the others.
    """
    results = []
    for rec, fn in hookimpls(hook_name):
        if rec.status != "loaded":
            continue
        try:
            results.append((rec, fn(**kwargs)))
        except ISOLATED as exc:
            rec.fail("failed", exc, f"{hook_name} failed")
    return results


def record(name) -> PluginRecord | None:
    """The record of the plugin ``name`` (after discovery), or ``None``."""
    plugin_manager()
    return _records.get(name)


def plugins() -> list[PluginRecord]:
    """Every plugin found, in discovery order, with its status."""
    plugin_manager()
    return list(_records.values())
