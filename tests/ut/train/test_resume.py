"""Resume: a run interrupted after some epochs and resumed from a checkpoint (weights, optimizer moments,
global step and so the learning-rate position, RNG state, dataset position via ``initial_epoch``) gives the
losses of the uninterrupted run, bit for bit: in one process with new objects, after a real kill in a new
process, and with the BackupAndRestore callback."""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

import sporax as ms
from sporax.common.seed import get_rng_state, set_rng_state
from sporax.train import load_checkpoint, load_param_into_net, save_checkpoint
from sporax.train.callback import BackupAndRestore, Callback

EPOCHS, STOP = 4, 2

COMMON = """
import numpy as np
import sporax as ms
import sporax.dataset as ds
from sporax import nn, ops
from sporax.train import Model
from sporax.train.callback import Callback


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 16)
        self.drop = nn.Dropout(p=0.25)
        self.out = nn.Dense(16, 3)

    def construct(self, x):
        return self.out(self.drop(ops.relu(self.fc(x))))


def dataset():
    ds.config.set_seed(11)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    y = np.argmax(x @ rng.standard_normal((4, 3)), axis=1).astype(np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(8)


def make(init_seed=5):
    ms.set_seed(init_seed)
    net = Net()
    lr = nn.ExponentialDecayLR(0.2, 0.8, 4)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, opt)


class Losses(Callback):
    def __init__(self):
        self.losses = []

    def on_train_step_end(self, rc):
        self.losses.append(float(rc.original_args().net_outputs.asnumpy()))
"""

namespace: dict = {}
exec(COMMON, namespace)  # the same definitions in the test and in the worker processes
dataset, make, Losses = namespace["dataset"], namespace["make"], namespace["Losses"]


def uninterrupted(sink):
    model = make()
    rec = Losses()
    model.train(EPOCHS, dataset(), callbacks=[rec], dataset_sink_mode=sink, sink_size=3 if sink else -1)
    return rec.losses


@pytest.mark.parametrize("sink", [False, True])
def test_manual_resume_with_new_objects(tmp_path, sink):
    ref = uninterrupted(sink)
    kw = {"dataset_sink_mode": sink, "sink_size": 3 if sink else -1}

    first = make()
    rec = Losses()
    first.train(STOP, dataset(), callbacks=[rec], **kw)
    ckpt = str(tmp_path / "net.ckpt")
    save_checkpoint(first.train_network, ckpt)
    rng = get_rng_state()
    names = set(load_checkpoint(ckpt))
    assert "global_step" in names and any(n.startswith("moments.") for n in names)

    resumed = make(init_seed=99)  # other initial weights: everything must come from the checkpoint
    ms.set_seed(1234)  # and another random state
    not_loaded, _ = load_param_into_net(resumed.train_network, load_checkpoint(ckpt))
    assert not_loaded == []
    set_rng_state(rng)
    rec2 = Losses()
    resumed.train(EPOCHS, dataset(), callbacks=[rec2], initial_epoch=STOP, **kw)
    assert rec.losses + rec2.losses == ref


WORKER = COMMON + textwrap.dedent(
    """
    import json, os, signal, sys
    from sporax.common.seed import get_rng_state, set_rng_state
    from sporax.train import load_checkpoint, load_param_into_net, save_checkpoint

    class SaveThenDie(Callback):
        def on_train_epoch_end(self, rc):
            p = rc.original_args()
            if p.cur_epoch_num == STOP:
                save_checkpoint(p.train_network, os.path.join(OUT, "net.ckpt"))
                st = get_rng_state()
                with open(os.path.join(OUT, "rng.json"), "w") as f:
                    json.dump({"seed": st["seed"], "key": st["key"].tolist(), "host": st["host"]}, f)
                sys.stdout.flush()
                os.kill(os.getpid(), signal.SIGKILL)

    mode, OUT, STOP, EPOCHS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    model = make() if mode == "kill" else make(init_seed=99)
    rec = Losses()
    if mode == "kill":
        model.train(EPOCHS, dataset(), callbacks=[rec, SaveThenDie()])
    else:
        load_param_into_net(model.train_network, load_checkpoint(os.path.join(OUT, "net.ckpt")))
        with open(os.path.join(OUT, "rng.json")) as f:
            st = json.load(f)
        set_rng_state({"seed": st["seed"], "key": np.asarray(st["key"], np.uint32), "host": st["host"]})
        model.train(EPOCHS, dataset(), callbacks=[rec], initial_epoch=STOP)
        print("LOSSES", json.dumps(rec.losses))
    """
)


def test_kill_and_resume_in_a_new_process(tmp_path):
    ref = uninterrupted(False)
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    args = [str(tmp_path), str(STOP), str(EPOCHS)]
    killed = subprocess.run([sys.executable, str(script), "kill", *args], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert os.path.exists(tmp_path / "net.ckpt")
    resumed = subprocess.run(
        [sys.executable, str(script), "resume", *args], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    losses = json.loads(resumed.stdout.split("LOSSES", 1)[1])
    per_epoch = len(ref) // EPOCHS
    assert losses == ref[STOP * per_epoch :]


def test_backup_and_restore_resumes_after_the_saved_epoch(tmp_path):
    ref = uninterrupted(False)

    class Crash(Callback):
        def on_train_epoch_begin(self, rc):
            if rc.original_args().cur_epoch_num == STOP + 1:
                raise KeyboardInterrupt("simulated crash")

    backup = str(tmp_path / "backup")
    model = make()
    rec = Losses()
    with pytest.raises(KeyboardInterrupt):
        model.train(EPOCHS, dataset(), callbacks=[BackupAndRestore(backup), rec, Crash()])
    ms.set_seed(1234)
    resumed = make(init_seed=99)
    rec2 = Losses()
    epochs = []

    class Epochs(Callback):
        def on_train_epoch_begin(self, rc):
            epochs.append((rc.original_args().cur_epoch_num, rc.original_args().cur_step_num))

    resumed.train(EPOCHS, dataset(), callbacks=[BackupAndRestore(backup), rec2, Epochs()])
    per_epoch = len(ref) // EPOCHS
    assert epochs == [(STOP + 1, STOP * per_epoch), (STOP + 2, (STOP + 1) * per_epoch)]
    assert rec.losses + rec2.losses == ref
    assert not os.listdir(backup)  # deleted at the end of training


def test_resume_point_past_the_last_epoch_trains_nothing(tmp_path):
    class Restored(Callback):
        def on_train_begin(self, rc):
            rc.original_args()["resume_epoch"] = EPOCHS
            rc.original_args()["resume_step"] = 32

    model = make()
    rec = Losses()
    model.train(EPOCHS, dataset(), callbacks=[Restored(), rec])
    assert rec.losses == []
