"""A/B of the Transformer train step (examples/transformer_lm.py in ``TrainOneStepCell``, GRAPH mode) against
its JAX twin (bench/jax_twins.py), on run_all's shapes (4 pre-norm layers, d 256, 4 heads, seq 128, batch 16,
dropout 0.1), alternating rounds; ``--hlo DIR`` also writes both optimised HLO modules and a count of their
instructions by opcode (where the copies, transposes and RNG work sit).

    flock /tmp/sporax_bench.lock taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_transformer.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CFG = {"batch": 16, "seq": 128, "vocab": 61, "d_model": 256, "nhead": 4, "layers": 4}


def _sync(out):
    import numpy as np

    return np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out)


def _timed(f, steps: int) -> float:
    t = time.perf_counter()
    for _ in range(steps):
        out = f()
    _sync(out)
    return (time.perf_counter() - t) / steps


def _sporax_hlo() -> str:
    from sporax.common._compile import compiled_programs

    texts = []
    for sjit, _ in compiled_programs():
        if sjit.eager or not sjit._cache:
            continue
        entry = list(sjit._cache.values())[-1]
        texts.append(entry.traced.lower().compile().as_text())
    return max(texts, key=len)  # the train step is the largest program


def opcode_counts(text: str) -> collections.Counter:
    """Instructions per opcode in an optimised HLO module (fusion bodies included)."""
    ops = re.findall(r"^\s*(?:ROOT\s+)?%?[\w.\-]+ = [^ ]+(?:\{[^}]*\})? ([a-z\-]+)\(", text, re.M)
    return collections.Counter(ops)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--hlo", default=None, help="write sporax.hlo / twin.hlo and opcode counts here")
    ap.add_argument("--no-twin", action="store_true")
    args = ap.parse_args()

    import bench_models
    import jax_twins

    sides = bench_models.sporax_sides("transformer", CFG)
    if not args.no_twin:
        sides = jax_twins.twin_sides("transformer", CFG, sides)
        print(sides["check"])
    runners = {"graph": sides["graph"]}
    if "jax" in sides:
        runners["jax"] = sides["jax"]
    for f in runners.values():
        _sync(f())
    if args.hlo:
        import jax

        os.makedirs(args.hlo, exist_ok=True)
        texts = {"sporax": _sporax_hlo()}
        if "jax" in sides:
            built = jax_twins.BUILDERS["transformer"](sides["net"], sides["batch"], CFG)
            texts["twin"] = jax.jit(built[0]).lower(*built[1]).compile().as_text()
        for name, text in texts.items():
            with open(os.path.join(args.hlo, f"{name}.hlo"), "w") as f:
                f.write(text)
            top = opcode_counts(text).most_common(25)
            print(name, " ".join(f"{k}:{v}" for k, v in top))
    times: dict[str, list[float]] = {k: [] for k in runners}
    for _ in range(args.rounds):
        for k, f in runners.items():
            times[k].append(_timed(f, args.steps))
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in med.items():
        print(f"{k:6s} {v * 1e3:8.1f} ms/step  (rounds: {', '.join(f'{t * 1e3:.1f}' for t in times[k])})")
    if "jax" in med:
        print(f"graph / twin = {med['graph'] / med['jax']:.3f}")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
