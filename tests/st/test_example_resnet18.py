"""examples/resnet18_cifar10.py: ResNet-18 learns a tiny CIFAR-10-format set read by Cifar10Dataset (its
checkpoints: test_example_checkpoints.py; under ``sporax run``: test_example_cli.py)."""

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
    spec = importlib.util.spec_from_file_location("resnet18_cifar10", ROOT / "examples" / "resnet18_cifar10.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


class LossRecorder:
    def __init__(self, callback_base):
        self.losses = []
        recorder = self

        class _CB(callback_base):
            def on_train_step_end(self, run_context):
                recorder.losses.append(float(run_context.original_args().net_outputs.asnumpy()))

        self.callback = _CB()


def test_resnet18_learns_tiny_cifar10_binaries(ex, tmp_path):
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.train import Callback

    ex.write_synthetic_cifar10(str(tmp_path), num_train=192, num_test=64, seed=0, per_file=96)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "batches.meta.txt",
        "data_batch_1.bin",
        "data_batch_2.bin",
        "test_batch.bin",
    ]
    assert (tmp_path / "data_batch_1.bin").stat().st_size == 96 * 3073
    ms.set_context(mode=ms.GRAPH_MODE)  # as the example runs
    ms.set_seed(1)
    ds.config.set_seed(1)
    train = ex.create_dataset(str(tmp_path), "train", batch_size=32, training=True)
    test = ex.create_dataset(str(tmp_path), "test", batch_size=64, training=False)
    assert train.get_dataset_size() == 6
    network, model = ex.build(width=8, lr=0.1, steps=18)
    before = model.eval(test)["Accuracy"]
    rec = LossRecorder(Callback)
    model.train(3, train, callbacks=[rec.callback])  # compiling the step is most of the time
    after = model.eval(test)["Accuracy"]
    assert len(rec.losses) == 18 and np.isfinite(rec.losses).all()
    assert np.mean(rec.losses[-3:]) < 0.5 * np.mean(rec.losses[:3])
    assert after >= 0.5 and after > before + 0.3, (before, after)
