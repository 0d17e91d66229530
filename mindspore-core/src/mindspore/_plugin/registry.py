"""The registries plugins fill: kernels (``ms_register_kernels``) and backend passes (``ms_register_passes``).

Kernels
-------
An entry is (primitive name, target, dtype signature, priority, function, plugin, override). The
kernel contract::

    fn(prim, *inputs, out)

``inputs`` are the application's arguments with every tensor replaced by its device buffer (a tuple of
tensors by a tuple of buffers); ``out`` (keyword) is the inferred output: a :class:`~mindspore.plugin.TensorSpec`
(``shape``, ``dtype``), or a tuple of them for a multi-output primitive. The kernel returns a buffer (or a
tuple of buffers) of exactly that shape and dtype: promotion happened once, in core's rules, and a
kernel computes in ``out.dtype`` instead of repeating them. A dimension of ``-1`` in ``out.shape`` is
decided by the kernel (data-dependent shapes: ``Unique``, ``MaskedSelect``).

A kernel is chosen on the dtypes of *all* tensor inputs, in argument order (a tuple of tensors
contributes each of its elements). ``dtypes`` at registration is

* ``None``: any dtypes;
* a collection of dtypes (``{ms.float32, ms.float16}``): every tensor input has one of them;
* a list of signatures, each a tuple with one item per tensor input: a dtype, a collection of
  dtypes, or ``None`` (any); a trailing ``...`` admits any further inputs
  (``[(ms.float32, ms.int32), (ms.float16, ms.int32)]``).

Lookup takes, among the entries that admit the inputs' dtypes, explicit overrides first, then the
highest priority, then a dtype-specific entry before a catch-all. Plugins register in a fixed order
(mindspore's first-party backends first, then the others by entry-point name), so "existing" is
well defined: registering a kernel that overlaps another plugin's is refused unless ``override=True``;
accepted overrides are recorded and reported by ``python -m mindspore.info``. A kernel for a primitive
the operator registry does not know is refused and reported too.
"""
from __future__ import annotations

import dataclasses

from mindspore._errors import KernelNotFoundError

__all__ = ["KernelEntry", "KernelRegistry", "PassRegistry", "normalize_signature", "signature_admits"]


def _is_dtype_collection(x):
    return isinstance(x, (set, frozenset, list, tuple))


def _item(x):
    """One position of a signature: None (any) or a frozenset of dtypes."""
    if x is None:
        return None
    if _is_dtype_collection(x):
        return frozenset(x)
    return frozenset((x,))


def normalize_signature(dtypes):
    """``dtypes`` as registered -> ``None``, ``("all", frozenset)`` or ``("sigs", ((items), open), ...)``."""
    if dtypes is None:
        return None
    items = list(dtypes)
    if items and all(isinstance(s, tuple) for s in items):
        sigs = []
        for s in items:
            open_end = bool(s) and s[-1] is Ellipsis
            body = s[:-1] if open_end else s
            sigs.append((tuple(_item(x) for x in body), open_end))
        return ("sigs", tuple(sigs))
    if any(isinstance(s, tuple) for s in items):
        raise TypeError("dtypes must be a collection of dtypes or a list of signature tuples, not a mix of both")
    return ("all", frozenset(items))


def signature_admits(sig, dtypes):
    """Whether a normalised signature admits the tensor-input dtypes ``dtypes`` (a tuple)."""
    if sig is None:
        return True
    kind, spec = sig
    if kind == "all":
        return all(d in spec for d in dtypes)
    for items, open_end in spec:
        if len(dtypes) < len(items) or (len(dtypes) > len(items) and not open_end):
            continue
        if all(item is None or d in item for item, d in zip(items, dtypes)):
            return True
    return False


def _positions(sig, n):
    """Per input position (up to n), the set of admitted dtypes (None: any), for each alternative."""
    if sig is None:
        return [[None] * n]
    kind, spec = sig
    if kind == "all":
        return [[spec] * n]
    out = []
    for items, open_end in spec:
        row = list(items) + [None] * max(0, n - len(items)) if open_end else list(items)
        out.append(row)
    return out


def signatures_overlap(a, b):
    """Whether some tuple of dtypes is admitted by both normalised signatures (approximate for open ends)."""
    if a is None or b is None:
        return True
    n = 0
    for sig in (a, b):
        if sig[0] == "sigs":
            n = max([n] + [len(items) for items, _ in sig[1]])
    n = max(n, 1)
    for ra in _positions(a, n):
        for rb in _positions(b, n):
            if len(ra) != len(rb) and not (a[0] == "all" or b[0] == "all"):
                continue
            if all(x is None or y is None or (x & y) for x, y in zip(ra, rb)):
                return True
    return False


def describe_signature(sig):
    if sig is None:
        return "all"
    kind, spec = sig
    if kind == "all":
        return sorted(str(d) for d in spec)
    return [["*" if i is None else "|".join(sorted(str(d) for d in i)) for i in items] + (["..."] if o else [])
            for items, o in spec]


@dataclasses.dataclass
class KernelEntry:
    """One registered kernel."""

    primitive: str
    target: str
    fn: object
    signature: tuple | None
    priority: int
    plugin: str
    override: bool

    def admits(self, dtypes):
        return signature_admits(self.signature, dtypes)

    @property
    def specific(self):
        return self.signature is not None


class KernelRegistry:
    """Kernels by (primitive name, target): what ``ms_register_kernels(registry)`` receives."""

    def __init__(self, known_primitives=None):
        self._entries: dict[tuple[str, str], list[KernelEntry]] = {}
        self._known = known_primitives
        self.overrides: list[dict] = []
        self.rejected: list[dict] = []
        self._plugin = "(unknown)"

    def for_plugin(self, name):
        """Tag the registrations that follow with the plugin ``name``."""
        self._plugin = name
        return self

    def register(self, primitive, target, fn, dtypes=None, priority=0, override=False):
        """Register ``fn(prim, *inputs, out)`` as the kernel of ``primitive`` (a name or class) on ``target``.

        Returns whether the kernel was accepted (a refusal is recorded with its reason).
        """
        name = primitive if isinstance(primitive, str) else primitive.__name__
        if not callable(fn):
            self._reject(name, target, f"the kernel is not callable ({type(fn).__name__})")
            return False
        if self._known is not None and name not in self._known:
            self._reject(name, target, "unknown primitive (register it with ms_register_primitives)")
            return False
        try:
            sig = normalize_signature(dtypes)
        except TypeError as exc:
            self._reject(name, target, str(exc))
            return False
        entry = KernelEntry(name, target, fn, sig, priority, self._plugin, override)
        entries = self._entries.setdefault((name, target), [])
        clash = [e for e in entries if e.plugin != self._plugin and signatures_overlap(e.signature, sig)]
        if clash and not override:
            self._reject(name, target, f"already provided by '{clash[0].plugin}' (pass override=True to replace)")
            return False
        if clash:
            self._record_override(entry, [e.plugin for e in clash])
        entries.append(entry)
        return True

    def _reject(self, name, target, reason):
        self.rejected.append({"primitive": name, "target": target, "plugin": self._plugin, "reason": reason})

    def _record_override(self, entry, replaced):
        for o in self.overrides:
            if (o["primitive"], o["target"], o["plugin"]) == (entry.primitive, entry.target, entry.plugin):
                o["replaces"] = sorted(set(o["replaces"]) | set(replaced))
                return
        self.overrides.append({"primitive": entry.primitive, "target": entry.target, "plugin": entry.plugin,
                               "replaces": sorted(set(replaced)), "dtypes": describe_signature(entry.signature)})

    def knows(self, primitive):
        """Whether ``primitive`` is in the operator registry (kernels for unknown names are refused)."""
        return self._known is None or primitive in self._known

    def find(self, primitive, target, dtypes=()):
        """The best entry for ``primitive`` on ``target`` for tensor inputs of ``dtypes``, or ``None``."""
        best = None
        for e in self._entries.get((primitive, target), ()):
            if not e.admits(dtypes):
                continue
            if best is None or (e.override, e.priority, e.specific) > (best.override, best.priority, best.specific):
                best = e
        return best

    def lookup(self, primitive, target, dtypes=()):
        """The kernel entry for ``primitive`` on ``target``; raises :class:`KernelNotFoundError`."""
        best = self.find(primitive, target, dtypes)
        if best is None:
            shown = ", ".join(str(d) for d in dtypes)
            have = self._entries.get((primitive, target))
            raise KernelNotFoundError(
                f"For '{primitive}', no kernel is registered for device target '{target}'"
                + (f" and input dtypes ({shown})" if have and dtypes else "") + ".")
        return best

    def has(self, primitive, target):
        return bool(self._entries.get((primitive, target)))

    def primitives(self, target=None):
        return sorted({p for (p, t) in self._entries if target is None or t == target})

    def targets(self):
        return sorted({t for (_, t) in self._entries})

    def entries(self):
        return [e for es in self._entries.values() for e in es]


class PassRegistry:
    """What ``ms_register_passes(registry)`` receives: ``registry.register(name, fn, target=...)``.

    A backend pass is ``fn(graph) -> bool`` (whether it changed anything) over a typed graph (see
    :mod:`mindspore.plugin` for the IR it sees); it runs only when its target is the current device
    target (``target=None``: on every target), in priority order.
    """

    def __init__(self):
        self.passes = []
        self._plugin = "(unknown)"

    def for_plugin(self, name):
        self._plugin = name
        return self

    def register(self, name, fn, target=None, priority=0):
        if not callable(fn):
            raise TypeError(f"For pass '{name}', the pass must be callable, but got {type(fn).__name__}.")
        self.passes.append((priority, name, fn, target))
        self.passes.sort(key=lambda p: p[0])
