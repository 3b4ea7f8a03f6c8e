"""The dataset pipeline's and MindRecord's argument checks in sporax._checkparam (_dataset.py, _mindrecord.py):
the forms of MindSpore's dataset validators, and the settings and sources that state their rules with them."""

import os

import numpy as np
import pytest

import sporax.dataset as ds
from sporax import _checkparam as cp
from sporax.mindrecord.common.exceptions import ParamValueError


def test_pipeline_type_forms():
    # MindSpore's type_check: the value as str, the types as a list, the type it got
    with pytest.raises(
        TypeError, match=r"^Argument axis with value 1.5 is not of type \[<class 'int'>\], but got <class 'float'>\.$"
    ):
        cp.check_pipeline_type(1.5, int, "axis")
    with pytest.raises(TypeError, match=r"^Argument flag with value 1 is not of type \[<class 'bool'>\]\.$"):
        cp.check_pipeline_type(1, bool, "flag", got=False)
    with pytest.raises(TypeError, match=r"with value 'x' is not of type \[<class 'Vocab'>\]"):
        cp.check_pipeline_type("x", dict, "vocab", "[<class 'Vocab'>]", quote=True)
    with pytest.raises(TypeError, match="is not of type"):
        cp.check_pipeline_type(True, int, "n")  # a bool is not an int
    assert cp.check_pipeline_type(np.int64(3), (int, np.integer), "n") == 3


def test_pipeline_ranges():
    with pytest.raises(ValueError, match=r"^Input Q is not within the required interval of \(0, 1\]\.$"):
        cp.check_pipeline_range(0, "Q", 0, 1, left_open=True)
    assert cp.check_pipeline_range(1, "Q", 0, 1, left_open=True) == 1
    with pytest.raises(ValueError, match=r"interval of \[0, 5\)\."):
        cp.check_pipeline_range(5, "x", 0, 5, right_open=True)
    with pytest.raises(ValueError, match=r"^Input f is not within the required interval of \(0, 16777216\]\.$"):
        cp.check_pipeline_float(0.0, "f", 0, 16777216, left_open=True)
    # MindSpore's type_check, then check_value (or the operation's own message)
    with pytest.raises(ValueError, match=r"^Input count is not within the required interval of \[-1, 2147483647\]\.$"):
        cp.check_pipeline_interval(0, "count", -1, 2**31 - 1, except_zero=True)
    with pytest.raises(
        TypeError, match=r"^Argument batch_size with value a is not of type \[<class 'int'>\], but got <class 'str'>\.$"
    ):
        cp.check_pipeline_interval("a", "batch_size", 1, 2**31 - 1)
    with pytest.raises(ValueError, match=r"^num_files should between 0 and 1000\.$"):
        cp.check_pipeline_interval(0, "num_files", 1, 1000, message="num_files should between 0 and 1000.")
    assert cp.check_pipeline_interval(np.int32(-1), "count", -1, 10, except_zero=True) == -1
    with pytest.raises(ValueError, match=r"^num_batch need to be greater than 0\.$"):
        cp.check_positive_integer(0, "num_batch")


def test_pipeline_arguments():
    assert cp.check_column_names("a", "columns") == ["a"]
    assert cp.check_column_names(None, "columns") is None
    with pytest.raises(ValueError, match="^Every column name should not be same with others in column_names\\.$"):
        cp.check_column_names(["a", "a"], "columns")
    with pytest.raises(ValueError, match=r"^columns should not be empty\.$"):
        cp.check_column_names([], "columns")
    with pytest.raises(ValueError, match=r"^num_parallel_workers exceeds the boundary between 1 and \d+!$"):
        cp.check_num_parallel_workers(0)
    with pytest.raises(RuntimeError, match="shard_id is specified but num_shards is not"):
        cp.check_shards(None, 0)
    with pytest.raises(ValueError, match=r"shard_id is not within the required interval of \[0, 1\]"):
        cp.check_shards(2, 2)
    assert cp.check_split_sizes([0.5, 0.5], 5) == [3, 2]
    with pytest.raises(RuntimeError, match="Sum of split sizes 3 is not equal to dataset size 4"):
        cp.check_split_sizes([1, 2], 4)
    with pytest.raises(ValueError, match=r"Input language_pair\['de', 'fr'\] is not within the valid set"):
        cp.check_language_pair(["de", "fr"], (("de", "en"), ("en", "de")))
    with pytest.raises(TypeError, match=r"left_pad should be a tuple of \(str, int\)"):
        cp.check_ngram_pad(["", 0], "left_pad")
    assert cp.check_sampler_indices((1, 2)).dtype == np.int64


def test_dataset_files(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("x")
    assert cp.check_dataset_file(f) == str(f)  # a path-like comes back as a str
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        cp.check_dataset_file(str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        cp.check_dataset_file(3)
    assert cp.check_dataset_files(os.path.join(tmp_path, "*.txt")) == [str(f)]
    with pytest.raises(ValueError, match="did not match any files"):
        cp.check_dataset_files(os.path.join(tmp_path, "*.csv"))


def test_config_bool_setters_give_mindspores_messages():
    for setter, msg in (
        (ds.config.set_debug_mode, "debug_mode_flag isn't of type boolean."),
        (ds.config.set_enable_shared_mem, "enable must be of type bool."),
        (ds.config.set_enable_autotune, "enable must be of type bool."),
        (ds.config.set_auto_offload, "offload must be a bool dtype"),
    ):
        with pytest.raises(TypeError, match=f"^{msg}$"):
            setter(1)


def test_mindrecord_checks():
    with pytest.raises(ParamValueError, match="Consumer number should be a positive integer, but got 0"):
        cp.check_num_consumer(0, ParamValueError)
    with pytest.raises(ParamValueError, match="num_row should be int and greater than 0"):
        cp.check_mr_page(0, 0, ParamValueError)
    with pytest.raises(RuntimeError, match=r"page size: 1 should be in range \[32768 bytes, 268435456 bytes\]"):
        cp.check_mr_size("page", 1, 1 << 15, 1 << 28)
    with pytest.raises(ValueError, match="^The input dec_mode is invalid.$"):
        cp.check_cipher_mode("AES-CBC", "dec_mode")
    with pytest.raises(ValueError, match="^The length of input enc_key is not 16, 24, 32.$"):
        cp.check_enc_key("short")


def test_num_samples_and_shuffle_messages_are_mindspores(tmp_path):
    # sources and file sources: one check, MindSpore's messages
    boundary = r"^num_samples exceeds the boundary between 0 and 9223372036854775807\(INT64_MAX\)!$"
    with pytest.raises(ValueError, match=boundary):
        ds.NumpySlicesDataset([1, 2, 3], num_samples=-1)
    with pytest.raises(TypeError, match=r"^Argument num_samples with value a is not of type \[<class 'int'>\]"):
        ds.NumpySlicesDataset([1, 2, 3], num_samples="a")
    f = tmp_path / "t.txt"
    f.write_text("a\nb\n")
    with pytest.raises(ValueError, match=boundary):
        ds.TextFileDataset(str(f), num_samples=-1)
    with pytest.raises(TypeError, match=r"^Argument shuffle with value 1 is not of type \[<class 'bool'>\]"):
        ds.NumpySlicesDataset([1, 2, 3], shuffle=1)
    # samplers: their own type message, the same boundary
    with pytest.raises(ValueError, match=boundary):
        ds.SequentialSampler(num_samples=-1)
    with pytest.raises(TypeError, match=r"^num_samples must be integer but was: a\.$"):
        ds.SequentialSampler(num_samples="a")
