"""What a backend tells core about a device target, and the runtime it hands over for one.

:class:`BackendProbe` is the answer of ``ms_backend_probe`` (one per target a plugin offers), and
:class:`DeviceRuntime` the base of what ``ms_backend_create`` returns. Both are part of the public
plugin contract (:mod:`mindspore.plugin`).

Buffers: a runtime's buffers are whatever array type its kernels compute on (``numpy.ndarray`` on the
CPU, ``cupy.ndarray`` on the GPU). Core never computes on them; it reads only ``buffer.shape`` (a tuple
of ints) and ``buffer.dtype`` (a NumPy dtype, ``ml_dtypes`` for bfloat16), and moves data only through
:meth:`DeviceRuntime.from_host` and :meth:`DeviceRuntime.to_host`.
"""
from __future__ import annotations

import dataclasses

__all__ = ["BackendProbe", "DeviceRuntime"]


@dataclasses.dataclass
class BackendProbe:
    """What a plugin says about one device target it offers.

    Attributes:
        target (str): the target's name, as users pass it to ``set_context(device_target=...)``
            (``"CPU"``, ``"GPU"``, ``"Ascend"``, or a third party's own name). Matching is
            case-insensitive.
        available (bool): whether the target is usable on this machine now.
        reason (str): why not, when unavailable (``"no CUDA device"``); shown to users.
        priority (int): among usable targets, the highest priority is the default (CPU: 0, GPU: 10).
        device_count (int): how many devices of this target the machine has.
        install_hint (str): what to install when the target is missing (``"pip install my-backend"``).
    """

    target: str
    available: bool
    reason: str = ""
    priority: int = 0
    device_count: int = 0
    install_hint: str = ""


class DeviceRuntime:
    """A device runtime: host transfers and synchronisation for one target.

    Subclasses set :attr:`target` and :attr:`is_host` and override the transfers. A runtime whose
    buffers live in host memory as ``numpy.ndarray`` (``is_host = True``) may keep the identity
    transfers below; every other runtime must override :meth:`from_host` and :meth:`to_host`.
    """

    #: The target name this runtime serves.
    target = "CPU"
    #: Whether buffers are host ``numpy.ndarray`` objects (transfers are then free).
    is_host = True
    #: The classes of the buffers this runtime makes (``(numpy.ndarray,)``, ``(cupy.ndarray,)``): core reads a
    #: tensor made on another target (before ``set_context(device_target=...)`` changed it) through the
    #: runtime that made it. Empty: every buffer is taken to be the current runtime's.
    buffer_types = ()

    def from_host(self, array):
        """A device buffer holding a copy of (or, for host runtimes, sharing) the NumPy ``array``."""
        return array

    def to_host(self, buffer):
        """A ``numpy.ndarray`` with the data of ``buffer`` (may share memory on host runtimes)."""
        return buffer

    def copy(self, buffer):
        """A new buffer on this device with the data of ``buffer`` (a Parameter made from a tensor, a clone).
        Override with a device-side copy; this default goes through the host."""
        return self.from_host(self.to_host(buffer).copy())

    def synchronize(self):
        """Wait until every kernel launched on this runtime has finished."""

    def set_threads(self, n):
        """Use ``n`` threads for kernels (``set_context(runtime_num_threads=n)``); runtimes with a
        thread pool resize it."""
        self.threads = n
