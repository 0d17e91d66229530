"""Saving and loading checkpoints: MindSpore's ``.ckpt`` protobuf format and safetensors.

Design
------
``save_checkpoint`` turns its input (a Cell, a list of Parameters or ``{"name", "data"}`` dicts, or a
``{name: value}`` dict, plus ``append_dict``) into an ordered list of entries ``(name, tensor_type, dims, data)``
and streams them to disk. A ``.ckpt`` file is the concatenation of one serialised ``Checkpoint`` message per
entry (schema in ``_checkpoint.proto``); a tensor larger than 512 MiB is cut into consecutive messages with the
same tag and full dims, exactly as MindSpore 2.10 does, so for the same names and values the bytes are
identical to MindSpore's. Zero-size tensors are dropped, Python strings are stored as ``tensor_type "str"`` with
UTF-32-LE content, ``crc_check`` appends ``b"crc_num" + crc32.to_bytes(10, "big")``, and ``enc_key`` encrypts
the stream in MindSpore's block layout (``_ckpt_crypto``). Safetensors files follow the Rust writer's layout
(``_safetensors_format``), keys sorted, metadata ``{"format": "ms"}``.

Every save is atomic: the file is written to a temporary file in the target directory, flushed and fsync'ed,
made read-only (0400, as MindSpore leaves it) and renamed over the target. An interrupted save leaves the
previous checkpoint intact; re-saving over a read-only checkpoint works.

Loading reads the whole file, strips and (with ``crc_check``) verifies the CRC trailer, decrypts if asked, parses
it with protobuf and re-joins consecutive slices of one tag. Every entry is validated (known ``tensor_type``, byte
count matching the dims); a truncated, corrupted or foreign file raises ``ValueError`` saying why. Nothing in a
file is ever unpickled or executed: data become NumPy arrays through ``frombuffer`` only.

``load_param_into_net`` follows MindSpore's rules: parameters are matched by ``param.name``; with
``strict_load=False`` float<->float and int<->int dtype mismatches are cast to the network's dtype and a common
name prefix of the checkpoint is stripped when network names are missing; a shape mismatch raises
``RuntimeError``.
"""
from __future__ import annotations

import binascii
import io
import logging
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from google.protobuf.message import DecodeError

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore._fileio import crypto as _ckpt_crypto
from mindspore._fileio.atomic import atomic_write as _atomic_write
from mindspore._fileio.atomic import remove_stale_temporaries  # noqa: F401 - re-exported
from mindspore._module_paths import reexport as _reexport
from mindspore._plugin.collective import merged_parameter
from mindspore.train import _safetensors_format
from mindspore.train._checkpoint_pb2 import Checkpoint
from mindspore.train._param_loading import _load_with_prefix, _update_param  # noqa: F401 - MindSpore's names
from mindspore.train._param_loading import load_param_into_net

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "async_ckpt_thread_status"]

logger = logging.getLogger("mindspore")

SLICE_BYTES = 512 * 1024 * 1024  # MindSpore writes a tensor's bytes in messages of at most 512 MiB
_CRC_TAG = b"crc_num"
_CRC_TRAILER = len(_CRC_TAG) + 10
_FORMATS = ("ckpt", "safetensors")
_ASYNC_THREAD_NAME = "asyn_save_ckpt"  # MindSpore's thread name, kept for tools that look for it

# tensor_type string -> MindSpore dtype. MindSpore 2.10 reads the first 13 (plus "str" and "Int4"); the others
# are written by both (str(dtype)) and read here only.
_CKPT_DTYPES = {str(t): t for t in (
    mstype.bool_, mstype.int8, mstype.uint8, mstype.int16, mstype.uint16, mstype.int32, mstype.uint32,
    mstype.int64, mstype.uint64, mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16,
    mstype.complex64, mstype.complex128, mstype.float8_e4m3fn, mstype.float8_e5m2)}
_MAP_DTYPES = {"int32", "int64", "float16", "float32", "float64"}  # MapParameter parts use numpy names
_MAX_RANK = 64  # NumPy's (and so a Tensor's) maximum number of dims
# MindSpore's table of the checkpoint type names it reads (its `tensor_to_ms_type`, which user code imports)
tensor_to_ms_type = {name: _CKPT_DTYPES[name] for name in (
    "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Float16", "Float32", "Float64",
    "Bool", "BFloat16")}


def _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load):
    """MindSpore's helper (name and signature kept: outside libraries import it) for loading the parameters in
    ``param_not_load`` through a prefix of the checkpoint's names; ``param_not_load`` is updated in place."""
    _load_with_prefix(net, parameter_dict, param_not_load, set(), strict_load)


def _le(np_dtype):
    """The little-endian variant of a NumPy dtype (files are little-endian on every platform)."""
    np_dtype = np.dtype(np_dtype)
    return np_dtype.newbyteorder("<") if np_dtype.kind in "iufcU" and np_dtype.itemsize > 1 else np_dtype


# ---------------------------------------------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------------------------------------------
def _check_type(func, arg, value, types, desc):
    if not isinstance(value, types):
        raise MSTypeError(f"For '{func}', the '{arg}' must be {desc}, but got {type(value).__name__}.")
    return value


def _check_bool(func, arg, value):
    return _check_type(func, arg, value, bool, "bool")


def _check_format(func, fmt):
    if fmt not in _FORMATS:
        raise MSValueError(f"For '{func}', the format must be 'safetensors' or 'ckpt', but got {fmt!r}.")
    return fmt


def _path_str(func, arg, path):
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise MSTypeError(f"For '{func}', the '{arg}' must be str, but got {type(path).__name__}.")
    return path


def _cell_class():
    from mindspore.nn.cell import Cell  # nn sits above train in the layering
    return Cell


# ---------------------------------------------------------------------------------------------------------------
# what to save: (name, value) pairs, value a Tensor/Parameter, numpy array or str
# ---------------------------------------------------------------------------------------------------------------
def _add_unique(pairs, seen, name, value, what):
    if name in seen:
        if seen[name] is value:
            return
        raise MSValueError(f"For 'save_checkpoint', the name '{name}' is used by two different {what}; a checkpoint "
                           f"can hold one value per name. Give the Parameters distinct names.")
    seen[name] = value
    pairs.append((name, value))


def _merged(param):
    full = merged_parameter(param)
    return param if full is None else full


def _get_merged_param_data(net, parameter_layout_dict, param_name, param_data, integrated_save):
    """MindSpore's helper for checkpoint callbacks of sharded networks (MindPet's calls it by name): the whole value
    of ``net``'s parameter ``param_name`` gathered from every rank's slice (collective) when ``integrated_save`` and
    the parameter is sharded, else ``param_data`` (this rank's value) unchanged."""
    if not integrated_save or param_name not in (parameter_layout_dict or {}):
        return param_data
    for param in net.get_parameters():
        if param.name == param_name:
            full = merged_parameter(param)
            return param_data if full is None else full
    return param_data


def _pairs_from_cell(cell, choice_func):
    pairs, seen = [], {}
    for _, param in cell.parameters_and_names():
        if choice_func is not None and not choice_func(param.name):
            continue
        _add_unique(pairs, seen, param.name, param, "Parameters of the network")
    return pairs


def _pairs_from_list(save_obj, choice_func):
    pairs, seen = [], {}
    if save_obj and isinstance(save_obj[0], dict):
        for item in save_obj:
            if not (isinstance(item, dict) and "name" in item and "data" in item):
                raise MSTypeError(f"For 'save_checkpoint', save_obj should be a list of dict items with the keys "
                                  f"'name' and 'data', but got {type(item).__name__}: {item!r:.80}.")
            name, data = item["name"], item["data"]
            if not isinstance(name, str):
                raise MSTypeError(f"For 'save_checkpoint', when save_obj is a list of dict items, the name in dict "
                                  f"should be string, but got {type(name).__name__}.")
            if not isinstance(data, Tensor):
                raise MSTypeError(f"For 'save_checkpoint', when save_obj is a list of dict items, the data in dict "
                                  f"should be a Parameter or Tensor, but got {type(data).__name__}.")
            if choice_func is None or choice_func(name):
                _add_unique(pairs, seen, name, data, "entries of save_obj")
        return pairs
    for param in save_obj:
        if not isinstance(param, Parameter):
            raise MSTypeError(f"For 'save_checkpoint', when save_obj is a list of Parameters, each element should be "
                              f"a Parameter, but got {type(param).__name__}.")
        if choice_func is None or choice_func(param.name):
            _add_unique(pairs, seen, param.name, param, "Parameters in save_obj")
    return pairs


def _pairs_from_dict(save_obj, choice_func):
    pairs = []
    for key, value in save_obj.items():
        if not isinstance(key, str) or not isinstance(value, (Tensor, str, np.ndarray)):
            raise MSTypeError(f"For 'save_checkpoint', when save_obj is a dict, its keys should be str and its values "
                              f"Parameter, Tensor, numpy.ndarray or str, but got key {type(key).__name__} and value "
                              f"{type(value).__name__}.")
        if choice_func is None or choice_func(key):
            pairs.append((key, value))
    return pairs


def _generator_class():
    try:
        from mindspore.common.generator import Generator
    except ImportError:
        return None
    return Generator


def _check_append_dict(append_dict):
    if append_dict is None:
        return None
    if not isinstance(append_dict, dict):
        raise MSTypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                          f"{type(append_dict).__name__}.")
    generator = _generator_class()
    allowed = (int, float, bool, str, Tensor) + ((generator,) if generator is not None else ())
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, allowed):
            raise MSTypeError(f"For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: "
                              f"int, float, bool, str, Parameter, Tensor or Generator, but got key: "
                              f"{type(key).__name__}, value: {type(value).__name__}.")
    return append_dict


def _append_pairs(append_dict):
    generator = _generator_class()
    pairs = []
    for key, value in append_dict.items():
        if generator is not None and isinstance(value, generator):
            value = value.get_state()
        elif not isinstance(value, (str, Tensor)):
            value = Tensor(value)  # bool -> Bool, int -> Int64, float -> Float32, as MindSpore
        pairs.append((key, value))
    return pairs


class _Entry:
    """One checkpoint entry: a name, the ``tensor_type`` string, dims and a C-contiguous array (or a str).

    ``by_rows`` marks data snapshotted for an asynchronous save: MindSpore writes those (NumPy copies) through
    another path, which splits a large tensor into row blocks and keeps zero-size tensors.
    """

    __slots__ = ("name", "tensor_type", "dims", "data", "by_rows")

    def __init__(self, name, tensor_type, dims, data, by_rows=False):
        self.name, self.tensor_type, self.dims, self.data = name, tensor_type, dims, data
        self.by_rows = by_rows


def _to_entry(name, value, copy):
    if isinstance(value, str):
        return _Entry(name, "str", [0], value)
    if isinstance(value, Tensor):
        if value.has_init:
            value.init_data()
        src, type_name = value.asnumpy(), str(value.dtype)
    else:
        src = value
        try:
            type_name = str(mstype.to_ms_dtype(src.dtype))
        except TypeError:
            raise MSTypeError(f"For 'save_checkpoint', the numpy array '{name}' has dtype {src.dtype}, which a "
                              f"checkpoint cannot hold.") from None
    arr = np.asarray(src, dtype=_le(src.dtype), order="C")  # C order, little-endian, 0-d kept
    if copy and np.may_share_memory(arr, src):
        arr = arr.copy()  # an asynchronous save must not see later in-place updates
    return _Entry(name, type_name, [int(d) for d in arr.shape], arr, by_rows=copy)


# ---------------------------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------------------------
def _str_bytes(text):
    arr = np.array(text)
    return arr.astype(_le(arr.dtype)).tobytes()  # UTF-32-LE code points: np.array(s).tobytes() on x86/ARM


def _chunks(entry):
    """The ``tensor_content`` pieces of one entry, cut as MindSpore 2.10 cuts them."""
    if entry.tensor_type == "str":
        return [_str_bytes(entry.data)]
    arr = entry.data
    if entry.by_rows:  # its NumPy path: np.array_split into ceil(size / 512 MiB) row blocks
        if arr.nbytes > SLICE_BYTES:
            return (block.tobytes() for block in np.array_split(arr, math.ceil(arr.nbytes / SLICE_BYTES)))
        return [arr.tobytes()]
    # its Tensor path: 512 MiB byte slices, so a zero-size tensor writes nothing
    raw = arr.reshape(-1).view(np.uint8)
    return (raw[i:i + SLICE_BYTES].tobytes() for i in range(0, raw.size, SLICE_BYTES))


def _messages(entry):
    """The serialised ``Checkpoint`` messages of one entry."""
    for chunk in _chunks(entry):
        msg = Checkpoint()
        value = msg.value.add()
        value.tag = entry.name
        value.tensor.dims.extend(entry.dims)
        value.tensor.tensor_type = entry.tensor_type
        value.tensor.tensor_content = chunk
        yield msg.SerializeToString()


def _write_ckpt(f, entries, crc_check, enc_key, enc_mode):
    sink = _ckpt_crypto.Encryptor(f, enc_key, enc_mode) if enc_key is not None else f
    crc = 0
    for entry in entries:
        for data in _messages(entry):
            if crc_check:
                crc = binascii.crc32(data, crc)
            sink.write(data)
    if enc_key is not None:
        sink.close()
    if crc_check:
        f.write(_CRC_TAG + crc.to_bytes(10, "big"))


def _write_safetensors(f, entries, crc_check, remove_redundancy):
    metadata = {"format": "ms"}
    if remove_redundancy is not None:
        metadata["remove_redundancy"] = str(remove_redundancy)
    arrays, crc = {}, 0
    for entry in sorted(entries, key=lambda e: e.name):
        arrays[entry.name] = entry.data
        if crc_check:
            crc = binascii.crc32(entry.name.encode("utf-8"), crc)
            crc = binascii.crc32(entry.data.reshape(-1).view(np.uint8), crc)
    if crc_check:
        metadata["crc_num"] = str(crc)
    _safetensors_format.write(f, arrays, metadata if arrays else None)


_async_threads = {}
_async_lock = threading.Lock()


def _wait_async(path=None):
    """Wait for in-flight asynchronous saves (to ``path`` only, when given)."""
    with _async_lock:
        threads = [t for p, t in _async_threads.items() if path is None or p == path]
    for t in threads:
        t.join()


def _run_async(path, job):
    try:
        job()
    except BaseException:
        logger.critical("Failed to save the checkpoint file %s asynchronously.", path, exc_info=True)
    finally:
        with _async_lock:
            if _async_threads.get(path) is threading.current_thread():
                del _async_threads[path]


def async_ckpt_thread_status():
    """Whether an asynchronous ``save_checkpoint`` is still writing.

    Returns:
        bool, True while a checkpoint saved with ``async_save`` is being written.
    """
    with _async_lock:
        return any(t.is_alive() for t in _async_threads.values())


def _save_path(ckpt_file_name, fmt):
    path = os.path.realpath(_path_str("save_checkpoint", "ckpt_file_name", ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} is a directory, it "
                                f"must be a file name.")
    return path if path.endswith(fmt) else f"{path}.{fmt}"


def _check_save_kwargs(fmt, enc_key, enc_mode, crc_check, kwargs):
    remove_redundancy = kwargs.get("remove_redundancy")
    if remove_redundancy is not None:
        _check_bool("save_checkpoint", "remove_redundancy", remove_redundancy)
    if fmt == "safetensors":
        given = {"enc_key": (enc_key, None), "enc_mode": (enc_mode, "AES-GCM"),
                 "incremental": (kwargs.get("incremental", False), False),
                 "global_step_num": (kwargs.get("global_step_num"), None)}
        for name, (value, default) in given.items():
            if value != default:
                raise MSValueError(f"For 'save_checkpoint', when format is 'safetensors', the parameter '{name}' must "
                                   f"be set to default value '{default}', but got '{value}'.")
    if enc_key is not None:
        _ckpt_crypto.check_key("save_checkpoint", enc_key, enc_mode, "enc_key")
        if crc_check:
            raise MSValueError("For 'save_checkpoint', 'crc_check' and 'enc_key' are mutually exclusive: an encrypted "
                               "checkpoint is already authenticated (AES-GCM) or checked by its padding.")
    return remove_redundancy


def _check_save_args(save_obj, ckpt_file_name, integrated_save, async_save, append_dict, enc_key, enc_mode,
                     choice_func, crc_check, fmt, kwargs):
    """MindSpore's argument checks of ``save_checkpoint``; returns (path, append_dict, remove_redundancy)."""
    if not isinstance(save_obj, (_cell_class(), list, dict)):
        raise MSTypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
                          f"{type(save_obj).__name__}.")
    path = _save_path(ckpt_file_name, fmt)
    _check_bool("save_checkpoint", "integrated_save", integrated_save)
    if not isinstance(async_save, (bool, str)):
        raise MSTypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got "
                          f"{type(async_save).__name__}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise MSValueError(f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread', but "
                           f"got {async_save!r}.")
    append_dict = _check_append_dict(append_dict)
    _check_type("save_checkpoint", "enc_key", enc_key, (type(None), bytes), "bytes or None")
    _check_type("save_checkpoint", "enc_mode", enc_mode, str, "str")
    _check_bool("save_checkpoint", "crc_check", crc_check)
    if choice_func is not None and not callable(choice_func):
        raise MSTypeError(f"For 'save_checkpoint', the 'choice_func' must be callable, but got "
                          f"{type(choice_func).__name__}.")
    return path, append_dict, _check_save_kwargs(fmt, enc_key, enc_mode, crc_check, kwargs)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt",  # noqa: A002
                    **kwargs):
    r"""Save parameters to a checkpoint file (``.ckpt`` by default, or ``.safetensors``).

    Args:
        save_obj (Union[Cell, list, dict]): a Cell (its parameters, named by ``param.name``); a list of Parameters
            (e.g. ``net.trainable_params()``) or of ``{"name": str, "data": Parameter or Tensor}`` dicts; or a dict
            ``{name: Parameter, Tensor, numpy.ndarray or str}`` such as the one :func:`load_checkpoint` returns.
        ckpt_file_name (str): the file to write; ``.ckpt`` (``.safetensors``) is appended when the name does not end
            with the format. An existing file is replaced atomically.
        integrated_save (bool): merge parameters split across devices (auto-parallel); no effect on one device.
            Default: ``True``.
        async_save (Union[bool, str]): write the file in a background thread (``True``, ``"thread"`` or
            ``"process"``); the data are copied first, so training may go on. Default: ``False``.
        append_dict (dict): extra ``{str: int, float, bool, str, Parameter or Tensor}`` entries, saved after the
            parameters (int as Int64, float as Float32, bool as Bool). Default: ``None``.
        enc_key (Union[None, bytes]): encrypt the file with this 16/24/32-byte key. Default: ``None``.
        enc_mode (str): ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"`` when ``enc_key`` is given.
            Default: ``"AES-GCM"``.
        choice_func (function): ``choice_func(name) -> bool``; only names for which it returns True are saved.
        crc_check (bool): append a CRC32 of the content, checked by ``load_checkpoint(..., crc_check=True)``.
            Default: ``False``.
        format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.
        kwargs: ``remove_redundancy`` (bool, recorded in safetensors metadata), ``incremental`` and
            ``global_step_num`` (rejected for safetensors, as MindSpore does).

    Raises:
        TypeError: if ``save_obj`` is not a Cell, list or dict, an argument has the wrong type, or an
            ``append_dict`` value is not supported.
        ValueError: if two different Parameters share a name, or an option is not valid for the format.

    Examples:
        >>> import mindspore as ms
        >>> net = LeNet5()  # doctest: +SKIP
        >>> ms.save_checkpoint(net, "./lenet.ckpt", append_dict={"epoch_num": 3})  # doctest: +SKIP
        >>> ms.load_checkpoint("./lenet.ckpt")["epoch_num"]  # doctest: +SKIP
        Parameter (name=epoch_num, shape=(), dtype=Int64, requires_grad=True)
    """
    fmt = _check_format("save_checkpoint", format)
    cell = _cell_class()
    path, append_dict, remove_redundancy = _check_save_args(save_obj, ckpt_file_name, integrated_save, async_save,
                                                            append_dict, enc_key, enc_mode, choice_func, crc_check,
                                                            fmt, kwargs)
    if isinstance(save_obj, cell):
        pairs = _pairs_from_cell(save_obj, choice_func)
        if integrated_save:     # a sharded network: every rank gathers its parameters' slices (collective)
            pairs = [(name, _merged(value)) for name, value in pairs]
    elif isinstance(save_obj, list):
        pairs = _pairs_from_list(save_obj, choice_func)
    else:
        pairs = _pairs_from_dict(save_obj, choice_func)
    if append_dict:
        # as MindSpore: an appended key that is also a parameter's name replaces that entry, in its place (the
        # fault-recovery tutorial appends {"momentum": 0.9} beside Momentum's own 'momentum')
        where = {name: i for i, (name, _) in enumerate(pairs)}
        for name, value in _append_pairs(append_dict):
            if name in where:
                pairs[where[name]] = (name, value)
            else:
                where[name] = len(pairs)
                pairs.append((name, value))
    entries = [_to_entry(name, value, copy=bool(async_save)) for name, value in pairs]
    if fmt == "safetensors":
        for entry in entries:
            if entry.tensor_type == "str":
                raise MSValueError(f"For 'save_checkpoint', the safetensors format cannot store the str value "
                                   f"'{entry.name}'; save it with format='ckpt' or leave it out.")

    if fmt == "ckpt":
        def job():
            _atomic_write(path, lambda f: _write_ckpt(f, entries, crc_check, enc_key, enc_mode))
    else:
        def job():
            _atomic_write(path, lambda f: _write_safetensors(f, entries, crc_check, remove_redundancy))
    _wait_async()
    if not async_save:
        job()
        return
    # "process" is served by a thread as well: the data are already copied, and writing releases the GIL
    thread = threading.Thread(target=_run_async, args=(path, job), name=_ASYNC_THREAD_NAME)
    with _async_lock:
        _async_threads[path] = thread
    thread.start()


def _exec_save(ckpt_file_name, data_list, enc_key=None, enc_mode="AES-GCM", map_param_inc=False, crc_check=False,
               format="ckpt", remove_redundancy=None):  # noqa: A002 - MindSpore's parameter name
    """MindSpore's private writer behind ``save_checkpoint``, which libraries call with their own entries (MindNLP's
    ``save_checkpoint``): ``data_list`` maps each name to ``[dims, tensor_type, data]`` (data a NumPy array, or a str
    with tensor_type ``"str"``). ``tensor_type`` is written as given; the file replaces ``ckpt_file_name``."""
    del map_param_inc   # MapParameter entries (["mapparameter", ...]) are not among what this build saves
    entries = []
    for name, (dims, tensor_type, data) in ((n, v[:3]) for n, v in data_list.items()):
        if tensor_type == "str":
            entries.append(_Entry(name, "str", [0], data))
            continue
        arr = data.asnumpy() if isinstance(data, Tensor) else np.asarray(data)
        entries.append(_Entry(name, tensor_type, [int(d) for d in dims], np.ascontiguousarray(arr, _le(arr.dtype))))
    if format == "ckpt":
        _atomic_write(ckpt_file_name, lambda f: _write_ckpt(f, entries, crc_check, enc_key, enc_mode))
    else:
        _atomic_write(ckpt_file_name, lambda f: _write_safetensors(f, entries, crc_check, remove_redundancy))


# ---------------------------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------------------------
def _corrupt(path, reason):
    return MSValueError(f"Failed to read the checkpoint file {path}: {reason}.")


def _ckpt_payload(path, data, dec_key, dec_mode, crc_check):
    """The protobuf bytes of a ``.ckpt`` file's content: decrypted, CRC trailer stripped (and verified)."""
    if dec_key is not None:
        data = _ckpt_crypto.decrypt(data, dec_key, dec_mode, path)
    elif _ckpt_crypto.is_cipher_data(data):
        raise _corrupt(path, "the file is encrypted; pass the 'dec_key' (and 'dec_mode') it was saved with")
    if not data:
        raise _corrupt(path, "the file is empty")
    has_crc = data[-_CRC_TRAILER:-10] == _CRC_TAG
    if crc_check and not has_crc:
        logger.warning("For 'load_checkpoint', the ckpt file %s does not contain the crc code, please check the "
                       "file.", path)
    if has_crc:
        expected = int.from_bytes(data[-10:], "big")
        data = data[:-_CRC_TRAILER]
        if crc_check and binascii.crc32(data) != expected:
            raise _corrupt(path, "the crc check is failed, the file is damaged")
    return data


def _parse_ckpt_proto(ckpt_file_name, dec_key, dec_mode, crc_check):
    """MindSpore's private reader behind ``load_checkpoint``: the file's ``Checkpoint`` protobuf message (decrypted,
    its CRC trailer checked and stripped), whose ``value`` entries libraries walk themselves (MindNLP's
    ``load_checkpoint``)."""
    path = os.path.realpath(ckpt_file_name)
    with open(path, "rb") as f:
        data = f.read()
    ckpt = Checkpoint()
    try:
        ckpt.ParseFromString(_ckpt_payload(path, data, dec_key, dec_mode, crc_check))
    except (DecodeError, RuntimeError) as e:
        raise _corrupt(path, f"the file is corrupted or truncated, or not a MindSpore checkpoint ({e})") from None
    return ckpt


def _decode_str(tag, content, path):
    if len(content) % 4:
        raise _corrupt(path, f"the str entry '{tag}' has {len(content)} bytes, not a multiple of 4")
    # what str(np.frombuffer(content, "<U<n>")[0]) gives (trailing NULs dropped, lone surrogates kept), except that
    # NumPy raises SystemError on a code point above U+10FFFF
    try:
        return content.decode("utf-32-le", "surrogatepass").rstrip("\x00")
    except UnicodeDecodeError as e:
        raise _corrupt(path, f"the str entry '{tag}' is not valid UTF-32 ({e.reason} at byte {e.start})") from None


def _as_array(tag, content, np_dtype, dims, path):
    """``content`` as an array of ``dims``, once its byte count is known to match."""
    if len(dims) > _MAX_RANK:
        raise _corrupt(path, f"the entry '{tag}' has {len(dims)} dims, more than the {_MAX_RANK} a tensor can have")
    try:
        return np.frombuffer(content, np_dtype).reshape(dims)
    except ValueError:  # a zero-size shape whose other dims overflow NumPy's size limit
        raise _corrupt(path, f"the entry '{tag}' has dims {dims}, which no tensor can have") from None


def _decode_tensor(tag, parts, path):
    first = parts[0]
    tensor_type, dims = first.tensor_type, list(first.dims)
    for p in parts[1:]:
        if p.tensor_type != tensor_type or list(p.dims) != dims:
            raise _corrupt(path, f"the slices of '{tag}' disagree on dtype or shape")
    content = b"".join(p.tensor_content for p in parts) if len(parts) > 1 else first.tensor_content
    if tensor_type == "str":
        return _decode_str(tag, content, path)
    ms_type = _CKPT_DTYPES.get(tensor_type)
    if ms_type is None:
        raise _corrupt(path, f"the entry '{tag}' has tensor_type {tensor_type!r}, which is not supported")
    if dims == [0] and content:
        dims = []  # MindSpore's convention for a scalar written with dims [0]
    if any(d < 0 for d in dims):
        raise _corrupt(path, f"the entry '{tag}' has negative dims {dims}")
    np_dtype = _le(ms_type.to_numpy())
    expected = math.prod(dims) * np_dtype.itemsize
    if len(content) != expected:
        raise _corrupt(path, f"the entry '{tag}' has {len(content)} data bytes, but shape {tuple(dims)} and dtype "
                             f"{tensor_type} need {expected} (truncated or corrupted)")
    return Parameter(_as_array(tag, content, np_dtype, dims, path), name=tag)


def _decode_map(tag, parts, path):
    """A MapParameter entry: [keys, values, status] arrays, slices concatenated along axis 0."""
    pieces = [[], [], []]
    for part in parts:
        if len(part.tensor) != 3:
            raise _corrupt(path, f"the map entry '{tag}' must hold 3 tensors, but holds {len(part.tensor)}")
        for i, t in enumerate(part.tensor):
            if t.tensor_type not in _MAP_DTYPES:
                raise _corrupt(path, f"the map entry '{tag}' has unsupported dtype {t.tensor_type!r}")
            dt = _le(t.tensor_type)
            dims = list(t.dims)
            if not dims or any(d < 0 for d in dims) or math.prod(dims) * dt.itemsize != len(t.tensor_content):
                raise _corrupt(path, f"the map entry '{tag}' has inconsistent dims {dims}")
            pieces[i].append(_as_array(tag, t.tensor_content, dt, dims, path))
    try:
        return [np.concatenate(p, axis=0) for p in pieces]
    except ValueError:
        raise _corrupt(path, f"the slices of the map entry '{tag}' have inconsistent shapes") from None


def _decode_ckpt(payload, path, keep):
    ckpt = Checkpoint()
    try:
        ckpt.ParseFromString(payload)
    except (DecodeError, RuntimeError, ValueError) as e:
        raise _corrupt(path, f"the file is corrupted or truncated, or not a MindSpore checkpoint ({e})") from None
    values = ckpt.value
    out, i, n = {}, 0, len(values)
    while i < n:
        tag = values[i].tag
        if not isinstance(tag, str):  # proto2 gives the raw bytes of a tag that is not UTF-8
            raise _corrupt(path, f"the name of entry {len(out)} ({tag!r:.60}) is not valid UTF-8")
        j = i + 1
        while j < n and values[j].tag == tag:
            j += 1
        if keep(tag):
            kind = values[i].WhichOneof("value")
            if kind == "tensor":
                out[tag] = _decode_tensor(tag, [values[k].tensor for k in range(i, j)], path)
            elif kind == "maptensor":
                out[tag] = _decode_map(tag, [values[k].maptensor for k in range(i, j)], path)
            else:
                raise _corrupt(path, f"the entry '{tag}' holds no data")
        i = j
    return out


def _read_safetensors(source, data, keep, crc_check, remove_redundancy):
    try:
        arrays, metadata = _safetensors_format.read(data, source)
    except ValueError as e:
        raise MSValueError(str(e)) from None
    metadata = metadata or {}
    out, crc = {}, 0
    for name, arr in arrays.items():
        if crc_check:
            crc = binascii.crc32(name.encode("utf-8"), crc)
            crc = binascii.crc32(arr.reshape(-1).view(np.uint8), crc)
        if not keep(name):
            continue
        if metadata.get(name) == "Int4":
            raise _corrupt(source, f"the entry '{name}' is qint4x2 (Int4), which is not supported")
        out[name] = Parameter(arr, name=name)
    if crc_check:
        if "crc_num" not in metadata:
            logger.warning("For 'load_checkpoint', the safetensors file %s does not contain the crc code, please "
                           "check the file.", source)
        elif str(crc) != metadata["crc_num"]:
            raise _corrupt(source, "the crc check is failed, the file is damaged")
    flag = metadata.get("remove_redundancy")
    if flag in ("True", "False") and (flag == "True") != remove_redundancy:
        logger.warning("For 'load_checkpoint', the safetensors file is %s, but remove_redundancy is set to %s; "
                       "loading it as the file says.", "deduplicated" if flag == "True" else "non-deduplicated",
                       remove_redundancy)
        remove_redundancy = flag == "True"
    return out, remove_redundancy


def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise MSTypeError(f"For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                          f"list[string] or tuple[string], but got {type(prefix).__name__}.")
    prefix = (prefix,) if isinstance(prefix, str) else tuple(prefix)
    if not prefix:
        raise MSValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty "
                           "when 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise MSTypeError(f"For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, the "
                              f"element in it must be string, but got {type(pre).__name__} at index {index}.")
        if not pre:
            raise MSValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' can't "
                               "include ''.")
    return prefix


def _make_filter(specify_prefix, filter_prefix, choice_func):
    def keep(name):
        if specify_prefix is None and filter_prefix is None:
            return choice_func is None or bool(choice_func(name))
        if specify_prefix and not name.startswith(specify_prefix):
            return False
        return not (filter_prefix and name.startswith(filter_prefix))
    return keep


def _read_source(ckpt_file_name, fmt):
    """(path for messages, file bytes) after MindSpore's name checks."""
    if fmt == "safetensors" and isinstance(ckpt_file_name, io.BytesIO):
        return "<BytesIO>", ckpt_file_name.getvalue()
    path = _path_str("load_checkpoint", "ckpt_file_name", ckpt_file_name)
    if not path.endswith(fmt):
        raise MSValueError(f"For 'load_checkpoint', the checkpoint file should end with '.{fmt}' for "
                           f"format='{fmt}', but got file_name:'{path}'.")
    path = os.path.realpath(path)
    if not os.path.isfile(path):
        raise MSValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please check whether "
                           f"the 'ckpt_file_name' is correct.")
    _wait_async(path)
    try:
        with open(path, "rb") as f:
            return path, f.read()
    except OSError as e:
        raise MSValueError(f"Failed to read the checkpoint file {path}. May not have permission to read it ({e}).") \
            from None


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):  # noqa: A002
    """Load a checkpoint file into a dict of Parameters (and load it into ``net`` when given).

    Args:
        ckpt_file_name (str): the file; it must end with ``.ckpt`` (``.safetensors`` for ``format="safetensors"``,
            which also accepts an ``io.BytesIO``).
        net (Cell, optional): load the parameters into this network with :func:`load_param_into_net`.
        strict_load (bool): passed to :func:`load_param_into_net`. Default: ``False``.
        filter_prefix (Union[str, list[str], tuple[str]]): skip names starting with one of these (deprecated).
        dec_key (Union[None, bytes]): the key of an encrypted checkpoint. Default: ``None``.
        dec_mode (str): ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"``. Default: ``"AES-GCM"``.
        specify_prefix (Union[str, list[str], tuple[str]]): load only names starting with one of these
            (deprecated).
        choice_func (function): ``choice_func(name) -> bool``, which names to load (ignored when a prefix is
            given).
        crc_check (bool): verify the CRC written by ``save_checkpoint(..., crc_check=True)``. Default: ``False``.
        remove_redundancy (bool): passed to :func:`load_param_into_net`. Default: ``False``.
        format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Returns:
        dict, ``{name: Parameter}`` in file order (sorted order for safetensors); ``str`` values saved through
        ``append_dict`` come back as ``str``.

    Raises:
        ValueError: the name or format is wrong, the file does not exist, is corrupted, truncated or encrypted
            without ``dec_key``, the CRC does not match, or nothing is left after filtering.
        TypeError: an argument has the wrong type.

    Examples:
        >>> import mindspore as ms
        >>> param_dict = ms.load_checkpoint("./lenet.ckpt")  # doctest: +SKIP
        >>> param_not_load, ckpt_not_load = ms.load_param_into_net(net, param_dict)  # doctest: +SKIP
    """
    fmt = _check_format("load_checkpoint", format)
    specify_prefix, filter_prefix = _check_prefix(specify_prefix), _check_prefix(filter_prefix)
    _check_type("load_checkpoint", "dec_key", dec_key, (type(None), bytes), "bytes or None")
    _check_type("load_checkpoint", "dec_mode", dec_mode, str, "str")
    _check_bool("load_checkpoint", "crc_check", crc_check)
    _check_bool("load_checkpoint", "remove_redundancy", remove_redundancy)
    if choice_func is not None and not callable(choice_func):
        raise MSTypeError(f"For 'load_checkpoint', the 'choice_func' must be callable, but got "
                          f"{type(choice_func).__name__}.")
    if fmt == "safetensors" and (dec_key is not None or dec_mode != "AES-GCM"):
        raise MSValueError("For 'load_checkpoint', when format is 'safetensors', the parameters 'dec_key' and "
                           "'dec_mode' must be left at their defaults.")
    if dec_key is not None:
        _ckpt_crypto.check_key("load_checkpoint", dec_key, dec_mode, "dec_key")
    keep = _make_filter(specify_prefix, filter_prefix, choice_func)

    source, data = _read_source(ckpt_file_name, fmt)
    if fmt == "safetensors":
        parameter_dict, remove_redundancy = _read_safetensors(source, data, keep, crc_check, remove_redundancy)
    else:
        parameter_dict = _decode_ckpt(_ckpt_payload(source, data, dec_key, dec_mode, crc_check), source, keep)
    if not parameter_dict:
        raise MSValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                           "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


class _ParamDictFuture:
    """What :func:`load_checkpoint_async` returns: ``result()`` waits and gives the parameter dict."""

    def __init__(self, executor, future):
        self._executor, self._future = executor, future

    def result(self):
        try:
            return self._future.result()
        finally:
            self._executor.shutdown(wait=False)


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                          dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """:func:`load_checkpoint` in a background thread; call ``result()`` on the returned object for the dict."""
    fmt = "safetensors" if isinstance(ckpt_file_name, str) and ckpt_file_name.endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, format=fmt)
    return _ParamDictFuture(executor, future)


# The other names MindSpore's `mindspore.train.serialization` has (its model-zoo scripts import `export`, `load` and
# the distributed-checkpoint tools from here), resolved from where they live in this project on first use.
__getattr__ = _reexport("mindspore.train.serialization", {
    "mindspore": "export load load_mindir context Generator",
    "mindspore.train": "ckpt_to_safetensors safetensors_to_ckpt get_ckpt_path_with_strategy",
    "mindspore.parallel": "build_searched_strategy merge_sliced_parameter load_distributed_checkpoint "
                          "restore_group_info_list sync_pipeline_shared_parameters",
})
