"""Gradients: ``grad``, ``value_and_grad``, ``GradOperation``, ``vjp``, ``jvp``, ``jacfwd``, ``jacrev``,
``stop_gradient``-aware, all on the one core in ``_engine._autodiff`` (``vmap`` is in ``_vmap``).

Called with no trace running (PyNative), a gradient function compiles itself per input signature
(op-by-op autodiff is ~100x slower); if the function cannot be traced (Python control flow on a
tensor's value), it falls back to eager differentiation, once, with a log line. Inside a trace it is
inlined. Gradient functions are cached per (function, weights), so building one per step
(``GradOperation()(net, weights)(x)`` inside ``construct``) costs nothing.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from ... import _checkparam as validator
from ..._engine import StatefulJit, concrete, jax, jnp, ones_cotangent, state, vjp_stateful, zeros_cotangent
from ...common.parameter import Parameter, ParameterTuple
from ...common.seed import replaying_draws
from ...common.tensor import Tensor
from .._lowering import forward_mode

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "get_grad"]

_log = logging.getLogger("sporax")


def _fn_key(fn: Any) -> Any:
    """A stable identity for fn: bound methods are recreated on each attribute access."""
    self_ = getattr(fn, "__self__", None)
    if self_ is not None and hasattr(fn, "__func__"):
        return ("method", id(self_), id(fn.__func__))
    return ("obj", id(fn))


class _LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or(self, key: Any, make: Callable[[], Any]) -> Any:
        hit = self.get(key)
        if hit is not None:
            self.move_to_end(key)
            return hit[1]
        value = make()
        self[key] = (value, value)
        if len(self) > self.size:
            self.popitem(last=False)
        return value


_cache = _LRU(512)


def _weights_list(weights: Any, op: str) -> tuple[list[Parameter], bool]:
    """(list of Parameters, whether a single Parameter was given)."""
    if weights is None:
        return [], False
    if isinstance(weights, Parameter):
        return [weights], True
    if isinstance(weights, (ParameterTuple, list, tuple)):
        out = list(weights)
        for w in out:
            if not isinstance(w, Parameter):
                raise TypeError(
                    f"For '{op}', the 'weights' must be a Parameter, ParameterTuple or list of Parameters, but got an element of type {type(w).__name__}."
                )
        return out, False
    raise TypeError(
        f"For '{op}', the 'weights' must be a Parameter, ParameterTuple or list of Parameters, but got {type(weights).__name__}."
    )


def _cotangent(out: Any, first_only: bool) -> Any:
    if first_only:
        if not isinstance(out, tuple) or not out:
            raise TypeError("When 'has_aux' is True, the function must return a tuple: (output, *aux).")
        head = jax.tree_util.tree_map(ones_cotangent, out[0])
        rest = jax.tree_util.tree_map(zeros_cotangent, out[1:])
        return (head, *rest)
    return jax.tree_util.tree_map(ones_cotangent, out)


def _sens_cotangent(out: Any, sens: Any, op: str) -> Any:
    out_leaves, out_tree = jax.tree_util.tree_flatten(out)
    sens_leaves, sens_tree = jax.tree_util.tree_flatten(sens)
    if len(out_leaves) != len(sens_leaves):
        raise ValueError(
            f"For '{op}', the sens must match the network's output structure ({len(out_leaves)} tensor(s)), "
            f"but got {len(sens_leaves)}."
        )
    cts = []
    for o, s in zip(out_leaves, sens_leaves, strict=True):
        s = jnp.asarray(s)
        if s.shape != o.shape and s.size == o.size:
            s = s.reshape(o.shape)  # MindSpore accepts e.g. a (1,) scale for a 0-d loss
        if s.shape != o.shape:
            raise ValueError(
                f"For '{op}', the shape of sens must be {tuple(o.shape)} (the output's), but got {tuple(s.shape)}."
            )
        cts.append(s.astype(o.dtype) if jnp.issubdtype(o.dtype, jnp.inexact) else zeros_cotangent(o))
    return jax.tree_util.tree_unflatten(out_tree, cts)


def _pull(pull: Callable[[Any], Any], ct: Any) -> tuple[list[Any], list[Tensor]]:
    gx, gw = pull(ct)
    return gx, [Tensor._from_data(g) for g in gw]


def _verify_grad_positions(args: Sequence[Any], positions: Sequence[int], op: str) -> None:
    for i in positions:
        if i >= len(args):  # MindSpore's error; never a wrapped index (issue 13)
            raise RuntimeError(f"Position index {i} is exceed input size.")
        if isinstance(args[i], Parameter):
            continue  # differentiated as the state it holds (see _split_parameters)
        leaves = jax.tree_util.tree_leaves(args[i])
        if not leaves or not all(isinstance(x, (jax.Array, jax.core.Tracer)) for x in leaves):
            raise TypeError(
                f"For '{op}', the input at grad_position {i} must be a Tensor (or a tuple of Tensors), "
                f"but got {type(args[i]).__name__}."
            )


def _split_parameters(args: Sequence[Any], pos: Sequence[int]) -> tuple[list[int], list[int]]:
    """(positions holding Tensors, positions holding Parameters). A Parameter passed as an input is
    differentiated as the value it holds (bound in the frame like a weight, so the function sees one value
    whether it reads the argument or the Parameter elsewhere), as MindSpore allows."""
    tensors = [p for p in pos if not isinstance(args[p], Parameter)]
    params = [p for p in pos if isinstance(args[p], Parameter)]
    return tensors, params


def _vjp_inputs(
    fn: Callable[..., Any], args: Sequence[Any], pos: Sequence[int], wlist: list[Parameter]
) -> tuple[Any, Callable[[Any], tuple[list[Any], list[Tensor]]]]:
    """``vjp_stateful`` with Parameters allowed at ``pos``; the pullback gives (grads of pos, grads of wlist)."""
    t_pos, p_pos = _split_parameters(args, pos)
    if not p_pos:
        out, pull = vjp_stateful(fn, args, pos, wlist)
        return out, lambda ct: _pull(pull, ct)
    holders = wlist + [args[p] for p in p_pos]
    out, pull = vjp_stateful(fn, args, t_pos, holders)

    def pullback(ct: Any) -> tuple[list[Any], list[Tensor]]:
        gx, gw = _pull(pull, ct)
        by_pos = dict(zip(t_pos, gx, strict=True))
        by_pos.update(zip(p_pos, gw[len(wlist) :], strict=True))
        return [by_pos[p] for p in pos], gw[: len(wlist)]

    return out, pullback


def _aux_sens_cotangent(out: Any, sens: Any, op: str) -> Any:
    """With has_aux, the sens is the cotangent of the first output; the aux outputs get zeros."""
    if not isinstance(out, tuple) or not out:
        raise TypeError("When 'has_aux' is True, the function must return a tuple: (output, *aux).")
    head = _sens_cotangent(out[0], sens, op)
    return (head, *jax.tree_util.tree_map(zeros_cotangent, out[1:]))


class _GradFunction:
    """A callable computing gradients of ``fn``; compiles itself when called outside a trace.

    If ``fn`` cannot be traced (Python control flow on tensor values), gradients are computed eagerly:
    one concrete forward records the Python values the function takes from tensors, and the vjp trace
    replays them (``_engine.concrete``), so it follows the same branches.
    """

    def __init__(self, impl: Callable[..., Any], name: str, fn: Any = None, sens_param: bool = False) -> None:
        self._impl = impl
        self._fn = fn  # the function differentiated, whose earlier traced call the forward replays
        self._sens = sens_param  # the last input is the sens, not an input of fn
        self._jit = StatefulJit(impl, name=name, warn=self._fallback_note, eager_fn=self._eager)
        self._name = name

    def _eager(self, *args: Any, **kwargs: Any) -> Any:
        with concrete.recording() as values, state.Frame():
            self._impl(*args, **kwargs)  # the forward, concretely: only its Python decisions are kept
        with concrete.replaying(values):
            return self._impl(*args, **kwargs)

    def _fallback_note(self, msg: str) -> None:
        _log.warning(msg + " Gradients are computed eagerly for it.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if state.active():
            if self._fn is None or kwargs:
                return self._impl(*args, **kwargs)
            with replaying_draws(self._fn, args[:-1] if self._sens and args else args):
                return self._impl(*args)
        return self._jit(*args, **kwargs)


def _make_grad_impl(
    fn: Callable[..., Any],
    grad_position: Any,
    weights: Any,
    has_aux: bool,
    return_ids: bool,
    with_value: bool,
    op: str,
    sens_param: bool = False,
) -> Callable[..., Any]:
    if grad_position is None and weights is None:
        raise ValueError(f"For '{op}', 'grad_position' and 'weights' cannot both be None.")
    if grad_position is not None:
        single_pos = isinstance(grad_position, int) and not isinstance(grad_position, bool)
        if not single_pos and not (isinstance(grad_position, tuple) and all(isinstance(i, int) for i in grad_position)):
            raise TypeError(
                f"For '{op}', the 'grad_position' must be an int or a tuple of ints, but got {grad_position!r}."
            )
        positions = (grad_position,) if single_pos else tuple(grad_position)
        if not positions:
            raise ValueError(f"For '{op}', the 'grad_position' must not be an empty tuple.")
        if any(i < 0 for i in positions):  # MindSpore's messages
            raise ValueError(
                "grad_position must be >= 0." if single_pos else "The element in grad_position must be >= 0."
            )
    else:
        single_pos, positions = False, ()
    wlist, single_w = _weights_list(weights, op)

    def impl(*args: Any) -> Any:
        if not callable(fn):  # MindSpore's check, at the call
            raise TypeError(f"The fn should be callable, but got {type(fn).__name__}")
        sens = None
        if sens_param:
            if not args:
                raise TypeError(
                    f"For '{op}', 'sens_param' is True, so the last input must be the sens, but got no inputs."
                )
            args, sens = args[:-1], args[-1]
        pos = tuple(positions)
        _verify_grad_positions(args, pos, op)
        out, pull = _vjp_inputs(fn, args, pos, wlist)
        if sens_param:
            ct = _aux_sens_cotangent(out, sens, op) if has_aux else _sens_cotangent(out, sens, op)
        else:
            ct = _cotangent(out, has_aux)
        gx: list[Any]
        gw: list[Any]
        gx, gw = pull(ct)
        if return_ids:
            gx = [(p, g) for p, g in zip(positions, gx, strict=True)]
            gw = [(w.name, g) for w, g in zip(wlist, gw, strict=True)]
        g_pos = (gx[0] if single_pos else tuple(gx)) if positions else None
        g_w = (gw[0] if single_w else tuple(gw)) if wlist else None
        if positions and wlist:
            grads: Any = (g_pos, g_w)
        elif positions:
            grads = g_pos
        else:
            grads = g_w
        if with_value:
            return out, grads
        if has_aux:
            return grads, tuple(out[1:])
        return grads

    return impl


def grad(
    fn: Callable[..., Any],
    grad_position: Any = 0,
    weights: Any = None,
    has_aux: bool = False,
    return_ids: bool = False,
    sens_param: bool = False,
) -> Callable[..., Any]:
    """Gradient function of ``fn`` w.r.t. the inputs at ``grad_position`` and/or ``weights``.

    Outputs: the gradient (a Tensor for an int position, a tuple for a tuple of positions or weights;
    ``(inputs grads, weights grads)`` with both); with ``has_aux``, ``(grads, aux)``. With ``sens_param``
    the last input is the sens: the cotangent of the output (of the first output with ``has_aux``).
    A Parameter passed as an input at ``grad_position`` is differentiated like a Tensor input.
    """
    return _cached_grad("grad", fn, grad_position, weights, has_aux, return_ids, sens_param)


def value_and_grad(
    fn: Callable[..., Any],
    grad_position: Any = 0,
    weights: Any = None,
    has_aux: bool = False,
    return_ids: bool = False,
    sens_param: bool = False,
) -> Callable[..., Any]:
    """Like :func:`grad`, returning ``(fn's outputs, grads)``."""
    return _cached_grad("value_and_grad", fn, grad_position, weights, has_aux, return_ids, sens_param)


def _cached_grad(
    op: str,
    fn: Callable[..., Any],
    grad_position: Any,
    weights: Any,
    has_aux: bool,
    return_ids: bool,
    sens_param: bool,
) -> Callable[..., Any]:
    """The gradient function of ``grad`` or ``value_and_grad`` (``op``), one per function and arguments."""
    key = (
        op,
        _fn_key(fn),
        grad_position,
        tuple(id(w) for w in _weights_list(weights, op)[0]),
        type(weights) is Parameter,
        has_aux,
        return_ids,
        sens_param,
    )
    get_value = op == "value_and_grad"
    return _cache.get_or(
        key,
        lambda: _GradFunction(
            _make_grad_impl(fn, grad_position, weights, has_aux, return_ids, get_value, op, sens_param),
            f"{op}({_name(fn)})",
            fn,
            sens_param,
        ),
    )


def get_grad(gradients: Any, identifier: Any) -> Any:
    """Pick one gradient from the output of a ``return_ids=True`` gradient function."""

    def walk(g: Any) -> Any:
        if isinstance(g, tuple) and len(g) == 2 and not isinstance(g[0], (tuple, Tensor)):
            key = identifier.name if isinstance(identifier, Parameter) else identifier
            return g[1] if type(g[0]) is type(key) and g[0] == key else None
        if isinstance(g, tuple):
            for item in g:
                found = walk(item)
                if found is not None:
                    return found
        return None

    found = walk(gradients)
    if found is None:
        raise RuntimeError(f"For 'get_grad', the identifier {identifier!r} was not found in the gradients.")
    return found


def _name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__


class GradOperation:
    """MindSpore's GradOperation: a higher-order function that builds gradient functions.

    Args:
        get_all: gradients w.r.t. all (Tensor) inputs, as a tuple. Default False: the first input only.
        get_by_list: gradients w.r.t. the ``weights`` given when building. Default False.
        sens_param: the built function takes one more input, the sensitivity (the output's cotangent).
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        if isinstance(get_all, str):  # MindSpore 1.0's GradOperation('grad', get_by_list=True, ...)
            from ..._deprecated import warn_removed

            warn_removed("GradOperation(name, ...)", "GradOperation(get_all=..., get_by_list=..., sens_param=...)")
            get_all = False
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            validator.check_bool(v, name, "GradOperation")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self._fns = _LRU(64)

    def __call__(self, fn: Callable[..., Any], weights: Any = None) -> Callable[..., Any]:
        if not callable(fn):
            raise TypeError(
                f"For 'GradOperation', the function to differentiate must be callable (a Cell or function), but got {type(fn).__name__}."
            )
        if self.get_by_list:
            if weights is None:
                raise ValueError("For 'GradOperation', 'weights' must be given when 'get_by_list' is True.")
            wlist, _ = _weights_list(weights, "GradOperation")
        else:
            wlist = []
        key = (_fn_key(fn), tuple(id(w) for w in wlist))
        return self._fns.get_or(
            key, lambda: _GradFunction(self._impl(fn, wlist), f"GradOperation({_name(fn)})", fn, self.sens_param)
        )

    def _impl(self, fn: Callable[..., Any], wlist: list[Parameter]) -> Callable[..., Any]:
        get_all, get_by_list, sens_param = self.get_all, self.get_by_list, self.sens_param

        def impl(*args: Any) -> Any:
            sens = None
            if sens_param:
                if not args:
                    raise TypeError(
                        "For 'GradOperation', 'sens_param' is True, so the last input must be the sens, but got no inputs."
                    )
                args, sens = args[:-1], args[-1]
            if get_all:
                positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
            elif get_by_list:
                positions = []
            else:
                if not args:
                    raise TypeError("For 'GradOperation', the function has no input to differentiate.")
                positions = [0]
                _verify_grad_positions(args, positions, "GradOperation")
            out, pull = _vjp_inputs(fn, args, positions, wlist)
            ct = _sens_cotangent(out, sens, "GradOperation") if sens_param else _cotangent(out, False)
            gx, gw = pull(ct)
            if get_all and get_by_list:
                return tuple(gx), tuple(gw)
            if get_by_list:
                return tuple(gw)
            if get_all:
                return tuple(gx)
            return gx[0]

        return impl


def forward_and_grads(fn: Callable[..., Any], weights: Any, make_sens: Callable[[Any], Any]) -> Callable[..., Any]:
    """``f(*args) -> (fn(*args), gradients w.r.t. weights)`` from ONE forward, with ``make_sens(output)`` as
    the output's cotangent: what ``loss = fn(*args)`` followed by ``GradOperation(get_by_list=True,
    sens_param=True)(fn, weights)(*args, sens)`` computes when both forwards draw the same random masks (as
    in MindSpore, whose gradient reuses the forward the network ran). ``TrainOneStepCell`` uses it so the
    step never depends on XLA merging two forwards (it does not inside a sink loop)."""
    wlist, _ = _weights_list(weights, "GradOperation")

    def impl(*args: Any) -> Any:
        out, pull = _vjp_inputs(fn, args, [], wlist)
        _, gw = pull(_sens_cotangent(out, make_sens(out), "GradOperation"))
        return out, tuple(gw)

    key = ("forward_and_grads", _fn_key(fn), tuple(id(w) for w in wlist), _fn_key(make_sens))
    return _cache.get_or(key, lambda: _GradFunction(impl, f"forward_and_grads({_name(fn)})"))


def vjp(fn: Callable[..., Any], *inputs: Any, weights: Any = None, has_aux: bool = False) -> Any:
    """``(outputs, vjp_fn)`` (and ``aux`` with has_aux); ``vjp_fn(v)`` returns the input gradients."""
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'vjp', every input must be a Tensor, but input {i} is {type(x).__name__}.")
    wlist, _ = _weights_list(weights, "vjp")
    out, pull = vjp_stateful(fn, inputs, list(range(len(inputs))), wlist)
    primal = out[0] if has_aux else out

    def vjp_fn(*v: Any) -> Any:
        ct_in = v[0] if len(v) == 1 else v
        ct = _sens_cotangent(primal, ct_in, "vjp")
        if has_aux:
            ct = (ct, *jax.tree_util.tree_map(zeros_cotangent, out[1:]))
        gx, gw = _pull(pull, ct)
        if wlist:
            return tuple(gx), tuple(gw)
        return tuple(gx)

    if has_aux:
        aux = out[1] if len(out) == 2 else tuple(out[1:])
        return primal, vjp_fn, aux
    return out, vjp_fn


def _traced(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run fn under a frame so Parameter writes made while a transform traces it never reach storage."""

    def run(*a: Any) -> Any:
        with state.Frame():
            return fn(*a)

    return run


def jvp(fn: Callable[..., Any], inputs: Any, v: Any, has_aux: bool = False) -> Any:
    """Forward-mode: ``(outputs, jvp)`` (and ``aux`` with has_aux)."""
    ins = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    vs = (v,) if isinstance(v, Tensor) else tuple(v)
    if len(ins) != len(vs):
        raise ValueError(f"For 'jvp', 'inputs' and 'v' must have the same length, but got {len(ins)} and {len(vs)}.")
    vs = tuple(Tensor._from_data(jnp.asarray(t._data, i._data.dtype)) for t, i in zip(vs, ins, strict=True))
    if has_aux:

        def main(*a: Any) -> Any:
            out = _traced(fn)(*a)
            return out[0], out[1:] if len(out) > 2 else out[1]

        with forward_mode():
            out, tangent, aux = jax.jvp(main, ins, vs, has_aux=True)
        return out, tangent, aux
    with forward_mode():
        return jax.jvp(_traced(fn), ins, vs)


def _jac(kind: str, fn: Callable[..., Any], grad_position: Any, has_aux: bool) -> Callable[..., Any]:
    single = isinstance(grad_position, int)
    argnums = grad_position if single else tuple(grad_position)
    transform = jax.jacfwd if kind == "jacfwd" else jax.jacrev

    def call(*args: Any) -> Any:
        def pure(*raw: Any) -> Any:
            a = [Tensor._from_data(r) if isinstance(orig, Tensor) else r for r, orig in zip(raw, args, strict=True)]
            out = _traced(fn)(*a)
            leaves = jax.tree_util.tree_map(
                lambda t: t._data if isinstance(t, Tensor) else t, out, is_leaf=lambda t: isinstance(t, Tensor)
            )
            if has_aux:
                return leaves[0], leaves[1:]
            return leaves

        raw = [a._data if isinstance(a, Tensor) else a for a in args]
        with forward_mode() if kind == "jacfwd" else contextlib.nullcontext():
            res = transform(pure, argnums=argnums, has_aux=has_aux)(*raw)
        wrap = lambda t: jax.tree_util.tree_map(Tensor._from_data, t)  # noqa: E731
        if has_aux:
            jac, aux = res
            return wrap(jac), wrap(aux[0] if len(aux) == 1 else aux)
        return wrap(res)

    return call


def jacfwd(fn: Callable[..., Any], grad_position: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """Jacobian by forward mode."""
    return _jac("jacfwd", fn, grad_position, has_aux)


def jacrev(fn: Callable[..., Any], grad_position: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """Jacobian by reverse mode."""
    return _jac("jacrev", fn, grad_position, has_aux)
