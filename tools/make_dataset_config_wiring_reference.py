"""Record where MindSpore 2.10's pipeline and training loop read ``mindspore.dataset.config``, for sporax's tests.

Run with MindSpore's interpreter, from a scratch directory (MindSpore leaves files in the working directory):

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_dataset_config_wiring_reference.py

Writes tests/ut/dataset/fixtures/dataset_config_wiring_ms210.json. Each case runs in its own interpreter (its
log lines, those of worker processes included, are read from its stderr):

- ``max_rowsize`` of ``map``, ``batch`` and ``GeneratorDataset``: the errors (class and message), the stored
  form, the warnings; which rows of which stage log the shared memory warning (``GeneratorDataset`` only);
- debug mode: the warnings of ``GeneratorDataset``, ``NumpySlicesDataset`` and ``batch`` with
  ``python_multiprocessing``, and whether their rows are made in the main process;
- ``set_iterator_mode(do_copy=...)``: the ``do_copy`` of the iterator of a host-fed ``DatasetHelper``;
- ``set_dynamic_shape``: the getter and the setter's error.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from make_dataset_config_reference import _err  # the tools folder is on sys.path (run as a script)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "dataset", "fixtures")
_LOG = re.compile(r"^\[WARNING\] (?:ME|MD)\([^)]*\)[^\[]*\[[^\]]*\]\s*(?:\w+\]\s*)?(.*)$")
MB = 1024 * 1024


class _Src:
    """Random access: rows of ``mb`` MB (float64) holding the pid of the process that made them."""

    def __init__(self, n, mb):
        self.n, self.mb = n, mb

    def __getitem__(self, i):
        import numpy as np

        return (np.full((int(self.mb * MB) // 8,), os.getpid(), np.float64),)

    def __len__(self):
        return self.n


def _pids(d):
    import numpy as np

    return [int(np.asarray(r[0]).ravel()[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


# ---------------------------------------------------------------------- cases (each in its own interpreter)
def case_rowsize_errors():
    import mindspore.dataset as ds
    import numpy as np

    def base():
        return ds.NumpySlicesDataset(np.arange(4), ["a"], shuffle=False)

    bad = [True, -2, [1], [1, 2, 3], [1, "a"], 1.5, [1, -2]]
    out = {
        "map": [[repr(b), _err(lambda b=b: base().map(lambda x: x, max_rowsize=b))] for b in bad],
        "batch": [[repr(b), _err(lambda b=b: base().batch(2, max_rowsize=b))] for b in bad],
        "generator": [
            [repr(b), _err(lambda b=b: ds.GeneratorDataset(_Src(2, 0.01), ["a"], max_rowsize=b))]
            for b in [True, -2, 1.5, [1, 2]]
        ],
        "map_form": [[repr(m), base().map(lambda x: x, max_rowsize=m).max_rowsize] for m in [None, 3, -1, [2, 4]]],
        "batch_form": [[repr(m), base().batch(2, max_rowsize=m).max_rowsize] for m in [None, 3, -1]],
        "generator_form": [
            [repr(m), ds.GeneratorDataset(_Src(2, 0.01), ["a"], max_rowsize=m).max_rowsize] for m in [None, 3]
        ],
    }
    return out


def _rowsize_run(kind, mb):
    import mindspore.dataset as ds
    import numpy as np

    ds.config.set_multiprocessing_start_method("fork")
    main = os.getpid()
    if kind == "generator":
        d = ds.GeneratorDataset(_Src(3, mb), ["a"], num_parallel_workers=2, shuffle=False, max_rowsize=1)
    elif kind == "map":
        src = ds.NumpySlicesDataset(np.zeros((3, 1)), ["a"], shuffle=False)
        d = src.map(
            lambda x: _Src(1, mb)[0][0], ["a"], num_parallel_workers=2, python_multiprocessing=True, max_rowsize=1
        )
    else:  # batch: 2 rows of mb MB a batch, max_rowsize=1 a row
        src = ds.NumpySlicesDataset(np.zeros((4, 1)), ["a"], shuffle=False)
        d = src.batch(
            2,
            num_parallel_workers=2,
            per_batch_map=lambda a, i: ([_Src(1, mb)[0][0] for _ in a],),
            python_multiprocessing=True,
            max_rowsize=1,
        )
    pids = _pids(d)
    return {"rows": len(pids), "in_workers": all(p != main for p in pids)}


def case_rowsize_generator_over():
    return _rowsize_run("generator", 2)


def case_rowsize_generator_under():
    return _rowsize_run("generator", 0.5)  # 3 rows of 0.5 MB: each under max_rowsize, together over it


def case_rowsize_map_over():
    return _rowsize_run("map", 2)


def case_rowsize_batch_over():
    return _rowsize_run("batch", 1.5)


def case_rowsize_shm_check():
    """A max_rowsize whose shared memory (per worker, ``prefetch + 2`` rows) would not fit in 80% of /dev/shm."""
    import mindspore.dataset as ds

    ds.config.set_multiprocessing_start_method("fork")
    d = ds.GeneratorDataset(_Src(3, 0.01), ["a"], num_parallel_workers=2, shuffle=False, max_rowsize=2**31 - 1)
    it = []
    made = _err(lambda: it.append(d.create_tuple_iterator(output_numpy=True, num_epochs=1)))
    return {"at_create_iterator": made, "at_first_row": _err(lambda: next(it[0])) if it else None}


def case_debug_generator():
    import mindspore.dataset as ds

    main = os.getpid()
    ds.config.set_debug_mode(True)
    print("MARK constructed-before", file=sys.stderr, flush=True)
    d = ds.GeneratorDataset(_Src(6, 0.01), ["a"], num_parallel_workers=2, shuffle=False)
    print("MARK constructed-after", file=sys.stderr, flush=True)
    pids = _pids(d)
    return {"in_main": all(p == main for p in pids), "rows": len(pids)}


def case_debug_generator_no_mp():
    import mindspore.dataset as ds

    ds.config.set_debug_mode(True)
    d = ds.GeneratorDataset(_Src(4, 0.01), ["a"], num_parallel_workers=2, shuffle=False, python_multiprocessing=False)
    return {"rows": len(_pids(d))}


def case_debug_numpy_slices():
    import mindspore.dataset as ds
    import numpy as np

    ds.config.set_debug_mode(True)
    ds.NumpySlicesDataset(np.arange(4), ["a"], shuffle=False)
    return {}


def case_debug_batch():
    import mindspore.dataset as ds

    main = os.getpid()
    ds.config.set_debug_mode(True)
    src = ds.GeneratorDataset(_Src(8, 0.001), ["a"], shuffle=False, python_multiprocessing=False)

    def pbm(a, info):
        import numpy as np

        return ([np.full((1,), os.getpid(), np.float64) for _ in a],)

    d = src.batch(2, num_parallel_workers=2, per_batch_map=pbm, python_multiprocessing=True)
    print("MARK iterate", file=sys.stderr, flush=True)
    pids = _pids(d)
    return {"in_main": all(p == main for p in pids), "rows": len(pids)}


def case_iterator_mode():
    import mindspore.dataset as ds
    import numpy as np
    from mindspore.train.dataset_helper import DatasetHelper

    def do_copy():
        d = ds.NumpySlicesDataset(np.arange(4, dtype=np.float32), ["a"], shuffle=False).batch(2)
        return DatasetHelper(d, dataset_sink_mode=False).iter.iter._do_copy

    default = do_copy()
    ds.config.set_iterator_mode(do_copy=True)
    on = do_copy()
    ds.config.set_iterator_mode(do_copy=False)
    return {"default": default, "do_copy_true": on, "do_copy_false": do_copy()}


def case_dynamic_shape():
    import mindspore.dataset as ds

    default = ds.config.get_dynamic_shape()
    ds.config.set_dynamic_shape(True)
    on = ds.config.get_dynamic_shape()
    return {"default": default, "after_true": on, "error": _err(ds.config.set_dynamic_shape, 1)}


# ---------------------------------------------------------------------- driver
def _run(name):
    env = dict(os.environ, GLOG_v="2")
    p = subprocess.run(
        [sys.executable, os.path.abspath(__file__), name],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if p.returncode:
        raise RuntimeError(f"{name} failed:\n{p.stderr[-3000:]}")
    logs = []
    for line in p.stderr.splitlines():
        if line.startswith("MARK "):
            logs.append(line)
            continue
        m = _LOG.match(line)
        if m:
            logs.append(m.group(1).strip())
    return {"result": json.loads(p.stdout.strip().splitlines()[-1]), "warnings": logs}


def main():
    if len(sys.argv) > 1:
        print(json.dumps(globals()["case_" + sys.argv[1]]()))
        return
    names = [n[5:] for n in globals() if n.startswith("case_")]
    ref = {n: _run(n) for n in names}
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "dataset_config_wiring_ms210.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
