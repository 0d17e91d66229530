"""Print how much of real MindSpore 2.10's public API the installed code has, namespace by namespace.

    python scripts/api_coverage.py                 # the table: namespace, real 2.10, ours, %
    python scripts/api_coverage.py --missing NS    # the names of namespace NS we lack, one a line
    python scripts/api_coverage.py --json          # {namespace: ours} (what coverage_floor.json records)

The real names come from ``tests/fixtures/api/mindspore-2.10-names.json`` (made by
``scripts/api_names_from_ms.py`` with real MindSpore). A name counts as ours when it resolves on our
module (for ``mindspore.Tensor``: on the class or on an instance; for the three ``mindspore.ops:*``
rows: on ``mindspore.ops``). Nothing here imports real MindSpore.
"""
import argparse
import importlib
import json
import pathlib
import sys

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "api" / "mindspore-2.10-names.json"


def load_reference(path=FIXTURE):
    return json.loads(pathlib.Path(path).read_text())["namespaces"]


def _resolver(namespace):
    """A predicate ``name -> bool`` for our side of ``namespace`` (always False if we lack the module)."""
    if namespace == "mindspore.Tensor":
        from mindspore import Tensor
        instance = Tensor([1.0])
        return lambda name: hasattr(Tensor, name) or hasattr(instance, name)
    modname = namespace.split(":")[0]
    try:
        module = importlib.import_module(modname)
    except Exception:  # noqa: BLE001 - a namespace we do not ship (or that fails to import) has nothing
        return lambda name: False

    def has(name):
        try:
            getattr(module, name)
        except Exception:  # noqa: BLE001 - a lazily resolved name that fails is not there
            return False
        return True
    return has


def coverage(reference=None):
    """``{namespace: (real_names, missing_names)}`` for every namespace of the reference."""
    reference = load_reference() if reference is None else reference
    result = {}
    for namespace, names in reference.items():
        has = _resolver(namespace)
        result[namespace] = (names, [n for n in names if not has(n)])
    return result


def _rows(cov):
    for namespace in sorted(cov):
        names, missing = cov[namespace]
        ours = len(names) - len(missing)
        pct = 100.0 * ours / len(names) if names else 100.0
        yield namespace, len(names), ours, pct


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", metavar="NS", help="print the names of namespace NS that we lack")
    parser.add_argument("--json", action="store_true", help="print {namespace: ours} as JSON")
    args = parser.parse_args(argv)
    reference = load_reference()
    if args.missing:
        if args.missing not in reference:
            parser.error(f"unknown namespace {args.missing!r}; one of: {', '.join(sorted(reference))}")
        cov = coverage({args.missing: reference[args.missing]})
        print("\n".join(cov[args.missing][1]))
        return 0
    cov = coverage(reference)
    if args.json:
        print(json.dumps({ns: ours for ns, _, ours, _ in _rows(cov)}, indent=1, sort_keys=True))
        return 0
    print(f"| {'namespace':32s} | {'real 2.10':>9s} | {'ours':>5s} | {'%':>6s} |")
    print(f"| {'-' * 32} | {'-' * 9:>9s} | {'-' * 5:>5s} | {'-' * 6:>6s} |")
    total_real = total_ours = 0
    for namespace, real, ours, pct in _rows(cov):
        total_real += real
        total_ours += ours
        print(f"| {namespace:32s} | {real:9d} | {ours:5d} | {pct:5.1f}% |")
    print(f"| {'all':32s} | {total_real:9d} | {total_ours:5d} | {100.0 * total_ours / total_real:5.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
