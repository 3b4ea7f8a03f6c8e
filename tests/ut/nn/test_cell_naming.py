"""Cell Parameter naming (containers held by a parent, insert_child_to_cell, update_parameters_name,
auto_prefix), repr/print text, container error messages and MindRecord shard file names, all against
MindSpore 2.10 (tools/make_cell_naming_reference.py -> fixtures/cell_naming_reference.json)."""

import json
import os

import numpy as np
import pytest
from _cell_naming_cases import (
    buffer_cases,
    checkpoint_file_cases,
    error_cases,
    flag_cases,
    method_cases,
    naming_cases,
    repr_cases,
    scope_cases,
)

import sporax as ms
from sporax import nn
from sporax.mindrecord import FileWriter

with open(os.path.join(os.path.dirname(__file__), "fixtures", "cell_naming_reference.json")) as _f:
    REF = json.load(_f)


def test_parameter_names_match_mindspore():
    got = naming_cases(nn)
    for key, expected in REF["naming"].items():
        assert got[key] == expected, key


def test_container_member_in_parent_is_prefixed_with_the_attribute():
    assert REF["naming"]["parent_containers"][2] == "layers.2.weight"  # the program


def test_repr_and_print_text_match_mindspore():
    got = repr_cases(nn)
    for key, expected in REF["repr"].items():
        assert got[key] == expected, key


def test_container_and_insert_child_errors_match_mindspore():
    got = error_cases(nn)
    for key, expected in REF["errors"].items():
        assert got[key] == expected, key


@pytest.mark.parametrize("shard_num", [1, 2, 10, 11, 16, 101])
def test_mindrecord_shard_file_names_padded_like_mindspore(tmp_path, shard_num):
    w = FileWriter(str(tmp_path / "data.mindrecord"), shard_num=shard_num)
    expected = [n for n in REF["mindrecord_files"][str(shard_num)] if not n.endswith(".db")]
    assert sorted(os.path.basename(p) for p in w._paths) == expected


def test_mindrecord_sixteen_shards_written_and_first_opened_by_name(tmp_path):
    from sporax.mindrecord import FileReader

    w = FileWriter(str(tmp_path / "data.mindrecord"), shard_num=16)
    w.add_schema({"label": {"type": "int32"}}, "s")
    w.write_raw_data([{"label": i} for i in range(2)])
    w.commit()
    assert sorted(os.listdir(tmp_path)) == REF["mindrecord_files"]["16"]
    r = FileReader(str(tmp_path / "data.mindrecord00"))  # as ModelZoo's Transformer opens its data
    assert sorted(int(row["label"]) for row in r.get_next()) == [0, 1]
    r.close()


def test_cell_methods_match_mindspore():
    """Forward hooks (prepend/with_kwargs/always_call, removal), init_parameters_data, get_sub_cell,
    update_cell_prefix/param_prefix, update_cell_type, cls_name, parameters_broadcast_dict,
    set_broadcast_flag, phase, check_names and check_names_and_refresh_name."""
    got = method_cases(nn, ms, np)
    for key, expected in REF["methods"].items():
        assert got[key] == expected, key


def test_buffers_and_state_dict_match_mindspore():
    """register_buffer (persistent or not), buffers/named_buffers/get_buffer, state_dict order and types,
    load_state_dict (strict and not, in-place buffer update, MindSpore's error text), buffer assignment rules."""
    got = buffer_cases(nn, ms, np)
    for key, expected in REF["buffers"].items():
        if key == "assign_tensor":  # the message names the Tensor class of each framework
            expected = [expected[0], expected[1].replace("mindspore.common", "sporax.common")]
        assert got[key] == expected, key


def test_scopes_boost_inputs_jit_config_match_mindspore():
    got = scope_cases(nn, ms, np)
    for key, expected in REF["scopes"].items():
        assert got[key] == expected, key


def test_model_checkpoint_file_names_match_mindspore(tmp_path):
    from sporax import dataset, train

    assert checkpoint_file_cases(ms, nn, dataset, train, np, str(tmp_path)) == REF["checkpoint_files"]


def test_flags_and_comm_fusion_match_mindspore():
    got = flag_cases(nn)
    for key, expected in REF["flags"].items():
        assert got[key] == expected, key
