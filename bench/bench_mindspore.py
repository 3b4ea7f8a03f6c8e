"""Real MindSpore 2.10 as a peer of the bench suite: the same workloads (bench_models.small_sides for the MLP
and LeNet5, bench_models.example_sides for the example models, the examples' files run on MindSpore itself)
in GRAPH_MODE or PYNATIVE_MODE, one mode per process.

run_all.py starts it as a pinned worker in MindSpore's venv (``MS_PYTHON``, cwd /tmp: MindSpore leaves
kernel_meta files in its working directory) and asks it for timing rounds like its other peers. The worker
reports, when ready, the first step's time and the next step's: their difference is MindSpore's graph-compile
time (GRAPH_MODE compiles the step's graph on its first call).

    /work/msvenv/bin/python bench/bench_mindspore.py --probe lenet_b32   # one workload, both modes, printed
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import maxrss_mb, serve, timed  # noqa: E402

LABEL = {"graph": "mindspore graph", "pynative": "mindspore pynative"}


def _sync(out):
    out = out[0] if isinstance(out, tuple) else out
    return out.asnumpy()


def build(wl: dict, mode: str):
    """The workload's zero-argument step on MindSpore in ``mode`` (``graph`` or ``pynative``)."""
    import bench_models
    import mindspore as ms

    ms.set_context(device_target="CPU")
    if wl["kind"] == "small":
        sides = bench_models.small_sides(wl["case"], ms)
    else:
        sides = bench_models.example_sides(wl["case"], wl.get("ms_cfg", wl["cfg"]))
    if mode == "pynative":
        ms.set_context(mode=ms.PYNATIVE_MODE)
        return sides["pynative"]
    return sides["graph"]


def first_steps(step) -> dict:
    """The first step (GRAPH_MODE: with the graph compile) and the second, seconds."""
    t = time.perf_counter()
    _sync(step())
    first = time.perf_counter() - t
    t = time.perf_counter()
    _sync(step())
    return {"first_step_s": first, "second_step_s": time.perf_counter() - t}


def worker(wl: dict, mode: str) -> None:
    import mindspore

    start = time.perf_counter()
    step = build(wl, mode)
    ready = {"build_s": time.perf_counter() - start, **first_steps(step), "mindspore": mindspore.__version__}
    ready["sides"] = [LABEL[mode]]

    def handle(req: dict) -> dict:
        if req.get("side") == LABEL[mode]:
            return {"seconds": timed(step, req["steps"], _sync), "maxrss_mb": maxrss_mb()}
        return {"error": f"unknown request {req}"}

    serve(handle, ready=ready)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wl", help="the workload (run_all.py's WORKLOADS entry, JSON)")
    ap.add_argument("--mode", default="graph", choices=sorted(LABEL))
    ap.add_argument("--probe", help="a run_all.py workload name: time 3 steps in each mode and print")
    args = ap.parse_args()
    if args.probe:
        from run_all import WORKLOADS  # run_all imports only the standard library at the top

        wl = WORKLOADS[args.probe]
        for mode in ("graph", "pynative"):
            step = build(wl, mode)
            rep = first_steps(step)
            rep["steady_s"] = timed(step, 3, _sync)
            print(json.dumps({"workload": args.probe, "mode": mode, **rep}), flush=True)
        return
    worker(json.loads(args.wl), args.mode)


if __name__ == "__main__":
    main()
