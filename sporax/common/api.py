"""``jit``: compile a function (or Cell method) with its implicit state."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _checkparam as validator
from .._engine import remat_call
from ._compile import compile_call

__all__ = ["jit", "ms_function", "jit_class", "lazy_inline", "no_inline", "recompute", "_cell_graph_executor"]


def jit(
    function: Callable[..., Any] | None = None,
    *,
    capture_mode: str = "ast",
    jit_level: str = "O0",
    dynamic: int = 0,
    fullgraph: bool = False,
    backend: str = "",
    **options: Any,
) -> Any:
    """Compile ``function`` per input signature (MindSpore's ``@jit``).

    The compiled function reads and writes the Parameters it uses (weights, optimizer state, the RNG)
    as implicit state; Tensor arguments are inputs, other arguments are constants of the compilation.
    Usable bare (``@jit``), with arguments (``@jit(jit_level="O1")``), and on Cell methods.
    ``fullgraph=True`` raises instead of falling back to eager for code that cannot be compiled.
    """
    # MindSpore's checks. On XLA every jit_level and backend compiles the whole function with XLA
    # (XLA picks its own fusions); the values are validated and otherwise have no effect.
    validator.check_string(capture_mode, ["ast", "bytecode", "trace"], "capture_mode", "jit")
    validator.check_string(jit_level, ["O0", "O1"], "jit_level", "jit")
    validator.check_int_range(dynamic, 0, 1, validator.INC_BOTH, "dynamic", "jit")
    validator.check_bool(fullgraph, "fullgraph", "jit")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(fn):
            raise TypeError(f"For 'jit', the decorated object must be callable, but got {type(fn).__name__}.")
        compiled = compile_call(fn, asked=True, fallback="raise" if fullgraph else "eager")

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return compiled(*args, **kwargs)

        wrapper.__sporax_jit__ = compiled  # type: ignore[attr-defined]
        return wrapper

    if function is None:
        return decorate
    return decorate(function)


def ms_function(
    fn: Callable[..., Any] | None = None, input_signature: Any = None, hash_args: Any = None, jit_config: Any = None
) -> Any:
    """MindSpore 1.x name of :func:`jit`."""
    return jit(fn)


def jit_class(cls: Any) -> Any:
    """Mark a user class whose instances may be used inside compiled code (MindSpore's ``@jit_class``).

    sporax compiles by tracing Python, so any object already works there: its attributes are constants of
    the compilation and the Parameters it holds are implicit state. The decorator keeps MindSpore's checks."""
    import inspect

    if not inspect.isclass(cls):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if any(c.__name__ == "Cell" and c.__module__.startswith("sporax.nn") for c in cls.__mro__):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: {cls}.")
    marked: Any = cls  # a user class: the marker is a new attribute of it
    marked.__ms_class__ = True
    return cls


def lazy_inline(fn: Any = None, attrs: Any = None, policy: Any = None) -> Any:
    """MindSpore's ``@lazy_inline`` on a Cell's ``__init__``: reuse one compiled graph for repeated blocks.

    XLA compiles the whole step as one program and decides inlining itself, so the decorated ``__init__`` is
    returned as it is (the program's results are the same); ``attrs`` and ``policy`` are accepted."""

    def wrap(func: Any) -> Any:
        if not callable(func):
            raise TypeError(f"Decorator lazy_inline can only be used for a callable, but got {func}.")
        func.__lazy_inline__ = True
        return func

    return wrap if fn is None else wrap(fn)


def no_inline(fn: Any = None) -> Any:
    """MindSpore's ``@no_inline``: keep a function as a called subgraph. XLA decides inlining; the function
    is returned as it is."""

    def wrap(func: Any) -> Any:
        if not callable(func):
            raise TypeError(f"Decorator no_inline can only be used for a callable, but got {func}.")
        func.__no_inline__ = True
        return func

    return wrap if fn is None else wrap(fn)


def recompute(
    block: Any,
    *args: Any,
    use_reentrant: bool = True,
    output_recompute: bool = False,
    early_stop: bool = True,
    context_fn: Any = None,
    **kwargs: Any,
) -> Any:
    """Call ``block(*args, **kwargs)`` keeping no activations for the backward pass: they are recomputed
    there (``jax.checkpoint``). The result and the gradients are those of the plain call; memory is lower.
    Parameter writes inside ``block`` (BatchNorm statistics) still happen once."""
    if not (hasattr(block, "construct") and hasattr(block, "get_parameters")):  # a Cell (common sits below nn)
        raise TypeError("Recompute function now only support block which inherited from Cell when use_reentrant=True!")
    call = (lambda *a: block(*a, **kwargs)) if kwargs else block
    return remat_call(call, args, list(block.get_parameters()))


class _CellGraphExecutor:
    """MindSpore's ``mindspore.common.api._cell_graph_executor``: ``compile(net, *inputs)`` builds the network
    for those inputs without running it (an abstract evaluation: shapes and dtypes only, no computation), so
    shape and dtype errors surface as they would on a real call; ``executor(net, *inputs)`` runs it."""

    def __init__(self) -> None:
        self._compiled: dict[str, Any] = {}

    def compile(
        self,
        obj: Any,
        *args: Any,
        phase: str = "predict",
        do_convert: bool = True,
        jit_config_dict: Any = None,
        **kwargs: Any,
    ) -> tuple[str, bool]:
        from .._engine import jax, state

        leaves, tree = jax.tree_util.tree_flatten(args)
        dyn = [i for i, x in enumerate(leaves) if isinstance(x, jax.Array)]

        def probe(*vals: Any) -> Any:
            full = list(leaves)
            for i, v in zip(dyn, vals, strict=True):
                full[i] = v
            with state.Frame(discover=True):  # Parameter writes (BN statistics) stay in this frame
                return obj(*jax.tree_util.tree_unflatten(tree, full), **kwargs)

        jax.eval_shape(probe, *[leaves[i] for i in dyn])
        key = f"{phase}.{id(obj)}.{len(self._compiled)}"
        self._compiled[key] = obj
        return key, True

    def has_compiled(self, phase: str = "predict") -> bool:
        return phase in self._compiled

    def __call__(self, obj: Any, *args: Any, phase: str = "predict") -> Any:
        return obj(*args)

    def del_net_res(self, obj: Any, net_id: Any = None) -> None:
        self._compiled = {k: v for k, v in self._compiled.items() if v is not obj}


_cell_graph_executor = _CellGraphExecutor()
