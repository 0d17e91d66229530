"""NCCL on a machine with one GPU: mindspore-parallel's NCCL communicator (``communication/_nccl.py``) over a
one-rank MPI world, every collective on device buffers against its expected result, and the all-reduce
bandwidth beside a plain device copy of the same bytes.

    python tests/gpu/nccl_check.py            # (or under mpiexec -n 1) prints one line per check, exit 1 on a failure

NCCL refuses two ranks on one GPU, so one GPU checks the path (unique id over MPI, communicator, types, every
call on device pointers and the current stream) with one rank; several GPUs run the multi-rank suites.
"""
import sys
import time

import numpy as np


def main():
    import cupy
    from mpi4py import MPI

    from mindspore.communication._mpi import MPICommunicator

    mpi = MPICommunicator(MPI.COMM_WORLD)
    nc = mpi.nccl()
    if nc is None:
        print("NCCL unavailable (cupy.cuda.nccl did not import)")
        return 1
    print(f"NCCL {cupy.cuda.nccl.get_version()} on {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, "
          f"{mpi.size} rank")
    bad = 0

    def check(name, got, want):
        nonlocal bad
        got = [cupy.asnumpy(g) for g in (got if isinstance(got, (list, tuple)) else [got])]
        want = want if isinstance(want, (list, tuple)) else [want]
        ok = len(got) == len(want) and all(g.shape == w.shape and g.dtype == w.dtype and np.array_equal(g, w)
                                           for g, w in zip(got, want))
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}")

    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float16, np.float64, np.int32, np.int64, np.bool_):
        host = (rng.standard_normal((6, 4)) * 8).astype(dtype)
        x = cupy.asarray(host)
        for op in ("sum", "max", "min", "prod"):
            if dtype == np.bool_ and op != "sum":
                continue
            check(f"allreduce {op} {np.dtype(dtype).name}", nc.allreduce(x, op), host)
        check(f"all_gather {np.dtype(dtype).name}", nc.all_gather(x), host)
    x = cupy.asarray(rng.standard_normal((6, 4)).astype(np.float32))
    host = cupy.asnumpy(x)
    check("reduce_scatter", nc.reduce_scatter(x), host)
    check("broadcast", nc.broadcast_many([x, x[:2]]), [host, host[:2]])
    check("reduce", nc.reduce(x), host)
    check("alltoall", nc.alltoall(x, 0, 0), host)
    check("gather", nc.gather(x), host)
    check("scatter", nc.scatter(x), host)

    for mb in (1, 16, 256):
        n = mb * (1 << 20) // 4
        a = cupy.ones(n, np.float32)
        nc.allreduce(a)
        cupy.cuda.Device().synchronize()
        times, copies = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            nc.allreduce(a)
            cupy.cuda.Device().synchronize()
            times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            a.copy()
            cupy.cuda.Device().synchronize()
            copies.append(time.perf_counter() - t0)
        print(f"allreduce {mb:4d} MB float32: {min(times) * 1e3:8.3f} ms ({mb / 1024 / min(times):7.1f} GB/s); "
              f"a device copy of it {min(copies) * 1e3:8.3f} ms")
    print(f"{bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
