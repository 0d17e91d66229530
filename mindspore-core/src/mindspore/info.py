"""``python -m mindspore.info``: what this installation of MindSpore can do, and why not.

Design
------
The report is gathered once into a plain dict (:func:`collect`) and then rendered either as text
(:func:`format_text`) or as JSON (``--json``), so both views always say the same thing. Gathering
runs plugin discovery, the kernel registry and backend selection exactly as the first computation
would, but every step is inside its own ``try``: the report must be honest and complete when no
backend is installed, when a plugin fails to import, when it is built for another plugin API, or
when one of its hooks raises. A failing step becomes an entry under ``"errors"``, never a crash.

Order matters: building the kernel registry and creating the default backend call more hooks, and
a hook that raises marks its plugin *failed*; plugin statuses are therefore read last.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from importlib import metadata

__all__ = ["collect", "format_text", "main"]

_ENV_VARS = ("MINDSPORE_DEVICE_TARGET", "MINDSPORE_PLUGINS_AUTOLOAD", "MINDSPORE_DISABLE_PLUGINS")
_LIBRARIES = ("numpy", "pluggy", "ml_dtypes")


def _dist_version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _error_text(exc):
    return f"{type(exc).__name__}: {exc}"


def _kernels(report):
    """Kernel registry summary: counts per plugin and target, overrides, rejections."""
    from mindspore._runtime import backend
    registry = backend.kernel_registry()
    counts = {}
    for entry in registry.entries():
        per_plugin = counts.setdefault(entry.plugin, {})
        per_plugin[entry.target] = per_plugin.get(entry.target, 0) + 1
    report["kernels"] = {plugin: dict(sorted(targets.items())) for plugin, targets in sorted(counts.items())}
    report["kernel_overrides"] = [dict(o) for o in registry.overrides]
    report["rejected_kernels"] = [dict(r) for r in registry.rejected]


def _fallbacks(report):
    """Primitives each usable non-CPU target has no kernel for, but the CPU has: they run on the CPU with
    copies (a warning names each once). Also any that already fell back in this process."""
    from mindspore._plugin import manager
    from mindspore._runtime import backend
    registry = backend.kernel_registry()
    targets = sorted({p.target for rec in manager.plugins() if rec.status == "loaded" for p in rec.probes
                      if p.available and p.target != "CPU"})
    found = []
    for target in targets:
        for name in registry.primitives("CPU"):
            if not registry.has(name, target):
                cpu = registry.find(name, "CPU")
                found.append({"target": target, "primitive": name, "cpu_kernel_plugin": cpu.plugin if cpu else "?"})
    seen = {(f["target"], f["primitive"]) for f in found}
    for target, name, plugin in backend.fallbacks():
        if (target, name) not in seen:
            found.append({"target": target, "primitive": name, "cpu_kernel_plugin": plugin})
    report["cpu_fallbacks"] = found


def _plugin_primitives():
    """Primitives added by plugins through ``ms_register_primitives``: name -> plugin."""
    from mindspore.ops import _registry as op_registry
    public = getattr(op_registry, "plugin_primitives", None)
    if public is not None:
        return dict(public())
    return {name: plugin for name, (_cls, plugin) in sorted(op_registry._plugin_prims.items())}


def _default_target(report):
    from mindspore._runtime import backend
    try:
        selected = backend.current()
    except Exception as exc:  # noqa: BLE001 - "no backend" is a finding, not a failure of this report
        report["default_target"] = None
        report["default_target_error"] = str(exc)
        return
    report["default_target"] = selected.target
    report["default_backend_plugin"] = selected.plugin


def _requested_target():
    import mindspore.context as context
    return context.get_context("device_target_requested") or os.environ.get("MINDSPORE_DEVICE_TARGET") or None


def _plugin_entry(rec):
    return {
        "name": rec.name,
        "distribution": rec.distribution,
        "version": rec.version,
        "api_version": list(rec.api_version) if rec.api_version else None,
        "status": rec.status,
        "error": rec.error,
        "traceback": rec.traceback,
        "targets": [{"target": p.target, "available": bool(p.available), "reason": p.reason,
                     "priority": p.priority, "device_count": p.device_count} for p in rec.probes],
    }


def _environment(report):
    from mindspore._plugin import manager
    env = {}
    for rec, info in manager.call_each("ms_environment_info"):
        for key, value in (info or {}).items():
            env[f"{rec.name}.{key}"] = str(value)
    report["environment"] = env


def _step(report, what, fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - each step is isolated; its failure is part of the report
        report["errors"].append(f"{what}: {_error_text(exc)}")


def collect():
    """Gather the whole report as a JSON-ready dict."""
    from mindspore._plugin import hookspecs, manager
    from mindspore.version import __version__

    report = {
        "mindspore_version": __version__,
        "core_distribution_version": _dist_version("mindspore-core"),
        "plugin_api_version": list(hookspecs.PLUGIN_API_VERSION),
        "entry_point_group": hookspecs.ENTRY_POINT_GROUP,
        "python": f"{platform.python_version()} ({sys.executable})",
        "platform": f"{platform.system()}-{platform.machine()}",
        "libraries": {lib: _dist_version(lib) for lib in _LIBRARIES},
        "settings": {var: os.environ.get(var) for var in _ENV_VARS},
        "requested_target": None,
        "plugins": [],
        "plugin_primitives": {},
        "kernels": {},
        "kernel_overrides": [],
        "rejected_kernels": [],
        "cpu_fallbacks": [],
        "default_target": None,
        "errors": [],
    }

    def requested():
        report["requested_target"] = _requested_target()

    def primitives():
        report["plugin_primitives"] = _plugin_primitives()

    _step(report, "plugin discovery", manager.plugin_manager)
    _step(report, "requested target", requested)
    _step(report, "kernel registry", _kernels, report)
    _step(report, "plugin primitives", primitives)
    _step(report, "CPU fallbacks", _fallbacks, report)
    _step(report, "default target", _default_target, report)
    _step(report, "environment info", _environment, report)

    def statuses():
        report["plugins"] = [_plugin_entry(rec) for rec in manager.plugins()]

    _step(report, "plugin list", statuses)
    return report


def _target_line(t):
    if t["available"]:
        devices = f", {t['device_count']} device{'s' if t['device_count'] != 1 else ''}" if t["device_count"] else ""
        return f"{t['target']}: available (priority {t['priority']}{devices})"
    return f"{t['target']}: unavailable: {t['reason'] or 'no reason given'}"


def _plugins_text(report, verbose):
    lines = [f"Plugins (entry-point group '{report['entry_point_group']}'):"]
    if not report["plugins"]:
        lines.append("  none found; install a backend with 'pip install mindspore-cpu'")
    for p in report["plugins"]:
        origin = " ".join(x for x in (p["distribution"], p["version"]) if x) or "unknown distribution"
        api = ".".join(str(v) for v in p["api_version"]) if p["api_version"] else "?"
        lines.append(f"  {p['name']:<12} {origin:<32} {p['status']:<12} plugin API {api}")
        if p["error"]:
            lines.append(f"      error: {p['error']}")
        for t in p["targets"]:
            lines.append(f"      target {_target_line(t)}")
        if verbose and p["traceback"]:
            lines.extend("      | " + ln for ln in p["traceback"].rstrip().splitlines())
    return lines


def _kernels_text(report):
    lines = ["Kernels registered:"]
    if not report["kernels"]:
        lines.append("  none")
    for plugin, targets in report["kernels"].items():
        lines.append(f"  {plugin}: " + ", ".join(f"{n} on {t}" for t, n in targets.items()))
    lines.append("Primitives added by plugins:")
    lines.extend(f"  {name} (plugin '{plugin}')" for name, plugin in report["plugin_primitives"].items())
    if not report["plugin_primitives"]:
        lines.append("  none")
    lines.append("Kernel overrides in effect:")
    for o in report["kernel_overrides"]:
        dtypes = o["dtypes"] if isinstance(o["dtypes"], str) else ", ".join(o["dtypes"])
        lines.append(f"  {o['primitive']} on {o['target']}: plugin '{o['plugin']}' replaces "
                     f"{', '.join(repr(r) for r in o['replaces'])} (dtypes: {dtypes})")
    if not report["kernel_overrides"]:
        lines.append("  none")
    lines.append("Rejected kernel registrations:")
    for r in report["rejected_kernels"]:
        lines.append(f"  {r['primitive']} on {r['target']} from plugin '{r['plugin']}': {r['reason']}")
    if not report["rejected_kernels"]:
        lines.append("  none")
    lines.append("Primitives that run on the CPU, with copies, because a target has no kernel for them:")
    by_target = {}
    for f in report["cpu_fallbacks"]:
        by_target.setdefault(f["target"], []).append(f["primitive"])
    for target, names in sorted(by_target.items()):
        lines.append(f"  {target} ({len(names)}): " + ", ".join(sorted(names)))
    if not by_target:
        lines.append("  none")
    return lines


def format_text(report, verbose=False):
    """The human-readable report."""
    api = ".".join(str(v) for v in report["plugin_api_version"])
    core = report["core_distribution_version"] or "not installed as a distribution (source tree)"
    lines = [f"MindSpore {report['mindspore_version']} (mindspore-core {core}), plugin API {api}",
             f"Python {report['python']} on {report['platform']}",
             "Libraries: " + ", ".join(f"{k} {v or 'missing'}" for k, v in report["libraries"].items()),
             ""]
    lines += _plugins_text(report, verbose) + [""] + _kernels_text(report) + [""]
    if report["default_target"]:
        lines.append(f"Default target: {report['default_target']} (plugin '{report['default_backend_plugin']}')")
    else:
        lines.append("Default target: none")
        lines.extend("  " + ln for ln in report.get("default_target_error", "").splitlines())
    if report["requested_target"]:
        lines.append(f"Requested target: {report['requested_target']}")
    lines.append("Settings:")
    lines.extend(f"  {k}={v if v is not None else '(unset)'}" for k, v in report["settings"].items())
    lines.append("Environment:")
    lines.extend(f"  {k}: {v}" for k, v in sorted(report["environment"].items()))
    if not report["environment"]:
        lines.append("  (no plugin reported any)")
    if report["errors"]:
        lines.append("Errors while gathering this report:")
        lines.extend(f"  {e}" for e in report["errors"])
    if not verbose and any(p["traceback"] for p in report["plugins"]):
        lines.append("(run with --verbose for the plugins' tracebacks)")
    return "\n".join(lines)


def main(argv=None):
    """Entry point of ``python -m mindspore.info``; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m mindspore.info",
                                     description="Show MindSpore's version, plugins, backends and kernels.")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="include the tracebacks of failed plugins")
    args = parser.parse_args(argv)
    report = collect()
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print(format_text(report, verbose=args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
