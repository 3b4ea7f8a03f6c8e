"""What the ``amp_level="auto"`` hooks cost eager ops when no amp network runs: each white/black/promote
op entry point (``ops.matmul``, ``ops.exp`` ...) is a generated wrapper that reads one thread-local and
calls the op. Side by side: the decorated op and the op it wraps (``op.__wrapped__``), on a 4x4 float32
Tensor, rounds alternating (this machine is noisy); the minimum per side over rounds is reported.

    taskset -c 1 python bench/bench_amp_dispatch.py
"""

from __future__ import annotations

import os
import timeit

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np

import sporax as ms
from sporax import ops


def main(rounds: int = 30, number: int = 5000) -> None:
    x = ms.Tensor(np.ones((4, 4), np.float32))
    cases = [
        ("ops.matmul", ops.matmul, (x, x)),
        ("ops.exp", ops.exp, (x,)),
        ("ops.sum", ops.sum, (x,)),
        ("ops.softmax", ops.softmax, (x,)),
    ]
    for name, op, args in cases:
        raw = op.__wrapped__
        for _ in range(300):
            op(*args)
            raw(*args)
        dec_t, raw_t = [], []
        for _ in range(rounds):
            dec_t.append(timeit.timeit(lambda op=op, args=args: op(*args), number=number) / number * 1e6)
            raw_t.append(timeit.timeit(lambda raw=raw, args=args: raw(*args), number=number) / number * 1e6)
        d, r = min(dec_t), min(raw_t)
        print(f"{name:12s} with the amp hook {d:6.2f} us   without {r:6.2f} us   cost {1000 * (d - r):4.0f} ns")


if __name__ == "__main__":
    main()
