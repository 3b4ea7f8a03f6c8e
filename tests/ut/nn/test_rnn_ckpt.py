"""Checkpoints interchange with MindSpore 2.10: an nn.LSTM and an nn.TransformerEncoderLayer saved by real
MindSpore (fixtures/nn_seq_*.ckpt, tools/make_nn_seq_reference.py) load into sporax by MindSpore's parameter names
and give MindSpore's outputs; sporax saves the same names back."""

from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn

FIX = Path(__file__).resolve().parent / "fixtures"
DATA = np.load(FIX / "nn_seq_reference.npz")


@pytest.mark.parametrize(
    "name,factory",
    [
        ("lstm", lambda: nn.LSTM(8, 4, 2, batch_first=True, bidirectional=True)),
        ("encoder", lambda: nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)),
    ],
)
def test_mindspore_checkpoint_loads_and_round_trips(name, factory, tmp_path):
    net = factory()
    net.set_train(False)
    params = ms.load_checkpoint(str(FIX / f"nn_seq_{name}.ckpt"))
    not_loaded = ms.load_param_into_net(net, params)
    assert not_loaded == ([], []) or not any(not_loaded)
    assert sorted(params) == sorted(p.name for p in net.get_parameters())
    out = net(Tensor(DATA["ckpt/x"]))
    out = out[0] if isinstance(out, tuple) else out
    np.testing.assert_allclose(out.asnumpy(), DATA[f"ckpt/{name}/out"], rtol=1e-5, atol=1e-6)
    ms.save_checkpoint(net, str(tmp_path / "back.ckpt"))
    again = ms.load_checkpoint(str(tmp_path / "back.ckpt"))
    assert sorted(again) == sorted(params)
    for k, v in params.items():
        np.testing.assert_array_equal(again[k].asnumpy(), v.asnumpy())
