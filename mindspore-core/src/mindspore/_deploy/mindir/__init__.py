"""MindIR, MindSpore's model format (``mind_ir.proto``): ``save`` writes a captured network
(:mod:`.writer`), ``load`` reads a file written here or by MindSpore into a graph that ``nn.GraphCell`` runs
(:mod:`.reader`)."""
from mindspore._deploy.mindir.reader import load  # noqa: F401
