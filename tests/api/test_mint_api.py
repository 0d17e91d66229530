"""``mindspore.mint`` and its submodules have every public name of MindSpore 2.10, with its signature.

The name lists (``tests/fixtures/api/mint_names_<module>.txt``) are the names real MindSpore 2.10 resolves;
``mint_signatures.json`` holds their parameters (names, kinds, defaults) as recorded from it by
``tests/api/make_mint_fixture.py --signatures``. Overloaded functions (``(*args, **kwargs)`` there) are
checked by calling them in ``test_mint_values.py``.
"""
import importlib
import importlib.util
import json
import pathlib

import pytest

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api"
MODULES = ("mint", "mint.nn", "mint.nn.functional", "mint.optim", "mint.linalg", "mint.special", "mint.distributed")


def _maker():
    spec = importlib.util.spec_from_file_location("make_mint_fixture", pathlib.Path(__file__).with_name(
        "make_mint_fixture.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _names(mod):
    return (FIXTURES / f"mint_names_{mod}.txt").read_text().split()


def test_name_lists_are_complete():
    assert sum(len(_names(m)) for m in MODULES) == 383


@pytest.mark.parametrize("mod", MODULES)
def test_every_name_exists(mod):
    module = importlib.import_module("mindspore." + mod)
    missing = sorted(n for n in _names(mod) if not hasattr(module, n))
    assert missing == []


@pytest.mark.parametrize("mod", sorted(_maker().EXTRA_NAMES))
def test_public_names_outside_all_exist(mod):
    """Names MindSpore 2.10 exposes without listing them in ``__all__`` (``mint.ones``, ``mint.nn.Embedding``...)."""
    module = importlib.import_module("mindspore." + mod)
    assert sorted(n for n in _maker().EXTRA_NAMES[mod] if not hasattr(module, n)) == []


def test_mint_all_is_the_function_list():
    from mindspore import mint
    assert sorted(mint.__all__) == sorted(_names("mint"))


def test_submodules_are_reachable_from_mindspore():
    import mindspore
    assert mindspore.mint.nn.functional.relu is not None
    assert mindspore.mint.optim.AdamW is not None
    assert mindspore.mint.linalg.inv is not None


def _normal(sig):
    """Dtype defaults read ``mindspore.int64`` in MindSpore and ``Int64`` here."""
    if sig is None:
        return None
    return [[name, kind, None if d is None else d.lower().replace("mindspore.", "")] for name, kind, d in sig]


@pytest.mark.parametrize("mod", MODULES)
def test_signatures_match_mindspore(mod):
    maker = _maker()
    reference = json.loads((FIXTURES / "mint_signatures.json").read_text())[mod]
    module = importlib.import_module("mindspore." + mod)
    wrong = {}
    for name, sig in reference.items():
        if sig is None:
            continue
        ours = maker.signature_of(getattr(module, name))
        ours = [list(p) for p in ours] if ours is not None else None
        if _normal(ours) != _normal(sig):
            wrong[name] = (sig, ours)
    assert wrong == {}
