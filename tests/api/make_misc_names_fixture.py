"""Records what real MindSpore 2.10 (CPU) answers for the calls of :data:`CASES` (top-level knobs, runtime controls,
Tensor flags, ``Symbol``, ``rewrite``'s ``ScopedValue``, ops helpers and registration builders) and the gradients
of :data:`HOOK_CASE` (``saved_tensors_hooks``) into ``tests/fixtures/api/misc_names_msref.json``: each result's
repr, or its exception type and message.
``mindspore-core/tests/test_misc_names.py`` replays them.

Run with a Python that has real MindSpore (CPU), from outside the repository::

    /tmp/w/msref/bin/python tests/api/make_misc_names_fixture.py
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "misc_names_msref.json")

SETUP = """
import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore import ops
from mindspore.rewrite import ScopedValue
x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
"""

#: expressions (evaluated after SETUP, each in the same process, in order)
CASES = [
    "ms.set_recursion_limit(500)",
    "ms.set_recursion_limit(-1)",
    "ms.set_recursion_limit(0)",
    "ms.set_recursion_limit('a')",
    "ms.set_dump(3)",
    "ms.set_dump(nn.Dense(2, 2), enabled=1)",
    "ms.no_inline(len) is len",
    "ms.Symbol(max=10, min=2, divisor=2).to_dict()",
    "ms.Symbol(max=64, divisor=8, remainder=1).to_dict()",
    "ms.Symbol(min=0)",
    "ms.Symbol(divisor=0)",
    "ms.Symbol(divisor=4, remainder=4)",
    "ms.Symbol(max=1.5)",
    "ms.Symbol(unique=1)",
    "ms.enable_dynamic()",
    "ms.enable_dynamic(x=None)",
    "ms.enable_dynamic(x=ms.Tensor(np.ones((2, 3), np.float32)))",
    "ms.UntypedStorage()",
    "ms.mindio_preload('/tmp/none.ckpt')",
    "ms.mindio_preload(3)",
    "ms.set_mindio_server_info(0)",
    "ms.DeviceCtx('XPU').__enter__()",
    "ms.set_kernel_launch_group(thread_num=0)",
    "ms.set_kernel_launch_group(thread_num=3, kernel_group_num=8)",
    "ms.set_kernel_launch_capture(True, op_capture_skip='x')",
    "ms.get_stream_limit(None)",
    "ms.set_stream_limit(None)",
    "ms.StreamLimitCtx(None)",
    "ms.PluggableAllocator('/nonexistent/alloc.so', 'a', 'b')",
    "x.to_('XPU')",
    "x.to_()",
    "x.untyped_storage().nbytes()",
    "x.untyped_storage().size()",
    "x.init_flag",
    "x.const_arg",
    "x.param_info",
    "x.virtual_flag",
    "x.symbolic_shape",
    "x.init",
    "x.init_finished",
    "x.is_init()",
    "x.hooks()",
    "x.set_const_arg().const_arg",
    "x.requires_grad_()",
    "ms.Tensor.from_dlpack(x.to_dlpack()).asnumpy().tolist()",
    "x.index(1)",
    "ms.Tensor.remove_hook('a')",
    "str(ScopedValue.create_naming_value('a', 'self'))",
    "str(ScopedValue.create_variable_value(1))",
    "str(ScopedValue.create_variable_value((1, 2)))",
    "str(ScopedValue.create_name_values(['a', 'b']))",
    "ops.CustomRegOp().input(0, 'x').output(0, 'y').dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default)"
    ".attr('a', 'required', 'float', value=1.0).target('CPU').get_op_info()",
    "ops.TBERegOp('Abs').fusion_type('ELEMWISE').async_flag(False).binfile_name('abs.so').compute_cost(10)"
    ".kernel_name('abs').partial_flag(True).input(0, 'x', None, 'required', None)"
    ".output(0, 'y', True, 'required', 'all').dtype_format(ops.DataType.F16_Default, ops.DataType.F16_Default)"
    ".get_op_info()",
    "ops.CpuRegOp('A').input(0, 'x', 'required').output(0, 'y', 'required').attr('k', 'int', '1')"
    ".dtype_format(ops.DataType.I32_Default, ops.DataType.BOOL_5HD).get_op_info()",
    "ops.AkgGpuRegOp('B').input(0, 'x').output(0, 'y').attr('k', 'required', 'int').get_op_info()",
    "ops.AiCPURegOp('C').get_op_info()",
    "sorted((k, v) for k, v in vars(ops.DataType).items() if not k.startswith('_'))",
    "ops.CustomRegOp('')",
    "ops.CustomRegOp(1)",
    "ops.CustomRegOp().input(0, 'x').dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default)",
    "ops.CustomRegOp().input('0', 'x')",
    "ops.TBERegOp('A').dtype_format(('float32',))",
    "ops.padding(ms.Tensor(np.ones((2, 2), np.float32)))",
    "ops.padding(ms.Tensor(np.array([[8.0], [10.0]], np.float32)), 4).asnumpy().tolist()",
    "ops.P2POp('send', x, 0)",
    "ops.P2POp('isend', 1, 0)",
    "ops.P2POp('isend', x, 1.0)",
    "ops.P2POp('irecv', x, 1).peer",
    "[round(float(ops.cond(ms.Tensor(np.array([[1., 2.], [3., 4.]], np.float32)), p).asnumpy()), 4) "
    "for p in (None, 'fro', 'nuc', 1, -1, 2, -2, float('inf'), float('-inf'))]",
    "ops.mixed_precision_cast(ms.float16, (x, 1, [x]))[2][0].dtype == ms.float16",
    "ops.is_tensor_bool_cond(x)",
    "ops.is_sequence_shape_unknown((1, 2))",
    "ops.is_sequence_value_unknown((1, 2))",
    "[np.round(t.asnumpy(), 5).tolist() for t in ops.jet(ops.sin, ms.Tensor(np.array([1.0, 2.0], np.float32)), "
    "ms.Tensor(np.array([[1.0, 0.5], [0.0, 1.0], [2.0, 0.0]], np.float32)))]",
    "ops.composite.add_flags(lambda a: a, a=True)._func_graph_flags",
]

HOOK_CASE = """
packed, unpacked = [], []
def pack(t):
    packed.append(t.shape)
    return t
def unpack(t):
    unpacked.append(t.shape)
    return t * 2
a = ms.Tensor(np.ones((2, 3), np.float32))
b = ms.Tensor(np.full((2, 3), 3, np.float32))
def f(a, b):
    with ms.saved_tensors_hooks(pack, unpack):
        z = a * b
    return z.sin().sum()
ga, gb = ms.grad(f, grad_position=(0, 1))(a, b)
hook_result = {"ga": ga.asnumpy().tolist(), "gb": gb.asnumpy().tolist(), "packed": len(packed),
               "unpacked": len(unpacked)}
"""

RUNNER = r"""
import json
CASES = %r
out = {"__saved_tensors_hooks__": hook_result}
for case in CASES:
    try:
        out[case] = {"result": repr(eval(case))}
    except Exception as e:  # noqa: BLE001
        out[case] = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
print(json.dumps(out))
"""


def main():
    code = SETUP + HOOK_CASE + RUNNER % (CASES,)
    with tempfile.TemporaryDirectory() as tmp:   # a real file: MindSpore's grad reads the functions' source
        script = os.path.join(tmp, "misc_names_runner.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(code)
        proc = subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=tmp, check=False)
    if proc.returncode:
        sys.exit(proc.stderr[-3000:])
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    with open(OUT_FILE, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print(f"wrote {len(data)} entries to {OUT_FILE}")


if __name__ == "__main__":
    main()
