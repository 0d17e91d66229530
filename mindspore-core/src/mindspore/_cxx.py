"""What core's C++-facing features share (``ops.CustomOpBuilder``, AOT custom operators, ``DtypeToEnum``): the
system C++ compiler and MindSpore's ``TypeId`` numbers of the tensor dtypes."""
import os
import shlex
import shutil

from mindspore.common import dtype as mstype

__all__ = ["TYPE_IDS", "find_compiler"]

#: MindSpore's ``TypeId`` numbers of the tensor dtypes (the values of its C++ enum; kNumberTypeFloat32 == 43).
TYPE_IDS = {
    mstype.bool_: 30, mstype.int8: 32, mstype.int16: 33, mstype.int32: 34, mstype.int64: 35, mstype.uint8: 37,
    mstype.uint16: 38, mstype.uint32: 39, mstype.uint64: 40, mstype.float16: 42, mstype.float32: 43,
    mstype.float64: 44, mstype.bfloat16: 45, mstype.complex64: 51, mstype.complex128: 52,
}


def find_compiler(op="CustomOpBuilder"):
    """The C++ compiler command (a list): ``$CXX`` (may hold flags), else the first of c++, g++, clang++."""
    env = os.environ.get("CXX")
    if env:
        cmd = shlex.split(env)
        if cmd and shutil.which(cmd[0]):
            return cmd
        raise RuntimeError(f"For '{op}', the C++ compiler given by the environment variable CXX "
                           f"({env!r}) was not found.")
    for name in ("c++", "g++", "clang++"):
        path = shutil.which(name)
        if path:
            return [path]
    raise RuntimeError(f"For '{op}', no C++ compiler was found (looked for $CXX, c++, g++, clang++): "
                       "install one (e.g. 'apt-get install g++') or set CXX.")
