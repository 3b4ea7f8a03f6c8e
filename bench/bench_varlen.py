"""Variable-length NLP batches: the LSTM classifier (examples/sentiment_lstm_glove.py) trained for two epochs
on sentences of random lengths, batched with ``bucket_batch_by_length`` (padded to the bucket boundary, as
MindSpore users do). Reports the number of programs the step compiles and the compile time per epoch (the
first epoch's time minus the second's), and how many programs batching without buckets (padding each batch
to its longest sentence) would need.

    taskset -c 1 python bench/bench_varlen.py [--sentences 960] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import ROOT, XLA_ONE_THREAD  # noqa: E402

BOUNDARIES = [17, 33, 65]  # lengths 4..64 fall in three buckets, padded to 16, 32 and 64
BATCH = 32


def sentences(n: int, vocab: int, seed: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(4, 65, n)
    return [rng.integers(2, vocab, k).astype(np.int32) for k in lengths], rng.integers(0, 2, n).astype(np.int32)


def run(n: int = 960, vocab: int = 2000, embed: int = 50, hidden: int = 64) -> dict:
    os.environ.setdefault("XLA_FLAGS", XLA_ONE_THREAD)
    from sporax import compat

    compat.alias_mindspore()
    import mindspore as ms
    import mindspore.dataset as ds

    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    spec = importlib.util.spec_from_file_location("ex", os.path.join(ROOT, "examples", "sentiment_lstm_glove.py"))
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    ids, labels = sentences(n, vocab)

    def source():
        for s, y in zip(ids, labels, strict=True):
            yield s, np.int32(len(s)), y

    def dataset():
        d = ds.GeneratorDataset(source, ["ids", "length", "label"], shuffle=False)
        return d.bucket_batch_by_length(
            ["ids"],
            BOUNDARIES,
            [BATCH] * (len(BOUNDARIES) + 1),
            pad_info={"ids": ([None], 0)},
            pad_to_bucket_boundary=True,
            drop_remainder=True,
        )

    net = ex.SentimentNet(vocab, embed, hidden, 2, 2, None, 0.0)
    step = ex.make_train_step(net, lr=0.01)
    epochs, programs, shapes = [], [], set()
    for _ in range(2):
        t = time.perf_counter()
        batches = 0
        for x, length, y in dataset().create_tuple_iterator():
            shapes.add(tuple(x.shape))
            step(x, length, y).asnumpy()
            batches += 1
        epochs.append(time.perf_counter() - t)
        programs.append(len(step._cache) if hasattr(step, "_cache") else len(shapes))
    unbucketed = {
        max(len(s) for s in ids[i : i + BATCH]) for i in range(0, n - BATCH + 1, BATCH)
    }  # batch(32) padded to each batch's longest sentence
    return {
        "sentences": n,
        "batches_per_epoch": batches,
        "shapes": sorted(shapes),
        "programs_after_epoch": programs,
        "epoch_s": epochs,
        "compile_s_epoch1": max(0.0, epochs[0] - epochs[1]),
        "unbucketed_programs": len(unbucketed),
    }


def lines(r: dict) -> list[str]:
    return [
        f"The LSTM classifier (2-layer BiLSTM, embed 50, hidden 64), {r['sentences']} sentences of 4-64 tokens, "
        f"`bucket_batch_by_length(boundaries={BOUNDARIES}, batch {BATCH}, pad_to_bucket_boundary=True)`, "
        f"{r['batches_per_epoch']} batches per epoch, two epochs:",
        "",
        f"- programs compiled: {r['programs_after_epoch'][0]} after epoch 1, {r['programs_after_epoch'][1]} after "
        f"epoch 2 (batch shapes {', '.join(str(s) for s in r['shapes'])})",
        f"- epoch time: {r['epoch_s'][0]:.1f} s then {r['epoch_s'][1]:.1f} s; compile time in epoch 1 about "
        f"{r['compile_s_epoch1']:.1f} s, in epoch 2 none (no new program)",
        f"- the same data in `batch({BATCH})` padded to each batch's longest sentence would need "
        f"{r['unbucketed_programs']} programs",
    ]


def varlen_lines(log) -> list[str]:
    """Run this bench pinned in its own process; RESULTS.md's lines."""
    import subprocess

    from _common import pinned, pinned_env

    out = subprocess.run(
        pinned([sys.executable, os.path.abspath(__file__), "--json"]),
        capture_output=True,
        text=True,
        env=pinned_env(),
        timeout=900,
    )
    rows = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if not rows:
        return [f"variable-length bench failed: {out.stderr[-500:]}"]
    r = json.loads(rows[-1])
    log(f"  varlen: {r}")
    return lines(r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=960)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = run(args.sentences)
    print(json.dumps(r) if args.json else "\n".join(lines(r)))


if __name__ == "__main__":
    main()
