"""AOT custom operators (``ops.Custom("path:Func", ..., func_type="aot")``): their libraries and how they are called.

A kernel library exports, with C linkage, a main function ``int Func(int nparam, void **params, int *ndims,
int64_t **shapes, const char **dtypes, void *stream, void *extra)`` over the inputs, outputs and workspaces (in that
order; a workspace has rank 0 and a null dtype), and optionally ``FuncInit``, ``FuncInferShape`` and
``FuncInferType`` (see ``mindspore/include/api/custom_aot_extra.h``, which kernels may include as
``"custom_aot_extra.h"``). This module serves both the primitive (shape and type inference) and the backends' kernels
(:class:`AotKernel`: the main function on the backend's buffer pointers), so a backend adds only how it allocates
and which stream it passes.

- A source file (``.cc``/``.cpp`` with ``g++``, ``.cu`` with ``nvcc``) is compiled once per process when the
  operator is made, with MindSpore 2.10's commands, into ``$MS_COMPILER_CACHE_PATH`` (default
  ``./custom_kernel_meta/``) as ``<file name>.so``; the compiler writes a temporary file renamed over it. Any other
  path is a prebuilt library. With ``MS_CUSTOM_AOT_WHITE_LIST`` set, only files under that directory are accepted.
- ``FuncInit``/``FuncInferShape``/``FuncInferType`` are C++ functions taking an ``AotExtra``; they are called
  through a small bridge (``_aot_bridge.cc``) compiled on first need with the system C++ compiler for the library's
  C++ string ABI (``-D_GLIBCXX_USE_CXX11_ABI=1`` when the library references ``std::__cxx11`` symbols, else 0, the
  flag MindSpore compiles kernels with). The bridge holds the attributes (the ``value=``s of the registration info)
  and turns C++ exceptions, such as reading an attribute that was not given, into Python errors. A library without
  these functions and an operator without attributes can run without the bridge where no C++ compiler is found
  (its ``extra`` is then null).
- ``FuncInit`` runs once per input/output signature, before the first launch, on an extra of its own; the workspace
  sizes it sets are allocated by the backend once, zero-filled, and kept for that signature's later launches (as
  2.10 keeps them with its kernel). The kernel data it sets is deleted when the kernel is released.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import weakref

from mindspore._cxx import TYPE_IDS, find_compiler
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError

__all__ = ["SOURCE_SUFFIXES", "resolve", "AotLibrary", "AotKernel", "type_id_of", "dtype_of"]

SOURCE_SUFFIXES = ("cc", "cpp", "cu")
_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_INCLUDE = os.path.join(_PKG, "include", "api")
_BRIDGE_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_aot_bridge.cc")
_ERR_CAP = 2048
_COMPILED = set()   # library paths compiled in this process
_LIBRARIES = {}     # library path -> AotLibrary
_BRIDGES = {}       # C++ string ABI -> loaded bridge


def _cache_dir():
    path = os.environ.get("MS_COMPILER_CACHE_PATH") or "./custom_kernel_meta/"
    os.makedirs(path, exist_ok=True)
    return path


def _run_compiler(cmd, source, target):
    """Run ``cmd`` (which writes ``target + '.tmp<pid>'``) and rename its output over ``target``."""
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        proc = subprocess.run(cmd + ["-o", tmp, source], capture_output=True, text=True, timeout=300, check=False)
    except FileNotFoundError as exc:
        raise MSRuntimeError(f"For 'Custom', compiling {source} needs '{cmd[0]}', which was not found on PATH.") from exc
    if proc.returncode != 0:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise MSRuntimeError(f"Compilation error in compiling {source}:\n{proc.stdout}{proc.stderr}")
    os.replace(tmp, target)


def _compile_source(source):
    """Compile a kernel source file with 2.10's commands (once per process); returns the library path."""
    target = os.path.join(_cache_dir(), os.path.basename(source) + ".so")
    if target in _COMPILED:
        return target
    includes = [f"-I{_INCLUDE}", f"-I{os.path.dirname(source)}"]
    if source.endswith("cu"):
        cmd = ["nvcc", "--shared", "-Xcompiler", "-fPIC", "-O3", "--use_fast_math", "--expt-relaxed-constexpr",
               "--expt-extended-lambda", "-D_GLIBCXX_USE_CXX11_ABI=0"] + includes
    else:
        cmd = ["g++", "-std=c++17", "--shared", "-fPIC", "-D_GLIBCXX_USE_CXX11_ABI=0"] + includes
    _run_compiler(cmd, source, target)
    _COMPILED.add(target)
    return target


def resolve(func, log_prefix):
    """Check ``func`` ("path:Func") as 2.10 does and compile a source file; returns ``(library path, Func)``."""
    if not isinstance(func, str):
        raise MSTypeError(f"{log_prefix}, 'func' must be of type str, but got {type(func)}")
    parts = func.split(":")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise MSTypeError(f"{log_prefix}, 'func' should be like 'file_name:func_name', but got {func}")
    path = os.path.realpath(parts[0])
    legal = os.environ.get("MS_CUSTOM_AOT_WHITE_LIST")
    if legal is not None:
        legal = os.path.realpath(legal)
        if os.path.commonpath([path, legal]) != legal:
            raise MSTypeError(f"{log_prefix}, the legal path for the file is {legal}, but the file is {path}")
    if path.endswith(SOURCE_SUFFIXES):
        if not os.path.isfile(path):
            raise MSValueError(f"{log_prefix}, the source file {parts[0]} does not exist.")
        path = _compile_source(path)
    return path, parts[1]


def _bridge(abi):
    """The bridge library for a C++ string ABI (0 or 1), compiled on first need."""
    if abi in _BRIDGES:
        return _BRIDGES[abi]
    digest = hashlib.sha256()
    for path in (_BRIDGE_SOURCE, os.path.join(_INCLUDE, "custom_aot_extra.h")):
        with open(path, "rb") as f:
            digest.update(f.read())
    target = os.path.join(_cache_dir(), f"ms_aot_bridge_abi{abi}_{digest.hexdigest()[:16]}.so")
    if not os.path.exists(target):
        cmd = find_compiler("Custom") + ["-std=c++17", "-O2", "--shared", "-fPIC", f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
                                          f"-I{_INCLUDE}"]
        _run_compiler(cmd, _BRIDGE_SOURCE, target)
    lib = ctypes.CDLL(target)
    p, i64, c_int = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int
    pi64 = ctypes.POINTER(i64)
    sigs = {
        "ms_aot_extra_new": (p, [ctypes.c_char_p]),
        "ms_aot_extra_free": (None, [p]),
        "ms_aot_extra_set_attr": (None, [p, ctypes.c_char_p, c_int, ctypes.c_char_p, i64, pi64,
                                         ctypes.POINTER(ctypes.c_double), pi64, c_int]),
        "ms_aot_extra_workspace": (i64, [p, ctypes.POINTER(ctypes.c_uint64), i64]),
        "ms_aot_init": (c_int, [p, p, p, p, p, ctypes.c_char_p, i64]),
        "ms_aot_launch": (c_int, [p, c_int, p, p, p, p, p, p, ctypes.c_char_p, i64]),
        "ms_aot_infer_shape": (i64, [p, c_int, p, p, p, pi64, i64, pi64, i64, ctypes.c_char_p, i64]),
        "ms_aot_infer_type": (i64, [p, c_int, ctypes.POINTER(c_int), i64, p, ctypes.POINTER(c_int), i64,
                                    ctypes.c_char_p, i64]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    _BRIDGES[abi] = lib
    return lib


def _attr_args(name, value):
    """``ms_aot_extra_set_attr``'s arguments for one attribute value."""
    text, rows = None, []
    if isinstance(value, bool):
        kind, rows = 0, [[int(value)]]
    elif isinstance(value, int):
        kind, rows = 1, [[value]]
    elif isinstance(value, float):
        kind, rows = 2, [[value]]
    elif isinstance(value, str):
        kind, text = 3, value.encode()
    elif isinstance(value, (list, tuple)) and all(isinstance(v, (list, tuple)) for v in value) and value:
        kind, rows = 5, [list(r) for r in value]
    elif isinstance(value, (list, tuple)):
        kind, rows = 4, [list(value)]
    else:
        raise MSTypeError(f"For 'Custom', the attribute '{name}' of an AOT kernel must be a bool, int, float, str, or "
                          f"a list (or list of lists) of numbers, but got {type(value).__name__}.")
    flat = [v for r in rows for v in r]
    if not all(isinstance(v, (int, float)) for v in flat):     # (bools are ints)
        raise MSTypeError(f"For 'Custom', the attribute '{name}' of an AOT kernel must hold numbers, but got {value!r}.")
    all_int = all(isinstance(v, int) for v in flat)
    n = len(flat)
    lens = (ctypes.c_int64 * max(len(rows), 1))(*[len(r) for r in rows])
    reals = (ctypes.c_double * max(n, 1))(*[float(v) for v in flat])
    ints = (ctypes.c_int64 * max(n, 1))(*[int(v) for v in flat])
    return (name.encode(), kind, text, len(rows), lens, reals, ints, int(all_int))


class _Extra:
    """An ``AotExtra`` made by the bridge, holding the operator's attributes; freed (with its kernel data) on GC."""

    def __init__(self, bridge, op_name, attrs):
        self.bridge = bridge
        self.ptr = bridge.ms_aot_extra_new(op_name.encode())
        for name, value in attrs.items():
            bridge.ms_aot_extra_set_attr(self.ptr, *_attr_args(name, value))
        self._finalizer = weakref.finalize(self, bridge.ms_aot_extra_free, self.ptr)


def _shape_arrays(shapes):
    """``int *ndims`` and ``int64_t **shapes`` for a list of shapes (None for a workspace: rank 0, null dims)."""
    rows = [None if s is None else (ctypes.c_int64 * max(len(s), 1))(*s) for s in shapes]
    ndims = (ctypes.c_int * max(len(shapes), 1))(*[0 if s is None else len(s) for s in shapes])
    ptrs = (ctypes.POINTER(ctypes.c_int64) * max(len(shapes), 1))(
        *[ctypes.cast(r, ctypes.POINTER(ctypes.c_int64)) if r is not None else None for r in rows])
    return ndims, ptrs, rows


def _dtype_array(names):
    encoded = [None if n is None else n.encode() for n in names]
    return (ctypes.c_char_p * max(len(names), 1))(*encoded), encoded


def _check_rc(rc, err, what):
    if rc == -1 and err.value:
        raise MSRuntimeError(f"{what} raised: {err.value.decode(errors='replace')}")


class AotLibrary:
    """A loaded kernel library and its functions."""

    def __init__(self, path):
        self.path = path
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as exc:
            if not os.path.exists(path):
                raise MSRuntimeError(f"For 'Custom', couldn't find the AOT binary file: {path}") from exc
            raise MSRuntimeError(f"For 'Custom', loading the AOT binary file {path} failed: {exc}") from exc
        with open(path, "rb") as f:
            self.abi = 1 if b"__cxx11" in f.read() else 0

    @classmethod
    def get(cls, path):
        lib = _LIBRARIES.get(path)
        if lib is None:
            lib = _LIBRARIES[path] = cls(path)
        return lib

    def symbol(self, name, required=True):
        try:
            return ctypes.cast(getattr(self.lib, name), ctypes.c_void_p).value
        except AttributeError as exc:
            if not required:
                return None
            raise MSRuntimeError(f"For 'Custom', error occurs when fetching function '{name}' from {self.path}: "
                                 f"undefined symbol: {name}") from exc

    def bridge(self):
        return _bridge(self.abi)

    def extra(self, op_name, attrs):
        return _Extra(self.bridge(), op_name, attrs)

    def infer_shape(self, func, attrs, shapes, n_outputs):
        """The output shape(s) from ``FuncInferShape`` (a tuple, or a tuple of tuples when ``n_outputs > 1``)."""
        fn = self.symbol(func + "InferShape", required=False)
        if fn is None:
            raise MSValueError(f"For 'Custom' ('{func}'), 'out_shape' is None, so the library {self.path} must "
                               f"define extern \"C\" {func}InferShape, but it does not.")
        extra = self.extra(func, attrs)
        ndims, ptrs, _keep = _shape_arrays([tuple(s) for s in shapes])
        ranks = (ctypes.c_int64 * 64)()
        dims = (ctypes.c_int64 * 1024)()
        err = ctypes.create_string_buffer(_ERR_CAP)
        n = extra.bridge.ms_aot_infer_shape(fn, int(n_outputs > 1), ndims, ptrs, extra.ptr, ranks, 64, dims, 1024,
                                            err, _ERR_CAP)
        _check_rc(n, err, f"For 'Custom', {func}InferShape")
        if n < 0:
            raise MSRuntimeError(f"For 'Custom', {func}InferShape returned more than 64 outputs or 1024 dims.")
        out, at = [], 0
        for i in range(n):
            out.append(tuple(int(d) for d in dims[at:at + ranks[i]]))
            at += ranks[i]
        return tuple(out) if n_outputs > 1 else out[0]

    def infer_type(self, func, attrs, dtypes, n_outputs):
        """The output dtype(s) from ``FuncInferType``."""
        fn = self.symbol(func + "InferType", required=False)
        if fn is None:
            raise MSValueError(f"For 'Custom' ('{func}'), 'out_dtype' is None, so the library {self.path} must "
                               f"define extern \"C\" {func}InferType, but it does not.")
        extra = self.extra(func, attrs)
        ids = (ctypes.c_int * max(len(dtypes), 1))(*[type_id_of(d) for d in dtypes])
        out = (ctypes.c_int * 64)()
        err = ctypes.create_string_buffer(_ERR_CAP)
        n = extra.bridge.ms_aot_infer_type(fn, int(n_outputs > 1), ids, len(dtypes), extra.ptr, out, 64, err,
                                           _ERR_CAP)
        _check_rc(n, err, f"For 'Custom', {func}InferType")
        types = tuple(dtype_of(out[i], func) for i in range(max(n, 0)))
        return types if n_outputs > 1 else types[0]


_MAIN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


class AotKernel:
    """The main function of one AOT operator for one input/output signature, on the backend's buffer pointers.

    ``device`` ("CPU"/"GPU") names the kernel in errors. After :meth:`__init__` (which runs ``FuncInit``),
    ``workspace_sizes`` are the byte sizes of the workspaces the backend allocates once and keeps in
    ``workspaces``; :meth:`launch` takes the pointers of the inputs, outputs and workspaces, and the stream.
    """

    def __init__(self, library, func, attrs, in_shapes, in_dtypes, out_shapes, out_dtypes, device):
        self.library, self.func, self.device = library, func, device
        self.fn = library.symbol(func)
        init = library.symbol(func + "Init", required=False)
        if init is not None or attrs:
            self.extra = library.extra(func, attrs)
        else:
            try:    # a kernel may read the extra without attributes (and then gets an error, not a crash)
                self.extra = library.extra(func, attrs)
            except RuntimeError:    # no C++ compiler for the bridge: a null extra, which it has no reason to read
                self.extra = None
        self.workspaces = None
        self.workspace_sizes = ()
        shapes = [tuple(s) for s in in_shapes] + [tuple(s) for s in out_shapes]
        names = [str(d) for d in in_dtypes] + [str(d) for d in out_dtypes]
        if init is not None:
            ndims, ptrs, _keep = _shape_arrays(shapes)
            dtypes, _keep2 = _dtype_array(names)
            err = ctypes.create_string_buffer(_ERR_CAP)
            rc = self.extra.bridge.ms_aot_init(init, ndims, ptrs, dtypes, self.extra.ptr, err, _ERR_CAP)
            _check_rc(rc, err, f"For 'Custom', {func}Init")
            if rc != 0:
                raise MSRuntimeError(f"For 'Custom', {func}Init in {library.path} returned {rc}: the kernel could "
                                     f"not be initialised.")
            sizes = (ctypes.c_uint64 * 64)()
            n = self.extra.bridge.ms_aot_extra_workspace(self.extra.ptr, sizes, 64)
            self.workspace_sizes = tuple(int(sizes[i]) for i in range(min(n, 64)))
        shapes += [None] * len(self.workspace_sizes)
        names += [None] * len(self.workspace_sizes)
        self.nparam = len(shapes)
        self._ndims, self._shapes, self._rows = _shape_arrays(shapes)
        self._dtypes, self._names = _dtype_array(names)
        self._params = (ctypes.c_void_p * max(self.nparam, 1))()
        self._err = ctypes.create_string_buffer(_ERR_CAP)
        self._direct = _MAIN(self.fn) if self.extra is None else None

    def launch(self, pointers, stream=0):
        if len(pointers) != self.nparam:
            raise MSRuntimeError(f"For 'Custom' ('{self.func}'), the kernel takes {self.nparam} buffers, but got "
                                 f"{len(pointers)}.")
        params = self._params
        for i, ptr in enumerate(pointers):
            params[i] = ptr
        if self._direct is not None:
            rc = self._direct(self.nparam, ctypes.addressof(params), ctypes.addressof(self._ndims),
                              ctypes.addressof(self._shapes), ctypes.addressof(self._dtypes), stream or None, None)
        else:
            self._err.value = b""
            rc = self.extra.bridge.ms_aot_launch(self.fn, self.nparam, params, self._ndims, self._shapes,
                                                 self._dtypes, stream or None, self.extra.ptr, self._err, _ERR_CAP)
            _check_rc(rc, self._err, f"For 'Custom', the {self.device} AOT kernel {self.func}")
        if rc != 0:
            raise MSRuntimeError(f"Return value from {self.device} AOT kernel({self.library.path})'s function"
                                 f"({self.func}) is {rc}. Any return value not equal to 0 will be treated as user "
                                 f"defined error code and we will terminate execution. If termination is not your "
                                 f"purpose, please set return value to 0.")


def type_id_of(dtype):
    tid = TYPE_IDS.get(dtype)
    if tid is None:
        raise MSTypeError(f"For 'Custom', the dtype {dtype} has no MindSpore TypeId for an AOT kernel's InferType.")
    return tid


_BY_ID = {v: k for k, v in TYPE_IDS.items()}


def dtype_of(type_id, func):
    dtype = _BY_ID.get(int(type_id))
    if dtype is None:
        raise MSValueError(f"For 'Custom', {func}InferType returned the TypeId {type_id}, which is not a tensor "
                           f"element type ({sorted(_BY_ID)}).")
    return dtype
