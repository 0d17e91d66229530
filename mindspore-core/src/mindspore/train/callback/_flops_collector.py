"""``FlopsUtilizationCollector``: the model's FLOPs per step and, from each step's time, its FLOPs utilisation
(MFU/HFU) against a given device computility -- MindSpore's callback, for GRAPH_MODE networks as there.

The FLOPs are counted on the compiled graph of the train (or eval) network the first time a step ends: every
matrix product and convolution the step runs, backward ones included (``2 * output elements * reduced length``;
element-wise work is not counted, as in MindSpore). Without recomputation, hardware FLOPs equal model FLOPs, and on
one device the full counts equal the shard counts.
"""
from __future__ import annotations

import os
import stat
import time
from math import floor, prod

import mindspore.log as logger
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._cb_checks import check_bool, check_positive_int

__all__ = ["FlopsUtilizationCollector", "graph_flops"]

_MATMULS = ("MatMul", "BatchMatMul", "MatMulExt", "BatchMatMulExt", "Dense")
_CONV_FORWARD = ("Conv2D", "Conv3D", "Conv1D")
_CONV_BACKPROP_INPUT = ("Conv2DBackpropInput", "Conv2DTranspose", "Conv3DBackpropInput", "Conv3DTranspose")
_CONV_BACKPROP_FILTER = ("Conv2DBackpropFilter", "Conv3DBackpropFilter")


def _shape(node):
    shape = getattr(getattr(node, "abstract", None), "shape", None)
    return tuple(shape) if isinstance(shape, (tuple, list)) and all(isinstance(d, int) for d in shape) else None


def _counted_name(prim):
    """The primitive name the FLOPs rule applies to: a backend's fused chain (``FusedOp``, whose ``ops`` attribute
    lists the fused primitives) counts as its first op, a matrix product or convolution followed by element-wise
    ops that keep its output shape, and it takes that op's inputs first."""
    ops = getattr(prim, "attrs", {}).get("ops")
    if isinstance(ops, tuple) and ops:
        first = ops[0]
        return first if isinstance(first, str) else getattr(first, "name", "")
    return getattr(prim, "name", "")


def apply_flops(prim, in_shapes, out_shape):
    """FLOPs of one primitive application (0 for the kinds not counted); ``None`` for a dynamic shape."""
    name = _counted_name(prim)
    counted = name in _MATMULS + _CONV_FORWARD + _CONV_BACKPROP_INPUT + _CONV_BACKPROP_FILTER
    if not counted:
        return 0
    if out_shape is None or any(s is None for s in in_shapes[:2]) or any(d < 0 for d in out_shape):
        return None
    attrs = getattr(prim, "attrs", {})
    if name in _MATMULS:
        a = in_shapes[0]
        transpose_a = bool(attrs.get("transpose_a", attrs.get("transpose_x1", attrs.get("adj_x", False))))
        k = a[-2] if transpose_a and len(a) >= 2 else a[-1]
        return 2 * prod(out_shape) * k
    if name in _CONV_FORWARD:
        return 2 * prod(out_shape) * prod(in_shapes[1][1:])
    if name in _CONV_BACKPROP_INPUT:
        return 2 * prod(in_shapes[0]) * prod(in_shapes[1][1:])
    return 2 * prod(in_shapes[0]) * prod(out_shape[1:])   # backprop filter: output is the weight's shape


def graph_flops(graph):
    """``(flops, is_dynamic_shape)`` of every counted application in ``graph`` and the graphs it calls."""
    from mindspore._ir.nodes import Apply, Constant, graphs_of
    total, dynamic = 0, False
    for g in graphs_of(graph):
        for node in g.nodes:
            if not isinstance(node, Apply) or not isinstance(node.inputs[0], Constant):
                continue
            flops = apply_flops(node.inputs[0].value, [_shape(a) for a in node.inputs[1:]], _shape(node))
            if flops is None:
                dynamic = True
            else:
                total += flops
    return total, dynamic


def _compiled_graph(network):
    """The most recently compiled graph of ``network`` (None if it never ran compiled)."""
    from mindspore._pipeline.compiler import cache_for
    entries = list(cache_for(network).values())
    return entries[-1].graph if entries else None


class FlopsUtilizationCollector(Callback):
    """Print the model FLOPs once, then each step's time with its model/hardware FLOPs utilisation.

    Args:
        data_size (int): steps per epoch (the step time line is printed for steps not divisible by it, as MindSpore
            does).
        computility (float): peak FLOPs per second of the device; utilisation = FLOPs / step time / computility.
            Default: ``1``.
        full_flops (bool): report the full-model figures (else the shard ones). Default: ``True``.
        enable_ma_collector (bool): also write ``flops_rank_<id>.txt`` and ``time_step_rank_<id>.txt`` (under
            ``$MA_LOG_DIR``, default ``./``). Default: ``False``.

    Raises:
        TypeError / ValueError: ``data_size`` not a positive int, a flag not a bool.
        ValueError: at the first step end, if the network is not compiled (PYNATIVE mode) or has dynamic shapes.

    Examples:
        >>> from mindspore.train import FlopsUtilizationCollector
        >>> flops_callback = FlopsUtilizationCollector(2, computility=10e6)
    """

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ""
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size = None
        check_bool(full_flops, "full_flops")
        check_bool(enable_ma_collector, "enable_ma_collector")
        check_positive_int(data_size, "data_size")

    def step_begin(self, run_context):
        """Note the step's start time."""
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = getattr(run_context.original_args(), "batch_num", None)
            if isinstance(batch_num, int) and batch_num > 0:
                self.batch_step_size = batch_num
            check_positive_int(self.batch_step_size)
        self.step_time = time.time()

    def _refuse(self, message):
        if self.verbose:
            raise ValueError(message)
        logger.info(message)
        return False

    def _check_run_mode_valid(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode not in ("train", "eval"):
            return self._refuse("FlopsUtilizationCollector only support train and eval mode!")
        network = cb_params.train_network if cb_params.mode == "train" else cb_params.eval_network
        graph = _compiled_graph(network)
        if graph is None:
            return self._refuse("FlopsUtilizationCollector now only support graph mode.")
        flops, dynamic = graph_flops(graph)
        if dynamic:
            return self._refuse("FlopsUtilizationCollector now do not support dynamic shape.")
        self.full_model_flops = self.full_hardware_flops = float(flops)
        self.shard_model_flops = self.shard_hardware_flops = float(flops)
        return True

    @staticmethod
    def _write(path, text):
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT, stat.S_IWUSR | stat.S_IRUSR), "w") as f:
            f.write(text)

    def step_end(self, run_context):
        """Count the FLOPs once, then print the step time and utilisation."""
        step_ms = (time.time() - self.step_time) * 1000
        cb_params = run_context.original_args()
        if not self.mfu_calculated:
            if not self._check_run_mode_valid(run_context):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            log_dir = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            if self.ma:
                stamp = int(round(time.time() * 1000))
                self.time_step_path = os.path.join(log_dir, "time_step_rank_0.txt")
                self._write(os.path.join(log_dir, "flops_rank_0.txt"),
                            f'flops{{type="model_flops", rank_id="0"}} {self.shard_model_flops} {stamp}\n'
                            f'flops{{type="hardware_flops", rank_id="0"}} {self.shard_hardware_flops} {stamp}\n')
            if self.verbose:
                if self.full_flops:
                    print(f"Full model flops is {self.full_mfu * self.computility}, Full hardware flops is "
                          f"{self.full_hfu * self.computility}, Shard model flops is {self.shard_model_flops}, "
                          f"Shard hardware flops is {self.shard_hardware_flops}.", flush=True)
                else:
                    print(f"Shard model flops is {self.shard_model_flops}, Shard hardware flops is "
                          f"{self.shard_hardware_flops}.", flush=True)
        if cb_params.dataset_sink_mode:
            step_ms = step_ms / self.batch_step_size
        if self.ma:
            self._write(self.time_step_path, f'time_monitor{{type="per_step_time", rank_id="0"}} {step_ms} '
                                             f'{int(round(time.time() * 1000))}\n')
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu_flops, hfu_flops = ((self.full_mfu, self.full_hfu) if self.full_flops
                                    else (self.shard_mfu, self.shard_hfu))
            line = f"{cb_params.mode.title()} per step time: {step_ms:5.3f} ms"
            for label, value in ((" mfu:", 1000 * mfu_flops / step_ms), (" hfu:", 1000 * hfu_flops / step_ms)):
                scaled = value * 10 ** 4
                line += label + f"{floor(scaled) / 10 ** 2:.2f}%"
            print(line, flush=True)
