"""examples/dcgan_mnist.py: the DCGAN's two train cells each step only their own network with their own
optimizer, and together they learn the MNIST subset shipped with sporax (the discriminator's loss falls, the
generated images come closer to real ones); its checkpoints: test_example_checkpoints.py."""

import importlib.util
import pathlib

import numpy as np
import pytest

from sporax import compat

ROOT = pathlib.Path(__file__).resolve().parents[2]
MNIST_TRAIN = ROOT / "sporax" / "data" / "mnist" / "train"


@pytest.fixture(scope="module")
def ex():
    """The example module, with ``mindspore`` aliased to sporax (as ``sporax run`` does) while this file runs."""
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location("dcgan_mnist", ROOT / "examples" / "dcgan_mnist.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


def snapshot(cell):
    return {p.name: p.asnumpy().copy() for p in cell.trainable_params()}


def changed(before, cell):
    return sorted(p.name for p in cell.trainable_params() if not np.array_equal(before[p.name], p.asnumpy()))


def test_image_distance(ex):
    real = np.where(np.random.default_rng(0).random((8, 1, 28, 28)) < 0.2, 1.0, -1.0).astype(np.float32)
    assert ex.image_distance(real, real) == 0.0
    mean, std = real.mean(0), real.std(0)
    np.testing.assert_allclose(ex.image_distance(np.zeros_like(real), real), (mean**2).mean() + (std**2).mean())


def test_dcgan_two_train_cells_learn_shipped_mnist(ex):
    import mindspore as ms
    import mindspore.dataset as ds

    ms.set_context(mode=ms.GRAPH_MODE)  # as the example runs
    ds.config.set_seed(1)
    data = ex.create_dataset(str(MNIST_TRAIN), batch_size=32, num_samples=1920)
    assert data.get_dataset_size() == 60
    gan, dcgan = ex.build(nz=16, ngf=8, ndf=8, lr=2e-3)
    assert dcgan.train_d.optimizer is not dcgan.train_g.optimizer
    # names as in a Generator / Discriminator built on its own, so their checkpoints load there
    assert sorted(snapshot(gan.generator)) == sorted(p.name for p in ex.Generator(16, 8).trainable_params())
    assert sorted(snapshot(gan.discriminator)) == sorted(p.name for p in ex.Discriminator(8).trainable_params())
    rng = np.random.default_rng(0)
    fixed = ms.Tensor(rng.standard_normal((64, 16, 1, 1)).astype(np.float32))
    real = np.concatenate([b[0].asnumpy() for b in data.create_tuple_iterator(num_epochs=1)][:4])
    assert real.shape == (128, 1, 28, 28) and real.min() == -1.0 and abs(real.max() - 1.0) < 1e-6
    dist0 = ex.image_distance(ex.sample(gan.generator, fixed), real)
    losses_d, losses_g = [], []
    for step, (batch,) in enumerate(data.create_tuple_iterator(num_epochs=1)):
        latent = ms.Tensor(rng.standard_normal((32, 16, 1, 1)).astype(np.float32))
        # DCGAN.construct's two steps, called one by one to see what each changes (on the first batch)
        g0, d0 = snapshot(gan.generator), snapshot(gan.discriminator)
        losses_d.append(float(dcgan.train_d(batch, latent).asnumpy()))
        if step == 0:
            assert changed(g0, gan.generator) == [] and changed(d0, gan.discriminator) == sorted(d0)
            g0, d0 = snapshot(gan.generator), snapshot(gan.discriminator)
        losses_g.append(float(dcgan.train_g(latent).asnumpy()))
        if step == 0:
            assert changed(d0, gan.discriminator) == [] and changed(g0, gan.generator) == sorted(g0)
    dist1 = ex.image_distance(ex.sample(gan.generator, fixed), real)
    assert len(losses_d) == 60 and np.isfinite(losses_d + losses_g).all()
    # the discriminator learns to tell real from generated at first (later the two losses trade places)
    assert np.mean(losses_d[1:11]) < 0.85 * losses_d[0], np.round(losses_d, 3)
    assert dist1 < 0.6 * dist0, (dist0, dist1)
