"""The bottom of the operator layer: primitives, specs, their one abstract evaluation, and the
interpreter stack that ``Primitive.__call__`` asks. Nothing here imports Tensor, ops, a backend or
an interpreter: those sit above and register themselves."""
