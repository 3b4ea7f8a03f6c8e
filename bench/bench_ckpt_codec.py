"""Save and load of a 200 MB ``.ckpt``: the protobuf codec (``train/_checkpoint_pb.py`` on ``checkpoint_pb2``)
against the hand-written wire codec it replaced (read from git at ``OLD_COMMIT``), in one run, alternating.

Both codecs drive the same file layer (``train/_ckpt_format``: ``_write_ckpt`` / ``_parse_ckpt``), so the
numbers are whole save/load of the file (page cache, CRC on), codec swapped in between rounds::

    taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_ckpt_codec.py [--mb 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import types

import numpy as np

from sporax.train import _checkpoint_pb, _ckpt_format

OLD_COMMIT = "0c1e668"  # the last revision with the hand-written codec
ROOT = pathlib.Path(__file__).resolve().parent.parent


def _old_codec() -> types.ModuleType:
    src = subprocess.run(
        ["git", "show", f"{OLD_COMMIT}:sporax/train/_checkpoint_pb.py"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    mod = types.ModuleType("old_checkpoint_pb")
    sys.modules[mod.__name__] = mod  # its dataclasses look their module up
    exec(compile(src, "old_checkpoint_pb.py", "exec"), mod.__dict__)  # noqa: S102 - our own file from git
    return mod


def _items(total_mb: int) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    items = []
    # a model-like mix: a few large matrices and many small vectors
    n_big = 20
    big = total_mb * (1 << 20) // (n_big * 4)
    for i in range(n_big):
        items.append((f"layer{i}.weight", rng.standard_normal(big, dtype=np.float32).reshape(-1, 256)))
        items.append((f"layer{i}.bias", rng.standard_normal(256, dtype=np.float32)))
    for i in range(400):
        items.append((f"norm{i}.gamma", np.ones(64, np.float32)))
    return items


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    codecs = {"hand-written": _old_codec(), "protobuf": _checkpoint_pb}
    items = _items(args.mb)
    times: dict[str, dict[str, list[float]]] = {k: {"save": [], "load": []} for k in codecs}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.ckpt")
        files = {}
        for r in range(args.rounds):
            order = list(codecs) if r % 2 == 0 else list(reversed(codecs))
            for name in order:
                _ckpt_format.pb = codecs[name]
                t0 = time.perf_counter()
                with open(path, "wb") as f:
                    _ckpt_format._write_ckpt(f, items, crc_check=True)
                t1 = time.perf_counter()
                got = _ckpt_format._parse_ckpt(path, crc_check=True)
                t2 = time.perf_counter()
                times[name]["save"].append(t1 - t0)
                times[name]["load"].append(t2 - t1)
                files[name] = pathlib.Path(path).read_bytes() if r == 0 else files.get(name)
                assert len(got) == len(items)
                del got
        _ckpt_format.pb = _checkpoint_pb
    same = files["hand-written"] == files["protobuf"]
    size = len(files["protobuf"]) / (1 << 20)
    print(f"checkpoint {size:.0f} MiB, {len(items)} parameters, {args.rounds} rounds; files identical: {same}")
    for op in ("save", "load"):
        old = statistics.median(times["hand-written"][op])
        new = statistics.median(times["protobuf"][op])
        print(f"{op}: hand-written {old * 1e3:8.1f} ms  protobuf {new * 1e3:8.1f} ms  (new/old {new / old:.2f}x)")
    if not same:
        sys.exit("the two codecs wrote different files")


if __name__ == "__main__":
    main()
