"""cuDNN execution plans built on this machine, kept on disk so that the next process loads them instead of building.

Building a cuDNN graph (heuristics, engine choice, plan finalization, and for the runtime-compiled engines of the
fused attention NVRTC compiling its kernel: about half a second per graph on an H200) is what a network's first step
pays per distinct case. The cuDNN frontend can serialize a built graph (``graph.serialize()``, the frontend's
``Graph::serialize``: the plan's JSON representation, its tensors and variant-pack uids) and load it into an empty
graph on a handle of the same kind of device (``graph.deserialize(data)``). NVIDIA documents serialization for the
runtime-compiled engines (the fused attention, the fusions); an engine that cannot be serialized raises, and its case
is simply built in every process, as before (:attr:`Plans.stats` counts them: ``python tests/gpu/run.sh`` and the
paths' summaries show how many were kept, loaded or not serializable).

:class:`Plans` keeps one file per (environment, case): the environment names everything a plan depends on (cuDNN's
and the frontend's versions, the device's name and compute capability, the driver and the runtime, the flags that
choose engines), exactly as the checks' verdicts (:mod:`mindspore_gpu.verdicts`) are keyed, so a plan is only ever
loaded where it was built. The callers store a plan only after its case passed their check against the reference
kernels, check a loaded plan once more the first time one is loaded, and throw a stored plan away (and build) when it
fails to load, to run, or its check.

* **Where**: ``$MS_GPU_CACHE_DIR/cudnn_plans/`` (the folder of :func:`mindspore_gpu.verdicts.cache_dir`), one
  ``<sha256>.plan`` per case: a JSON header line (``version``, ``environment``, ``key``, compared on load: another
  version or a hash collision is a miss) and the serialized bytes. ``MS_GPU_CUDNN_PLAN_CACHE=0`` neither reads nor
  writes them.
* **Writes** are atomic (a temporary file in the folder, then ``os.replace``); past :data:`LIMIT` files or
  :data:`LIMIT_BYTES` bytes the least recently used go (a load touches its file). A folder that cannot be written
  turns the keeping off for the process, silently: plans are then built in every process.
"""
import collections
import hashlib
import json
import os
import tempfile
import threading

from mindspore_gpu.verdicts import cache_dir

__all__ = ["Plans", "ENV", "VERSION", "LIMIT", "FOLDER"]

#: ``MS_GPU_CUDNN_PLAN_CACHE=0``: no plan is read or written.
ENV = "MS_GPU_CUDNN_PLAN_CACHE"
#: The files' format: plans written under another are not loaded.
VERSION = 1
#: The most plans kept, and the most bytes they may take together; past either the least recently used are removed.
LIMIT = 2048
LIMIT_BYTES = 512 << 20
#: The folder's name in the GPU cache folder.
FOLDER = "cudnn_plans"


def _on():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


class Plans:
    """Serialized cuDNN plans, per (environment, key), in :data:`FOLDER` of the GPU cache folder (read when first
    needed, and again after :meth:`reset`). ``stats`` counts ``stored``, ``loaded``, ``not serializable`` and
    ``discarded`` plans of this process."""

    def __init__(self, folder=FOLDER):
        self.name = folder
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forget the folder (``MS_GPU_CACHE_DIR`` and ``MS_GPU_CUDNN_PLAN_CACHE`` are read again at the next use)
        and the counts."""
        self._folder = None       # None: not looked up yet; False: not keeping plans
        self.stats = collections.Counter()

    @property
    def folder(self):
        """The folder, or ``None`` when plans are not kept."""
        if self._folder is None:
            self._folder = os.path.join(cache_dir(), self.name) if _on() else False
        return self._folder or None

    def _file(self, environment, key):
        digest = hashlib.sha256(f"{VERSION}\n{environment}\n{key}".encode()).hexdigest()
        return os.path.join(self._folder, digest + ".plan")

    @staticmethod
    def _header(environment, key):
        return {"version": VERSION, "environment": environment, "key": key}

    def load(self, environment, key):
        """The bytes stored for ``key`` in ``environment``, or ``None``."""
        if self.folder is None:
            return None
        path = self._file(environment, key)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        head, sep, payload = data.partition(b"\n")
        try:
            header = json.loads(head.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            header = None
        if not sep or not payload or header != self._header(environment, key):
            return None
        try:
            os.utime(path)        # (recently used: kept when the folder is trimmed)
        except OSError:
            pass
        return payload

    def store(self, environment, key, payload):
        """Keep ``payload`` (bytes) for ``key`` in ``environment``."""
        if self.folder is None or not payload:
            return
        folder = self._folder
        with self._lock:
            try:
                os.makedirs(folder, exist_ok=True)
                fd, temporary = tempfile.mkstemp(prefix=".plan.", dir=folder)
                try:
                    with os.fdopen(fd, "wb") as f:
                        f.write(json.dumps(self._header(environment, key), sort_keys=True).encode("utf-8") + b"\n")
                        f.write(bytes(payload))
                    os.replace(temporary, self._file(environment, key))
                except BaseException:
                    os.unlink(temporary)
                    raise
                self.stats["stored"] += 1
                self._trim(folder)
            except OSError:
                self._folder = False     # a folder that cannot be written: plans are built in every process

    def discard(self, environment, key):
        """Remove the plan stored for ``key`` (it failed to load, to run, or its check)."""
        if self.folder is None:
            return
        try:
            os.unlink(self._file(environment, key))
            self.stats["discarded"] += 1
        except OSError:
            pass

    # --- the frontend's graphs ------------------------------------------------------------------------------------
    def keep(self, environment, key, graph):
        """Serialize the built ``graph`` (``graph.serialize()``) and :meth:`store` it; an engine that cannot be
        serialized is counted (``not serializable``), not an error."""
        if self.folder is None:
            return
        try:
            payload = bytes(graph.serialize())
        except Exception:  # noqa: BLE001 - the engine is not serializable (or the frontend cannot): build next time
            self.stats["not serializable"] += 1
            return
        self.store(environment, key, payload)

    def restore(self, environment, key, module, handle):
        """``(graph, workspace bytes)``: the plan stored for ``key`` loaded into a new graph of the frontend
        ``module`` on ``handle`` (``pygraph(handle=)``, ``deserialize(list of bytes)``, ``get_workspace_size()``), or
        ``None`` when none is stored. A stored plan that does not load is discarded."""
        payload = self.load(environment, key)
        if payload is None:
            return None
        try:
            graph = module.pygraph(handle=handle)
            graph.deserialize(list(payload))        # (a list: the binding takes a sequence of bytes, not ``bytes``)
            workspace = int(graph.get_workspace_size())
        except Exception:  # noqa: BLE001 - another build of the library, a truncated file: build it again
            self.discard(environment, key)
            return None
        self.stats["loaded"] += 1
        return graph, workspace

    @staticmethod
    def _trim(folder):
        files = []
        for entry in os.scandir(folder):
            if entry.name.endswith(".plan"):
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                files.append((stat.st_mtime, stat.st_size, entry.path))
        files.sort()                      # the least recently used first
        count, size = len(files), sum(f[1] for f in files)
        for _, nbytes, path in files:
            if count <= LIMIT and size <= LIMIT_BYTES:
                break
            try:
                os.unlink(path)
            except OSError:
                pass
            count, size = count - 1, size - nbytes
