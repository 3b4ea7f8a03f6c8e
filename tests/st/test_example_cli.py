"""The four example models run unmodified under ``sporax run`` at tiny sizes (each compiles its own steps in a
fresh process: slow, so only with SPORAX_RUN_SLOW=1; the in-process tests of each example run always)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not os.environ.get("SPORAX_RUN_SLOW"), reason="slow: set SPORAX_RUN_SLOW=1")


def sporax_run(example, args, cwd):
    cmd = [sys.executable, "-m", "sporax", "run", str(ROOT / "examples" / example), *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=cwd)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_resnet18_cifar10(tmp_path):
    out = sporax_run(
        "resnet18_cifar10.py", ["--num-train", "64", "--num-test", "32", "--width", "4", "--batch-size", "16"], tmp_path
    )
    assert "No --data-dir given: training on 64 images of a synthetic CIFAR-10-format set" in out
    assert (tmp_path / "cifar10_synthetic" / "data_batch_1.bin").stat().st_size == 10000 * 3073  # CIFAR-10's size
    assert re.findall(r"^epoch: 1 step: (\d+), loss is [0-9.]+$", out, re.M) == ["1", "2", "3", "4"]
    assert re.search(r"Accuracy:\{'Accuracy': (np\.float64\()?[0-9.]+", out)
    assert [p.name for p in (tmp_path / "ckpt").iterdir() if p.suffix == ".ckpt"] == ["resnet18_cifar10-1_4.ckpt"]


def test_sentiment_lstm_glove(tmp_path):
    out = sporax_run("sentiment_lstm_glove.py", ["--epochs", "2", "--hidden", "16"], tmp_path)
    assert "No --data-dir/--glove given: training on a synthetic sentiment set" in out
    acc = [float(a) for a in re.findall(r"test accuracy ([0-9.]+)$", out, re.M)]
    assert len(acc) == 3 and acc[-1] > acc[0] + 0.2
    assert (tmp_path / "sentiment_lstm.ckpt").is_file()


def test_transformer_lm(tmp_path):
    args = ["--steps", "40", "--eval-every", "20", "--d-model", "32", "--block-size", "32", "--batch-size", "16"]
    out = sporax_run("transformer_lm.py", args, tmp_path)
    assert "coriolanus.txt: 89997 characters, 61 distinct" in out
    held_out = [float(v) for v in re.findall(r"held-out loss ([0-9.]+)", out)]
    assert len(held_out) == 3 and held_out[-1] < held_out[0] - 1.0
    assert "sample: 'MENENIUS:\\n" in out


def test_dcgan_mnist(tmp_path):
    args = [
        "--num-samples",
        "640",
        "--batch-size",
        "32",
        "--nz",
        "16",
        "--ngf",
        "8",
        "--ndf",
        "8",
        "--report-every",
        "10",
    ]
    out = sporax_run("dcgan_mnist.py", args, tmp_path)
    assert re.findall(r"^epoch 1 step (\d+): loss_D [0-9.]+, loss_G [0-9.]+, image distance [0-9.]+$", out, re.M) == [
        "10",
        "20",
    ]
    assert sorted(p.name for p in (tmp_path / "ckpt").iterdir()) == ["discriminator.ckpt", "generator.ckpt"]
