"""``transforms.Plugin``: a MindData plugin shared library as a transform.

MindSpore 2.10's contract (``minddata/dataset/plugin/include/shared_include.h``, version 0.5.6; :data:`PLUGIN_HEADER`
declares the same ABI): the ``.so`` exports ``extern "C" PluginManagerBase *GetInstance(MindDataManagerBase *)``
and ``DestroyInstance()``; the manager hands out C++ ``TensorOp`` objects by name (``func_name``) whose virtual
``ParseSerializedArgs(const std::string &)`` and ``Compute(std::vector<Tensor> *in_row, std::vector<Tensor>
*out_row)`` exchange ``Tensor`` objects (a byte buffer, a shape, string offsets and a type name such as
``"float32"``) and return a ``Status``.

The library is opened (``dlopen`` through ``ctypes``) when the transform is first applied, eagerly or by ``map``,
and stays loaded, one instance per path, as 2.10's ``PluginLoader`` keeps it; failures give 2.10's messages
(dlerror's text included), a version other than 0.5.6 2.10's version error. Calling the plugin's C++ virtual
methods with ``std::string``/``std::vector`` arguments needs C++ code built with the same ABI: a small host
(:data:`_HOST_SOURCE`, ``extern "C"`` functions over that ABI) is compiled once with the machine's C++ compiler
(``$CXX``, else ``c++``/``g++``/``clang++``) into ``$XDG_CACHE_HOME/mindspore`` (``~/.cache/mindspore``), keyed
by a hash of its source, with libstdc++'s pre-C++11 string ABI (``-D_GLIBCXX_USE_CXX11_ABI=0``) as MindSpore's
wheels use, so a plugin built for 2.10 runs unchanged (``MINDSPORE_PLUGIN_CXX11_ABI=1`` selects the new ABI).
Checked: a plugin built from :data:`PLUGIN_HEADER` runs identically under real MindSpore 2.10. Numeric and bool
arrays cross as raw bytes; string tensors are refused (2.10's in-buffer string layout is not part of the header's
contract).
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading

import numpy as np

from mindspore.dataset.transforms._base import TensorOperation, check_type, runtime_error, single_or_tuple, to_array

__all__ = ["Plugin"]

SHARED_INCLUDE_VERSION = "0.5.6"

#: The plugin ABI of MindData's ``shared_include.h`` 0.5.6, as C++ declarations (for building plugins and the host).
PLUGIN_HEADER = r"""// MindData plugin ABI (shared_include.h 0.5.6): the same classes, members and virtual functions.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>
namespace mindspore { namespace dataset { namespace plugin {
class PluginBase { protected: virtual ~PluginBase() noexcept = default; };
class MindDataBase { protected: virtual ~MindDataBase() noexcept = default; };
class Status : PluginBase {
 public:
  static Status OK() noexcept { return Status(); }
  static Status Error(const std::string &msg) noexcept { return Status(msg); }
  Status(const Status &) = default;
  Status(Status &&) = default;
  bool IsOk() const noexcept { return success_; }
  const std::string &ToString() const noexcept { return status_msg_; }
 private:
  Status() noexcept : success_(true) {}
  explicit Status(const std::string &msg) noexcept : success_(false), status_msg_(msg) {}
  const bool success_;
  const std::string status_msg_;
};
class PluginManagerBase : public PluginBase {
 public:
  virtual std::string GetPluginVersion() noexcept = 0;
  virtual std::map<std::string, std::set<std::string>> GetModuleNames() noexcept = 0;
  virtual PluginBase *GetModule(const std::string &name) noexcept = 0;
};
class MindDataManagerBase : public MindDataBase {
 public:
  virtual MindDataBase *GetModule(const std::string &name) noexcept = 0;
};
class Tensor : public PluginBase {
 public:
  std::vector<unsigned char> buffer_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> offsets_;
  std::string type_;
};
class TensorOp : public PluginBase {
 public:
  virtual Status ParseSerializedArgs(const std::string &) noexcept = 0;
  virtual Status Compute(std::vector<Tensor> *in_row, std::vector<Tensor> *out_row) noexcept = 0;
};
}}}
"""

_HOST_SOURCE = r"""#include <cstring>
using namespace mindspore::dataset::plugin;
namespace {
void put(const std::string &s, char *out, int n) {
  if (n <= 0) return;
  std::strncpy(out, s.c_str(), n - 1);
  out[n - 1] = 0;
}
struct Row { std::vector<Tensor> tensors; };
}
extern "C" {
void *mdp_instance(void *get_instance, char *version, int n) {
  auto fn = reinterpret_cast<PluginManagerBase *(*)(MindDataManagerBase *)>(get_instance);
  PluginManagerBase *mgr = fn(nullptr);
  if (mgr != nullptr) put(mgr->GetPluginVersion(), version, n);
  return mgr;
}
void *mdp_module(void *mgr, const char *name) {
  return static_cast<PluginManagerBase *>(mgr)->GetModule(std::string(name));
}
int mdp_parse(void *op, const char *args, char *err, int n) {
  Status rc = static_cast<TensorOp *>(static_cast<PluginBase *>(op))->ParseSerializedArgs(std::string(args));
  if (!rc.IsOk()) put(rc.ToString(), err, n);
  return rc.IsOk() ? 0 : 1;
}
void *mdp_row_new() { return new Row(); }
void mdp_row_free(void *row) { delete static_cast<Row *>(row); }
void mdp_row_push(void *row, const unsigned char *data, int64_t nbytes, const int64_t *shape, int ndim,
                  const int64_t *offsets, int noffsets, const char *type) {
  Tensor t;
  t.buffer_.assign(data, data + nbytes);
  t.shape_.assign(shape, shape + ndim);
  t.offsets_.assign(offsets, offsets + noffsets);
  t.type_ = type;
  static_cast<Row *>(row)->tensors.push_back(std::move(t));
}
int mdp_compute(void *op, void *in_row, void *out_row, char *err, int n) {
  Status rc = static_cast<TensorOp *>(static_cast<PluginBase *>(op))
                ->Compute(&static_cast<Row *>(in_row)->tensors, &static_cast<Row *>(out_row)->tensors);
  if (!rc.IsOk()) put(rc.ToString(), err, n);
  return rc.IsOk() ? 0 : 1;
}
int mdp_row_size(void *row) { return static_cast<int>(static_cast<Row *>(row)->tensors.size()); }
// pointers into tensor i of row (valid until the row is freed)
void mdp_row_get(void *row, int i, const unsigned char **data, int64_t *nbytes, const int64_t **shape, int *ndim,
                 const int64_t **offsets, int *noffsets, const char **type) {
  const Tensor &t = static_cast<Row *>(row)->tensors[i];
  *data = t.buffer_.data(); *nbytes = static_cast<int64_t>(t.buffer_.size());
  *shape = t.shape_.data(); *ndim = static_cast<int>(t.shape_.size());
  *offsets = t.offsets_.data(); *noffsets = static_cast<int>(t.offsets_.size());
  *type = t.type_.c_str();
}
}
"""

_TYPES = {"bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
          "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64, "float16": np.float16,
          "float32": np.float32, "float64": np.float64}
_TYPE_NAMES = {np.dtype(v): k for k, v in _TYPES.items()}
_ERR_LEN = 4096
# MindSpore's binaries (2.10's wheels) use libstdc++'s pre-C++11 std::string ABI, so plugins built for them do too;
# MINDSPORE_PLUGIN_CXX11_ABI=1 hosts plugins built with the new one instead.
_CXX11_ABI = 1 if os.environ.get("MINDSPORE_PLUGIN_CXX11_ABI") == "1" else 0
_LOCK = threading.RLock()
_LOADED = {}                 # path -> (ctypes.CDLL, manager pointer), as 2.10's PluginLoader caches by file name
_HOST = []


def _compiler():
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _build_host(path):
    compiler = _compiler()
    if compiler is None:
        raise runtime_error("Plugin", "running a MindData C++ plugin needs a C++ compiler to build its host "
                                      "(set CXX, or install c++/g++/clang++), but none was found.")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(path)) as tmp:
        source = os.path.join(tmp, "host.cpp")
        with open(source, "w", encoding="utf-8") as f:
            f.write(PLUGIN_HEADER + _HOST_SOURCE)
        target = os.path.join(tmp, "host.so")
        flags = ["-std=c++17", "-O2", "-shared", "-fPIC", f"-D_GLIBCXX_USE_CXX11_ABI={_CXX11_ABI}"]
        proc = subprocess.run([compiler, *flags, "-o", target, source],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise runtime_error("Plugin", f"building the MindData plugin host with {compiler} failed:\n"
                                          f"{proc.stderr[-2000:]}")
        os.replace(target, path)     # atomic: concurrent builders leave one complete file


def _host():
    with _LOCK:
        if _HOST:
            return _HOST[0]
        digest = hashlib.sha256(f"{PLUGIN_HEADER}{_HOST_SOURCE}{_CXX11_ABI}".encode()).hexdigest()[:16]
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = os.path.join(cache, "mindspore", f"libmd_plugin_host_{digest}.so")
        if not os.path.isfile(path):
            _build_host(path)
        host = ctypes.CDLL(path)
        vp, cp, i64, i32 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_int
        p_i64 = ctypes.POINTER(i64)
        for name, res, args in (
                ("mdp_instance", vp, [vp, cp, i32]), ("mdp_module", vp, [vp, cp]),
                ("mdp_parse", i32, [vp, cp, cp, i32]), ("mdp_row_new", vp, []), ("mdp_row_free", None, [vp]),
                ("mdp_row_push", None, [vp, cp, i64, p_i64, i32, p_i64, i32, cp]),
                ("mdp_compute", i32, [vp, vp, vp, cp, i32]), ("mdp_row_size", i32, [vp]),
                ("mdp_row_get", None, [vp, i32, ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte)),
                                       ctypes.POINTER(i64), ctypes.POINTER(p_i64), ctypes.POINTER(i32),
                                       ctypes.POINTER(p_i64), ctypes.POINTER(i32), ctypes.POINTER(cp)])):
            getattr(host, name).restype = res
            getattr(host, name).argtypes = args
        _HOST.append(host)
        return host


def _load(lib_path):
    """The plugin manager of ``lib_path`` (opened once per path)."""
    with _LOCK:
        if lib_path in _LOADED:
            return _LOADED[lib_path]
        try:
            lib = ctypes.CDLL(lib_path, mode=ctypes.RTLD_LOCAL)
        except OSError as exc:   # ctypes' message is dlerror()'s
            raise runtime_error("Plugin", f"[Internal ERROR] Fail to load:{lib_path}.\n{exc}") from None
        try:
            get_instance = getattr(lib, "GetInstance")
        except AttributeError as exc:
            raise runtime_error("Plugin", f"[Internal ERROR] Fail to find GetInstance()\n{exc}") from None
        host = _host()
        version = ctypes.create_string_buffer(256)
        manager = host.mdp_instance(ctypes.cast(get_instance, ctypes.c_void_p), version, len(version))
        if not manager:
            raise runtime_error("Plugin", "The pointer[*singleton_plugin] is null.")
        received = version.value.decode(errors="replace")
        if received != SHARED_INCLUDE_VERSION:
            raise runtime_error("Plugin", f"[Internal ERROR] expected:{SHARED_INCLUDE_VERSION}, received:{received} "
                                          f"please recompile.")
        _LOADED[lib_path] = (lib, manager)
        return _LOADED[lib_path]


def _push(host, row, array):
    type_name = _TYPE_NAMES.get(array.dtype)
    if type_name is None:
        raise runtime_error("Plugin", f"the input type {array.dtype} is not supported; expected one of "
                                      f"{sorted(_TYPES)}.")
    array = np.ascontiguousarray(array)
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    offsets = (ctypes.c_int64 * 1)()
    host.mdp_row_push(row, array.tobytes(), array.nbytes, shape, array.ndim, offsets, 0, type_name.encode())


def _pull(host, row, i):
    data, nbytes = ctypes.POINTER(ctypes.c_ubyte)(), ctypes.c_int64()
    shape, ndim = ctypes.POINTER(ctypes.c_int64)(), ctypes.c_int()
    offsets, noffsets, type_name = ctypes.POINTER(ctypes.c_int64)(), ctypes.c_int(), ctypes.c_char_p()
    host.mdp_row_get(row, i, ctypes.byref(data), ctypes.byref(nbytes), ctypes.byref(shape), ctypes.byref(ndim),
                     ctypes.byref(offsets), ctypes.byref(noffsets), ctypes.byref(type_name))
    kind = type_name.value.decode(errors="replace")
    if kind not in _TYPES:
        raise runtime_error("Plugin", f"the plugin returned a tensor of type '{kind}', which is not supported.")
    dims = tuple(shape[k] for k in range(ndim.value))
    raw = ctypes.string_at(data, nbytes.value) if nbytes.value else b""
    return np.frombuffer(raw, dtype=_TYPES[kind]).reshape(dims).copy()


class Plugin(TensorOperation):
    """Apply operation ``func_name`` of a MindData plugin library (a ``.so`` built against MindData's
    ``shared_include.h`` 0.5.6, see :mod:`mindspore.dataset.transforms._plugin`).

    Args:
        lib_path (str): path of the ``.so`` file.
        func_name (str): name of the plugin module (operation) to run.
        user_args (str, optional): serialized arguments for the operation, passed to its ``ParseSerializedArgs``.
            Default: ``None`` (an empty string).

    Raises:
        TypeError: ``lib_path``, ``func_name`` or ``user_args`` is not a str.
        RuntimeError: when applied: the library cannot be opened, has no ``GetInstance``, was built for another
            plugin version, has no module ``func_name``, or the operation reports an error.

    Examples:
        >>> import mindspore.dataset.transforms as transforms
        >>> plugin = transforms.Plugin("pluginlib.so", "PluginDecode")
    """

    def __init__(self, lib_path, func_name, user_args=None):
        check_type(lib_path, (str,), "lib_path")
        check_type(func_name, (str,), "func_name")
        if user_args is not None:
            check_type(user_args, (str,), "user_args")
        self.lib_path = lib_path
        self.func_name = func_name
        self.user_args = "" if user_args is None else user_args
        self._module = None

    def _operation(self):
        if self._module is None:
            _, manager = _load(self.lib_path)
            host = _host()
            module = host.mdp_module(manager, self.func_name.encode())
            if not module:
                raise runtime_error("Plugin", "The pointer[plugin_op_] is null.")   # 2.10's words
            err = ctypes.create_string_buffer(_ERR_LEN)
            if host.mdp_parse(module, self.user_args.encode(), err, _ERR_LEN):
                raise runtime_error("Plugin", err.value.decode(errors="replace"))
            self._module = module
        return self._module

    def __getstate__(self):          # worker processes look the module up again
        state = dict(self.__dict__)
        state["_module"] = None
        return state

    def __call__(self, *inputs):
        module = self._operation()
        host = _host()
        in_row, out_row = host.mdp_row_new(), host.mdp_row_new()
        try:
            for value in inputs:
                _push(host, in_row, to_array(value, "Plugin"))
            err = ctypes.create_string_buffer(_ERR_LEN)
            if host.mdp_compute(module, in_row, out_row, err, _ERR_LEN):
                raise runtime_error("Plugin", err.value.decode(errors="replace"))
            outputs = [_pull(host, out_row, i) for i in range(host.mdp_row_size(out_row))]
        finally:
            host.mdp_row_free(in_row)
            host.mdp_row_free(out_row)
        return single_or_tuple(outputs)
