"""The validators of _checkparam's _train, _nn and _system files: each rule and MindSpore's message form
(the layers and APIs that use them pin the same messages in their own tests)."""

import pytest

from sporax import _checkparam as v


class _T:  # a stand-in tensor class (the package takes classes as arguments)
    def __init__(self, shape=(2,), dtype="f32"):
        self.shape, self.dtype = shape, dtype


def test_model_forms():
    with pytest.raises(ValueError, match="should be 'loss_scale_manager' or 'keep_batchnorm_fp32'"):
        v.check_model_kwargs({"bad": 1})
    with pytest.raises(ValueError, match=r"the 'amp_level' must be one of \['O0', 'O1', 'O2', 'O3', 'auto'\]"):
        v.check_model_amp_level(object(), "O4")
    with pytest.raises(ValueError, match="Auto mixed precision will not work because 'optimizer' is None"):
        v.check_model_amp_level(None, "O2")
    with pytest.raises(ValueError, match="must bigger than parameter 'initial_epoch'"):
        v.check_epochs(2, 2, "Model.train")
    with pytest.raises(ValueError, match="There is no valid data in dataset"):
        v.check_dataset_size(0)
    with pytest.raises(ValueError, match="The argument 'sink_size' must be -1 or positive, but got 0."):
        v.check_model_sink_size(0, "Model.train")
    assert v.check_model_sink_size(-1, "Model.train") == -1


def test_checkpoint_forms(tmp_path):
    assert v.check_ckpt_prefix("a") == ("a",)
    with pytest.raises(ValueError, match="can't include ''"):
        v.check_ckpt_prefix(["a", ""])
    with pytest.raises(TypeError, match="must be string, list\\[string\\] or tuple\\[string\\]"):
        v.check_ckpt_prefix(3)
    assert v.check_async_save("thread") == "thread"
    with pytest.raises(ValueError, match="can only be 'process' or 'thread'"):
        v.check_async_save("fork")
    with pytest.raises(TypeError, match="'append_info' must be key: string"):
        v.check_append_dict({1: 2}, _T)
    missing = tmp_path / "x.ckpt"
    with pytest.raises(v.CheckpointNotFoundError) as err:
        v.check_ckpt_file(str(missing), "ckpt")
    assert isinstance(err.value, ValueError) and isinstance(err.value, FileNotFoundError)
    path = v.check_ckpt_save_target([], str(tmp_path / "y"), "ckpt", _T)
    assert path.endswith("y.ckpt")
    with pytest.raises(NotImplementedError, match="checkpoint encryption"):
        v.check_no_encryption("save_checkpoint", b"k" * 16, "enc_key")


def test_obfuscation_forms():
    assert v.check_obf_target_modules(["a/b", "c|d"]) == ["a/b", "c|d"]
    with pytest.raises(ValueError, match="at least two string values"):
        v.check_obf_target_modules(["a"])
    with pytest.raises(ValueError, match="obfuscate_layers:all"):
        v.check_obf_layers(["a", "b", "layers:3"])
    with pytest.raises(TypeError, match=r"obf_config\[\]\[\]\['weight_obf_ops'\] type should be list"):
        v.check_obf_config({"weight_obf_config": [{"target": "w", "weight_obf_ops": 1}]}, "weight_obf_config")
    with pytest.raises(ValueError, match="larger than 1"):
        v.check_obf_scale(1)


def test_nn_forms():
    assert v.check_member_index(-1, 3, "CellList") == 2
    assert v.check_member_index(3, 3, "CellList", inserting=True) == 3
    with pytest.raises(IndexError, match=r"must be a number in range \[-3, 3\), but got 3."):
        v.check_member_index(3, 3, "CellList")
    with pytest.raises(KeyError, match="key can not contain"):
        v.check_cell_dict_key("a.b", False, "CellDict")
    with pytest.raises(ValueError, match=r"the 'x' shape\[1\] \(channels\) must be equal to 'in_channels': 3"):
        v.check_shape_dim((1, 4, 5, 5), 1, 3, "in_channels", "x", "Conv2d", " (channels)")
    with pytest.raises(ValueError, match="must be 0 when 'pad_mode' is 'same'"):
        v.check_conv_padding(1, 2, "same", "Conv2d")
    assert v.check_pool_padding(1, 3, "MaxPool3d") == (1, 1, 1)
    assert v.check_mirror_padding(1, 2, "ReflectionPad2d") == (1, 1, 1, 1)
    assert v.check_patch_arg([1, 2, 3, 1], "ksize") == (2, 3)
    with pytest.raises(TypeError, match="'decay_steps' must be int"):
        v.check_lr_decay(0.1, 0.9, False, "ExponentialDecayLR", decay_steps=1.5)
    with pytest.raises(TypeError, match="the 'gradients' must be a tuple of Tensors"):
        v.check_gradients(_T(), [], _T, "Momentum")
    with pytest.raises(RuntimeError, match="the number of gradients must be equal"):
        v.check_gradients((_T(),), [], _T, "Momentum")
    with pytest.raises(KeyError, match="every group of parameters must have the key 'params'"):
        v.check_group_params([{"lr": 0.1}], _T)


def test_system_forms():
    assert v.check_memory_size("3.5GB", "max_size") == 3.5
    with pytest.raises(ValueError, match='should not be "0GB"'):
        v.check_memory_size("0.0GB", "max_size")
    assert v.check_memory_size("0GB", "huge_page_reserve_size", allow_zero=True) == 0.0
    with pytest.raises(ValueError, match="must be less than device count: 1"):
        v.check_device_id(1, 1)
    with pytest.raises(AttributeError, match="has no key 'x'"):
        v.check_auto_parallel_key("x", ["a"])
    with pytest.raises(TypeError, match="consistent type for all dimensions"):
        v.check_shard_args(((1,), _T()), None, None, None, _T)
    assert v.check_schedule_int(-1, "wait", 0, 0) == 0
    with pytest.raises(TypeError, match="the type of 'scope' should be str, but got int."):
        v.check_scoped_type(3, str, "scope")
