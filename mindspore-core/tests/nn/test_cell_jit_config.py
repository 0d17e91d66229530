"""``Cell.set_jit_config`` / ``jit_config_dict`` and ``JitConfig``'s options, as in MindSpore 2.10 (the zoo's LSTM
train.py calls ``network.set_jit_config(JitConfig(jit_level="O2"))``)."""
import warnings

import pytest

import mindspore as ms
from mindspore import nn

# recorded from MindSpore 2.10: JitConfig(...).jit_config_dict
_O2 = {'jit_level': 'O2', 'exc_mode': 'auto', 'jit_syntax_level': '', 'debug_level': 'RELEASE', 'infer_boost': 'off',
       'backend': 'GE'}


def test_jit_config_dict_matches_2_10():
    assert ms.JitConfig(jit_level="O2").jit_config_dict == _O2
    assert ms.JitConfig(jit_level="O0").jit_config_dict["backend"] == "ms_backend"
    assert ms.JitConfig(jit_level="O1").jit_config_dict["backend"] == "ms_backend"
    assert ms.JitConfig().jit_config_dict == {'jit_level': '', 'exc_mode': 'auto', 'jit_syntax_level': '',
                                              'debug_level': 'RELEASE', 'infer_boost': 'off'}
    assert ms.JitConfig(foo=1).jit_config_dict["foo"] == 1


@pytest.mark.parametrize("kwargs", [dict(jit_level="O3"), dict(exc_mode="x"), dict(jit_syntax_level="x"),
                                    dict(debug_level="x"), dict(infer_boost="x")])
def test_jit_config_rejects_bad_options(kwargs):
    with pytest.raises(ValueError, match="must be one of"):
        ms.JitConfig(**kwargs)


def test_cell_set_jit_config_once_and_wrappers_inherit():
    net = nn.Dense(2, 2)
    assert net.jit_config_dict == {}
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    assert net.jit_config_dict == _O2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net.set_jit_config(ms.JitConfig(jit_level="O1"))
    assert any("only be set once" in str(w.message) for w in caught)
    assert net.jit_config_dict["jit_level"] == "O2"
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    assert with_loss.jit_config_dict == _O2
    train = nn.TrainOneStepCell(with_loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert train.jit_config_dict == _O2
    assert nn.WithEvalCell(net, nn.MSELoss()).jit_config_dict == _O2
