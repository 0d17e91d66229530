"""Stand-ins, in Python, for names of MindSpore's C++ extension module ``mindspore._c_expression`` that libraries
written for MindSpore import directly (MindOne's diffusers: ``from mindspore._c_expression.amp import AmpLevel,
create_amp_strategy``). Only such names live here, each a re-export of the implementation at its public path."""
