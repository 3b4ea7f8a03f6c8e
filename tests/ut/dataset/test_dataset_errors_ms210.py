"""Bad dataset-pipeline arguments raise MindSpore 2.10's error class and message.

The cases and MindSpore's answers are in fixtures/dataset_errors_ms210.json, made by
tools/make_dataset_error_reference.py with real MindSpore. sporax may raise at the call where MindSpore raises
lazily (when the pipeline runs); the class and the message are still MindSpore's. An error MindSpore's C++ layer
raises (``[ERROR] ...`` inside a pipeline report) is compared by that ``[ERROR]`` line.
"""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import sporax.dataset as ds

with open(os.path.join(os.path.dirname(__file__), "fixtures", "dataset_errors_ms210.json")) as _f:
    CASES = json.load(_f)

# MindSpore accepts these silently (no error at the call nor when the pipeline runs); sporax keeps a clear
# error or accepts too, so they are not replayed.
MS_ACCEPTS = sorted(k for k, v in CASES.items() if v["cls"] is None)

# MindSpore fails with an internal error (a bug): sporax raises a clear error of this class instead.
MS_BUGS = {
    "add_child_int": TypeError,  # MindSpore: AttributeError 'int' object has no attribute 'get_shuffle_mode'
    "dict_iter_num_epochs_none": TypeError,  # MindSpore: the C++ consumer's "incompatible constructor arguments"
}

# ds.config setters sporax does not have (yet): not replayed until they exist.
NOT_IN_SPORAX = {
    k
    for k, v in CASES.items()
    if v["expr"].startswith("ds.config.") and not hasattr(ds.config, v["expr"][10:].split("(")[0])
}
REPLAYED = sorted(k for k, v in CASES.items() if v["cls"] is not None and k not in MS_BUGS and k not in NOT_IN_SPORAX)


def _norm(message: str, data_dir: str) -> str:
    message = message.replace(data_dir, "<DIR>")
    message = message.replace(f"between 1 and {os.cpu_count()}!", "between 1 and <CPUS>!")
    message = re.sub(r"0x[0-9a-fA-F]+", "0x?", message)
    # a class's module path differs between the frameworks: compare its name
    message = re.sub(r"<class '(?:mindspore|sporax)\.[\w.]*\.(\w+)'>", r"<class '\1'>", message)
    return re.sub(r"<(?:mindspore|sporax)\.[\w.]*\.(\w+) object at", r"<\1 object at", message)


def _core(message: str) -> str:
    """The ``[ERROR]`` line of a pipeline report, else the whole message."""
    m = re.search(r"^\[ERROR\] (.*)$", message, re.M)
    return m.group(1) if m else message


@pytest.fixture
def env(tmp_path):
    def tiny():
        return ds.NumpySlicesDataset({"x": np.arange(4, dtype=np.int32)}, shuffle=False)

    def with_sampler(sampler):
        return ds.NumpySlicesDataset({"x": np.arange(4, dtype=np.int32)}, sampler=sampler)

    seed = ds.config.get_seed()
    yield {"ds": ds, "np": np, "os": os, "D": tiny, "S": with_sampler, "DIR": str(tmp_path)}
    ds.config.set_seed(seed)


@pytest.mark.parametrize("name", REPLAYED)
def test_error_matches_mindspore(name, env):
    case = CASES[name]
    with pytest.raises(Exception) as info:  # noqa: PT011 - the class is checked against MindSpore's below
        obj = eval(case["expr"], env)  # noqa: S307 - the fixture's own expressions
        if hasattr(obj, "create_tuple_iterator"):
            for _ in obj.create_tuple_iterator(num_epochs=1, output_numpy=True):
                pass
    names = [c.__name__ for c in type(info.value).__mro__]
    assert case["cls"] in names, f"{name}: {type(info.value).__name__}: {info.value}"
    got = _core(_norm(str(info.value), env["DIR"]))
    assert got == _core(_norm(case["msg"], env["DIR"])), name


# sporax is stricter than MindSpore here: a bool is not an int for a sampler's num_samples.
SPORAX_STRICTER = {"seq_num_samples_bool"}


@pytest.mark.parametrize("name", sorted(set(MS_ACCEPTS) - SPORAX_STRICTER - NOT_IN_SPORAX))
def test_accepted_like_mindspore(name, env):
    obj = eval(CASES[name]["expr"], env)  # noqa: S307 - the fixture's own expressions
    if hasattr(obj, "create_tuple_iterator"):
        for _ in obj.create_tuple_iterator(num_epochs=1, output_numpy=True):
            pass


@pytest.mark.parametrize("name", sorted(MS_BUGS))
def test_clear_error_where_mindspore_fails_internally(name, env):
    with pytest.raises(MS_BUGS[name]):
        eval(CASES[name]["expr"], env)  # noqa: S307


def test_fixture_covers_the_brief():
    """Each pipeline method and source/sampler the reference covers has at least one replayed case."""
    exprs = " ".join(CASES[k]["expr"] for k in REPLAYED)
    assert NOT_IN_SPORAX == set(), sorted(NOT_IN_SPORAX)  # every ds.config setter exists and is replayed
    for word in (
        "batch(",
        "repeat(",
        "take(",
        "skip(",
        "shuffle(",
        "map(",
        "project(",
        "rename(",
        "concat(",
        "zip(",
        "split(",
        "padded_batch(",
        "bucket_batch_by_length(",
        "filter(",
        "save(",
        "device_que(",
        "create_tuple_iterator(",
        "create_dict_iterator(",
        "GeneratorDataset(",
        "NumpySlicesDataset(",
        "MnistDataset(",
        "Cifar10Dataset(",
        "ImageFolderDataset(",
        "SequentialSampler(",
        "RandomSampler(",
        "DistributedSampler(",
        "SubsetRandomSampler(",
        "WeightedRandomSampler(",
        "PKSampler(",
        "SubsetSampler(",
        "config.set_",
    ):
        assert word in exprs, word


def test_config_runtime_settings_round_trip():
    """The C++ runtime settings sporax keeps for MindSpore's API: MindSpore 2.10's defaults, set/get round trip."""
    names = ("numa_enable", "enable_watchdog", "fast_recovery", "auto_num_workers", "autotune_interval")
    defaults = [getattr(ds.config, f"get_{n}")() for n in names]
    assert defaults == [False, True, True, False, 0]  # as MindSpore 2.10 reports them
    try:
        for n, v in zip(names, (True, False, False, True, 5)):
            getattr(ds.config, f"set_{n}")(v)
            assert getattr(ds.config, f"get_{n}")() == v
        ds.config.set_sending_batches(-1)  # any int, as MindSpore
    finally:
        for n, v in zip(names, defaults):
            getattr(ds.config, f"set_{n}")(v)
        ds.config.set_sending_batches(0)
