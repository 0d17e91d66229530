"""ModelCheckpoint and CheckpointConfig: save the training network every N steps or seconds.

Files are named ``{prefix}-{epoch}_{step_in_epoch}.ckpt`` (``.safetensors`` with
``format='safetensors'``) in ``directory``. When files of the same prefix already exist there at
construction, the prefix becomes ``{prefix}_{k}`` with ``k`` one more than the largest suffix found
(MindSpore's rule), so a second run never overwrites the first. Before each save, the oldest files
of this prefix are removed so that at most ``keep_checkpoint_max`` remain (or one per
``keep_checkpoint_per_n_minutes``). The network is written with
``mindspore.train.serialization.save_checkpoint`` (imported when first needed). No ``-graph.meta``
file is written: MindSpore writes one only for a compiled GRAPH_MODE graph, which this runtime does
not produce in PYNATIVE mode.

Data-parallel training (MindSpore 2.10): every rank runs its own ModelCheckpoint and writes the files it is
told to; ModelCheckpoint itself does not add the rank to the path, so distributed scripts give each rank its
own ``directory`` (``f"./ckpt_{get_rank()}"``) or ``prefix``. (Ranks sharing one folder would race over the
same names; each write is still atomic, a temporary file renamed over the target, so a reader never sees a
torn file.) ``CheckpointConfig(remove_redundancy=True)`` in a world of N > 1 ranks saves each Parameter once
over the world: sorted by name, the k-th Parameter is written by rank ``k % N`` only, MindSpore's split of a
fully replicated (data-parallel) network; loading all N files restores the whole network. In a world of one it
raises ``TypeError`` as MindSpore does. ``integrated_save`` only matters for sharded (semi-)auto-parallel
parameters and is handed to ``save_checkpoint``.
"""
from __future__ import annotations

import numbers
import os
import stat
import time

from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.train.callback._callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

_INFO_LIST = ("epoch_num", "step_num")
_SUFFIX = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def _non_negative_int(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For 'CheckpointConfig', the type of '{name}' must be int, but got {type(value).__name__}.")
    if value < 0:
        raise ValueError(f"For 'CheckpointConfig', the '{name}' must be a non-negative int, but got {value}.")
    return int(value)


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For 'CheckpointConfig', the type of '{name}' must be bool, but got {type(value).__name__}.")
    return value


def _make_directory(path):
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"For 'ModelCheckpoint', the argument 'directory' must be a non-empty str, but got {path!r}.")
    path = os.path.realpath(os.path.expanduser(path))
    os.makedirs(path, exist_ok=True)
    return path


def _chg_ckpt_file_name_if_same_exist(directory, prefix, suffix=".ckpt", exception=False):
    """``prefix`` or ``prefix_k`` so that new files do not collide with checkpoints already in ``directory``."""
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        is_breakpoint = filename.endswith("_breakpoint" + suffix)
        if exception != is_breakpoint or not filename.endswith(suffix):
            continue
        if not filename.startswith(prefix) or len(filename) <= pre_len or filename[pre_len].isalpha():
            continue
        rest = filename[pre_len:]
        index = rest.find("-")
        if index == 0:
            suffix_num = max(suffix_num, 1)
        elif index > 0 and rest[0] == "_" and rest[1:index].isdigit():
            suffix_num = max(suffix_num, int(rest[1:index]) + 1)
    return f"{prefix}_{suffix_num}" if suffix_num else prefix


class CheckpointConfig:
    """When and how ``ModelCheckpoint`` saves.

    Only one save policy and one keep policy apply: ``save_checkpoint_steps`` (when > 0) overrides
    ``save_checkpoint_seconds``; ``keep_checkpoint_max`` (when > 0) overrides
    ``keep_checkpoint_per_n_minutes``.

    Args:
        save_checkpoint_steps (int): Save every this many steps. Default: ``1``.
        save_checkpoint_seconds (int): Save every this many seconds. Default: ``0``.
        keep_checkpoint_max (int): Keep at most this many files. Default: ``5``.
        keep_checkpoint_per_n_minutes (int): Keep one file per this many minutes. Default: ``0``.
        integrated_save (bool): Merge split tensors in parallel training. Default: ``True``.
        async_save (bool): Save in a background thread. Default: ``False``.
        saved_network (Cell): Save this network instead of the training network. Default: ``None``.
        append_info (list): ``"epoch_num"``, ``"step_num"`` and/or one dict of extra values to store.
            Default: ``None``.
        enc_key (bytes): Encryption key. Default: ``None``.
        enc_mode (str): Encryption mode. Default: ``'AES-GCM'``.
        exception_save (bool): Save a ``_breakpoint`` checkpoint when training raises. Default: ``False``.
        crc_check (bool): Write a CRC check. Default: ``False``.
        remove_redundancy (bool): Remove redundant data in parallel training. Default: ``False``.
        format (str): ``'ckpt'`` or ``'safetensors'``. Default: ``'ckpt'``.

    Raises:
        ValueError: If all four save/keep values are 0 or None, or a value is negative.
        TypeError: If an argument has the wrong type.

    Examples:
        >>> from mindspore.train import CheckpointConfig
        >>> config = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=3)
        >>> config.keep_checkpoint_max
        3
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):  # pylint: disable=redefined-builtin
        from mindspore.nn.cell import Cell
        save_checkpoint_steps = _non_negative_int("save_checkpoint_steps", save_checkpoint_steps)
        save_checkpoint_seconds = _non_negative_int("save_checkpoint_seconds", save_checkpoint_seconds)
        keep_checkpoint_max = _non_negative_int("keep_checkpoint_max", keep_checkpoint_max)
        keep_checkpoint_per_n_minutes = _non_negative_int("keep_checkpoint_per_n_minutes",
                                                          keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                            f"but got {type(saved_network)}.")
        if not (save_checkpoint_steps or save_checkpoint_seconds or keep_checkpoint_max
                or keep_checkpoint_per_n_minutes):
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        if format not in _SUFFIX:
            raise ValueError(f"For 'CheckpointConfig', the 'format' must be 'ckpt' or 'safetensors', but got "
                             f"{format!r}.")
        if enc_key is not None and not isinstance(enc_key, bytes):
            raise TypeError(f"For 'CheckpointConfig', the type of 'enc_key' must be bytes or None, but got "
                            f"{type(enc_key).__name__}.")
        if not isinstance(enc_mode, str):
            raise TypeError(f"For 'CheckpointConfig', the type of 'enc_mode' must be str, but got "
                            f"{type(enc_mode).__name__}.")
        self.exception_save = _check_bool("exception_save", exception_save)
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = None if save_checkpoint_steps else save_checkpoint_seconds
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if keep_checkpoint_max:
            self._keep_checkpoint_per_n_minutes = None
        elif not keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = _check_bool("integrated_save", integrated_save)
        self._async_save = _check_bool("async_save", async_save)
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self._crc_check = _check_bool("crc_check", crc_check)
        self._remove_redundancy = _check_bool("remove_redundancy", remove_redundancy)
        self._format = format
        self._map_param_inc = kwargs.get("incremental", False)

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps, doc="Steps between saves.")
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds, doc="Seconds between saves.")
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max, doc="Most files kept.")
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes,
                                             doc="Keep one file per this many minutes.")
    integrated_save = property(lambda self: self._integrated_save, doc="Merge split tensors when saving.")
    async_save = property(lambda self: self._async_save, doc="Save asynchronously.")
    saved_network = property(lambda self: self._saved_network, doc="The network saved instead of the trained one.")
    enc_key = property(lambda self: self._enc_key, doc="Encryption key.")
    enc_mode = property(lambda self: self._enc_mode, doc="Encryption mode.")
    append_dict = property(lambda self: self._append_dict, doc="Extra values stored in each file.")
    crc_check = property(lambda self: self._crc_check, doc="Whether a CRC check is written.")
    remove_redundancy = property(lambda self: self._remove_redundancy, doc="Remove redundancy when saving.")
    format = property(lambda self: self._format, doc="'ckpt' or 'safetensors'.")
    map_param_inc = property(lambda self: self._map_param_inc, doc="Save map parameters incrementally.")

    def get_checkpoint_policy(self):
        """The save/keep policy as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list, "
                            f"but got {type(append_info)}.")
        result = {key: 0 for key in _INFO_LIST if key in append_info}
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' element must be str or dict, "
                                f"but got {type(element)}.")
            if isinstance(element, str) and element not in _INFO_LIST:
                raise ValueError(f"For 'CheckpointConfig', the value of element in the argument 'append_info' "
                                 f"must be in {list(_INFO_LIST)}, but got {element}.")
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError(f"For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    f"but got {dict_num}")
                for key, value in element.items():
                    if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Parameter, Tensor)):
                        raise TypeError(f"For 'CheckpointConfig', the key type of the dict 'append_info' must be "
                                        f"string, the value type must be int or float or bool, but got key type "
                                        f"{type(key)}, value type {type(value)}")
                    result[key] = value
        return result


class ModelCheckpoint(Callback):
    """Save checkpoints of the training network during ``Model.train`` and once more at its end.

    Args:
        prefix (str): File name prefix. Default: ``'CKP'``.
        directory (str): Folder for the files (created if missing). Default: the current directory.
        config (CheckpointConfig): The save/keep policy. Default: ``CheckpointConfig()``.

    Raises:
        ValueError: If ``prefix`` is not a str or contains ``'/'``.
        TypeError: If ``config`` is not a CheckpointConfig.

    Examples:
        >>> from mindspore.train import ModelCheckpoint, CheckpointConfig
        >>> config = CheckpointConfig(save_checkpoint_steps=32, keep_checkpoint_max=10)
        >>> ckpt_cb = ModelCheckpoint(prefix="lenet", directory="./ckpt", config=config)  # doctest: +SKIP
    """

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be string and does not contain '/', but got {prefix}.")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                            f"but got {type(config)}.")
        self._config = config
        self._suffix = _SUFFIX[config.format]
        self._directory = _make_directory(directory) if directory is not None else os.getcwd()
        self._exception_prefix = prefix
        self._prefix = _chg_ckpt_file_name_if_same_exist(self._directory, prefix, self._suffix)
        self._manager = _CheckpointManager(self._suffix)
        self._append_dict = dict(config.append_dict or {})
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        # MindSpore's flag and step below are part of the contract of subclasses that write their own _save_ckpt
        # (MindPet's TrainableParamsCheckPoint calls both by name)
        self._need_flush_from_cache = True

    def _flush_from_cache(self, cb_params):
        """Before a save, MindSpore writes back the device cache of parameters that keep one (``cache_enable``) and
        stops looking once a network has none. No parameter keeps such a cache here, so the first look ends it."""
        if not any(getattr(p, "cache_enable", False) for p in cb_params.train_network.get_parameters()):
            self._need_flush_from_cache = False

    @property
    def latest_ckpt_file_name(self):
        """The path of the newest checkpoint this callback wrote."""
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        """Save when the policy says so."""
        os.makedirs(self._directory, exist_ok=True)
        self._save_ckpt(run_context.original_args())

    def end(self, run_context):
        """Save the final state (unless this step was just saved)."""
        self._save_ckpt(run_context.original_args(), force_to_save=True)

    def save_breakpoint(self, network, epoch, step):
        """Save ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` when the config asks for ``exception_save``.

        ``Model`` calls this when training raises; the prefix gets its own ``_k`` suffix among breakpoint files.
        """
        if not self._config.exception_save:
            return
        prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._exception_prefix, self._suffix, True)
        append = dict(self._append_dict)
        if "epoch_num" in append:
            append["epoch_num"] = self._append_epoch_num + epoch
        if "step_num" in append:
            append["step_num"] = self._append_step_num + step
        file_name = os.path.join(self._directory, f"{prefix}-{epoch}_{step}_breakpoint{self._suffix}")
        _save(network, file_name, self._config, append)

    def _check_save_ckpt(self, cb_params, force_to_save):
        steps = self._config.save_checkpoint_steps
        if steps:
            return force_to_save or cb_params.cur_step_num >= self._last_triggered_step + steps
        seconds = self._config.save_checkpoint_seconds
        if seconds:
            now = time.time()
            if now - self._last_time > seconds or force_to_save:
                self._last_time = now
                return True
        return False

    def _save_ckpt(self, cb_params, force_to_save=False):
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._check_save_ckpt(cb_params, force_to_save):
            return
        step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        file_name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}{self._suffix}"
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        keep_max = self._config.keep_checkpoint_max
        per_minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file(self._manager.ckpoint_num - keep_max + 1)
        elif per_minutes:
            now = time.time()
            if now - self._last_time_for_keep < per_minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(per_minutes, now)
        cur_file = os.path.join(self._directory, file_name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + cb_params.cur_step_num
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        _save(network, cur_file, self._config, self._append_dict)
        self._manager.note_saved(cur_file)
        self._latest_ckpt_file_name = cur_file


def _world():
    """``(rank, size)`` of this process in the world (``(0, 1)`` without a communication backend)."""
    from mindspore._plugin.collective import process_group, world_group
    world = process_group(world_group())
    return world.rank, world.size


def _redundancy_choice(network):
    """MindSpore's ``remove_param_redundancy`` for a replicated network: the names this rank saves."""
    rank, size = _world()
    if size == 1:
        raise TypeError("The deduplication feature for saving checkpoint can only be used in parallel scenarios, "
                        "but got 'stand_alone'.")
    names = sorted({param.name for _, param in network.parameters_and_names()})
    mine = {name for k, name in enumerate(names) if k % size == rank}
    return lambda name: name in mine


def _save(network, file_name, config, append_dict):
    from mindspore.train.serialization import save_checkpoint
    kwargs = {"crc_check": config.crc_check, "format": config.format}
    integrated_save = config.integrated_save
    if config.remove_redundancy:
        kwargs["remove_redundancy"] = True
        kwargs["choice_func"] = _redundancy_choice(network)
        integrated_save = False
    save_checkpoint(network, file_name, integrated_save, config.async_save, append_dict or None,
                    config.enc_key, config.enc_mode, **kwargs)


class _CheckpointManager:
    """The checkpoint files of one prefix in one folder, and the keep policies over them."""

    def __init__(self, suffix=".ckpt"):
        self._suffix = suffix
        self._ckpoint_filelist = []
        self._save_order = {}  # breaks ties between files written within one file-system clock tick

    def note_saved(self, file_name):
        self._save_order[file_name] = len(self._save_order)

    def _age_key(self, file_name):
        return os.stat(file_name).st_mtime_ns, self._save_order.get(file_name, -1)

    @property
    def ckpoint_filelist(self):
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self):
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory, prefix):
        """Rescan ``directory`` for ``{prefix}-<digits/_>{suffix}`` files."""
        self._ckpoint_filelist = []
        for filename in os.listdir(directory):
            if filename.endswith(self._suffix) and filename.startswith(prefix + "-"):
                middle = filename[len(prefix):-len(self._suffix)]
                if not any(ch.isalpha() for ch in middle):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def remove_ckpoint_file(self, file_name):
        try:
            os.chmod(file_name, stat.S_IWRITE | stat.S_IREAD)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
        except (OSError, ValueError):
            pass

    def remove_oldest_ckpoint_file(self, count=1):
        """Delete the ``count`` oldest files (by modification time)."""
        for name in sorted(self._ckpoint_filelist, key=self._age_key)[:count]:
            self.remove_ckpoint_file(name)

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        """Of the files written in the last ``minutes``, keep only the oldest."""
        recent = [f for f in self._ckpoint_filelist if cur_time - os.path.getmtime(f) < 60 * minutes]
        if not recent:
            return
        oldest = min(recent, key=self._age_key)
        for name in recent:
            if name != oldest:
                self.remove_ckpoint_file(name)
