"""User-defined operators: ``ops.Custom``, ``ops.CustomOpBuilder`` and the registration helpers
(``CustomRegOp``, ``CpuRegOp``, ``TBERegOp``, ``AiCPURegOp``, ``AkgAscendRegOp``, ``AkgGpuRegOp``, ``DataType``,
``op_info_register``, ``custom_info_register``).

What each ``func_type`` of ``Custom`` means on XLA:

- ``"pyfunc"``: `func` is a Python function on NumPy arrays. It runs on the host through
  ``jax.pure_callback``, in PyNative and inside compiled functions (GRAPH_MODE, jit, vmap runs it per
  example), with the output shapes and dtypes `out_shape`/`out_dtype` give (values or functions of the
  inputs' shapes and dtypes). With `bprop` (``bprop(*inputs, out, dout) -> tuple of input gradients``, on
  Tensors) it is differentiable.
- ``"aot"`` on CPU: `func` is ``"path/lib.so:func_name"`` (or a ``.cc``/``.cpp`` source, compiled with
  ``g++``) exporting MindSpore's AOT kernel signature
  ``int func(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
  void *extra)``; it runs on the host like a pyfunc (params: the inputs, then the outputs).
- ``"hybrid"``: a function decorated by ``ops.kernel`` (it carries ``ms_kernel_flag``) runs on the host like a
  pyfunc, executing its DSL in Python (MindSpore compiles it with AKG); `out_shape` and `out_dtype` are needed.
- ``"akg"``, ``"tbe"``, ``"aicpu"`` and ``"aot"`` on GPU (``.cu``) need MindSpore's AKG or Ascend compilers (or
  device pointers), which XLA does not have: constructing them raises RuntimeError naming the func_type and
  the alternative, ``func_type="pyfunc"``.

The registration helpers are in ``sporax.ops.op_info_register`` (re-exported here, as in MindSpore's ``ops``).
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import subprocess
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._engine import jax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, wrap
from ..op_info_register import (
    AiCPURegOp,
    AkgAscendRegOp,
    AkgGpuRegOp,
    CpuRegOp,
    CustomRegOp,
    DataType,
    TBERegOp,
    custom_info_register,
    op_info_register,
)
from ._primitive import Primitive

__all__ = [
    "Custom",
    "CustomOpBuilder",
    "CustomRegOp",
    "CpuRegOp",
    "TBERegOp",
    "AiCPURegOp",
    "AkgAscendRegOp",
    "AkgGpuRegOp",
    "DataType",
    "op_info_register",
    "custom_info_register",
]

_log = logging.getLogger("sporax")


# ------------------------------------------------------------------------------------------- Custom
_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]
_NEEDS = {
    "hybrid": "MindSpore's AKG compiler",
    "akg": "MindSpore's AKG compiler",
    "tbe": "Ascend's TBE compiler",
    "aicpu": "an Ascend AI CPU",
}
_AOT_DTYPES = {
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "bool": "bool",
}


def _np_dtype(t: Any) -> np.dtype:
    return np.dtype(mstype.to_np(t))


def _compile_aot(source: str, log_prefix: str) -> str:
    """A C++ AOT source compiled to a shared library (cached by content) with ``g++``."""
    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    cache = os.path.join(tempfile.gettempdir(), f"sporax_custom_aot_{os.getuid()}")
    os.makedirs(cache, exist_ok=True)
    lib = os.path.join(cache, f"{os.path.basename(source)}.{digest}.so")
    if not os.path.exists(lib):
        cmd = ["g++", "-std=c++17", "--shared", "-fPIC", f"-I{os.path.dirname(source)}", "-o", lib + ".tmp", source]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except FileNotFoundError:
            raise RuntimeError(f"{log_prefix}, compiling the AOT source needs g++, which is not installed.") from None
        if r.returncode != 0:
            raise RuntimeError(f"{log_prefix}, compiling {source} failed:\n{r.stdout}{r.stderr}")
        os.replace(lib + ".tmp", lib)
    return lib


class Custom(Primitive):
    """A user-defined operator (see the module doc for what each `func_type` means on XLA).

    Args:
        func (Union[function, str]): The computation: a Python function on NumPy arrays (``"pyfunc"``), or
            ``"lib.so:func_name"`` / ``"src.cc:func_name"`` (``"aot"``, CPU).
        out_shape (Union[tuple, list, function]): The output shape(s), or a function of the inputs' shapes.
        out_dtype (Union[mindspore.dtype, tuple, function]): The output dtype(s), or a function of the inputs'
            dtypes. None with ``"pyfunc"``: `func` returns nothing and the output is a placeholder.
        func_type (str): ``"pyfunc"`` (default) or ``"aot"``; the compiler-based types raise RuntimeError.
        bprop (function): ``bprop(*inputs, out, dout)`` returning the inputs' gradients (a tuple of Tensors).
        reg_info: Registration information (``CustomRegOp(...).get_op_info()``), recorded.

    Raises:
        ValueError: If `func_type` is not one of MindSpore's.
        TypeError: If `func` has the wrong type for `func_type`, or `out_shape`/`out_dtype` have wrong types.
        RuntimeError: If `func_type` needs a compiler XLA does not have.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import ops
        >>> add = ops.Custom(lambda x, y: x + y, lambda x, _: x, lambda x, _: x, "pyfunc")
        >>> add(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.float32)))
        Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  2.00000000e+00])
    """

    def __init__(
        self,
        func: Any,
        out_shape: Any = None,
        out_dtype: Any = None,
        func_type: str = "pyfunc",
        bprop: Any = None,
        reg_info: Any = None,
    ) -> None:
        super().__init__("Custom")
        self.log_prefix = f"For '{self.name}', 'func_type': {func_type}, 'func': {func}"
        if func_type not in _FUNC_TYPES:
            raise ValueError(f"{self.log_prefix}, 'func_type' must be one of {_FUNC_TYPES}, but got {func_type}")
        self.func, self.func_type = func, func_type
        self.out_shape, self.out_dtype, self.bprop = out_shape, out_dtype, bprop
        self.reg_info = reg_info if reg_info is not None else getattr(func, "reg_info", None)
        self._aot: Any = None
        if func_type == "pyfunc":
            if not callable(func):
                raise TypeError(f"{self.log_prefix}, 'func' must be of type function, but got {type(func)}")
        elif func_type == "aot":
            self._aot = self._load_aot(func)
        elif func_type == "hybrid":
            if not getattr(func, "ms_kernel_flag", False):
                raise TypeError(f"{self.log_prefix}, 'func' must be a function decorated by kernel")
            if out_shape is None or out_dtype is None:
                raise RuntimeError(
                    f"{self.log_prefix}, a hybrid kernel runs on the host here (no AKG compiler): give 'out_shape' and "
                    "'out_dtype' (they are inferred by compiling the DSL in MindSpore)."
                )
        if func_type in _NEEDS and not (func_type == "hybrid" and getattr(func, "ms_kernel_flag", False)):
            raise RuntimeError(
                f"{self.log_prefix}, func_type '{func_type}' needs {_NEEDS[func_type]}, which XLA does not have. "
                "Use func_type='pyfunc' (a Python function on NumPy arrays, with bprop for gradients) instead."
            )
        self.add_prim_attr("func_type", func_type)
        self._op = self._build()

    def _load_aot(self, func: Any) -> Any:
        if not isinstance(func, str):
            raise TypeError(f"{self.log_prefix}, 'func' must be of type str, but got {type(func)}")
        parts = func.split(":")
        if len(parts) != 2:
            raise TypeError(f"{self.log_prefix}, 'func' should be like 'file_name:func_name', but got {func}")
        path, name = os.path.realpath(parts[0]), parts[1]
        if path.endswith(".cu"):
            raise RuntimeError(
                f"{self.log_prefix}, a CUDA AOT kernel needs device pointers from MindSpore's GPU runtime, which "
                "XLA does not hand out. Use func_type='pyfunc' (or a CPU .so/.cc AOT kernel) instead."
            )
        if path.endswith((".cc", ".cpp")):
            path = _compile_aot(path, self.log_prefix)
        lib = ctypes.CDLL(path)
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int
        return fn

    # ---------------------------------------------------------------------------- shapes and dtypes
    def _specs(self, tensors: list[Any]) -> tuple[Any, bool, bool]:
        """The outputs' ShapeDtypeStructs, whether there are several, and whether the output is a placeholder."""
        shapes = [tuple(t.shape) for t in tensors]
        dtypes = [mstype.from_np(t.dtype) for t in tensors]
        shape = self.out_shape(*shapes) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*dtypes) if callable(self.out_dtype) else self.out_dtype
        placeholder = dtype is None and self.func_type == "pyfunc"
        if placeholder:
            shape, dtype = (1,), mstype.int32
        elif shape is None and self.func_type == "pyfunc":
            shape = ()  # a single scalar output
        elif isinstance(shape, tuple | list) and len(shape) == 0 and self.func_type == "pyfunc":
            _log.warning(f"{self.log_prefix}, 'out_shape' is an empty tuple. Add a placeholder instead.")
            shape = (1,)
        if not isinstance(shape, tuple | list):
            raise TypeError(
                f"{self.log_prefix}, 'out_shape' must be one of [tuple, list, function], but got {type(shape)}"
            )
        if not isinstance(dtype, mstype.Type | tuple | list):
            raise TypeError(
                f"{self.log_prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], but got {type(dtype)}"
            )
        multi = isinstance(dtype, tuple | list)
        specs: Any
        if isinstance(dtype, tuple | list):
            if not (
                isinstance(shape, tuple | list)
                and len(shape) == len(dtype)
                and all(isinstance(s, tuple | list) for s in shape)
            ):
                raise TypeError(f"{self.log_prefix}, 'out_shape' must give one shape per output dtype, but got {shape}")
            specs = tuple(jax.ShapeDtypeStruct(tuple(s), _np_dtype(d)) for s, d in zip(shape, dtype))  # type: ignore[arg-type]
        else:
            specs = jax.ShapeDtypeStruct(tuple(shape), _np_dtype(dtype))
        return specs, multi, placeholder

    # ------------------------------------------------------------------------------------ the kernel
    def _host(self, specs: Any, multi: bool, placeholder: bool) -> Callable[..., Any]:
        want = list(specs) if multi else [specs]

        def run(*args: Any) -> Any:
            arrays = [np.asarray(a) for a in args]
            if self._aot is not None:
                outs = self._run_aot(arrays, want)
            else:
                res = self.func(*arrays)
                if placeholder:
                    return np.zeros((1,), np.int32)
                outs = list(res) if multi else [res]
            if len(outs) != len(want):
                raise ValueError(
                    f"{self.log_prefix}, 'func' returned {len(outs)} outputs, but {len(want)} are declared."
                )
            fixed = []
            for o, s in zip(outs, want):
                o = np.asarray(o, dtype=s.dtype)
                if o.shape != s.shape:
                    raise ValueError(
                        f"{self.log_prefix}, 'func' returned shape {o.shape}, but 'out_shape' says {s.shape}."
                    )
                fixed.append(o)
            return tuple(fixed) if multi else fixed[0]

        return run

    def _run_aot(self, arrays: list[np.ndarray], want: list[Any]) -> list[np.ndarray]:
        outs = [np.zeros(s.shape, s.dtype) for s in want]
        allp = [np.ascontiguousarray(a) for a in arrays] + outs
        n = len(allp)
        params = (ctypes.c_void_p * n)(*[a.ctypes.data for a in allp])
        ndims = (ctypes.c_int * n)(*[a.ndim for a in allp])
        shape_arrays = [(ctypes.c_int64 * max(a.ndim, 1))(*a.shape) for a in allp]
        shapes = (ctypes.POINTER(ctypes.c_int64) * n)(
            *[ctypes.cast(s, ctypes.POINTER(ctypes.c_int64)) for s in shape_arrays]
        )
        dtypes = (ctypes.c_char_p * n)(*[_AOT_DTYPES.get(str(a.dtype), str(a.dtype)).encode() for a in allp])
        ret = self._aot(n, params, ndims, shapes, dtypes, None, None)
        if ret != 0:
            raise RuntimeError(f"{self.log_prefix}, the AOT kernel returned {ret}.")
        return outs

    def _build(self) -> Callable[..., Any]:
        cache: dict[Any, Any] = {}

        def op(*arrays: Any) -> Any:
            key = tuple((tuple(a.shape), str(a.dtype)) for a in arrays)
            entry = cache.get(key)
            if entry is None:
                specs, multi, placeholder = self._specs(list(arrays))
                entry = cache[key] = (specs, self._host(specs, multi, placeholder))
            specs, host = entry
            return jax.pure_callback(host, specs, *arrays, vmap_method="sequential")

        prim = self

        @jax.custom_vjp
        def kernel(*arrays: Any) -> Any:
            return op(*arrays)

        def fwd(*arrays: Any) -> Any:
            out = op(*arrays)
            return out, (arrays, out)

        def bwd(res: Any, dout: Any) -> Any:
            arrays, out = res
            if prim.bprop is None:
                raise RuntimeError(
                    f"{prim.log_prefix}, the operator has no 'bprop': pass bprop=fn(*inputs, out, dout) returning the "
                    "inputs' gradients to differentiate it."
                )
            wrap_tree = jax.tree_util.tree_map
            grads = prim.bprop(*[wrap(a) for a in arrays], wrap_tree(wrap, out), wrap_tree(wrap, dout))
            grads = grads if isinstance(grads, tuple | list) else (grads,)
            if len(grads) != len(arrays):
                raise ValueError(
                    f"{prim.log_prefix}, 'bprop' returned {len(grads)} gradients for {len(arrays)} inputs."
                )
            return tuple(arr(g).astype(a.dtype).reshape(a.shape) for g, a in zip(grads, arrays))

        kernel.defvjp(fwd, bwd)
        return kernel

    def __call__(self, *args: Any) -> Any:
        tensors = [a for a in args if isinstance(a, Tensor)]
        if len(tensors) != len(args):
            consts = [a for a in args if not isinstance(a, Tensor)]
            raise TypeError(
                f"{self.log_prefix}, every input must be a Tensor, but got {[type(c).__name__ for c in consts]}."
            )
        out = self._op(*[arr(t) for t in tensors])
        return tuple(wrap(o) for o in out) if isinstance(out, tuple) else wrap(out)

    def get_bprop(self) -> Any:
        return self.bprop


class CustomOpBuilder:
    """Not supported: builds C++ operators against MindSpore's kernel headers (``ms::pynative`` API) and loads
    them as a Python module; XLA has no such kernel API.

    Use ``ops.Custom(func, out_shape, out_dtype, "pyfunc")``, or a CPU AOT kernel
    (``ops.Custom("lib.so:func", ..., func_type="aot")``).

    Raises:
        TypeError: If `name` is not a str or `sources` is not a str/list of str.
        RuntimeError: When :meth:`load` is called.
    """

    def __init__(
        self,
        name: str,
        sources: Any,
        backend: Any = None,
        include_paths: Any = None,
        cflags: Any = None,
        ldflags: Any = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For 'CustomOpBuilder', the 'name' must be str, but got {type(name)}.")
        if not (
            isinstance(sources, str) or (isinstance(sources, list | tuple) and all(isinstance(s, str) for s in sources))
        ):
            raise TypeError(
                f"For 'CustomOpBuilder', the 'sources' must be str or list of str, but got {type(sources)}."
            )
        self.name, self.sources, self.backend = name, sources, backend
        self.include_paths, self.cflags, self.ldflags, self.kwargs = include_paths, cflags, ldflags, kwargs

    def load(self) -> Any:
        raise RuntimeError(
            f"For 'CustomOpBuilder', building '{self.name}' needs MindSpore's C++ kernel API (ms::pynative), which "
            "XLA does not have. Use ops.Custom(func, out_shape, out_dtype, 'pyfunc') or a CPU AOT kernel "
            "(ops.Custom('lib.so:func', out_shape, out_dtype, 'aot'))."
        )
