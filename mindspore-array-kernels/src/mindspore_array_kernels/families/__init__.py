"""The kernel families' sources: each is bound into a backend's module by :func:`mindspore_array_kernels.bind`
(with the backend's array library as ``xp``), not imported as a module of its own."""
