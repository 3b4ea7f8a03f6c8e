"""A DCGAN on MNIST with two optimizers and custom train cells, as MindSpore's DCGAN tutorial and ModelZoo's
dcgan write it: a Conv2dTranspose generator and a Conv2d discriminator (BatchNorm, ReLU / LeakyReLU, DCGAN's
N(0, 0.02) initialisation), a loss cell each (``WithLossCellD``, ``WithLossCellG``), a train cell each
(``TrainOneStepCellGAN``: ``ms.value_and_grad`` over its optimizer's parameters, then the update) and one
``DCGAN`` cell that runs a discriminator step and a generator step. Run it with

    sporax run examples/dcgan_mnist.py [--data-dir DIR] [--epochs 1] [--nz 100] [--ngf 64] [--ndf 64]

Without ``--data-dir`` it trains on the MNIST subset shipped with sporax (sporax/data/mnist, 6,000 training
images); DIR holds MNIST's ``train/`` folder. It prints both losses and, every ``--report-every`` steps, how far
the generated images are from real ones (``image distance``: the mean squared difference of the mean images
plus that of the per-pixel standard deviations; it falls as the generator learns), and saves ``generator.ckpt``
and ``discriminator.ckpt``. The same file runs on real MindSpore too.
"""

import argparse
import os

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.vision as CV
import numpy as np
from mindspore import nn, ops
from mindspore.common.initializer import Normal


# ----------------------------------------------------------------------------------------------- data
def default_data_dir():
    """The MNIST subset shipped with sporax (under `sporax run`, `mindspore` is sporax)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for base in (os.path.dirname(ms.__file__), os.path.join(here, os.pardir, "sporax")):
        path = os.path.join(base, "data", "mnist")
        if os.path.isdir(path):
            return path
    raise SystemExit("No MNIST data: pass --data-dir (a folder with MNIST's train/ folder).")


def create_dataset(data_path, batch_size=64, num_samples=None):
    """MNIST images -> 1x28x28 float32 in [-1, 1] (the generator's tanh range), batched; labels dropped."""
    data = ds.MnistDataset(data_path, num_samples=num_samples, shuffle=True)
    data = data.map(operations=[CV.Rescale(1.0 / 127.5, -1.0), CV.HWC2CHW()], input_columns="image")
    data = data.project(["image"])
    return data.batch(batch_size, drop_remainder=True)


# ------------------------------------------------------------------------------------------- networks
def conv(cell, in_channels, out_channels, kernel_size, stride, padding, pad_mode="pad"):
    """nn.Conv2d or nn.Conv2dTranspose without bias, DCGAN's N(0, 0.02) weights."""
    return cell(
        in_channels,
        out_channels,
        kernel_size,
        stride,
        pad_mode=pad_mode,
        padding=padding,
        has_bias=False,
        weight_init=Normal(0.02),
    )


def bn(channels):
    return nn.BatchNorm2d(channels, gamma_init=Normal(0.02, 1.0))


class Generator(nn.Cell):
    """z [N, nz, 1, 1] -> ngf*4 x 7x7 -> ngf*2 x 14x14 -> 1 x 28x28 in (-1, 1)."""

    def __init__(self, nz=100, ngf=64):
        super().__init__()
        self.generator = nn.SequentialCell(
            conv(nn.Conv2dTranspose, nz, ngf * 4, 7, 1, 0, pad_mode="valid"),
            bn(ngf * 4),
            nn.ReLU(),
            conv(nn.Conv2dTranspose, ngf * 4, ngf * 2, 4, 2, 1),
            bn(ngf * 2),
            nn.ReLU(),
            conv(nn.Conv2dTranspose, ngf * 2, 1, 4, 2, 1),
            nn.Tanh(),
        )

    def construct(self, x):
        return self.generator(x)


class Discriminator(nn.Cell):
    """1 x 28x28 -> ndf x 14x14 -> ndf*2 x 7x7 -> one logit (real vs generated)."""

    def __init__(self, ndf=64):
        super().__init__()
        self.discriminator = nn.SequentialCell(
            conv(nn.Conv2d, 1, ndf, 4, 2, 1),
            nn.LeakyReLU(0.2),
            conv(nn.Conv2d, ndf, ndf * 2, 4, 2, 1),
            bn(ndf * 2),
            nn.LeakyReLU(0.2),
            conv(nn.Conv2d, ndf * 2, 1, 7, 1, 0, pad_mode="valid"),
            nn.Flatten(),
        )

    def construct(self, x):
        return self.discriminator(x)


class GAN(nn.Cell):
    """Both networks in one Cell: one checkpoint holds them (``generator.*`` and ``discriminator.*``).

    This Cell and the wrappers below add no prefix to parameter names (``auto_prefix=False``, as
    nn.WithLossCell and nn.TrainOneStepCell): with a prefix, MindSpore renames a network's parameters after
    the wrapper attribute it was last assigned to (``train_g.loss_cell.netG.generator.0.weight``), and the
    checkpoints would no longer load into a Generator or Discriminator built on its own."""

    def __init__(self, nz=100, ngf=64, ndf=64):
        super().__init__(auto_prefix=False)
        self.generator = Generator(nz, ngf)
        self.discriminator = Discriminator(ndf)

    def construct(self, latent, image):
        return self.generator(latent), self.discriminator(image)


# ------------------------------------------------------------------------------- losses and train cells
class WithLossCellD(nn.Cell):
    """The discriminator's loss: real images are 1, generated ones 0 (no gradient into the generator)."""

    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=False)
        self.netD = netD
        self.netG = netG
        self.loss_fn = loss_fn

    def construct(self, real_data, latent_code):
        out_real = self.netD(real_data)
        fake_data = ops.stop_gradient(self.netG(latent_code))
        out_fake = self.netD(fake_data)
        loss_real = self.loss_fn(out_real, ops.ones_like(out_real))
        loss_fake = self.loss_fn(out_fake, ops.zeros_like(out_fake))
        return loss_real + loss_fake


class WithLossCellG(nn.Cell):
    """The generator's loss: its images should be called real (the non-saturating loss)."""

    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=False)
        self.netD = netD
        self.netG = netG
        self.loss_fn = loss_fn

    def construct(self, latent_code):
        out_fake = self.netD(self.netG(latent_code))
        return self.loss_fn(out_fake, ops.ones_like(out_fake))


class TrainOneStepCellGAN(nn.Cell):
    """One optimizer step of one network: gradients of the loss cell with respect to that optimizer's
    parameters only (the other network is fixed during this step)."""

    def __init__(self, loss_cell, optimizer):
        super().__init__(auto_prefix=False)
        self.loss_cell = loss_cell
        self.optimizer = optimizer
        self.grad_fn = ms.value_and_grad(self.loss_cell, None, optimizer.parameters)

    def construct(self, *inputs):
        loss, grads = self.grad_fn(*inputs)
        self.optimizer(grads)
        return loss


class DCGAN(nn.Cell):
    """A discriminator step, then a generator step, on one batch and one latent code."""

    def __init__(self, train_d, train_g):
        super().__init__(auto_prefix=False)
        self.train_d = train_d
        self.train_g = train_g

    def construct(self, real_data, latent_code):
        loss_d = self.train_d(real_data, latent_code)
        loss_g = self.train_g(latent_code)
        return loss_d, loss_g


def build(nz=100, ngf=64, ndf=64, lr=2e-4, beta1=0.5):
    """(gan, dcgan): the two networks, and the train cell stepping both with their own Adam."""
    gan = GAN(nz, ngf, ndf)
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer_d = nn.Adam(gan.discriminator.trainable_params(), learning_rate=lr, beta1=beta1)
    optimizer_g = nn.Adam(gan.generator.trainable_params(), learning_rate=lr, beta1=beta1)
    train_d = TrainOneStepCellGAN(WithLossCellD(gan.discriminator, gan.generator, loss_fn), optimizer_d)
    train_g = TrainOneStepCellGAN(WithLossCellG(gan.discriminator, gan.generator, loss_fn), optimizer_g)
    dcgan = DCGAN(train_d, train_g)
    dcgan.set_train()
    return gan, dcgan


def image_distance(fake, real):
    """How far generated images are from real ones (NumPy arrays [N, 1, 28, 28]): the mean squared difference
    of their mean images plus that of their per-pixel standard deviations (where the ink is, and how much
    it varies from image to image)."""
    return float(((fake.mean(0) - real.mean(0)) ** 2).mean() + ((fake.std(0) - real.std(0)) ** 2).mean())


def sample(generator, latent):
    generator.set_train(False)
    images = generator(latent).asnumpy()
    generator.set_train(True)
    return images


def main():
    parser = argparse.ArgumentParser(description="DCGAN on MNIST")
    parser.add_argument("--data-dir", default=None, help="folder with MNIST's train/ (default: the subset)")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--nz", type=int, default=100)
    parser.add_argument("--ngf", type=int, default=64)
    parser.add_argument("--ndf", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--num-samples", type=int, default=None, help="train on this many images")
    parser.add_argument("--report-every", type=int, default=20)
    parser.add_argument("--ckpt-dir", default="./ckpt")
    parser.add_argument("--device-target", default="CPU")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device_target)
    ms.set_seed(args.seed)
    ds.config.set_seed(args.seed)
    data_dir = args.data_dir or default_data_dir()
    dataset = create_dataset(os.path.join(data_dir, "train"), args.batch_size, args.num_samples)
    steps = dataset.get_dataset_size()
    gan, dcgan = build(args.nz, args.ngf, args.ndf, args.lr)
    rng = np.random.default_rng(args.seed)
    fixed_latent = ms.Tensor(rng.standard_normal((64, args.nz, 1, 1)).astype(np.float32))
    real = next(dataset.create_tuple_iterator(num_epochs=1))[0].asnumpy()
    print(f"step 0: image distance {image_distance(sample(gan.generator, fixed_latent), real):.4f}", flush=True)

    step = 0
    for epoch in range(1, args.epochs + 1):
        for (real_data,) in dataset.create_tuple_iterator(num_epochs=1):
            latent = ms.Tensor(rng.standard_normal((args.batch_size, args.nz, 1, 1)).astype(np.float32))
            loss_d, loss_g = dcgan(real_data, latent)
            step += 1
            if step % args.report_every == 0 or step == steps * args.epochs:
                dist = image_distance(sample(gan.generator, fixed_latent), real_data.asnumpy())
                print(
                    f"epoch {epoch} step {step}: loss_D {float(loss_d.asnumpy()):.4f}, "
                    f"loss_G {float(loss_g.asnumpy()):.4f}, image distance {dist:.4f}",
                    flush=True,
                )
    os.makedirs(args.ckpt_dir, exist_ok=True)
    ms.save_checkpoint(gan.generator, os.path.join(args.ckpt_dir, "generator.ckpt"))
    ms.save_checkpoint(gan.discriminator, os.path.join(args.ckpt_dir, "discriminator.ckpt"))
    print(f"saved {args.ckpt_dir}/generator.ckpt and discriminator.ckpt", flush=True)


if __name__ == "__main__":
    main()
