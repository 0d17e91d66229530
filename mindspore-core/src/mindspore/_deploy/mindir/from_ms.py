"""The MindIR primitive table: MindSpore 2.10's primitive names -> rules that run them on our primitives.

:data:`RULES` is the union of :mod:`.from_ms_array` (plumbing, shape arithmetic, math, arrays, reductions) and
:mod:`.from_ms_nn` (convolution, pooling, normalisation, activations, resizing, losses, LSTM); :mod:`.from_ms_base`
says what a rule is and how a node binds to it. The reader (:mod:`.reader`) looks every node's primitive up here
at load time, so a primitive missing from the table is an error before anything runs. Every name our writer's
table (:mod:`.to_ms`) can emit has a rule here (``tests/export/test_mindir_roundtrip.py`` keeps it so).
"""
from __future__ import annotations

from mindspore._deploy.mindir import from_ms_array, from_ms_nn
from mindspore._deploy.mindir.from_ms_base import MONAD, Rule

__all__ = ["RULES", "MONAD", "Rule", "supported_primitives"]

RULES = {**from_ms_array.RULES, **from_ms_nn.RULES}


def supported_primitives():
    """The sorted names of the MindSpore primitives a MindIR file may use."""
    return sorted(RULES)
