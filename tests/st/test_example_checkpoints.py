"""The four example models' checkpoints interchange with real MindSpore 2.10, both ways: sporax loads the file
MindSpore saved and gives MindSpore's outputs, and MindSpore's outputs for sporax's file (recorded by
tools/make_example_model_fixtures.py under MindSpore) are sporax's. Eval mode, inputs and outputs under
tests/st/fixtures/models/<name>/."""

import importlib.util
import pathlib

import numpy as np
import pytest

from sporax import compat

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = {
    "dcgan": ["generated", "score", "score_generated"],
    "resnet18": ["logits"],
    "sentiment_lstm": ["c", "h", "logits", "lstm_output"],
    "transformer_lm": ["logits", "short_logits"],
}


@pytest.fixture(scope="module")
def tool():
    """The fixture tool, with ``mindspore`` aliased to sporax (as ``sporax run`` does) while this file runs."""
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location("fixture_tool", ROOT / "tools" / "make_example_model_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


@pytest.fixture(scope="module")
def compared(tool):
    return {}


@pytest.mark.parametrize("ckpt", ["ms_model.ckpt", "sporax_model.ckpt"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_checkpoint_interchange_with_mindspore(tool, compared, name, ckpt):
    import mindspore as ms

    assert ms.__name__ == "sporax"
    if name not in compared:
        ms.set_context(mode=ms.GRAPH_MODE)  # one compiled forward a model (the conftest puts PyNative back)
        compared[name] = tool.compare_with_fixtures(name)
    got, expected = compared[name][ckpt]
    assert sorted(got) == sorted(expected) == MODELS[name]
    for key in MODELS[name]:
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-5, atol=1e-5, err_msg=f"{name} {ckpt} {key}")


def test_fixtures_are_small():
    sizes = {p: p.stat().st_size for p in (ROOT / "tests" / "st" / "fixtures" / "models").rglob("*") if p.is_file()}
    assert {p.parent.name for p in sizes} == set(MODELS)
    assert max(sizes.values()) < 2 * 2**20
