"""Record MindSpore's public API surface as JSON: the manifest sporax's coverage is measured against.

Run under real MindSpore 2.10 (its own venv, numpy<2), never under sporax:

    python -m venv /work/msvenv && /work/msvenv/bin/pip install "numpy<2" mindspore==2.10.0
    /work/msvenv/bin/python tools/make_api_manifest.py tests/api/mindspore_2.10_manifest.json

For every public module listed in MODULES the manifest records each public name (the module's ``__all__``
where it has one and every name in it resolves; otherwise its non-underscore attributes that are not
submodules and were defined by MindSpore), its kind (module, class, function, instance, dtype, constant)
and, where ``inspect`` can read one, its parameters: name, kind and default, in order. For the classes in
MEMBER_CLASSES it also records their public methods and properties (``Tensor.sum``, ``Cell.cast_param``...),
kept apart from the module tables. The tests only read the JSON: they never need MindSpore.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import math
import sys
import warnings

MODULES = [
    "mindspore",
    "mindspore.common",
    "mindspore.common.dtype",
    "mindspore.common.initializer",
    "mindspore.ops",
    "mindspore.ops.functional",
    "mindspore.ops.operations",
    "mindspore.ops.composite",
    "mindspore.ops.function",
    "mindspore.ops.primitive",
    "mindspore.nn",
    "mindspore.dataset",
    "mindspore.dataset.vision",
    "mindspore.dataset.transforms",
    "mindspore.dataset.text",
    "mindspore.dataset.audio",
    "mindspore.train",
    "mindspore.train.callback",
    "mindspore.train.metrics",
    "mindspore.amp",
    "mindspore.communication",
    "mindspore.communication.comm_func",
    "mindspore.parallel",
    "mindspore.context",
    "mindspore.numpy",
    "mindspore.mint",
    "mindspore.mint.nn",
    "mindspore.mint.nn.functional",
    "mindspore.mint.optim",
    "mindspore.mint.special",
    "mindspore.mint.linalg",
    "mindspore.mint.distributed",
    "mindspore.profiler",
    "mindspore.runtime",
    "mindspore.hal",
    "mindspore.utils",
    "mindspore.log",
    "mindspore.mindrecord",
    "mindspore.boost",
    "mindspore.rewrite",
]

# Public names that a module's ``__all__`` leaves out but MindSpore documents and programs use.
EXTRA_NAMES = {
    "mindspore": [
        "grad",
        "value_and_grad",
        "vjp",
        "jvp",
        "vmap",
        "jacfwd",
        "jacrev",
        "get_grad",
        "from_dlpack",
        "to_dlpack",
        "reshard",
    ],
    "mindspore.mint": ["addcmul", "clip", "equal", "ge", "linspace", "ones", "trunc", "unique", "item", "fix"],
}

# Classes whose public members are recorded too (path of the class -> label in the manifest).
MEMBER_CLASSES = {
    "mindspore.Tensor": "Tensor",
    "mindspore.Parameter": "Parameter",
    "mindspore.nn.Cell": "nn.Cell",
    "mindspore.nn.Optimizer": "nn.Optimizer",
    "mindspore.train.Model": "train.Model",
    "mindspore.dataset.Dataset": "dataset.Dataset",
}

_PARAM_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}


def encode_default(value):
    """A JSON form of a default value: plain JSON for scalars, strings and their tuples; else its repr.

    A repr that carries a memory address is recorded as ``{"opaque": type name}`` (not comparable)."""
    if value is inspect.Parameter.empty:
        return {"empty": True}
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"float": repr(value)}
        return value
    if isinstance(value, tuple | list) and all(v is None or isinstance(v, bool | int | float | str) for v in value):
        return {"tuple" if isinstance(value, tuple) else "list": list(value)}
    if isinstance(value, enum.Enum):
        return {"enum": f"{type(value).__name__}.{value.name}"}
    text = repr(value)
    if " at 0x" in text or "object at" in text:
        return {"opaque": type(value).__name__}
    return {"repr": text}


def read_signature(obj):
    """[[name, kind, default], ...] of a callable, or None when inspect cannot read one."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, _PARAM_KINDS[p.kind], encode_default(p.default)] for p in sig.parameters.values()]


def kind_of(obj):
    from mindspore.common import dtype as mstype

    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if isinstance(obj, mstype.Type):
        return "dtype"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj) or inspect.ismethod(obj):
        return "function"
    if isinstance(obj, bool | int | float | str | tuple | list | dict | type(None)) or isinstance(obj, enum.Enum):
        return "constant"
    return "instance"


def describe(obj):
    entry = {"kind": kind_of(obj)}
    if entry["kind"] in ("class", "function"):
        entry["params"] = read_signature(obj)
    elif entry["kind"] == "instance":
        entry["type"] = type(obj).__name__
        if callable(obj):
            entry["params"] = read_signature(obj)
    elif entry["kind"] == "constant":
        entry["value"] = encode_default(obj)
    return entry


def public_names(mod):
    names = getattr(mod, "__all__", None)
    if names is not None:
        names = set(names) | set(EXTRA_NAMES.get(mod.__name__, ()))
        resolving = sorted(n for n in names if hasattr(mod, n))
        if resolving:
            return resolving
    out = []
    for name in sorted(dir(mod)):
        if name.startswith("_"):
            continue
        obj = getattr(mod, name)
        if inspect.ismodule(obj):
            continue
        origin = getattr(obj, "__module__", None) or ""
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not origin.startswith("mindspore"):
            continue
        out.append(name)
    return out


def member_table(cls):
    table = {}
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, property):
            table[name] = {"kind": "property"}
        elif isinstance(raw, staticmethod | classmethod) or inspect.isfunction(raw) or callable(raw):
            func = getattr(cls, name)
            table[name] = {"kind": "method", "params": read_signature(func)}
        else:
            table[name] = {"kind": "attribute"}
    return table


def resolve(path):
    module, _, attr = path.rpartition(".")
    obj = importlib.import_module(module)
    return getattr(obj, attr)


def main(out_path):
    warnings.simplefilter("ignore")
    import mindspore

    manifest = {
        "mindspore_version": mindspore.__version__,
        "python": sys.version.split()[0],
        "modules": {},
        "classes": {},
    }
    for modname in MODULES:
        mod = importlib.import_module(modname)
        manifest["modules"][modname] = {name: describe(getattr(mod, name)) for name in public_names(mod)}
    for path, label in MEMBER_CLASSES.items():
        manifest["classes"][label] = {"path": path, "members": member_table(resolve(path))}
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1, sort_keys=True)
        fh.write("\n")
    total = sum(len(v) for v in manifest["modules"].values())
    print(f"{len(manifest['modules'])} modules, {total} names -> {out_path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/api/mindspore_2.10_manifest.json")
