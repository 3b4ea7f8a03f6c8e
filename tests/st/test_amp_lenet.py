"""Mixed precision end to end: LeNet5 on an MNIST subset trained with amp.build_train_network at O0 (float32),
O2 and O3 (bfloat16 on CPU, float16 elsewhere); O2 and O3 reach O0's test accuracy within 0.5 points.

Run as a script for the full-length numbers::

    python tests/st/test_amp_lenet.py --train 60000 --test 10000 --epochs 3

Adam with a cosine learning rate decaying to 0 makes the compared models settled ones (the accuracy of a
model mid-way through training moves by a point from step to step).
"""

import gzip
import pathlib
import time

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, amp, nn
from sporax.common.initializer import Normal

DATA = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "data" / "mnist"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="the shared MNIST data is not beside this checkout")


def _idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    shape = [int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load(split, n):
    prefix = "train" if split == "train" else "t10k"
    images = _idx(DATA / split / f"{prefix}-images-idx3-ubyte.gz")[:n]
    labels = _idx(DATA / split / f"{prefix}-labels-idx1-ubyte.gz")[:n]
    x = (images.astype(np.float32) / 255.0 - 0.1307) / 0.3081
    x = np.pad(x, ((0, 0), (2, 2), (2, 2)))[:, None]  # 32 x 32, as LeNet5 expects
    return x, labels.astype(np.int32)


class LeNet5(nn.Cell):
    def __init__(self, num_class=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def low_precision():
    return ms.bfloat16 if ms.get_context("device_target") == "CPU" else ms.float16


def train_and_eval(level, train, test, epochs, batch=32, lr=0.003):
    ms.set_seed(1)
    net = LeNet5()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    steps = epochs * (len(train[0]) // batch)
    schedule = nn.cosine_decay_lr(0.0, lr, steps, 1, steps)  # decays to 0: a settled model to compare
    opt = nn.Adam(net.trainable_params(), learning_rate=schedule)
    kwargs = {} if level in ("O0", "O1") else {"cast_model_type": low_precision()}
    step = amp.build_train_network(net, opt, loss_fn, level=level, **kwargs)
    run = ms.jit(step)
    x, y = train
    order = np.random.RandomState(0)
    overflows = 0
    start = time.perf_counter()
    for _ in range(epochs):
        perm = order.permutation(len(x))
        for i in range(0, len(x) - batch + 1, batch):
            idx = perm[i : i + batch]
            out = run(Tensor(x[idx]), Tensor(y[idx]))
            if isinstance(out, tuple):
                overflows += int(out[1].asnumpy())
    train_s = time.perf_counter() - start
    predict = ms.jit(lambda images: net(images).argmax(-1))
    tx, ty = test
    correct = sum(
        int((predict(Tensor(tx[i : i + 1000])).asnumpy() == ty[i : i + 1000]).sum()) for i in range(0, len(tx), 1000)
    )
    return 100.0 * correct / len(tx), train_s, overflows, step


@pytest.fixture(scope="module")
def subset():
    return load("train", 16000), load("test", 10000)


def test_o2_and_o3_reach_o0_accuracy(subset):
    train, test = subset
    acc = {}
    for level in ("O0", "O2", "O3"):
        acc[level], _, overflows, step = train_and_eval(level, train, test, epochs=1)
        if level == "O2":
            assert isinstance(step, nn.TrainOneStepWithLossScaleCell)
            assert float(step.scale_sense.asnumpy()) > 1.0
        else:
            assert type(step) is nn.TrainOneStepCell
    assert acc["O0"] > 96.0, acc
    assert abs(acc["O2"] - acc["O0"]) <= 0.5, acc
    assert abs(acc["O3"] - acc["O0"]) <= 0.5, acc


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=60000)
    ap.add_argument("--test", type=int, default=10000)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--levels", default="O0,O1,O2,O3")
    a = ap.parse_args()
    tr, te = load("train", a.train), load("test", a.test)
    for lvl in a.levels.split(","):
        accuracy, seconds, n_over, _ = train_and_eval(lvl, tr, te, a.epochs)
        print(f"{lvl}: test accuracy {accuracy:.2f} %, train {seconds:.1f} s, overflow steps {n_over}")
