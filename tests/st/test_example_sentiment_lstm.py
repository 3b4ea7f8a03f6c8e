"""examples/sentiment_lstm_glove.py: the two-layer bidirectional LSTM over GloVe vectors learns a tiny
synthetic sentiment set (its checkpoints: test_example_checkpoints.py)."""

import importlib.util
import pathlib

import numpy as np
import pytest

from sporax import compat

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ex():
    """The example module, with ``mindspore`` aliased to sporax (as ``sporax run`` does) while this file runs."""
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location("sentiment_lstm_glove", ROOT / "examples" / "sentiment_lstm_glove.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


def test_glove_file_and_vocabulary(ex, tmp_path):
    data_dir, glove = ex.write_synthetic_sentiment(str(tmp_path), dim=8, num_train=64, num_test=32, seed=0)
    vocab, table = ex.load_glove(glove)
    assert table.shape == (len(vocab), 8) and len(vocab) == 2 + 57
    assert vocab["<pad>"] == 0 and vocab["<unk>"] == 1 and not table[0].any()
    with open(glove) as f:
        first = f.readline().split(" ")
    assert first[0] == "the" and np.allclose(table[vocab["the"]], np.float32(first[1:]))
    ids, lengths, labels = ex.encode(str(tmp_path / "train.tsv"), vocab, 12)
    assert ids.shape == (64, 12) and ids.dtype == np.int32 and set(labels) == {0, 1}
    assert (ids[np.arange(12)[None, :] >= lengths[:, None]] == 0).all()  # padded past each length
    assert (ids == 1).any()  # out-of-vocabulary words are <unk>


def test_bilstm_learns_synthetic_sentiment(ex, tmp_path):
    import mindspore as ms

    assert ms.__name__ == "sporax"
    # seeded, so the result does not hang on what earlier tests drew; 5 epochs reach 0.875-0.93 over the
    # seeds 0-11 (3 epochs fell to 0.79-0.81 on two of them)
    ms.set_seed(1)
    data_dir, glove = ex.write_synthetic_sentiment(str(tmp_path), dim=16, num_train=256, num_test=128, seed=0)
    vocab, table = ex.load_glove(glove)
    train = ex.create_dataset(str(tmp_path / "train.tsv"), vocab, max_len=16, batch_size=32, training=True)
    test = ex.create_dataset(str(tmp_path / "test.tsv"), vocab, max_len=16, batch_size=128, training=False)
    network = ex.SentimentNet(len(vocab), 16, 16, num_layers=2, num_classes=2, weight=table, dropout=0.1)
    names = [p.name for p in network.trainable_params()]
    assert names[:3] == ["encoder.weight_ih_l0", "encoder.weight_ih_l0_reverse", "encoder.weight_ih_l1"]  # as MS
    assert "embedding.embedding_table" not in names  # frozen GloVe
    step = ex.make_train_step(network, lr=0.02)
    before = ex.evaluate(network, test)
    losses = [loss for _ in range(5) for loss in ex.train_one_epoch(network, step, train)]
    after = ex.evaluate(network, test)
    assert len(losses) == 40 and np.isfinite(losses).all()
    assert np.mean(losses[-4:]) < 0.5 * np.mean(losses[:4]), (before, after, np.round(losses, 3))
    assert after >= 0.85 and after > before + 0.25, (before, after)
    np.testing.assert_array_equal(network.embedding.embedding_table.asnumpy(), table)  # still GloVe's
