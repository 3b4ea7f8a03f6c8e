"""sporax's malloc settings (sporax/_engine/_malloc.py) on and off, side by side.

Each side is a fresh process pinned to one core (``taskset -c $BENCH_CORE``, default 1; OMP_NUM_THREADS=1)
with ``SPORAX_MALLOC_TUNING`` 1 or 0; sides alternate over ``--rounds`` rounds; medians. Workloads: a BiLSTM
classifier step (2 layers, hidden 128, batch 32, seq 32) and a Transformer encoder step (2 layers, d=256,
seq 128, batch 16), GRAPH mode, with wall, user and system milliseconds per step and peak RSS.

    python bench/bench_malloc.py [--rounds 3] [--only lstm,transformer]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker(which: str) -> None:
    sys.path.insert(0, os.path.join(HERE, ".."))
    import numpy as np

    import sporax as ms
    from sporax import nn

    ms.set_context(mode=ms.GRAPH_MODE)
    if which == "transformer":
        layer = nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.1, batch_first=True)
        body: nn.Cell = nn.TransformerEncoder(layer, 2)
        x = ms.Tensor(np.random.randn(16, 128, 256).astype(np.float32))
        steps = 4
    else:
        body = nn.LSTM(100, 128, 2, batch_first=True, bidirectional=True)
        x = ms.Tensor(np.random.randn(32, 32, 100).astype(np.float32))
        steps = 20

    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.body = body
            self.head = nn.Dense(256, 10)

        def construct(self, x):
            o = self.body(x)
            if isinstance(o, tuple):
                return self.head(o[0][:, -1])
            return self.head(o.mean(1))

    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params()))
    y = ms.Tensor(np.arange(x.shape[0]) % 10, ms.int32)
    step(x, y).asnumpy()  # compile
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    for _ in range(steps):
        out = step(x, y)
    out.asnumpy()
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "wall": 1e3 * (t1 - t0) / steps,
                "user": 1e3 * (r1.ru_utime - r0.ru_utime) / steps,
                "sys": 1e3 * (r1.ru_stime - r0.ru_stime) / steps,
                "rss": r1.ru_maxrss / 1024,
            }
        )
    )


def run(which: str, tuned: bool) -> dict:
    env = dict(os.environ, SPORAX_MALLOC_TUNING="1" if tuned else "0", OMP_NUM_THREADS="1")
    cmd = ["taskset", "-c", os.environ.get("BENCH_CORE", "1"), sys.executable, __file__, "--worker", which]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    for line in out.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(out.stderr[-3000:])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", default="lstm,transformer")
    p.add_argument("--worker")
    a = p.parse_args()
    if a.worker:
        worker(a.worker)
        return
    print("| workload | malloc settings | wall ms/step | user ms | sys ms | peak RSS MiB |")
    print("|---|---|---|---|---|---|")
    for which in a.only.split(","):
        res: dict = {True: [], False: []}
        for k in range(a.rounds):
            for tuned in (True, False) if k % 2 == 0 else (False, True):
                res[tuned].append(run(which, tuned))
        for tuned in (False, True):
            med = {f: statistics.median(r[f] for r in res[tuned]) for f in ("wall", "user", "sys", "rss")}
            side = "sporax's (default)" if tuned else "glibc's (SPORAX_MALLOC_TUNING=0)"
            print(f"| {which} | {side} | {med['wall']:.1f} | {med['user']:.1f} | {med['sys']:.1f} | {med['rss']:.0f} |")


if __name__ == "__main__":
    main()
