"""Outside code runs unchanged: MindOne 0.5.0 (MindSpore's port of Hugging Face transformers and diffusers) against
real MindSpore 2.10's numbers.

tests/fixtures/mindone/mindone_cases.py builds tiny ``mindone.transformers`` models from ``transformers``' own
configuration classes (hidden size 32, 2 layers, 4 heads, a vocabulary of 100) with weights seeded by parameter
name and runs each on one seeded batch; ``record_mindone.py`` recorded the same under real MindSpore 2.10 (CPU).
Ours must give the same output shapes, parameter names and shapes, each output's sum of magnitudes to 1e-5
relative and the first values to 1e-4 of their magnitude; one training step (ALBERT's masked-LM loss,
``value_and_grad``, ``nn.AdamWeightDecay``) the same losses and gradient magnitudes, and three steps of MindOne's
own ``TrainOneStepWrapper`` (gradient clipping, its AdamW) the same losses. Where 2.10 raised, ours raises the same
exception class.

``mindone.diffusers``' DDIM and Euler schedulers: five steps on a seeded latent (the steps' and ``add_noise``'s
sums of magnitudes to 1e-5 relative).

CI runs the models 2.10's CPU build can run (CLIP's text tower, ALBERT, mT5) and the training step. Most of
MindOne's models are written for Ascend with ``mint`` operators that 2.10's CPU build has no kernel for
(``mint.nn.Embedding``, ``mint.arange``, ``addmm``, ``mint.randn``, ``Conv2DExt``): the recording keeps what 2.10
raised for BERT, RoBERTa, GPT-2, Llama, Qwen2, Mistral, Gemma, Phi-3, OPT, T5, ViT, CLIP's vision tower, GLM,
DDPM's scheduler step and the diffusers models (UNet2D, UNet2DCondition, AutoencoderKL, DiT, SD3's transformer);
ours runs them (Phi-3 and GLM excepted: MindOne 0.5.0's DynamicCache lacks the methods they call), with nothing of
2.10's to compare. The models are built with MindOne's initialisation switch off (``modeling_utils._init_weights``,
as its ``from_pretrained`` does; 2.10's CPU build cannot draw ``mint.randn``) and ``tie_weights()`` after.

Before MindSpore's private names that MindOne imports existed here (``mindspore.train.amp``, ``ms._no_grad``,
``nn_func.multi_head_attention_forward`` and its helpers, ``serialization._load_dismatch_prefix_params``,
``Cell.apply``/``register_buffer``, ``mint.nn.Cell``, ``mindspore._c_expression.amp``, ``ms.common._Function``) and
before a distribution named ``mindspore`` was installed (MindOne's ``is_mindspore_available()`` reads
``importlib.metadata.version("mindspore")``: ``pip install ./mindspore-meta``), ``import mindone.transformers``
failed on ours.

Skipped when MindOne is not installed (``pip install transformers==4.57.1 pillow psutil`` and ``pip install
--no-deps mindone==0.5.0 omegaconf==2.4.0 antlr4-python3-runtime==4.9.3``).
"""
import importlib.util
import json
import pathlib
import sys

import numpy as np
import pytest

if importlib.util.find_spec("mindone") is None:   # not installed: skip; installed but failing to import: a bug
    pytest.skip("mindone 0.5.0 is not installed", allow_module_level=True)

import mindspore as ms  # noqa: E402

FIX = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "mindone"
sys.path.insert(0, str(FIX))
import mindone_cases as mc  # noqa: E402

sys.path.remove(str(FIX))
WANT = json.loads((FIX / "mindone_2_10.json").read_text())

CI_FORWARD = ["clip_text", "albert", "mt5"]
CI_GENERATE = ["mt5_generate"]
CI_SCHEDULERS = ["ddim_scheduler", "euler_scheduler"]   # DDPM's step needs NonZeroExt, not in 2.10's CPU build


pytestmark = pytest.mark.usefixtures("restore_mode")


def test_every_case_recorded():
    assert list(WANT) == list(mc.CASES) + list(mc.GENERATE) + list(mc.TRAIN) + list(mc.SCHEDULERS) + \
        list(mc.DIFFUSERS) + list(mc.TRAINER)


def _check_raises(case, got, want):
    assert "raises" in got, f"{case} ran; 2.10 raised {want['raises']}"
    assert got["raises"][0] in (want["raises"][0], "MS" + want["raises"][0]), (got, want)


@pytest.mark.parametrize("case", CI_FORWARD)
def test_model_matches_mindspore_2_10(case):
    got, want = mc.run(case), WANT[case]
    if "raises" in want:
        _check_raises(case, got, want)
        return
    assert "raises" not in got, got["raises"]
    assert got["shapes"] == want["shapes"]
    assert (got["n_params"], got["params_crc"]) == (want["n_params"], want["params_crc"])
    np.testing.assert_allclose(got["sums"], want["sums"], rtol=1e-5, err_msg=case)
    np.testing.assert_allclose(got["first"], want["first"], rtol=0, atol=1e-4 * max(1.0, np.abs(want["first"]).max()),
                               err_msg=case)


@pytest.mark.parametrize("case", CI_GENERATE)
def test_generate_matches_mindspore_2_10(case):
    got, want = mc.run(case, mc.generate), WANT[case]
    if "raises" in want:   # MT5ForConditionalGeneration of 0.5.0 has no GenerationMixin on either framework
        _check_raises(case, got, want)
        return
    assert got == want


@pytest.mark.parametrize("case", list(mc.TRAIN))
def test_training_step_matches_mindspore_2_10(case):
    got, want = mc.run(case, mc.train_step), WANT[case]
    assert "raises" not in got, got["raises"]
    assert got["n_grads"] == want["n_grads"]
    np.testing.assert_allclose([got["loss"], got["loss_after"]], [want["loss"], want["loss_after"]], rtol=1e-5)
    # a gradient that is zero in exact arithmetic comes out as rounding noise (~1e-8) in both: compared absolutely
    np.testing.assert_allclose(got["grad_sums"], want["grad_sums"], rtol=1e-5, atol=1e-6 * max(want["grad_sums"]))


@pytest.mark.parametrize("case", CI_SCHEDULERS)
def test_scheduler_steps_match_mindspore_2_10(case):
    got, want = mc.run(case, mc.scheduler), WANT[case]
    assert "raises" not in got, got["raises"]
    assert got["timesteps"] == want["timesteps"]
    np.testing.assert_allclose([got["noisy_sum"]] + got["sums"], [want["noisy_sum"]] + want["sums"], rtol=1e-5)
    np.testing.assert_allclose(got["first"], want["first"], rtol=0, atol=1e-5)


@pytest.mark.parametrize("case", list(mc.TRAINER))
def test_mindone_trainer_steps_match_mindspore_2_10(case):
    got, want = mc.run(case, mc.trainer_steps), WANT[case]
    assert "raises" not in got, got["raises"]
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=1e-5)
