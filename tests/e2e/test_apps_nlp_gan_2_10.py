"""MindSpore's NLP and GAN application tutorials (LSTM+CRF sequence labeling, LSTM sentiment classification with
GloVe, the MNIST GAN and DCGAN) run unchanged on ours, with the numbers real MindSpore 2.10 gave for the same code:
the pages' code in PyNative, under ``ms.jit`` and in GRAPH_MODE.

The pages' code is in tests/fixtures/tutorials/apps_nlp_gan.py (each function cites its page and lists the changes:
seeded synthetic data instead of the downloads, NumPy-seeded weights and noise, small sizes);
``record_apps_nlp_gan.py`` there ran it under real MindSpore 2.10 (CPU) into ``apps_nlp_gan_2_10.npz``.
"""
import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "tutorials"
sys.path.insert(0, str(FIX))
import apps_nlp_gan as app  # noqa: E402

sys.path.remove(str(FIX))

WANT = np.load(FIX / "apps_nlp_gan_2_10.npz")
PAGES = sorted({k.split("/")[0] for k in WANT.files})
# Where ours keeps a behaviour that differs from 2.10 on these pages' paths.
KEPT = {
    "gan/update_parameters_name": "without the page's renaming, 2.10's GRAPH_MODE / ms.jit step fails with "
                                  "\"its name '0.weight' already exists. Please set a unique name for the "
                                  "parameter\" (generator and discriminator both have '0.weight'); ours tells "
                                  "Parameters apart by identity and trains",
}


@pytest.fixture(scope="module")
def got():
    return app.run_all(str(ROOT / "examples" / "data" / "digits"))


@pytest.mark.parametrize("page", PAGES)
def test_page_matches_mindspore_2_10(got, page):
    keys = sorted(k for k in WANT.files if k.startswith(page + "/"))
    assert sorted(k for k in got if k.startswith(page + "/")) == keys
    for key in keys:
        want, have = WANT[key], got[key]
        assert have.shape == want.shape, key
        assert have.dtype == want.dtype, key
        if want.dtype.kind == "f":
            np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-4, err_msg=key)
        else:
            np.testing.assert_array_equal(have, want, err_msg=key)


def test_pages_really_trained(got):
    for page in ("sequence_labeling", "sequence_labeling_graph"):
        losses = got[page + "/losses"]
        assert np.isfinite(losses).all() and losses[-1] < losses[0], page
    np.testing.assert_allclose(got["sequence_labeling/losses"], got["sequence_labeling_graph/losses"], rtol=1e-5)
    np.testing.assert_allclose(got["dcgan/G_losses"], got["dcgan_pynative/G_losses"], rtol=1e-5)
    assert np.isfinite(got["gan/step_losses"]).all() and np.isfinite(got["sentiment_analysis/train_losses"]).all()
