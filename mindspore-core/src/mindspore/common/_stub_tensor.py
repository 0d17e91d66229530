"""MindSpore 2.10's private ``mindspore.common._stub_tensor`` module: what is left there of the stub tensor of
earlier releases (an asynchronous result whose value was computed on first use) is an empty ``StubTensor`` class
kept for libraries that still name it. MindNLP 0.4.1 patches a method onto it at import (after importing the
module itself: like 2.10, ``import mindspore`` does not), and its ``Module`` tests ``isinstance(x, StubTensor)``,
which no tensor of ours (or of 2.10) is."""


class StubTensor:
    """Remove this class when other modules are adapted."""   # 2.10's own docstring, kept verbatim
