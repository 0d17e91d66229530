"""``ckpt_to_safetensors`` / ``safetensors_to_ckpt``: convert checkpoint files between the two formats.

As in MindSpore, ``file_path`` is either one file or a directory whose ``rank*`` sub-directories hold the files
(one per rank); the results keep the file names with the other extension and go to ``save_path`` (mirroring the
``rank*`` layout) or next to the sources. ``.ckpt`` -> ``.safetensors`` writes a plain safetensors file (no
metadata, as MindSpore); ``.safetensors`` -> ``.ckpt`` writes the tensors in sorted name order. A ``str`` entry of a
checkpoint has no safetensors equivalent and is reported as an error.
"""
from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor

from mindspore._errors import MSTypeError, MSValueError
from mindspore.train import _safetensors_format
from mindspore.train.serialization import _atomic_write, load_checkpoint, save_checkpoint

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt"]


def _check_args(func, file_path, save_path, name_map, file_name_regex, processes_num):
    if not isinstance(file_path, (str, os.PathLike)):
        raise MSTypeError(f"For '{func}', the 'file_path' must be str, but got {type(file_path).__name__}.")
    file_path = os.fspath(file_path)
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise MSValueError(f"For '{func}', the input path must be a valid path or file, but got {file_path}")
    if save_path is not None:
        save_path = os.fspath(save_path)
        if os.path.splitext(save_path)[1]:
            raise MSValueError(f"For '{func}', the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise MSValueError(f"For '{func}', the type of 'name_map' must be a dict, but got '{type(name_map).__name__}'")
    if file_name_regex is not None and not isinstance(file_name_regex, str):
        raise MSTypeError(f"For '{func}', the 'file_name_regex' must be str, but got {type(file_name_regex).__name__}.")
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise MSValueError(f"For '{func}', the 'processes_num' must be a positive int, but got {processes_num!r}.")
    return file_path, save_path


def _tasks(func, file_path, save_path, file_name_regex, src_ext):
    """[(source file, destination directory)] for a single file or a directory of ``rank*`` folders."""
    if os.path.isfile(file_path):
        if not file_path.endswith(src_ext):
            raise MSValueError(f"For '{func}', the input file must be a {src_ext} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise MSValueError(f"For '{func}', the input file does not match the regular expression.")
        return [(file_path, save_path or os.path.dirname(os.path.abspath(file_path)))]
    rank_dirs = sorted(d for d in os.listdir(file_path)
                       if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
    if not rank_dirs:
        raise MSValueError(f"For '{func}', no directories starting with 'rank' found in {file_path}")
    tasks = []
    for rank_dir in rank_dirs:
        src_dir = os.path.join(file_path, rank_dir)
        dst_dir = os.path.join(save_path, rank_dir) if save_path else src_dir
        for name in sorted(os.listdir(src_dir)):
            if name.endswith(src_ext) and (file_name_regex is None or re.findall(file_name_regex, name)):
                tasks.append((os.path.join(src_dir, name), dst_dir))
    return tasks


def _run(tasks, convert, processes_num):
    for _, dst_dir in tasks:
        os.makedirs(dst_dir, exist_ok=True)
    if processes_num == 1 or len(tasks) < 2:
        for src, dst_dir in tasks:
            convert(src, dst_dir)
        return
    # threads, not processes: the work is file I/O and NumPy copies, which release the GIL
    with ThreadPoolExecutor(max_workers=processes_num) as pool:
        for future in [pool.submit(convert, src, dst_dir) for src, dst_dir in tasks]:
            future.result()


def _renamed(name, name_map):
    return name_map.get(name, name) if name_map else name


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert MindSpore ``.ckpt`` files into ``.safetensors`` files.

    Args:
        file_path (str): a ``.ckpt`` file, or a directory whose ``rank*`` sub-directories hold ``.ckpt`` files.
        save_path (str, optional): the output directory; default: next to each source file.
        name_map (dict, optional): ``{old name: new name}`` renames applied on the way.
        file_name_regex (str, optional): convert only the files whose name matches this regular expression.
        processes_num (int, optional): how many files to convert at once. Default: 1.

    Raises:
        ValueError: the path is invalid, ``save_path`` is not a directory, the file is not a ``.ckpt``, or a
            checkpoint entry is a ``str`` (safetensors holds tensors only).

    Examples:
        >>> import mindspore as ms
        >>> ms.ckpt_to_safetensors("./lenet.ckpt", "./safetensors_dir")  # doctest: +SKIP
    """

    func = "ckpt_to_safetensors"
    file_path, save_path = _check_args(func, file_path, save_path, name_map, file_name_regex, processes_num)

    def convert(src, dst_dir):
        arrays = {}
        for name, value in load_checkpoint(src).items():
            if isinstance(value, str):
                raise MSValueError(f"For '{func}', the entry '{name}' of {src} is a str, which safetensors cannot "
                                   f"store.")
            arrays[_renamed(name, name_map)] = value.asnumpy()
        dst = os.path.join(dst_dir, os.path.basename(src)[:-len(".ckpt")] + ".safetensors")
        _atomic_write(os.path.realpath(dst), lambda f: _safetensors_format.write(f, arrays))

    _run(_tasks(func, file_path, save_path, file_name_regex, ".ckpt"), convert, processes_num)


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert ``.safetensors`` files into MindSpore ``.ckpt`` files.

    Args:
        file_path (str): a ``.safetensors`` file, or a directory whose ``rank*`` sub-directories hold them.
        save_path (str, optional): the output directory; default: next to each source file.
        name_map (dict, optional): ``{old name: new name}`` renames applied on the way.
        file_name_regex (str, optional): convert only the files whose name matches this regular expression.
        processes_num (int, optional): how many files to convert at once. Default: 1.

    Raises:
        ValueError: the path is invalid, ``save_path`` is not a directory, or the file is not a ``.safetensors``.

    Examples:
        >>> import mindspore as ms
        >>> ms.safetensors_to_ckpt("./model.safetensors", "./ckpt_dir")  # doctest: +SKIP
    """

    func = "safetensors_to_ckpt"
    file_path, save_path = _check_args(func, file_path, save_path, name_map, file_name_regex, processes_num)

    def convert(src, dst_dir):
        params = {}
        for name, value in load_checkpoint(src, format="safetensors").items():
            new_name = _renamed(name, name_map)
            value.name = new_name
            params[new_name] = value
        dst = os.path.join(dst_dir, os.path.basename(src)[:-len(".safetensors")] + ".ckpt")
        save_checkpoint(params, dst)

    _run(_tasks(func, file_path, save_path, file_name_regex, ".safetensors"), convert, processes_num)
