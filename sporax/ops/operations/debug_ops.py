"""Debug and control operator classes (``ops.Print()``, ``ops.Assert()``, ``ops.TensorDump()``,
``ops.HookBackward(fn)``, ``ops.InsertGradientOf(fn)``, the summary ops, ``ops.WhileLoop()``...).

Each class keeps its construction arguments as attributes and delegates to :mod:`..function.debug_func`.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from .._utils import check_int
from ..function import debug_func as D
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "Print",
    "Assert",
    "TensorDump",
    "CheckNumerics",
    "HookBackward",
    "InsertGradientOf",
    "DumpGradient",
    "ScalarSummary",
    "ImageSummary",
    "TensorSummary",
    "HistogramSummary",
    "UpdateState",
    "Partial",
    "WhileLoop",
    "ForiLoop",
    "Scan",
]


class Print(Primitive):
    """``Print()(*inputs)``: print strings and Tensors, each on its own line (at run time in compiled code)."""

    def __call__(self, *inputs: Any) -> None:
        return D.print_(*inputs)


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: raise when ``condition`` is False, printing the first
    ``summarize`` values of each Tensor of ``input_data``."""

    def __init__(self, summarize: int = 3) -> None:
        super().__init__()
        _set_attrs(self, summarize=check_int(summarize, "summarize", self.name, 1))

    def __call__(self, condition: Any, input_data: Any) -> None:
        return D.assert_(condition, input_data, self.summarize)


class TensorDump(Primitive):
    """``TensorDump(input_output='out')(file, input_x)``: save ``input_x`` as ``<file>_<dtype>_0.npy``."""

    def __init__(self, input_output: str = "out") -> None:
        super().__init__()
        _set_attrs(self, input_output=input_output)

    def __call__(self, file: str, input_x: Any) -> None:
        return D.tensordump(file, input_x, self.input_output)


class CheckNumerics(Primitive):
    """``CheckNumerics()(x)``: ``x``, raising RuntimeError when it holds NaN or Inf."""

    def __call__(self, x: Any) -> Any:
        return D.check_numerics(x)


class HookBackward(Primitive):
    """``HookBackward(hook_fn, cell_id='')(*inputs)``: the inputs unchanged; in the backward pass
    ``hook_fn(grad)`` sees each input's gradient (a returned value replaces it)."""

    def __init__(self, hook_fn: Any, cell_id: str = "") -> None:
        super().__init__()
        validator.check_callable(hook_fn, "hook_fn", "HookBackward")
        _set_attrs(self, hook_fn=hook_fn, cell_id=cell_id)

    def __call__(self, *inputs: Any) -> Any:
        outs = tuple(D.host_grad_hook(x, self.hook_fn) for x in inputs)
        return outs[0] if len(outs) == 1 else outs


class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)(input_x)``: ``input_x`` unchanged; its gradient ``g`` becomes ``f(g)``."""

    def __init__(self, f: Any) -> None:
        super().__init__()
        validator.check_callable(f, "f", "InsertGradientOf")
        _set_attrs(self, f=f)

    def __call__(self, input_x: Any) -> Any:
        return D.grad_hook(input_x, self.f)


class DumpGradient(Primitive):
    """``DumpGradient()(path, x, input_output)``: ``x`` unchanged; its gradient is saved under ``path``."""

    def __call__(self, path: str, x: Any, input_output: str = "in") -> Any:
        return D.dump_gradient(path, x, input_output)


class _Summary(Primitive):
    _kind = ""

    def __call__(self, name: str, value: Any) -> None:
        return D.summary(self._kind, name, value)


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, value)``: record a scalar for ``SummaryRecord``."""

    _kind = "Scalar"


class ImageSummary(_Summary):
    """``ImageSummary()(name, value)``: record an NCHW image batch for ``SummaryRecord``."""

    _kind = "Image"


class TensorSummary(_Summary):
    """``TensorSummary()(name, value)``: record a Tensor for ``SummaryRecord``."""

    _kind = "Tensor"


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, value)``: record a Tensor's histogram for ``SummaryRecord``."""

    _kind = "Histogram"


class UpdateState(Primitive):
    """``UpdateState()(state, expr)``: ``state`` (ordering is explicit in sporax's programs)."""

    def __call__(self, state: Any, expr: Any) -> Any:
        return state


class Partial(Primitive):
    """``Partial()(func, *args)``: the primitive form of :func:`ops.function.partial` (``ops.partial`` and
    ``F.partial`` are an instance, as in MindSpore)."""

    def __call__(self, *args: Any) -> Any:
        if not args:
            raise TypeError("For 'Partial', the 'func' is required.")
        return D.partial(*args)


class WhileLoop(Primitive):
    """``WhileLoop()(cond_func, loop_func, init_val)``."""

    def __call__(self, cond_func: Any, loop_func: Any, init_val: Any) -> Any:
        return D.while_loop(cond_func, loop_func, init_val)


class ForiLoop(Primitive):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``."""

    def __call__(self, lower: Any, upper: Any, loop_func: Any, init_val: Any, unroll: Any = True) -> Any:
        return D.fori_loop(lower, upper, loop_func, init_val, unroll)


class Scan(Primitive):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)`` -> ``(carry, ys)``."""

    def __call__(self, loop_func: Any, init: Any, xs: Any, length: Any = None, unroll: Any = True) -> Any:
        return D.scan(loop_func, init, xs, length, unroll)


PARTIAL = Partial()  # MindSpore's ops.partial and F.partial: an instance of the primitive
