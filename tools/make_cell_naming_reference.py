"""Reference for Cell naming, repr and container errors, and writers' file names, from real MindSpore 2.10.

Run with MindSpore's interpreter from a scratch directory:
    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_cell_naming_reference.py
Writes tests/ut/nn/fixtures/cell_naming_reference.json (read by tests/ut/nn/test_cell_naming.py).
"""

import importlib.util
import json
import os
import sys
import tempfile

import mindspore
from mindspore import nn
from mindspore.mindrecord import FileWriter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("cases", os.path.join(ROOT, "tests/ut/nn/_cell_naming_cases.py"))
cases = importlib.util.module_from_spec(spec)
sys.modules["cases"] = cases  # MindSpore's graph parser imports the module of each construct
spec.loader.exec_module(cases)


def mindrecord_names():
    out = {}
    for n in (1, 2, 10, 11, 16, 101):
        with tempfile.TemporaryDirectory() as d:
            w = FileWriter(os.path.join(d, "data.mindrecord"), shard_num=n)
            w.add_schema({"label": {"type": "int32"}}, "s")
            w.write_raw_data([{"label": i} for i in range(2)])
            w.commit()
            out[str(n)] = sorted(os.listdir(d))
    return out


ref = {
    "mindspore_version": mindspore.__version__,
    "naming": cases.naming_cases(nn),
    "repr": cases.repr_cases(nn),
    "errors": cases.error_cases(nn),
    "mindrecord_files": mindrecord_names(),
}
path = os.path.join(ROOT, "tests/ut/nn/fixtures/cell_naming_reference.json")
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("wrote", path)

import numpy as np  # noqa: E402

ref["methods"] = cases.method_cases(nn, mindspore, np)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("methods", json.dumps(ref["methods"], indent=1))

ref["grad_wrappers"] = cases.grad_wrapper_cases(nn, mindspore, np)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("grad_wrappers", ref["grad_wrappers"])

ref["buffers"] = cases.buffer_cases(nn, mindspore, np)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("buffers", ref["buffers"])

ref["scopes"] = cases.scope_cases(nn, mindspore, np)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("scopes", ref["scopes"])

import mindspore.dataset as ds  # noqa: E402
from mindspore import train  # noqa: E402

with tempfile.TemporaryDirectory() as ckpt_dir:
    ref["checkpoint_files"] = cases.checkpoint_file_cases(mindspore, nn, ds, train, np, ckpt_dir)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("checkpoint_files", ref["checkpoint_files"])

ref["flags"] = cases.flag_cases(nn)
with open(path, "w") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
print("flags", ref["flags"])
