"""Builds the C++ kernels (``mindspore_cpu._kernels``) with the machine's compiler at install time."""
import os
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

# The C++ files compile in parallel, one per core (NPY_NUM_BUILD_JOBS=N to choose).
ParallelCompile("NPY_NUM_BUILD_JOBS").install()

_here = os.path.dirname(os.path.abspath(__file__))
_csrc = os.path.join("src", "mindspore_cpu", "_csrc")
_sources = sorted(os.path.join(_csrc, f) for f in os.listdir(os.path.join(_here, _csrc)) if f.endswith(".cpp"))
# Headers: a change rebuilds the extension, and they travel in the sdist with the sources.
_headers = sorted(os.path.join(_csrc, f) for f in os.listdir(os.path.join(_here, _csrc)) if f.endswith(".h"))

# Baseline ISA only (no -march): the GEMM picks AVX-512/AVX2 micro-kernels at run time. No
# -ffast-math: results must match the NumPy references (NaN/inf semantics included).
_compile = ["-O3", "-fopenmp"] if sys.platform != "darwin" else ["-O3"]
_link = ["-fopenmp"] if sys.platform != "darwin" else []

setup(
    ext_modules=[
        Pybind11Extension(
            "mindspore_cpu._kernels",
            _sources,
            depends=_headers,
            cxx_std=17,
            extra_compile_args=_compile,
            extra_link_args=_link,
        )
    ],
    cmdclass={"build_ext": build_ext},
)
