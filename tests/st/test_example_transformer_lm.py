"""examples/transformer_lm.py: the character-level Transformer language model learns the Shakespeare text
shipped with sporax (held-out loss falls, next-character accuracy rises), the causal mask really hides the
future, and its checkpoints interchange with MindSpore 2.10 (test_example_checkpoints.py)."""

import importlib.util
import pathlib

import numpy as np
import pytest

from sporax import compat

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = ROOT / "sporax" / "data" / "shakespeare" / "coriolanus.txt"


@pytest.fixture(scope="module")
def ex():
    """The example module, with ``mindspore`` aliased to sporax (as ``sporax run`` does) while this file runs."""
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location("transformer_lm", ROOT / "examples" / "transformer_lm.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


def test_shipped_text_is_small_public_domain_and_found(ex):
    assert TEXT.stat().st_size < 100 * 1024
    readme = (TEXT.parent / "README.md").read_text()
    assert "public domain" in readme and "Shakespeare" in readme
    assert pathlib.Path(ex.default_text()).resolve() == TEXT.resolve()
    text = TEXT.read_text()
    vocab = ex.CharVocab(text)
    assert len(vocab) == 61 and vocab.decode(vocab.encode(text[:200])) == text[:200]
    x, y = ex.windows(vocab.encode(text[:1000]), 16)
    assert x.shape == y.shape and x.shape[1] == 16 and (x[:, 1:] == y[:, :-1]).all()


def test_causal_mask_hides_the_future(ex):
    import mindspore as ms

    ms.set_context(mode=ms.GRAPH_MODE)
    net = ex.TransformerLM(20, d_model=16, nhead=2, num_layers=2, dim_feedforward=32, block_size=8, dropout=0.1)
    net.set_train(False)
    ids = np.random.default_rng(0).integers(0, 20, (2, 8)).astype(np.int32)
    changed = ids.copy()
    changed[:, 5:] = (changed[:, 5:] + 7) % 20
    a, b = net(ms.Tensor(ids)).asnumpy(), net(ms.Tensor(changed)).asnumpy()
    np.testing.assert_allclose(a[:, :5], b[:, :5], rtol=1e-5, atol=1e-6)  # positions before 5 never see 5..7
    assert np.abs(a[:, 5:] - b[:, 5:]).max() > 1e-3


def test_transformer_lm_learns_shipped_text(ex):
    import mindspore as ms
    import mindspore.dataset as ds

    ms.set_context(mode=ms.GRAPH_MODE)  # as the example runs
    ds.config.set_seed(1)
    text = TEXT.read_text()[:30000]
    vocab = ex.CharVocab(TEXT.read_text())
    ids = vocab.encode(text)
    train = ex.create_dataset(ids[:27000], block_size=32, batch_size=16, training=True)
    held_out = ex.create_dataset(ids[27000:], block_size=32, batch_size=16, training=False)
    network, train_net = ex.build(
        len(vocab), d_model=32, nhead=2, num_layers=2, dim_feedforward=64, block_size=32, dropout=0.0, lr=3e-3
    )
    loss0, acc0 = ex.evaluate(network, held_out)
    losses = ex.train(train_net, train, steps=60)
    loss1, acc1 = ex.evaluate(network, held_out)
    assert len(losses) == 60 and np.isfinite(losses).all()
    assert np.mean(losses[-5:]) < 0.75 * np.mean(losses[:5]), np.round(losses, 2)
    assert loss1 < loss0 - 1.2 and acc1 > acc0 + 0.15, (loss0, acc0, loss1, acc1)
    sample = ex.generate(network, vocab, "MENENIUS:\n", 10, 32)
    assert sample.startswith("MENENIUS:\n") and len(sample) == 20
