"""ResNet-18 on CIFAR-10 binaries with Model.train, written as ModelZoo's official/cv/ResNet writes it.

Run it with

    sporax run examples/resnet18_cifar10.py [--data-dir DIR] [--epochs 1] [--width 64] [--batch-size 32]

DIR holds CIFAR-10's binary version (``data_batch_1.bin`` .. ``data_batch_5.bin`` and ``test_batch.bin``,
as in ``cifar-10-batches-bin/``), read by ``mindspore.dataset.Cifar10Dataset``. Without ``--data-dir`` the
script writes a synthetic set in the same binary format (class-coloured noisy images; one train and one test
file of 10,000 records, as CIFAR-10's) into ``--synthetic-dir``, says so, and trains on ``--num-train`` of
them: it checks that the pipeline and the network learn, not CIFAR-10 accuracy. ``--num-train`` and
``--num-test`` limit real data too. The same file runs on real MindSpore too.

The network is ResNet-18 (BasicBlock, [2, 2, 2, 2]) in its CIFAR form: a 3x3 stride-1 stem without the
max-pool (32x32 inputs), then 4 stages of ``width * (1, 2, 4, 8)`` channels; ``--width 64`` is the paper's.
Training is ModelZoo's: Momentum 0.9, weight decay 1e-4 on the weights, cosine learning rate, label
cross-entropy. Parameter names are ModelZoo's, so checkpoints interchange with the MindSpore network.
"""

import argparse
import os

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as C
import mindspore.dataset.vision as CV
import numpy as np
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint, TimeMonitor

CIFAR_MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
CIFAR_STD = [0.2470 * 255, 0.2435 * 255, 0.2616 * 255]


# ----------------------------------------------------------------------------------------------- data
def write_synthetic_cifar10(out_dir, num_train=10000, num_test=10000, seed=0, per_file=10000):
    """Write a CIFAR-10-format set: ``data_batch_<i>.bin`` (train) and ``test_batch.bin``, records of
    1 label byte + 3072 image bytes (R, G, B planes of 32x32), `per_file` records a file (CIFAR-10's files
    hold 10,000 and MindSpore's reader reads exactly that many; sporax's reads any whole number). Each class
    has its own colour and an inverted stripe at a class-dependent row, under noise, so a small network learns
    it in a few steps."""
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    colours = rng.integers(40, 216, size=(10, 3))

    def records(n):
        labels = rng.integers(0, 10, n).astype(np.uint8)
        images = np.empty((n, 3, 32, 32), np.int16)
        images[:] = colours[labels][:, :, None, None]
        for i, r in enumerate(3 * labels):
            images[i, :, r : r + 3, :] = 255 - images[i, :, r : r + 3, :]
        images += rng.normal(0, 40, images.shape).astype(np.int16)
        images = np.clip(images, 0, 255).astype(np.uint8)
        return np.concatenate([labels[:, None], images.reshape(n, -1)], axis=1)

    for i in range(1, -(-num_train // per_file) + 1):
        records(min(per_file, num_train - (i - 1) * per_file)).tofile(os.path.join(out_dir, f"data_batch_{i}.bin"))
    records(num_test).tofile(os.path.join(out_dir, "test_batch.bin"))
    with open(os.path.join(out_dir, "batches.meta.txt"), "w") as f:
        f.write("\n".join(f"class_{k}" for k in range(10)) + "\n")
    return out_dir


def create_dataset(data_dir, usage="train", batch_size=32, training=True, num_samples=None, num_parallel_workers=1):
    """CIFAR-10 -> 3x32x32 float32 normalised images and int32 labels (random crop and flip when training)."""
    data = ds.Cifar10Dataset(
        data_dir, usage=usage, num_samples=num_samples, shuffle=training, num_parallel_workers=num_parallel_workers
    )
    trans = []
    if training:
        trans += [CV.RandomCrop((32, 32), (4, 4, 4, 4)), CV.RandomHorizontalFlip(prob=0.5)]
    trans += [CV.Normalize(mean=CIFAR_MEAN, std=CIFAR_STD), CV.HWC2CHW()]
    data = data.map(operations=C.TypeCast(mstype.int32), input_columns="label")
    data = data.map(operations=trans, input_columns="image")
    return data.batch(batch_size, drop_remainder=training)


# -------------------------------------------------------------------------------------------- network
def conv3x3(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, 3, stride=stride, pad_mode="pad", padding=1, has_bias=False)


def conv1x1(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, 1, stride=stride, pad_mode="pad", padding=0, has_bias=False)


def bn(channel, last=False):
    """BatchNorm2d; the last one of a residual branch starts at gamma 0 (ModelZoo's zero-init residual)."""
    return nn.BatchNorm2d(channel, momentum=0.9, eps=1e-5, gamma_init="zeros" if last else "ones")


class ResidualBlockBase(nn.Cell):
    """The BasicBlock: two 3x3 convolutions, with a 1x1 projection when the shape changes."""

    expansion = 1

    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        self.conv1 = conv3x3(in_channel, out_channel, stride)
        self.bn1d = bn(out_channel)
        self.conv2 = conv3x3(out_channel, out_channel, 1)
        self.bn2d = bn(out_channel, last=True)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([conv1x1(in_channel, out_channel, stride), bn(out_channel)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1d(self.conv1(x)))
        out = self.bn2d(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """ResNet with a CIFAR stem (3x3, stride 1, no max-pool)."""

    def __init__(self, block, layer_nums, in_channels, out_channels, strides, num_classes):
        super().__init__()
        self.conv1 = conv3x3(3, in_channels[0], 1)
        self.bn1 = bn(in_channels[0])
        self.relu = nn.ReLU()
        self.layer1 = self._make_layer(block, layer_nums[0], in_channels[0], out_channels[0], strides[0])
        self.layer2 = self._make_layer(block, layer_nums[1], in_channels[1], out_channels[1], strides[1])
        self.layer3 = self._make_layer(block, layer_nums[2], in_channels[2], out_channels[2], strides[2])
        self.layer4 = self._make_layer(block, layer_nums[3], in_channels[3], out_channels[3], strides[3])
        self.mean = ms.ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = nn.Dense(out_channels[3], num_classes)

    @staticmethod
    def _make_layer(block, layer_num, in_channel, out_channel, stride):
        layers = [block(in_channel, out_channel, stride=stride)]
        layers += [block(out_channel, out_channel, stride=1) for _ in range(1, layer_num)]
        return nn.SequentialCell(layers)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.flatten(self.mean(x, (2, 3)))
        return self.end_point(x)


def resnet18(num_classes=10, width=64):
    chans = [width, width * 2, width * 4, width * 8]
    return ResNet(ResidualBlockBase, [2, 2, 2, 2], [width] + chans[:3], chans, [1, 2, 2, 2], num_classes)


def optimizer(network, lr, momentum=0.9, weight_decay=1e-4):
    """Momentum with weight decay on the weights only (not on BatchNorm's gamma/beta nor the biases)."""
    params = network.trainable_params()
    decay = [p for p in params if not any(k in p.name for k in ("beta", "gamma", "bias"))]
    other = [p for p in params if any(k in p.name for k in ("beta", "gamma", "bias"))]
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": other}, {"order_params": params}]
    return nn.Momentum(groups, lr, momentum)


def build(width=64, lr=0.1, steps=1, num_classes=10):
    """The network, its loss and a Model(…, metrics={'Accuracy'}) with a cosine learning rate over `steps`."""
    network = resnet18(num_classes, width)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    lrs = nn.cosine_decay_lr(0.0, lr, steps, steps, 1) if steps > 1 else lr
    model = Model(network, loss, optimizer(network, lrs), metrics={"Accuracy": Accuracy()})
    return network, model


def main():
    parser = argparse.ArgumentParser(description="ResNet-18 on CIFAR-10 binaries")
    parser.add_argument("--data-dir", default=None, help="folder of CIFAR-10 .bin files (default: synthetic)")
    parser.add_argument("--synthetic-dir", default="./cifar10_synthetic")
    parser.add_argument("--num-train", type=int, default=2048)
    parser.add_argument("--num-test", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--width", type=int, default=64, help="channels of the first stage (64: ResNet-18)")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--sink-mode", action="store_true")
    parser.add_argument("--ckpt-dir", default="./ckpt")
    parser.add_argument("--device-target", default="CPU")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device_target)
    ms.set_seed(args.seed)
    ds.config.set_seed(args.seed)
    data_dir = args.data_dir
    if data_dir is None:
        data_dir = write_synthetic_cifar10(args.synthetic_dir, seed=args.seed)
        print(
            f"No --data-dir given: training on {args.num_train} images of a synthetic CIFAR-10-format set "
            f"written to {data_dir} (not CIFAR-10).",
            flush=True,
        )
    ds_train = create_dataset(data_dir, "train", args.batch_size, training=True, num_samples=args.num_train)
    steps_per_epoch = ds_train.get_dataset_size()
    network, model = build(args.width, args.lr, steps_per_epoch * args.epochs)

    config_ck = CheckpointConfig(save_checkpoint_steps=steps_per_epoch, keep_checkpoint_max=2)
    callbacks = [
        TimeMonitor(data_size=steps_per_epoch),
        ModelCheckpoint(prefix="resnet18_cifar10", directory=args.ckpt_dir, config=config_ck),
        LossMonitor(per_print_times=max(1, steps_per_epoch // 4)),
    ]
    print("============== Starting Training ==============", flush=True)
    model.train(args.epochs, ds_train, callbacks=callbacks, dataset_sink_mode=args.sink_mode)
    print("============== Starting Testing ==============", flush=True)
    acc = model.eval(create_dataset(data_dir, "test", 128, training=False, num_samples=args.num_test))
    print(f"============== Accuracy:{acc} ==============", flush=True)


if __name__ == "__main__":
    main()
