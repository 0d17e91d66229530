"""``mindspore.ops._primitive_cache._get_cache_prim``: MindSpore's private helper, used by libraries written for it
(MindNLP's ``functional``, MindFormers), that returns one primitive instance per class and construction arguments,
so a function that builds ``_get_cache_prim(ops.Softmax)(axis)`` on every call does not build a new primitive each
time.

The key is the class and the ``str`` of every argument (as 2.10's). Primitives are stateless once built, so the
shared instance computes what a fresh one would, in PYNATIVE and in staged code alike."""

_PRIM_CACHE = {}


def _get_cache_prim(cls):
    """A function ``(*args, **kwargs) -> cls(*args, **kwargs)`` that builds each distinct primitive once.

    Examples:
        >>> from mindspore import ops
        >>> from mindspore.ops._primitive_cache import _get_cache_prim
        >>> _get_cache_prim(ops.Softmax)(-1) is _get_cache_prim(ops.Softmax)(axis=-1)
        False
        >>> _get_cache_prim(ops.Softmax)(-1) is _get_cache_prim(ops.Softmax)(-1)
        True
    """
    def get(*args, **kwargs):
        key = str((str(cls),) + tuple(str(a) for a in args) + tuple(f"{k}:{v}" for k, v in kwargs.items()))
        prim = _PRIM_CACHE.get(key)
        if prim is None:
            prim = _PRIM_CACHE[key] = cls(*args, **kwargs)
        return prim
    return get
