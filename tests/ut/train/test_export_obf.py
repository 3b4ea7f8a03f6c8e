"""obfuscate_ckpt / load_obf_params_into_net (MindSpore's checkpoint weight obfuscation), checked against the
behaviour of MindSpore 2.10's mindspore.safeguard: the metadata is NumPy's global random stream (seed 0 draws
45 from randint(1, 100); MindSpore returns its float16 inverse, 0.02222), the targets' weights are multiplied by
it and saved as <name>_obf.ckpt; the legacy target_modules path '' matches no parameter ('/fc1/weight'), as in
MindSpore."""

from __future__ import annotations

import numpy as np
import pytest

import sporax as ms
from sporax import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(self.fc1(x))


CONFIG = {
    "obf_metadata_config": [
        {"name": "obf_metadata", "shape": [1], "type": "random", "save_metadata": True, "metadata_op": "invert"}
    ],
    "weight_obf_config": [
        {"target": "fc1/weight", "weight_obf_ops": [{"name": "mul", "input_x": "weight", "input_y": "obf_metadata"}]}
    ],
}


@pytest.fixture
def dirs(tmp_path):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    net = Net()
    ms.save_checkpoint(net, str(src / "net.ckpt"))
    return net, src, out


def test_obfuscate_with_config(dirs):
    net, src, out = dirs
    np.random.seed(0)
    meta = ms.obfuscate_ckpt(net, str(src), obf_config=CONFIG, saved_path=str(out))
    assert list(meta) == ["obf_metadata"] and meta["obf_metadata"].dtype == np.float16
    np.testing.assert_allclose(meta["obf_metadata"], np.float16(1 / 45))
    before, after = ms.load_checkpoint(str(src / "net.ckpt")), ms.load_checkpoint(str(out / "net_obf.ckpt"))
    np.testing.assert_allclose(after["fc1.weight"].asnumpy(), before["fc1.weight"].asnumpy() * 45, rtol=1e-6)
    for name in ("fc1.bias", "fc2.weight", "fc2.bias"):
        np.testing.assert_array_equal(after[name].asnumpy(), before[name].asnumpy())


def test_legacy_target_modules(dirs):
    net, src, out = dirs
    np.random.seed(0)
    meta = ms.obfuscate_ckpt(net, str(src), target_modules=["", "fc1|fc2"], saved_path=str(out))
    np.testing.assert_allclose(meta["obf_metadata"], np.float16(1 / 45))
    before, after = ms.load_checkpoint(str(src / "net.ckpt")), ms.load_checkpoint(str(out / "net_obf.ckpt"))
    for name in before:  # MindSpore's '' path builds '/fc1/weight', which no parameter path equals
        np.testing.assert_array_equal(after[name].asnumpy(), before[name].asnumpy())


def test_argument_errors(dirs, tmp_path):
    net, src, out = dirs
    with pytest.raises(TypeError, match="network must be nn.Cell"):
        ms.obfuscate_ckpt(1, str(src), obf_config=CONFIG, saved_path=str(out))
    with pytest.raises(ValueError, match="is not exist"):
        ms.obfuscate_ckpt(net, str(tmp_path / "none"), obf_config=CONFIG, saved_path=str(out))
    with pytest.raises(ValueError, match="larger than 1"):
        ms.obfuscate_ckpt(net, str(src), obf_config=CONFIG, saved_path=str(out), obfuscate_scale=1)
    with pytest.raises(ValueError, match="at least two string values"):
        ms.obfuscate_ckpt(net, str(src), target_modules=["fc1"], saved_path=str(out))
    with pytest.raises(ValueError, match="do not exist in the path"):
        ms.obfuscate_ckpt(net, str(src), target_modules=["", "fc9"], saved_path=str(out))
    with pytest.raises(ValueError, match="obfuscate_layers"):
        ms.obfuscate_ckpt(net, str(src), target_modules=["", "fc1", "layers:3"], saved_path=str(out))
    with pytest.raises(TypeError, match="config_type must be str"):
        ms.obfuscate_ckpt(net, str(src), obf_config={"bad": []}, saved_path=str(out))
    with pytest.raises(ValueError, match="empty or not valid"):
        ms.obfuscate_ckpt(net, str(src), obf_config={}, saved_path=str(out))


def test_load_obf_params_into_net_checks_and_returns_the_network():
    net = Net()
    config = {"network_obf_config": [{"module": "/", "target": "fc1", "insert_new_input": [{"name": "obf_metadata"}],
                                      "insert_ops": [{"name": "mul", "input_x": "weight", "input_y": "obf_metadata"}]}]}  # fmt: skip
    assert ms.load_obf_params_into_net(net, obf_config=config) is net
    assert ms.load_obf_params_into_net(net, target_modules=["", "fc1|fc2"]) is net
    with pytest.raises(ValueError, match="data_parallel_num must be positive"):
        ms.load_obf_params_into_net(net, obf_config=config, data_parallel_num=0)
    with pytest.raises(TypeError, match="'module'"):
        ms.load_obf_params_into_net(net, obf_config={"network_obf_config": [{"target": "fc1"}]})
