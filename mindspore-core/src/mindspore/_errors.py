"""The one typed error hierarchy of the framework.

User-facing errors are the builtin ``TypeError``/``ValueError``/``RuntimeError`` that MindSpore
raises, so ``except ValueError`` in user code keeps working; we subclass them to tag where they came
from. :class:`InternalError` marks our own bugs: it is never the user's fault.
"""


class MindSporeError(Exception):
    """Base of every error raised on purpose by this framework."""


class MSTypeError(MindSporeError, TypeError):
    """A wrong type: a non-tensor where a tensor is needed, an unsupported dtype."""


class MSValueError(MindSporeError, ValueError):
    """A wrong value: a bad shape, rank, axis or attribute."""


class MSRuntimeError(MindSporeError, RuntimeError):
    """A failure while running: no usable backend, no kernel, a failing kernel."""


class NeedsPython(MindSporeError):
    """Compiling met Python code that needs a value the graph computes: the value of a tensor as a Python value
    (``int(x)``, ``x.asnumpy()``), or a computed tensor stored in a plain attribute. Outside JIT strict mode the
    call then runs as Python (MindSpore's JIT fallback runs such code at run time); in strict mode it is the
    error."""


class MSValueUnavailableError(NeedsPython, MSRuntimeError):
    """A tensor's value is needed as a Python value while compiling (see :class:`NeedsPython`)."""


class MSCallDepthError(NeedsPython, MSRuntimeError):
    """The call-depth limit was met inside a branch or loop on a tensor: a recursion whose depth a tensor value
    decides (MindSpore compiles it as a recursive graph; here it runs as Python, see :class:`NeedsPython`)."""


class MSRankJoinError(NeedsPython, MSValueError):
    """The branches of an ``if`` on a tensor give one variable tensors of different ranks (MindSpore gives it a
    dynamic rank; here the call runs as Python, see :class:`NeedsPython`)."""


class MSBranchValueError(NeedsPython, MSTypeError):
    """A variable holds values of kinds a graph can not join on the two paths of an ``if`` on a tensor (a tensor and
    None): MindSpore 2.10 picks the value when the graph runs; outside JIT strict mode the call runs as Python (see
    :class:`NeedsPython`)."""


class MSTensorAttributeError(NeedsPython, MSTypeError):
    """A tensor the graph computes is stored in an attribute that is not a Parameter (see :class:`NeedsPython`)."""


class BackendUnavailableError(MSRuntimeError):
    """The requested device target has no usable backend installed here."""


class KernelNotFoundError(MSRuntimeError):
    """No kernel is registered for a primitive on the selected target and dtypes."""


class InternalError(MindSporeError, AssertionError):
    """A bug in this framework, not in the user's program. Please report it."""


def op_error(op_name, message, exc=MSValueError):
    """Build an error in MindSpore's form: ``For 'Op', <message>``."""
    return exc(f"For '{op_name}', {message}")


class MSIndexError(MindSporeError, IndexError):
    """An index out of range for a tensor dimension."""


class MSNameError(MindSporeError, NameError):
    """A name used in graph mode that is not defined (or not supported)."""


class MSUnboundLocalError(MSNameError, UnboundLocalError):
    """A variable used in graph mode where it has no value: assigned on one path of an ``if`` (or loop) only."""


# Where MindSpore 2.10 raises another builtin type than the one our check would pick, the error is an
# instance of both: ``except RuntimeError`` written for MindSpore matches, and so does our older type.
class MSValueRuntimeError(MSValueError, RuntimeError):
    """A bad shape that MindSpore 2.10 reports while running the kernel (a RuntimeError), e.g. ``ops.matmul``."""


class MSIndexRuntimeError(MSIndexError, RuntimeError):
    """A tensor of indices out of range: MindSpore 2.10's kernels raise RuntimeError (a Python int index is an
    IndexError, :class:`MSIndexError`)."""


class MSIndexValueError(MSIndexError, ValueError):
    """A boolean index whose shape does not match the tensor: a ValueError in MindSpore 2.10 (torch: IndexError)."""


class MSTypeValueError(MSTypeError, ValueError):
    """Calling an object that is not callable in graph mode: TypeError in Python, ValueError in MindSpore 2.10
    ("MsClassObject: 'X' has no __call__ function")."""


class MSTypeIndexError(MSTypeError, IndexError):
    """A tensor index of a dtype that can not index (a float tensor): an IndexError in MindSpore 2.10."""


def format_locations(locs):
    """The user's source positions, outermost first, each with its line and a caret."""
    lines = []
    for loc in locs:
        if loc is None:
            continue
        where = f"  {loc}" + (f" in {loc.func}" if loc.func else "")
        lines.append(where)
        excerpt = loc.excerpt()
        if excerpt:
            lines.extend("    " + x for x in excerpt.split("\n"))
    return "\n".join(lines)


def _with_runtime_error(cls):
    """``cls`` made also a RuntimeError (MindSpore reports compile-time failures as RuntimeError)."""
    if issubclass(cls, RuntimeError):
        return cls
    cached = _LOCATED_TYPES.get(cls)
    if cached is None:
        cached = type(cls.__name__, (cls, RuntimeError), {"__module__": cls.__module__})
        _LOCATED_TYPES[cls] = cached
    return cached


_LOCATED_TYPES = {}


def graph_syntax_error(message, loc, kind="syntax"):
    """A parse error at ``loc``: RuntimeError (unsupported syntax), NameError or TypeError."""
    cls = {"syntax": MSRuntimeError, "name": MSNameError, "type": MSTypeError}[kind]
    if loc is None:
        return cls(message)
    err = cls(_located_message(message, [loc]))
    err.ms_located = True
    return err


def _located_message(message, locs):
    block = format_locations(locs)
    if not block:
        return message
    first = next(loc for loc in locs[::-1] if loc is not None)
    return f"{message}\n\n{first}: the error is here (graph mode; the user's code, outermost call first):\n{block}"


def locate_error(exc, locs, as_runtime=True):
    """``exc`` re-raised with the user's source positions; inference failures also become RuntimeError."""
    if getattr(exc, "ms_located", False) or not any(loc is not None for loc in locs):
        return exc
    cls = type(exc)
    if as_runtime and issubclass(cls, (ValueError, TypeError)) and issubclass(cls, MindSporeError):
        cls = _with_runtime_error(cls)
    message = str(exc.args[0]) if len(exc.args) == 1 else str(exc)
    try:
        new = cls(_located_message(message, locs))
    except Exception:  # noqa: BLE001 - an exception type with its own constructor: keep its type's spirit
        new = MSRuntimeError(_located_message(f"{type(exc).__name__}: {message}", locs))
    new.ms_located = True
    new.ms_original = exc
    return new
