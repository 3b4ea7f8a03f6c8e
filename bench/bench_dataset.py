"""Dataset pipeline throughput: s001's create_dataset on the full MNIST train set (60,000 images), 2 workers.

    .venv/bin/python bench/bench_dataset.py [--mnist ../shared/data/mnist] [--epochs 3] [--cpus 0,1]

Runs the pipeline (MnistDataset -> TypeCast -> Resize(32, LINEAR) -> Rescale -> Rescale -> HWC2CHW ->
shuffle(10000) -> batch(32, drop_remainder)) under sporax and, when /work/ms-venv (or $MS_PYTHON) has
MindSpore, under real MindSpore, each in its own process pinned with ``taskset -c``, iterating
``create_tuple_iterator`` (Tensors, as training does). Prints images/s per epoch (the best epoch counts)
and the ratio.
"""

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
from _common import MS_PYTHON  # noqa: E402  (/work/msvenv or $MS_PYTHON)


def create_dataset(ds, CV, C, mstype, Inter, data_path, batch_size=32, num_parallel_workers=2):
    mnist_ds = ds.MnistDataset(data_path)
    resize_op = CV.Resize((32, 32), interpolation=Inter.LINEAR)
    rescale_nml_op = CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081)
    rescale_op = CV.Rescale(1.0 / 255.0, 0.0)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = C.TypeCast(mstype.int32)
    w = num_parallel_workers
    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label", num_parallel_workers=w)
    mnist_ds = mnist_ds.map(operations=resize_op, input_columns="image", num_parallel_workers=w)
    mnist_ds = mnist_ds.map(operations=rescale_op, input_columns="image", num_parallel_workers=w)
    mnist_ds = mnist_ds.map(operations=rescale_nml_op, input_columns="image", num_parallel_workers=w)
    mnist_ds = mnist_ds.map(operations=hwc2chw_op, input_columns="image", num_parallel_workers=w)
    mnist_ds = mnist_ds.shuffle(buffer_size=10000)
    return mnist_ds.batch(batch_size, drop_remainder=True)


def worker(impl, data, epochs, workers):
    if impl == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.transforms as C
        import mindspore.dataset.vision as CV
        from mindspore.common import dtype as mstype
        from mindspore.dataset.vision import Inter
    else:
        sys.path.insert(0, os.path.join(HERE, ".."))
        import sporax.dataset as ds
        import sporax.dataset.transforms as C
        import sporax.dataset.vision as CV
        from sporax.common import dtype as mstype
        from sporax.dataset.vision import Inter
    ds.config.set_seed(1)
    d = create_dataset(ds, CV, C, mstype, Inter, data, num_parallel_workers=workers)
    it = d.create_tuple_iterator(num_epochs=epochs)
    rates = []
    for _ in range(epochs):
        t0 = time.perf_counter()
        n = 0
        for img, _label in it:
            n += img.shape[0]
        rates.append(n / (time.perf_counter() - t0))
    print(json.dumps({"impl": impl, "images_per_epoch": n, "rates": rates}))


def run(python, impl, data, epochs, workers, cpus):
    cmd = [
        "taskset",
        "-c",
        cpus,
        python,
        os.path.abspath(__file__),
        "--worker",
        impl,
        "--data",
        data,
        "--epochs",
        str(epochs),
        "--workers",
        str(workers),
    ]
    env = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    for line in out.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"{impl} run failed:\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mnist", default=os.path.join(HERE, "..", "..", "shared", "data", "mnist"))
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cpus", default="0,1")
    p.add_argument("--worker")
    p.add_argument("--data")
    a = p.parse_args()
    if a.worker:
        return worker(a.worker, a.data, a.epochs, a.workers)
    tmp = tempfile.mkdtemp()
    try:
        # uncompressed IDX files, which both read (MindSpore cannot read .gz)
        for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
            src = os.path.join(a.mnist, "train", name)
            if os.path.exists(src):
                shutil.copy(src, tmp)
            else:
                with gzip.open(src + ".gz") as f, open(os.path.join(tmp, name), "wb") as g:
                    shutil.copyfileobj(f, g)
        res = {"sporax": run(sys.executable, "sporax", tmp, a.epochs, a.workers, a.cpus)}
        if os.path.exists(MS_PYTHON):
            res["mindspore"] = run(MS_PYTHON, "mindspore", tmp, a.epochs, a.workers, a.cpus)
    finally:
        shutil.rmtree(tmp)
    print(f"seed pipeline, MNIST train (60000 images, batch 32), {a.workers} workers, taskset -c {a.cpus}")
    for k, r in res.items():
        print(
            f"  {k:10s} images/s per epoch: "
            + ", ".join(f"{x:,.0f}" for x in r["rates"])
            + f"   best {max(r['rates']):,.0f}"
        )
    if "mindspore" in res:
        print(
            f"  sporax / mindspore (best epochs): {max(res['sporax']['rates']) / max(res['mindspore']['rates']):.2f}x"
        )


if __name__ == "__main__":
    main()
