"""Checkpoint fixtures made by real MindSpore, and the check that real MindSpore reads sporax's files.

Three modes:

``ms-write [DIR]`` (run with MindSpore installed, e.g. ``/work/ms-venv/bin/python``)
    Writes small checkpoints with MindSpore into DIR (default ``tests/ut/train/fixtures``): a Conv/BatchNorm/
    Dense net with ``append_dict`` entries, with and without ``crc_check``, one tensor of every dtype, and a
    safetensors file; plus ``expected.npz`` / ``expected.json`` describing every entry (name, dtype, shape, value;
    bfloat16 values as their uint16 bits).

``sporax-write DIR`` (run with sporax installed)
    Writes the same kind of files with sporax (also a file whose tensors are split into several Values) and the
    same ``expected.*`` description.

``verify DIR`` (run with MindSpore installed)
    Loads every file described in DIR's ``expected.json`` with ``mindspore.load_checkpoint`` (and the net
    checkpoint into a MindSpore net with ``load_param_into_net``) and checks every name, dtype and value
    bit for bit. Exits non-zero on any difference.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

DTYPES = ["float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool"]
APPEND = {"epoch_num": 3, "step_num": 120, "lr": 0.01, "flag": True, "note": "hello ü"}
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "tests", "ut", "train", "fixtures")


def dtype_values(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """One small array per dtype (bfloat16 as float32 values exactly representable in bfloat16)."""
    out: dict[str, np.ndarray] = {}
    for name in DTYPES:
        if name == "bool":
            out[name] = rng.random((2, 3)) > 0.5
        elif name.startswith("float") or name == "bfloat16":
            v = rng.standard_normal((2, 3)).astype(np.float32)
            if name == "bfloat16":  # round to bfloat16 so float32 -> bfloat16 is exact
                v = (v.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
            v = v.astype(name if name != "bfloat16" else np.float32)
            v.reshape(-1)[0] = -0.0
            out[name] = v
        else:
            info = np.iinfo(name)
            v = rng.integers(info.min, info.max, size=(2, 3), dtype=name, endpoint=True)
            v.reshape(-1)[0], v.reshape(-1)[1] = info.min, info.max
            out[name] = v
    return out


class Manifest:
    """expected.json + expected.npz: what each file holds."""

    def __init__(self) -> None:
        self.files: dict[str, list[dict]] = {}
        self.arrays: dict[str, np.ndarray] = {}

    def add(self, file: str, name: str, value, dtype: str | None = None) -> None:
        entries = self.files.setdefault(file, [])
        if isinstance(value, str):
            entries.append({"name": name, "str": value})
            return
        key = f"{file}::{name}"
        arr = np.asarray(value)
        if dtype == "bfloat16":
            arr = arr.view(np.uint16)  # raw bits
        entries.append({"name": name, "dtype": dtype, "shape": list(arr.shape), "key": key})
        self.arrays[key] = arr

    def write(self, out_dir: str) -> None:
        with open(os.path.join(out_dir, "expected.json"), "w") as f:
            json.dump({"files": self.files}, f, indent=0, sort_keys=True, ensure_ascii=False)
            f.write("\n")
        np.savez(os.path.join(out_dir, "expected.npz"), **self.arrays)


def _type_str(dtype_obj) -> str:
    """'Float32' (MindSpore/sporax dtype repr) -> 'float32'."""
    s = str(dtype_obj)
    return {"Bool": "bool", "BFloat16": "bfloat16"}.get(s, s.lower())


# ------------------------------------------------------------------ MindSpore side
def _ms_net():
    import mindspore as ms
    from mindspore import nn

    class SmallNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, has_bias=True, pad_mode="valid")
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Dense(16, 3)

        def construct(self, x):
            x = self.bn(self.conv(x))
            return self.fc(x.reshape(x.shape[0], -1))

    ms.set_seed(1)
    return SmallNet()


def ms_write(out_dir: str) -> None:
    import mindspore as ms
    from mindspore import Parameter, Tensor

    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(20240610)
    man = Manifest()
    net = _ms_net()
    for p in net.get_parameters():  # deterministic, nonzero values
        p.set_data(Tensor(rng.standard_normal(p.shape).astype(np.float32)))

    def record_net(file: str) -> None:
        for p in net.get_parameters():
            man.add(file, p.name, p.asnumpy(), "float32")
        for k, v in APPEND.items():
            if isinstance(v, str):
                man.add(file, k, v)
            else:
                t = Tensor(v)
                man.add(file, k, t.asnumpy(), _type_str(t.dtype))
        man.add(file, "step_tensor", np.arange(4, dtype=np.int32), "int32")

    append = dict(APPEND, step_tensor=Tensor(np.arange(4, dtype=np.int32)))
    ms.save_checkpoint(net, os.path.join(out_dir, "ms_net.ckpt"), append_dict=dict(append))
    record_net("ms_net.ckpt")
    ms.save_checkpoint(net, os.path.join(out_dir, "ms_net_crc.ckpt"), append_dict=dict(append), crc_check=True)
    record_net("ms_net_crc.ckpt")

    values = dtype_values(rng)
    plist = []
    for name, v in values.items():
        ms_t = getattr(ms, name if name != "bool" else "bool_")
        plist.append({"name": f"t_{name}", "data": Parameter(Tensor(v, ms_t), name=f"t_{name}")})
        man.add("ms_dtypes.ckpt", f"t_{name}", _as_bits_source(v, name), name)
    plist.append({"name": "scalar_f32", "data": Tensor(np.float32(2.5))})
    man.add("ms_dtypes.ckpt", "scalar_f32", np.float32(2.5), "float32")
    # (MindSpore 2.10 silently drops a tensor with no elements from a .ckpt: none here)
    ms.save_checkpoint(plist, os.path.join(out_dir, "ms_dtypes.ckpt"))

    st = {p.name: p for p in net.get_parameters()}
    ms.save_checkpoint(st, os.path.join(out_dir, "ms_net.safetensors"), format="safetensors", crc_check=True)
    for p in net.get_parameters():
        man.add("ms_net.safetensors", p.name, p.asnumpy(), "float32")
    man.write(out_dir)
    for f in sorted(man.files):
        print(f"wrote {f} ({os.path.getsize(os.path.join(out_dir, f))} bytes)")


def _as_bits_source(v: np.ndarray, name: str) -> np.ndarray:
    """The expected value as stored: bfloat16 given as float32 values -> their bfloat16 bits as uint16."""
    if name == "bfloat16":
        return (np.ascontiguousarray(v, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return v


def verify(in_dir: str) -> int:
    import mindspore as ms

    with open(os.path.join(in_dir, "expected.json")) as f:
        files = json.load(f)["files"]
    arrays = np.load(os.path.join(in_dir, "expected.npz"))
    total = 0
    checked = 0
    for file, entries in sorted(files.items()):
        failures = 0
        fmt = "safetensors" if file.endswith(".safetensors") else "ckpt"
        crc = "crc" in file
        loaded = ms.load_checkpoint(os.path.join(in_dir, file), format=fmt, crc_check=crc)
        names = [e["name"] for e in entries]
        if list(loaded) != names and sorted(loaded) != sorted(names):
            print(f"FAIL {file}: names {list(loaded)} != {names}")
            failures += 1
        for e in entries:
            got = loaded.get(e["name"])
            checked += 1
            if "str" in e:
                if got != e["str"]:
                    print(f"FAIL {file}:{e['name']}: {got!r} != {e['str']!r}")
                    failures += 1
                continue
            if got is None:
                print(f"FAIL {file}:{e['name']}: missing")
                failures += 1
                continue
            want = arrays[e["key"]]
            dt = _type_str(got.dtype)
            if dt != e["dtype"] or list(got.shape) != e["shape"]:
                print(f"FAIL {file}:{e['name']}: {dt}{list(got.shape)} != {e['dtype']}{e['shape']}")
                failures += 1
                continue
            if dt == "bfloat16":
                value = got.astype(ms.float32).asnumpy()
                bits = (value.view(np.uint32) >> 16).astype(np.uint16)
                ok = np.array_equal(bits, want)
            else:
                value = got.asnumpy()
                ok = value.dtype == want.dtype and value.tobytes() == want.tobytes()
            if not ok:
                print(f"FAIL {file}:{e['name']}: values differ")
                failures += 1
        if file.startswith("sporax_net"):
            net = _ms_net()
            not_loaded, ckpt_not_loaded = ms.load_param_into_net(net, loaded)
            for p in net.get_parameters():
                key = f"{file}::{p.name}"
                if key in arrays and not np.array_equal(p.asnumpy(), arrays[key]):
                    print(f"FAIL {file}: {p.name} in the net differs after load_param_into_net")
                    failures += 1
            print(f"{file}: load_param_into_net -> not loaded {not_loaded}, ckpt not loaded {ckpt_not_loaded}")
            if not_loaded:
                failures += 1
        print(f"{'ok  ' if not failures else 'FAIL'} {file}: {len(entries)} entries")
        total += failures
    print(f"MindSpore {ms.__version__}: {checked} entries checked, {total} failures")
    return 1 if total else 0


# ------------------------------------------------------------------ sporax side
def sporax_write(out_dir: str) -> None:
    import sporax as ms
    from sporax import Parameter, Tensor
    from sporax.train import _ckpt_format as ser  # the .ckpt codec (its _SLICE_BYTES is patched below)

    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(7)
    man = Manifest()
    shapes = {
        "conv.weight": (4, 1, 3, 3),
        "conv.bias": (4,),
        "bn.moving_mean": (4,),
        "bn.moving_variance": (4,),
        "bn.gamma": (4,),
        "bn.beta": (4,),
        "fc.weight": (3, 16),
        "fc.bias": (3,),
    }
    params = [Parameter(Tensor(rng.standard_normal(s).astype(np.float32)), name=n) for n, s in shapes.items()]
    append = dict(APPEND, step_tensor=Tensor(np.arange(4, dtype=np.int32)))
    for file, kw in (("sporax_net.ckpt", {}), ("sporax_net_crc.ckpt", {"crc_check": True})):
        ms.train.save_checkpoint(params, os.path.join(out_dir, file), append_dict=dict(append), **kw)
        for p in params:
            man.add(file, p.name, p.asnumpy(), "float32")
        for k, v in APPEND.items():
            if isinstance(v, str):
                man.add(file, k, v)
            else:
                t = Tensor(v)
                man.add(file, k, t.asnumpy(), _type_str(t.dtype))
        man.add(file, "step_tensor", np.arange(4, dtype=np.int32), "int32")

    values = dtype_values(rng)
    entries = {}
    for name, v in values.items():
        ms_t = getattr(ms, name if name != "bool" else "bool_")
        entries[f"t_{name}"] = Tensor(v, ms_t)
        man.add("sporax_dtypes.ckpt", f"t_{name}", _as_bits_source(v, name), name)
    entries["scalar_f32"] = Tensor(np.float32(2.5))
    man.add("sporax_dtypes.ckpt", "scalar_f32", np.float32(2.5), "float32")
    entries["empty_rows"] = Tensor(np.zeros((0, 3), np.float32))
    man.add("sporax_dtypes.ckpt", "empty_rows", np.zeros((0, 3), np.float32), "float32")
    ms.train.save_checkpoint(entries, os.path.join(out_dir, "sporax_dtypes.ckpt"))

    # tensors split into several Values with the same tag, as MindSpore writes tensors over 512 MiB
    old = ser._SLICE_BYTES
    ser._SLICE_BYTES = 40
    try:
        big = {"big.f32": Tensor(rng.standard_normal((7, 5)).astype(np.float32)), "big.i64": Tensor(np.arange(25))}
        ms.train.save_checkpoint(big, os.path.join(out_dir, "sporax_split_crc.ckpt"), crc_check=True)
    finally:
        ser._SLICE_BYTES = old
    for k, v in big.items():
        man.add("sporax_split_crc.ckpt", k, v.asnumpy(), _type_str(v.dtype))

    ms.train.save_checkpoint(
        params, os.path.join(out_dir, "sporax_net.safetensors"), format="safetensors", crc_check=True
    )
    for p in params:
        man.add("sporax_net.safetensors", p.name, p.asnumpy(), "float32")
    man.write(out_dir)
    for f in sorted(man.files):
        print(f"wrote {f} ({os.path.getsize(os.path.join(out_dir, f))} bytes)")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("ms-write", "sporax-write", "verify"):
        print(__doc__)
        return 2
    mode = argv[0]
    target = argv[1] if len(argv) > 1 else DEFAULT_DIR
    if mode == "ms-write":
        ms_write(target)
    elif mode == "sporax-write":
        sporax_write(target)
    else:
        return verify(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
