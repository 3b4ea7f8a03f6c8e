"""Eager dispatch per op: this checkout against another revision of sporax, side by side in one run.

Each side is its own Python process (this tree, and a `git worktree` of REV), pinned to one core, measuring
the per-call time of common eager ops on small float32 Tensors; rounds alternate between the two sides and
the minimum per side over rounds is reported, with the ratio (this tree / REV). Small tensors make the
figure the framework's per-call cost (argument handling, dtype rules, dispatch into the pre-compiled kernel),
which is what a breadth change could slow down. Time is the process's CPU time (all its threads), not the wall
clock: on a shared, loaded machine a side that is descheduled mid-round would otherwise look slower.

    taskset -c 1 python bench/bench_ops_dispatch.py --rev HEAD~20
    taskset -c 1 python bench/bench_ops_dispatch.py --rev 545e05e --rev bb58ac8   # several revisions side by side
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (label, code run per call with `x`, `y`, `i`, `ops`, `ms` in scope)
CASES = [
    ("ops.add", "ops.add(x, y)"),
    ("x + y", "x + y"),
    ("ops.mul", "ops.mul(x, y)"),
    ("ops.matmul", "ops.matmul(x, y)"),
    ("ops.sum", "ops.sum(x)"),
    ("ops.reduce_mean", "ops.ReduceMean()(x)"),
    ("ops.exp", "ops.exp(x)"),
    ("ops.relu", "ops.relu(x)"),
    ("ops.softmax", "ops.softmax(x)"),
    ("ops.reshape", "ops.reshape(x, (16,))"),
    ("ops.transpose", "ops.transpose(x, (1, 0))"),
    ("ops.concat", "ops.concat((x, y))"),
    ("ops.cast", "ops.cast(x, ms.float16)"),
    ("ops.gather", "ops.gather(x, i, 0)"),
    ("ops.where", "ops.where(x > y, x, y)"),
    ("x[1:3]", "x[1:3]"),
]

CHILD = r"""
import json, os, sys, time, timeit
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
import numpy as np
import sporax as ms
from sporax import ops
cases = json.loads(sys.argv[1]); number = int(sys.argv[2])
x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(4, 4))
y = ms.Tensor(np.ones((4, 4), np.float32))
i = ms.Tensor(np.array([0, 2], np.int32))
env = {"x": x, "y": y, "i": i, "ops": ops, "ms": ms}
out = {}
for label, code in cases:
    fn = eval("lambda: " + code, env)
    for _ in range(200):
        fn()
    out[label] = timeit.timeit(fn, number=number, timer=time.process_time) / number * 1e6
print(json.dumps(out))
"""


def run_side(tree: Path, number: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
    r = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(CASES), str(number)],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--rev", required=True, action="append", help="a revision to compare against (a git ref; repeat for several)"
    )
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--number", type=int, default=2000)
    args = ap.parse_args()
    trees = {"this": ROOT}
    try:
        for rev in args.rev:
            trees[rev] = Path(tempfile.mkdtemp(prefix="sporax-bench-rev-"))
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(trees[rev]), rev], cwd=ROOT, check=True, capture_output=True
            )
        sides: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                sides[name].append(run_side(tree, args.number))
    finally:
        for name, tree in trees.items():
            if name != "this":
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    revs = args.rev
    print(f"eager dispatch per call, us of CPU time (min of {args.rounds} alternating rounds); ratio = this / rev")
    print(f"{'op':18s} {'this':>8s} " + " ".join(f"{r[:10]:>10s} {'ratio':>6s}" for r in revs))
    for label, _ in CASES:
        a = min(r[label] for r in sides["this"])
        cells = []
        for rev in revs:
            b = min(r[label] for r in sides[rev])
            cells.append(f"{b:10.2f} {a / b:6.2f}")
        print(f"{label:18s} {a:8.2f} " + " ".join(cells))


if __name__ == "__main__":
    main()
