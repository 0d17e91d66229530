"""``SummaryLandscape``: the loss landscape of a training run (MindSpore's loss-landscape tool).

During training, ``SummaryCollector(..., collect_specified_data={'collect_landscape': {...}})`` saves the backbone's
parameters at every step (or epoch) listed in ``intervals`` under ``<summary_dir>/ckpt_dir`` and, at the end, a
``train_metadata.json`` naming those checkpoints. :meth:`SummaryLandscape.gen_landscapes_with_multi_process` then
evaluates the loss on a ``landscape_size x landscape_size`` grid of parameter points ``theta + x * v + y * w``
around a checkpoint ``theta`` and writes each grid as a ``LossLandscape`` message (tag ``landscape_<interval>``) into
a summary file written by :class:`SummaryRecord`.

Two kinds of landscape, as in MindSpore:

* **train** (one per interval, decomposition ``'PCA'``): ``theta`` is the interval's last checkpoint; ``v``/``w``
  are the first and last of the two principal components of the trajectory (every earlier checkpoint minus the
  last one, as rows; each column centred), computed with an exact SVD (MindSpore switches to a randomised SVD above
  500 parameters; the exact one spans the same subspace, deterministically). Columns of ``u`` get the sign that
  makes their largest-magnitude entry positive, and are scaled by the singular values. The trajectory's
  coordinates (least squares of ``checkpoint - theta`` on ``[v, w]``) give the grid's extent (their range widened
  by 20% each side) and the loss path; the convergence point is the path point at ``x == 0``.
* **result** (one, decomposition ``'Random'``): ``theta`` is the last checkpoint of the last interval; ``v``/``w``
  are standard normal draws of ``numpy.random`` (seed it for reproducibility) and the grid spans ``[-1, 1]^2``.

Directions are filter-normalised (Li et al., "Visualizing the Loss Landscape of Neural Nets", 2018), per
parameter: each direction block is rescaled to the norm of the parameter it perturbs; parameters whose name has
neither ``weight`` nor ``bias``, or has ``moment``, are not perturbed. The loss of a point is ``metrics['Loss']``
after running ``model.train_network`` over the first ``num_samples // batch_size`` batches of the dataset the
user's ``callback_fn`` returns.

``device_ids`` with more than one id runs the grid's rows in a ``concurrent.futures.ProcessPoolExecutor`` of that
many worker processes (each calls ``callback_fn`` to build its own model, as MindSpore does; on CPU the ids only
size the pool); one id runs the rows sequentially in this process.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
from collections import defaultdict, namedtuple
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import mindspore.log as logger
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.train.callback._cb_checks import check_value_type, make_directory

__all__ = ["SummaryLandscape"]

Points = namedtuple("Points", ["x", "y", "z"])

_PROZ = 0.2            # the grid extends this fraction of the trajectory's range beyond it
_RANDOM_BOUNDARY = 5   # random landscapes span [-_PROZ * 5, _PROZ * 5]
_NP_TO_PROTO = {np.bool_: "DT_BOOL", np.int8: "DT_INT8", np.int16: "DT_INT16", np.int32: "DT_INT32",
                np.int64: "DT_INT64", np.uint8: "DT_UINT8", np.uint16: "DT_UINT16", np.uint32: "DT_UINT32",
                np.uint64: "DT_UINT64", np.float16: "DT_FLOAT16", np.float32: "DT_FLOAT32", np.float64: "DT_FLOAT64"}
_METADATA_KEYS = ["epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples",
                  "landscape_size", "create_landscape"]


def _perturbed(name):
    return ("weight" in name or "bias" in name) and "moment" not in name


def _fill_tensor(np_value, proto_tensor):
    from mindspore.train import _summary_pb2
    np_value = np.asarray(np_value)
    kind = _NP_TO_PROTO.get(np_value.dtype.type)
    if kind is None:
        raise TypeError("No match for proto data type.")
    proto_tensor.data_type = _summary_pb2.DataType[kind]
    proto_tensor.float_data.extend(np_value.reshape(-1).tolist())
    proto_tensor.dims.extend(np_value.shape)


def _landscape_message(kind, points, unit, step_per_epoch, intervals=None, path=None, convergence=None):
    """A ``LossLandscape`` message: the grid (one row of x, one column of y, all of z), path, convergence."""
    from mindspore.train import _summary_pb2
    msg = _summary_pb2.LossLandscape()
    _fill_tensor(points.x[0], msg.landscape.x)
    _fill_tensor(points.y[:, 0], msg.landscape.y)
    _fill_tensor(points.z, msg.landscape.z)
    if path is not None:
        msg.loss_path.intervals.extend(int(i) for i in intervals)
        _fill_tensor(path.x, msg.loss_path.points.x)
        _fill_tensor(path.y, msg.loss_path.points.y)
        _fill_tensor(path.z, msg.loss_path.points.z)
    if convergence is not None:
        _fill_tensor(convergence.x, msg.convergence_point.x)
        _fill_tensor(convergence.y, msg.convergence_point.y)
        _fill_tensor(convergence.z, msg.convergence_point.z)
    msg.metadata.decomposition = kind
    msg.metadata.unit = unit
    msg.metadata.step_per_epoch = int(step_per_epoch)
    return msg


def pca_directions(trajectory):
    """The two principal directions of ``trajectory`` (rows: checkpoints minus the final one), as MindSpore's
    ``_PCA(n_comps=2)`` defines them: columns centred, ``u * s`` of the SVD, sign of each column fixed so that its
    largest-magnitude entry is positive. Returns ``(v, w)``, flat."""
    x = np.array(trajectory, dtype=np.float64).T
    x -= np.mean(x, axis=0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])])
    signs[signs == 0] = 1.0
    u *= signs
    s = np.where(s == 0, 1e-19, s)
    comps = u[:, :2] * s[:2]
    return comps[:, 0], comps[:, -1]


def normalize_directions(params, directions):
    """Filter normalisation: block ``i`` of each direction scaled to ``|params[i]|``; unperturbed blocks zeroed.
    ``params`` is a list of ``(name, ndarray)``; ``directions`` a list of lists of ndarrays (modified)."""
    for i, (name, data) in enumerate(params):
        for direction in directions:
            if _perturbed(name):
                direction[i] = direction[i] * (np.linalg.norm(data) / np.linalg.norm(direction[i]))
            else:
                direction[i] = direction[i] * 0
    return directions


class SummaryLandscape:
    """Compute loss landscapes from what :class:`SummaryCollector` saved and write them into a summary file.

    Note:
        Directions and the grid follow MindSpore's definition (see the module docstring); landscapes of random
        directions draw from ``numpy.random``.

    Args:
        summary_dir (str): the summary directory ``SummaryCollector`` wrote (its ``ckpt_dir`` holds the
            checkpoints and ``train_metadata.json``).

    Examples:
        >>> import mindspore.nn as nn
        >>> from mindspore.train import Model, Loss, SummaryLandscape
        >>> def callback_fn():
        ...     network = nn.Dense(3, 1)
        ...     metrics = {"Loss": Loss()}
        ...     model = Model(network, nn.MSELoss(), metrics=metrics)
        ...     return model, network, create_dataset(), metrics
        >>> landscape = SummaryLandscape('./summary_dir')
        >>> landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
    """

    def __init__(self, summary_dir):
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        make_directory(self._ckpt_dir)
        self._model_params_file_map = {}
        self._epoch_group = defaultdict(list)
        self._metric_fns = None

    def clean_ckpt(self):
        """Remove the checkpoint directory."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    # -- driver -----------------------------------------------------------------------------------------------
    def gen_landscapes_with_multi_process(self, callback_fn, collect_landscape=None, device_ids=None, output=None):
        """Compute the landscapes ``train_metadata.json`` asks for and record them.

        Args:
            callback_fn (function): no arguments; returns ``(model, network, dataset, metrics)``: the
                :class:`mindspore.train.Model` whose ``train_network`` gives the loss, the network whose parameters
                are perturbed, the dataset, and the metrics (a ``'Loss'`` entry is read).
            collect_landscape (Union[dict, None]): overrides of the saved metadata: ``landscape_size`` (3 to 256),
                ``unit``, ``num_samples``, ``create_landscape`` (``{'train': bool, 'result': bool}``) and
                ``intervals`` (lists of at least three ints). Default: ``None``.
            device_ids (list[int]): ids in [0, 7]; more than one runs the grid in that many processes.
                Default: ``None`` (rejected, as in MindSpore: a list is required).
            output (str): directory of the summary file. Default: ``None`` (``summary_dir``).

        Raises:
            TypeError: ``device_ids`` not a list of ints, or a ``collect_landscape`` value of the wrong type.
            ValueError: an id outside [0, 7], or a bad ``collect_landscape``/metadata value.
            FileNotFoundError: no ``train_metadata.json``.
        """
        from mindspore.train.summary.summary_record import SummaryRecord
        self._check_device_ids(device_ids)
        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        if collect_landscape is not None:
            self._check_collect_landscape_data(collect_landscape)
            self._update_metadata(collect_landscape)
        executor = ProcessPoolExecutor(len(device_ids)) if len(device_ids) > 1 else None
        try:
            with SummaryRecord(output_path) as summary_record:
                for interval, landscape in self._list_landscapes(callback_fn, executor, device_ids):
                    summary_record.add_value("landscape", f"landscape_{interval}", landscape)
                    summary_record.record(0)
                    summary_record.flush()
        finally:
            if executor is not None:
                executor.shutdown()

    def _update_metadata(self, collect_landscape):
        json_path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(json_path):
            raise FileNotFoundError(f'For "{self.__class__.__name__}", train_metadata.json file path of {json_path} '
                                    f'not exists.')
        with open(json_path, "r", encoding="utf-8") as file:
            data = json.load(file)
        for key, value in collect_landscape.items():
            if key in data:
                data[key] = value
        if "intervals" in collect_landscape:
            self._epoch_group = defaultdict(list)
            for i, interval in enumerate(collect_landscape["intervals"]):
                self._epoch_group[i].extend(interval)
            data["epoch_group"] = self._epoch_group
        os.chmod(json_path, stat.S_IRUSR | stat.S_IWUSR)
        with open(json_path, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.chmod(json_path, stat.S_IRUSR)

    def _read_metadata(self):
        json_path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(json_path):
            raise FileNotFoundError(f'For "{self.__class__.__name__}", train_metadata.json file does not exist under '
                                    f'the path, please use summary_collector to collect information to create the '
                                    f'json file')
        with open(json_path, "r", encoding="utf-8") as file:
            data = json.load(file)
        self._check_json_file_data(data)
        return data

    def _list_landscapes(self, callback_fn, executor, device_ids):
        data = self._read_metadata()
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        groups = list(self._epoch_group.values())
        size = data["landscape_size"]
        run = (callback_fn, data["num_samples"], executor, len(device_ids))
        if data["create_landscape"]["train"]:
            for i, epochs in enumerate(groups):
                logger.info(f"Start to create the {i + 1}/{len(groups)} train landscapes, checkpoint is {epochs}, "
                            f"decomposition is PCA.")
                msg = self._create_landscape_by_pca(epochs, size, run, data["unit"], data["step_per_epoch"])
                yield [epochs[0], epochs[-1]], msg
        if data["create_landscape"]["result"]:
            final_epochs = [groups[-1][-1]]
            logger.info(f"Start to create the result landscape, checkpoint is {final_epochs}, decomposition is "
                        f"Random.")
            yield final_epochs, self._create_landscape_by_random(final_epochs, size, run, data["unit"],
                                                                 data["step_per_epoch"])

    # -- the two decompositions -------------------------------------------------------------------------------
    def _get_model_params(self, epochs):
        """``[(name, ndarray), ...]`` of each checkpoint of ``epochs``, in file order."""
        from mindspore.train.serialization import load_checkpoint
        result = []
        for epoch in epochs:
            loaded = load_checkpoint(self._model_params_file_map.get(str(epoch)))
            result.append([(name, value.asnumpy()) for name, value in loaded.items()])
        return result

    def _create_landscape_by_pca(self, epochs, size, run, unit, step_per_epoch):
        multi_params = self._get_model_params(epochs)
        flat = [np.concatenate([d.reshape(-1) for n, d in params if _perturbed(n)]) for params in multi_params]
        trajectory = np.vstack(flat)
        v_flat, w_flat = pca_directions(trajectory[:-1] - trajectory[-1])
        final = multi_params[-1]
        v_dir, w_dir = self._reshape_vector(v_flat, final), self._reshape_vector(w_flat, final)
        normalize_directions(final, [v_dir, w_dir])
        matrix = np.vstack([self._flat(v_dir, final), self._flat(w_dir, final)]).T
        coefs = np.array([np.linalg.lstsq(matrix, row - trajectory[-1], rcond=None)[0] for row in trajectory])
        axes = []
        for col in (coefs[:, 0], coefs[:, 1]):
            low, high = float(col.min()), float(col.max())   # the grid in float64, the path in float32, as 2.10
            axes.append(np.linspace(low - _PROZ * (high - low), high + _PROZ * (high - low), size))
        x_points, y_points = np.meshgrid(*axes)
        path_z = self._evaluate(run, final, v_dir, w_dir, [(c[0], c[1]) for c in coefs])
        z = self._evaluate_grid(run, final, v_dir, w_dir, x_points, y_points)
        path = Points(coefs[:, 0], coefs[:, 1], np.asarray(path_z))
        zero = int(np.argwhere(path.x == 0).reshape(-1)[0]) if np.any(path.x == 0) else int(np.argmin(np.abs(path.x)))
        convergence = Points(np.array([0]), np.array([0]), np.array([path.z[zero]]))
        return _landscape_message("PCA", Points(x_points, y_points, z), unit, step_per_epoch, intervals=epochs,
                                  path=path, convergence=convergence)

    def _create_landscape_by_random(self, epochs, size, run, unit, step_per_epoch):
        final = self._get_model_params(epochs)[-1]
        total = sum(d.size for _, d in final)
        v_flat, w_flat = np.random.normal(size=total), np.random.normal(size=total)
        v_dir = self._split(v_flat, final)
        w_dir = self._split(w_flat, final)
        normalize_directions(final, [v_dir, w_dir])
        axis = np.linspace(-_PROZ * _RANDOM_BOUNDARY, _PROZ * _RANDOM_BOUNDARY, size)
        x_points, y_points = np.meshgrid(axis, axis)
        z = self._evaluate_grid(run, final, v_dir, w_dir, x_points, y_points)
        mid = size // 2
        convergence = Points(np.array([axis[mid]]), np.array([axis[mid]]), np.array([z[mid][mid]]))
        return _landscape_message("Random", Points(x_points, y_points, z), unit, step_per_epoch,
                                  convergence=convergence)

    @staticmethod
    def _reshape_vector(vector, params):
        """A flat direction over the perturbed parameters, cut into per-parameter float32 blocks (the others get
        a placeholder that normalisation zeroes)."""
        blocks, index = [], 0
        for name, data in params:
            if not _perturbed(name):
                blocks.append(np.array(data, dtype=np.float32))
                continue
            blocks.append(np.array(vector[index:index + data.size].reshape(data.shape), dtype=np.float32))
            index += data.size
        return blocks

    @staticmethod
    def _split(vector, params):
        blocks, index = [], 0
        for _, data in params:
            blocks.append(np.array(vector[index:index + data.size].reshape(data.shape), dtype=np.float32))
            index += data.size
        return blocks

    @staticmethod
    def _flat(blocks, params):
        return np.concatenate([b.reshape(-1) for b, (n, _) in zip(blocks, params) if _perturbed(n)])

    # -- loss evaluation --------------------------------------------------------------------------------------
    def _evaluate_grid(self, run, final, v_dir, w_dir, x_points, y_points):
        rows = [list(zip(x_points[i], y_points[i])) for i in range(len(y_points))]
        _, _, executor, n_parts = run
        if executor is None:
            return np.array([self._evaluate(run, final, v_dir, w_dir, row) for row in rows])
        parts = np.array_split(np.arange(len(rows)), n_parts)
        futures = [executor.submit(_evaluate_rows, self, run[:2], final, v_dir, w_dir, [rows[i] for i in part])
                   for part in parts if len(part)]
        return np.vstack([row for future in futures for row in future.result()])

    def _evaluate(self, run, final, v_dir, w_dir, coords):
        return _evaluate_rows(self, run[:2], final, v_dir, w_dir, [coords])[0]

    def _loss_compute(self, model, dataset, metrics):
        from mindspore.train.dataset_helper import DatasetHelper
        from mindspore.train.metrics import get_metrics
        self._metric_fns = get_metrics(metrics)
        for metric in self._metric_fns.values():
            metric.clear()
        network = model.train_network
        network.set_train(True)
        for inputs in DatasetHelper(dataset, False):
            inputs = (inputs,) if isinstance(inputs, Tensor) else inputs
            outputs = network(*inputs)
            outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
            if not isinstance(outputs, tuple):
                raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}. Modify "
                                 f"'output' to Tensor or tuple. ")
            for metric in self._metric_fns.values():
                metric.update(outputs[0])
        return {key: value.eval() for key, value in self._metric_fns.items()}

    # -- argument checks (MindSpore's messages) ---------------------------------------------------------------
    def _check_unit(self, unit):
        check_value_type("unit", unit, str)
        if unit not in ["step", "epoch"]:
            raise ValueError(f'For "{self.__class__.__name__}", the "unit" in train_metadata.json should be step or '
                             f'epoch, but got the: {unit}')

    def _check_landscape_size(self, landscape_size):
        check_value_type("landscape_size", landscape_size, int)
        if landscape_size < 3 or landscape_size > 256:
            raise ValueError(f'For "{self.__class__.__name__}", "landscape_size" in train_metadata.json should be '
                             f'between 3 and 256, but got the: {landscape_size}')

    def _check_create_landscape(self, create_landscape):
        check_value_type("create_landscape", create_landscape, dict)
        for param, value in create_landscape.items():
            if param not in ["train", "result"]:
                raise ValueError(f'For "{self.__class__.__name__}", the key of "create_landscape" should be in '
                                 f'["train", "result"], but got the: {param}.')
            if len(create_landscape) < 2:
                raise ValueError(f'For "{self.__class__.__name__}", the key of "create_landscape" should be train '
                                 f'and result, but only got the: {param}')
            check_value_type(param, value, bool)

    def _check_intervals(self, intervals):
        check_value_type("intervals", intervals, list)
        for interval in intervals:
            check_value_type("each interval in intervals", interval, list)
            if len(interval) < 3:
                raise ValueError(f'For "{self.__class__.__name__}", the length of each list in "intervals" should '
                                 f'not be less than three, but got the: {interval}.')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{self.__class__.__name__}", the type of each value in "intervals" should '
                                    f'be int, but got the: {type(j)}.')

    def _check_device_ids(self, device_ids):
        check_value_type("device_ids", device_ids, list)
        for i in device_ids:
            if not isinstance(i, int):
                raise TypeError(f'For "{self.__class__.__name__}.gen_landscapes_with_multi_process", the parameter '
                                f'"device_ids" type should be int, but got the: {type(i)}.')
            if i < 0 or i > 7:
                raise ValueError(f'For "{self.__class__.__name__}.gen_landscapes_with_multi_process", the parameter '
                                 f'"device_ids" should be between 0 and 7, but got {i}.')

    def _check_collect_landscape_data(self, collect_landscape):
        check_value_type("collect_landscape", collect_landscape, dict)
        for param in collect_landscape:
            if param not in ["landscape_size", "unit", "num_samples", "create_landscape", "intervals"]:
                raise ValueError(f'For "{self.__class__.__name__}", the key of collect landscape should be '
                                 f'landscape_size, unit, num_samples create_landscape or intervals, but got the: '
                                 f'{param}. ')
        if "landscape_size" in collect_landscape:
            self._check_landscape_size(collect_landscape["landscape_size"])
        if "unit" in collect_landscape:
            self._check_unit(collect_landscape["unit"])
        if "num_samples" in collect_landscape:
            check_value_type("num_samples", collect_landscape["num_samples"], int)
        if "create_landscape" in collect_landscape:
            self._check_create_landscape(collect_landscape["create_landscape"])
        if "intervals" in collect_landscape:
            self._check_intervals(collect_landscape["intervals"])

    def _check_json_file_data(self, data):
        for key in data:
            if key not in _METADATA_KEYS:
                raise ValueError(f'"train_metadata" json file should be {_METADATA_KEYS}, but got the: {key}')
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{self.__class__.__name__}", the "epoch_group" in train_metadata.json, length '
                                 f'of each list in "epoch_group" should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in data["model_params_file_map"]:
                    raise ValueError(f'For "{self.__class__.__name__}", the "model_params_file_map" in '
                                     f'train_metadata.json does not exist {epoch}th checkpoint in intervals.')
        check_value_type("step_per_epoch", data["step_per_epoch"], int)
        self._check_landscape_size(data["landscape_size"])
        self._check_unit(data["unit"])
        check_value_type("num_samples", data["num_samples"], int)
        self._check_create_landscape(data["create_landscape"])


def _evaluate_rows(landscape, fn_and_samples, final, v_dir, w_dir, rows):
    """Loss at ``final + x * v + y * w`` for each ``(x, y)`` of each row; runs in a worker process too (it builds
    its own model with ``callback_fn``)."""
    from mindspore.train.serialization import load_param_into_net
    callback_fn, num_samples = fn_and_samples
    model, network, dataset, metrics = callback_fn()
    batch_size = dataset.get_batch_size()
    dataset = dataset.take(max(num_samples // batch_size, 1))
    result = []
    for row in rows:
        values = []
        for alpha, beta in row:
            params = {}
            for i, (name, data) in enumerate(final):
                target = (data + alpha * v_dir[i] + beta * w_dir[i]).astype(np.float32)
                params[name] = Parameter(Tensor(target), name=name)
            load_param_into_net(network, params)
            loss = landscape._loss_compute(model, dataset, metrics)  # pylint: disable=protected-access
            if "Loss" not in loss:
                raise ValueError(f"For 'SummaryLandscape', the metrics returned by 'callback_fn' must have a 'Loss' "
                                 f"entry, but got {list(loss)}.")
            values.append(float(loss["Loss"]))
        result.append(np.array(values))
    return result
