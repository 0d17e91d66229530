"""One instance of a library path (cuDNN's convolutions and attention, cuBLASLt's products) per CuPy module: the
real ``cupy``, or a test's stand-in, each with its own state."""

__all__ = ["PerCupy"]


class PerCupy:
    """``per(cupy)``: the instance ``factory(cupy)`` made for that CuPy module, made once."""

    def __init__(self, factory):
        self.factory = factory
        self._made = {}       # id(cupy) -> (cupy, instance): the module kept, so a recycled id is not mistaken

    def __call__(self, cupy):
        hit = self._made.get(id(cupy))
        if hit is None or hit[0] is not cupy:
            hit = (cupy, self.factory(cupy))
            self._made[id(cupy)] = hit
        return hit[1]

    def values(self):
        """The ``(cupy, instance)`` pairs made so far."""
        return list(self._made.values())

    def describe(self, cupy):
        """The instance's ``describe_status()`` line for ``python -m mindspore.info``; never raises."""
        try:
            return self(cupy).describe_status()
        except Exception as exc:  # noqa: BLE001
            return f"unknown ({type(exc).__name__}: {exc})"
