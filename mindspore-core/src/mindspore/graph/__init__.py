"""MindSpore's ``mindspore.graph``: where 2.10 gathers the graph-compilation API (its submodules ``api``,
``jit_config``, ``mutable``, ``lazy_inline``, ``no_inline`` and ``symbol`` are here). Its registration of custom
compiler passes and backends (``register_custom_pass``, ``register_custom_backend``, ``register_op_infer``) hooks into
MindSpore's C++ compiler and has no counterpart: this project's backend passes are registered through
:mod:`mindspore.plugin` (``PassRegistry``)."""
