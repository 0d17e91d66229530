"""Nox sessions: ``nox`` runs every test on regular installs of all distributions; ``nox -s data``
runs one distribution's tests (with mindspore-core and the CPU backend, which computing needs);
``nox -s bench`` runs the cross-framework benchmarks (not a test, not a default session); ``nox -s fuzz`` runs the
fuzz suite (tests/fuzz) with many more examples than CI does (not a default session: a nightly job)."""
import os

import nox

DISTRIBUTIONS = ("mindspore-core", "mindspore-array-kernels", "mindspore-cpu", "mindspore-gpu", "mindspore-ascend",
                 "mindspore-data", "mindspore-parallel")
BASE = ("./mindspore-core", "./mindspore-array-kernels", "./mindspore-cpu")
# what the cross-package tests read or compare with besides our distributions (as .ci/run installs)
CROSS_EXTRAS = ("safetensors", "cryptography", "grpcio-tools", "onnx", "onnxruntime", "mpi4py", "mpich")

nox.options.sessions = ["tests"]


@nox.session
def tests(session):
    """Install every distribution and run all tests."""
    session.install("pytest", "setuptools", "hypothesis", *CROSS_EXTRAS, *(f"./{d}" for d in DISTRIBUTIONS))
    session.run("pytest", *(f"{d}/tests" for d in DISTRIBUTIONS), "tests", *session.posargs)


def _distribution_session(name, extra=()):
    def run(session):
        session.install("pytest", *BASE, *extra)
        session.run("pytest", f"mindspore-{name}/tests", *session.posargs)
    run.__doc__ = f"mindspore-{name}'s tests."
    run.__name__ = name
    return nox.session(name=name)(run)


core = _distribution_session("core")
array_kernels = _distribution_session("array-kernels")
cpu = _distribution_session("cpu")
gpu = _distribution_session("gpu", ["./mindspore-gpu", "nvidia-cuda-nvrtc"])    # (NVRTC compiles the raw kernels)
ascend = _distribution_session("ascend", ["./mindspore-ascend"])
data = _distribution_session("data", ["./mindspore-data"])
parallel = _distribution_session("parallel", ["./mindspore-parallel[mpi]"])


@nox.session
def cross(session):
    """Cross-package tests in tests/ (plugins, packaging, ...), everything installed."""
    session.install("pytest", "setuptools", "hypothesis", *CROSS_EXTRAS, *(f"./{d}" for d in DISTRIBUTIONS))
    session.run("pytest", "tests", "--ignore=tests/conformance", *session.posargs)


FUZZ_EXAMPLES = "2000"  # per target; CI runs tests/fuzz with its default of 20 (fuzz_harness.EXAMPLES)


@nox.session
def fuzz(session):
    """The fuzz suite at length: damaged checkpoint, safetensors, MindRecord, MNIST and CIFAR files through the
    loaders, and Hypothesis-made inputs through the op conformance cases in both modes. ``MS_FUZZ_EXAMPLES``
    (default 2000 here) sets the examples per target, ``MS_FUZZ_TIMEOUT`` the seconds a load may take; the runs
    are derandomized (reproducible) and write no example database."""
    session.install("pytest", "hypothesis", "cryptography", *BASE, "./mindspore-data")
    env = {"MS_FUZZ_EXAMPLES": os.environ.get("MS_FUZZ_EXAMPLES", FUZZ_EXAMPLES)}
    session.run("pytest", "tests/fuzz", "-p", "no:cacheprovider", *session.posargs, env=env)


@nox.session
def conformance(session):
    """The op conformance table on every installed backend."""
    session.install("pytest", *BASE, "./mindspore-gpu")
    session.run("pytest", "tests/conformance", *session.posargs)


@nox.session
def strict(session):
    """Core, the op conformance suite and the LeNet fixture on the test-only STRICT device (buffers that refuse
    implicit NumPy conversion, as CuPy's do): proves core stays device-resident without a GPU."""
    session.install("pytest", *BASE)
    session.run("pytest", "mindspore-core/tests", "tests/conformance", "tests/e2e/test_lenet_fixture.py", "tests/autodiff",
                "tests/ops", *session.posargs, env={"MS_TEST_DEVICE_TARGET": "STRICT"})


ROOT = os.path.dirname(os.path.abspath(__file__))
BENCH_VENVS = {  # peer framework: (venv, what pip installs into it)
    "torch": (".venv-bench-torch", ("torch==2.13.0", "numpy")),
    "mindspore": (".venv-bench-ms", ("mindspore==2.10.0", "numpy<2")),
}


def _bench_venv(session, venv, requirements):
    """Create the peer framework's venv (kept between runs, git-ignored) and install into it; returns its python."""
    location = os.path.join(ROOT, venv)
    python = os.path.join(location, "bin", "python")
    if not os.path.exists(python):
        session.run("python", "-m", "venv", location)
    session.run(python, "-m", "pip", "install", "--quiet", *requirements, external=True)
    return python


@nox.session
def bench(session):
    """Cross-framework benchmarks: ours (this session's venv), torch==2.13.0 and mindspore==2.10.0 (their own venvs).

    benchmarks/harness.py runs every workload in every framework and mode with the same thread count and writes
    benchmarks/RESULTS.md. Arguments after ``--`` go to the harness, e.g. ``nox -s bench -- --rounds 3`` or
    ``-- --workloads mlp,lenet --skip mindspore``. PyTorch must be the CPU build: where no local wheel provides
    it, set ``PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu``.
    """
    session.install(*BASE)
    ours = os.path.join(session.virtualenv.location, "bin", "python")
    peers = {name: _bench_venv(session, venv, requirements) for name, (venv, requirements) in BENCH_VENVS.items()}
    session.run("python", os.path.join(ROOT, "benchmarks", "harness.py"), "--ours-python", ours,
                "--torch-python", peers["torch"], "--mindspore-python", peers["mindspore"], *session.posargs)
