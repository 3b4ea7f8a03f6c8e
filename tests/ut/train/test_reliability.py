"""Issue 13: nothing silently wrong, nothing lost. Index checks inside compiled programs (jit, GRAPH_MODE, the
train step sporax compiles, sink mode) and their switch; all-or-nothing loads; checksums verified whenever a
file carries one; stale temporaries of interrupted saves cleaned; a finished BackupAndRestore run; wrong-type
entry points. docs/reliability.md names these tests."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Tensor, nn, ops
from sporax.train import BackupAndRestore, Callback, CheckpointConfig, Model, ModelCheckpoint
from sporax.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

T = Tensor


# ---------------------------------------------------------------- index checks in compiled programs
def test_jit_gather_and_embedding_raise_after_the_step():
    table = T(np.arange(10, dtype=np.float32).reshape(5, 2))
    f = ms.jit(lambda t, i: ops.gather(t, i, 0))
    np.testing.assert_array_equal(f(table, T([4, -1])).asnumpy(), [[8, 9], [8, 9]])
    with pytest.raises(IndexError, match=r"For 'Gather', .*\[0, 5\), but got 7\. \(found after running the compiled"):
        f(table, T([1, 7])).asnumpy()  # raised when the output is read, at the latest
    emb = nn.Embedding(10, 4)
    step = ms.jit(lambda i: emb(i))
    with pytest.raises(RuntimeError, match=r"\[0, 10\), but got 20\."):
        step(T(np.array([[1, 20]], np.int32))).asnumpy()


def test_gather_nd_and_scatter_under_jit():
    x = T(np.zeros((3, 4), np.float32))
    g = ms.jit(lambda a, i: ops.gather_nd(a, i))
    with pytest.raises(ValueError, match=r"For 'GatherNd', the indices\[1\] does not index into input_shape: \[3, 4\]"):
        g(x, T(np.array([[0, 1], [3, 0]], np.int32))).asnumpy()
    s = ms.jit(lambda a, i, u: ops.tensor_scatter_elements(a, i, u, 1))
    with pytest.raises(IndexError, match="but got 9"):
        s(x, T(np.array([[0, 9]], np.int32)), T(np.ones((1, 2), np.float32))).asnumpy()


def _labelled_data(bad: int) -> ds.Dataset:
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    y = np.array([0, 1, 2, bad, 0, 1, 2, 0], np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


@pytest.mark.parametrize("sink", [False, True])
def test_model_train_class_index_out_of_range(sink):
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    with pytest.raises(RuntimeError, match=r"For 'SoftmaxCrossEntropyWithLogits', the label must be in range \[0, 2\]"):
        model.train(1, _labelled_data(7), dataset_sink_mode=sink)


def test_graph_mode_cell_and_the_switch(monkeypatch):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(6, 2)

        def construct(self, i):
            return self.emb(i)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="but got 6"):
            Net()(T(np.array([6], np.int32))).asnumpy()
        monkeypatch.setenv("SPORAX_INDEX_CHECKS", "0")  # the one switch: programs compiled from now on
        net = Net()
        out = net(T(np.array([6], np.int32))).asnumpy()  # XLA's own behaviour (zeros for Gather)
        assert out.shape == (1, 2)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_value_and_grad_under_jit_carries_the_check():
    w = ms.Parameter(T(np.ones((4, 2), np.float32)), name="w")

    def loss(i):
        return ops.gather(w, i, 0).sum()

    grad_fn = ms.value_and_grad(loss, None, [w])
    step = ms.jit(lambda i: grad_fn(i))
    step(T([0, 3]))
    with pytest.raises(IndexError, match="but got 4"):
        step(T([0, 4]))[0].asnumpy()


# ------------------------------------------------------------------------- files
class _Two(nn.Cell):
    def __init__(self, n=3):
        super().__init__()
        self.a = nn.Dense(2, 2)
        self.b = nn.Dense(2, n)


def test_load_is_all_or_nothing(tmp_path):
    src, dst = _Two(n=3), _Two(n=4)  # b.weight/b.bias shapes differ; a.* (loaded first) fits
    f = str(tmp_path / "src.ckpt")
    save_checkpoint(src, f)
    before = {p.name: p.asnumpy().copy() for p in dst.get_parameters()}
    with pytest.raises(RuntimeError, match="b.weight in the argument 'net' should have the same shape"):
        load_checkpoint(f, net=dst)
    with pytest.raises(RuntimeError, match="should have the same shape"):
        load_param_into_net(dst, load_checkpoint(f))
    for p in dst.get_parameters():  # nothing was assigned, a.* included
        np.testing.assert_array_equal(p.asnumpy(), before[p.name])
    good = _Two(n=3)
    load_checkpoint(f, net=good)
    np.testing.assert_array_equal(good.a.weight.asnumpy(), src.a.weight.asnumpy())


def test_checksum_verified_without_crc_check(tmp_path):
    f = tmp_path / "net.ckpt"
    save_checkpoint(_Two(), str(f), crc_check=True)
    data = bytearray(f.read_bytes())
    off = data.index(b"b.weight") + 30
    data[off] ^= 0x01
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"crc check is failed.*bad\.ckpt.*'b\.weight'"):
        load_checkpoint(str(bad))
    save_checkpoint(_Two(), str(tmp_path / "plain.ckpt"))  # no trailer: nothing to verify
    assert "a.weight" in load_checkpoint(str(tmp_path / "plain.ckpt"))


def test_stale_tmp_of_a_killed_save_is_cleaned(tmp_path):
    target = tmp_path / "net.ckpt"
    # a save killed midway: a child process that died leaves its temporary behind
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(child.stdout)
    stale = tmp_path / f".net.ckpt.{dead}.abcd1234.tmp"
    stale.write_bytes(b"half a file")
    live = tmp_path / f".net.ckpt.{os.getppid()}.efgh5678.tmp"  # a live process's save: never touched
    live.write_bytes(b"in progress")
    rotated = tmp_path / f".net-1_2.ckpt.{dead}.abcd1234.tmp"  # a ModelCheckpoint name of the killed run
    rotated.write_bytes(b"x")
    foreign = tmp_path / f".notes.txt.{dead}.abcd1234.tmp"  # not a checkpoint's temporary: left alone
    foreign.write_bytes(b"x")
    save_checkpoint(_Two(), str(target))
    assert not stale.exists() and not rotated.exists() and live.exists() and foreign.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == sorted([live.name, foreign.name])


class _Ends(Callback):
    def __init__(self):
        super().__init__()
        self.ends: list[tuple] = []

    def on_train_end(self, run_context):
        p = run_context.original_args()
        self.ends.append((p.cur_epoch_num, p.cur_step_num))


@pytest.mark.parametrize("sink", [False, True])
def test_backup_and_restore_of_a_finished_run(tmp_path, sink):
    def run():
        ms.set_seed(1)
        net = nn.Dense(4, 1)
        model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
        data = ds.NumpySlicesDataset({"x": x, "y": x[:, :1]}, shuffle=False).batch(4)
        ends = _Ends()
        cbs = [
            BackupAndRestore(str(tmp_path / "bak"), delete_checkpoint=False),
            ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2)),
            ends,
        ]
        model.train(2, data, callbacks=cbs, dataset_sink_mode=sink)
        return net.weight.asnumpy(), ends.ends

    w1, ends1 = run()
    w2, ends2 = run()  # the backup records a finished run: nothing to train, the same closing callbacks
    assert ends1 == ends2 == [(2, 4)]
    np.testing.assert_array_equal(w1, w2)
    assert "net_1-2_2.ckpt" in os.listdir(tmp_path)  # ModelCheckpoint.end saved the final state


def test_model_entry_points_name_a_wrong_dataset():
    net = nn.Dense(4, 1)
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"mae"})
    with pytest.raises(
        TypeError, match=r"For 'Model.train', the type of 'train_dataset' should be 'Dataset', but got type 'NoneType'"
    ):
        model.train(1, None)
    with pytest.raises(TypeError, match=r"For 'Model.fit', the type of 'train_dataset' should be 'Dataset'"):
        model.fit(1, [1, 2])
    with pytest.raises(TypeError, match=r"For 'Model.eval', the type of 'valid_dataset' should be 'Dataset'"):
        model.eval(None)


# ------------------------------------------------------------------- grad positions
def test_grad_position_out_of_range_never_wraps():
    def f(x, y):
        return (x * y).sum()

    x = T(np.ones(2, np.float32))
    for make in (ms.grad, ms.value_and_grad):
        with pytest.raises(RuntimeError, match="^Position index 5 is exceed input size.$"):
            make(f, grad_position=5)(x, x)
        with pytest.raises(RuntimeError, match="Position index 2 is exceed input size"):
            make(f, grad_position=(0, 2))(x, x)
        with pytest.raises(ValueError, match="^grad_position must be >= 0.$"):
            make(f, grad_position=-1)
        with pytest.raises(ValueError, match="^The element in grad_position must be >= 0.$"):
            make(f, grad_position=(0, -1))
    with pytest.raises(RuntimeError, match="Position index 2 is exceed input size"):
        ms.jit(ms.grad(f, grad_position=2))(x, x)
    np.testing.assert_array_equal(ms.grad(f, grad_position=1)(x, 2 * x).asnumpy(), [1, 1])


def test_safetensors_checksum_verified_without_crc_check(tmp_path):
    f = tmp_path / "net.safetensors"
    save_checkpoint(_Two(), str(f), crc_check=True, format="safetensors")
    data = bytearray(f.read_bytes())
    data[-3] ^= 0x01  # a byte of the last tensor's data
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"crc check has failed.*bad\.safetensors.*'a\.bias'"):
        load_checkpoint(str(bad), format="safetensors")


def test_grad_of_a_non_callable_names_it():
    x = T(np.ones(2, np.float32))
    for make in (ms.grad, ms.value_and_grad):
        with pytest.raises(TypeError, match="^The fn should be callable, but got NoneType$"):
            make(None)(x)


def test_backup_restore_is_all_or_nothing(tmp_path):
    def model():
        ms.set_seed(1)
        net = nn.Dense(4, 1)
        return net, Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))

    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)

    def data():
        return ds.NumpySlicesDataset({"x": x, "y": x[:, :1]}, shuffle=False).batch(4)

    bak = str(tmp_path / "bak")
    _, m = model()
    m.train(1, data(), callbacks=[BackupAndRestore(bak, delete_checkpoint=False)], dataset_sink_mode=False)
    f = os.path.join(bak, "backup.ckpt")
    saved = load_checkpoint(f)
    moment = next(k for k in saved if k.startswith("moments."))  # the optimizer's own state, loaded last
    entries = [{"name": k, "data": v} for k, v in saved.items() if k != moment and isinstance(v, Tensor)]
    entries.append({"name": moment, "data": Tensor(np.zeros((7,), np.float32))})
    strings = {k: v for k, v in saved.items() if not isinstance(v, Tensor)}  # the RNG's host state
    save_checkpoint(entries, f, append_dict=strings)
    net, m = model()
    before = net.weight.asnumpy().copy()
    with pytest.raises(RuntimeError, match="should have the same shape"):
        m.train(2, data(), callbacks=[BackupAndRestore(bak, delete_checkpoint=False)], dataset_sink_mode=False)
    np.testing.assert_array_equal(net.weight.asnumpy(), before)  # the network's values were not assigned
