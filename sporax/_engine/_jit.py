"""jit with implicit state.

:class:`StatefulJit` compiles a Python function that reads and writes Parameters it was never passed
(a network's weights, optimizer moments, BatchNorm statistics, the RNG key):

1. the call's arguments are flattened; Tensors become dynamic inputs, everything else (numbers,
   strings, Cells, dtypes) is static and part of the cache key together with shapes and dtypes;
2. on a cache miss, one abstract pass (``jax.eval_shape``) under a *discovering* frame finds the
   holders the function reads and writes;
3. the function is compiled with those holders' values as explicit inputs and their new values as
   outputs; buffers of written holders are donated;
4. after each call the new values are written back to the holders.

Inside an open frame (another trace, a gradient) a StatefulJit simply calls the function: it is
inlined into the enclosing program.

When a trace fails on Python control flow over a tensor's value, the user function that raised is
converted by the AST rewrite in :mod:`._autograph` and the trace is retried; the converted code is in
place only while this function is traced. Only what the rewrite cannot express runs eagerly.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.extend
import numpy as np

from . import _autograph, _checks, _mesh, _progress, _spmd, _state
from ._errors import TRACE_ERRORS

_log = logging.getLogger("sporax")


_MAX_CONVERSIONS = 8  # user functions converted, one per failed trace, before giving up
_FALLBACK_ERRORS: tuple[type[BaseException], ...] = (*TRACE_ERRORS, _autograph.Unconvertible)  # run eagerly
_CONVERT_ERRORS: tuple[type[BaseException], ...] = (*TRACE_ERRORS, _autograph.PrintTraced)  # convert, trace again


class _Retrace(Exception):
    """Raised inside a trace that touched state its discovery pass missed."""

    def __init__(self, reads: list[Any], writes: list[Any]) -> None:
        super().__init__("state discovery missed holders")
        self.reads = reads
        self.writes = writes


_ARRAY_TYPE = type(jax.numpy.zeros(()))
_flatten = jax.tree_util.tree_flatten
_TLS = _state.thread_state()  # this thread's frames (``.stack``), read on every call


def _is_dynamic(x: Any) -> bool:
    return isinstance(x, (jax.Array, np.ndarray)) or isinstance(x, jax.core.Tracer)


def _wraps(arg: Any, leaf: Any) -> bool:
    """Whether ``arg`` flattens to the one array ``leaf`` it holds as ``_data`` (a Tensor)."""
    return type(leaf) is _ARRAY_TYPE and type(arg) is not _ARRAY_TYPE and getattr(arg, "_data", None) is leaf


def _fast_forms(args: tuple[Any, ...], leaves: list[Any]) -> tuple[Any, ...] | None:
    """Per argument, None where it wraps one array (a Tensor) and its items' types where it is a tuple or
    list of such, when ``leaves`` (the flattened arguments) is exactly those arrays; else None: the call's
    arguments need flattening as a tree."""
    forms: list[Any] = []
    i, n = 0, len(leaves)
    for a in args:
        t = type(a)
        items = a if t is tuple or t is list else (a,)
        for b in items:
            if i >= n or not _wraps(b, leaves[i]):
                return None
            i += 1
        forms.append(tuple(map(type, a)) if items is a else None)
    return tuple(forms) if i == n else None


def _signature(leaves: list[Any]) -> tuple[tuple[int, ...], list[Any], list[Any]]:
    """The positions of the dynamic leaves (arrays; a NumPy array becomes a jax one), those leaves, and per leaf
    its shape and dtype or, for a static one, its cache key."""
    dyn_pos: list[int] = []
    dyn = []
    skey = []
    for i, leaf in enumerate(leaves):
        if type(leaf) is _ARRAY_TYPE or _is_dynamic(leaf):
            if isinstance(leaf, np.ndarray):
                leaf = jax.numpy.asarray(leaf)
            dyn_pos.append(i)
            dyn.append(leaf)
            skey.append((leaf.shape, leaf.dtype))
        else:
            skey.append(_static_key(leaf))
    return tuple(dyn_pos), dyn, skey


_NOT_CONSTANT = object()
_SCALARS = (bool, int, float, complex, str, type(None))


def _immutable(out: Any) -> bool:
    """Whether ``out`` is a scalar of Python's, or a tuple of them (a result every call can share)."""
    if type(out) is tuple:
        return all(type(x) in _SCALARS for x in out)
    return type(out) in _SCALARS


def _wrapper(out: Any, leaves: list[Any], tree: Any) -> Callable[[Any], Any] | None:
    """For a result that is one array inside a one-array wrapper type with a ``_from_data`` constructor (a
    Tensor): that constructor, which makes the result from the program's output without unflattening a tree
    (0.3 us a call); else None."""
    make = getattr(type(out), "_from_data", None)
    if make is None or len(leaves) != 1 or not _is_dynamic(leaves[0]):
        return None
    return make if jax.tree_util.tree_structure(make(leaves[0])) == tree else None


def _static_key(x: Any) -> Any:
    try:
        hash(x)
    except TypeError:
        return ("__id__", id(x))
    return (type(x), x)


class _Entry:
    __slots__ = (
        "state",
        "n_donated",
        "writes",
        "out_static",
        "out_tree",
        "out_dyn_idx",
        "compiled",
        "copy_state",
        "data_parallel",
        "checked",
        "all_dynamic",
        "whole_inputs",
        "traced",
        "options",
        "constant",
        "aliased",
        "wrap",
    )

    def __init__(self) -> None:
        self.state: list[Any] = []
        self.n_donated = 0
        self.writes: list[Any] = []
        self.out_static: list[Any] = []
        self.out_tree: Any = None
        self.out_dyn_idx: list[int] = []
        self.compiled: Callable[..., Any] | None = None
        self.copy_state: frozenset[int] = frozenset()
        self.data_parallel = False  # one copy per rank, collectives bound (see _parallel)
        self.checked = False  # the program takes and returns the function's error record (see _checks)
        self.all_dynamic = False  # every output leaf is an array of the program (no static one)
        self.whole_inputs = False  # the inputs go in as they are (no data parallelism, no batch split)
        self.traced: Any = None  # the program as traced when built (its cost analysis replays it, see _cost)
        self.options: dict[str, Any] | None = None  # the XLA compiler options it is compiled with
        self.constant: Any = _NOT_CONSTANT  # the result, when it holds no array and nothing mutable
        self.aliased = False  # a call was refused for donating an aliased buffer: checked at every call (_run)
        self.wrap: Callable[[Any], Any] | None = None  # the result is one array in this wrapper (a Tensor)


# ---- requests from the ops traced: compiler options (DESIGN §5), a data-parallel program (§6) --------
# While the discovery pass traces a function, a lowering may ask for XLA options for the executable being
# built (ops/_lowering/pool.py: its reshape max-pool asks XLA:CPU to keep YNNPACK library fusion to
# dots and convolutions: the default "reduce" fusion slows it, and the whole LeNet5 step with it, ~15%;
# other models, e.g. attention blocks, are faster with the default, so this is no global default).
# Options this jaxlib rejects (experimental ones come and go) are dropped: probed once per process.
# A collective asks for the executable to be built as one copy per rank over the process mesh.
_requests = threading.local()  # .stack: one _Requests per StatefulJit being built on this thread
_accepted: dict[tuple[str, str], bool] = {}


class _Requests:
    __slots__ = ("options", "defaults", "data_parallel")

    def __init__(self) -> None:
        self.options: dict[str, str] = {}
        self.defaults: dict[str, str] = {}  # requested with default=True: give way to ``options``
        self.data_parallel = False

    def compiler_options(self) -> dict[str, str]:
        return {**self.defaults, **self.options}


def request_compiler_options(options: dict[str, str], *, default: bool = False) -> None:
    """Called while tracing: compile the enclosing StatefulJit's executable with ``options`` (where this
    jaxlib accepts them, and unless the StatefulJit was given explicit ``compiler_options``).

    ``default=True``: only for the keys no op of the same program requests without it, whichever is traced
    first (a max-pool's fusion options give way to those of channels-last convolutions in its program)."""
    stack = getattr(_requests, "stack", None)
    if stack:
        (stack[-1].defaults if default else stack[-1].options).update(options)


def request_data_parallel() -> bool:
    """Called by a collective while a StatefulJit discovers its state: build a data-parallel program.
    False when no StatefulJit is being built (the collective is in some other transformation)."""
    stack = getattr(_requests, "stack", None)
    if not stack:
        return False
    stack[-1].data_parallel = True
    return True


def _supported(options: dict[str, str]) -> dict[str, str]:
    for k, v in options.items():
        if (k, v) not in _accepted:
            try:
                jax.jit(lambda x: x + 1, compiler_options={k: v}).lower(np.float32(0)).compile()
                _accepted[k, v] = True
            except Exception:  # an option or value this jaxlib does not know
                _log.debug("sporax: XLA option %s=%s is not accepted by this jaxlib; not used", k, v)
                _accepted[k, v] = False
    return {k: v for k, v in options.items() if _accepted[k, v]}


class StatefulJit:
    """Compile ``fn`` per input signature with its implicit state (see module doc).

    Args:
        fn: the Python function.
        fallback: what to do when ``fn`` cannot be traced (control flow on a tensor's value): ``"eager"``
            runs it eagerly from then on and says so once; ``"raise"`` re-raises.
        donate: donate the buffers of written state.
        name: used in messages.
        compiler_options: XLA compiler options for the executable; None: those the traced ops request
            (``request_compiler_options``).
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        fallback: str = "eager",
        donate: bool = True,
        name: str | None = None,
        compiler_options: dict[str, Any] | None = None,
        warn: Callable[[str], None] | None = None,
        eager_fn: Callable[..., Any] | None = None,
    ) -> None:
        self.fn = fn
        self.eager_fn = eager_fn or fn
        self.fallback = fallback
        self.donate = donate
        self.name: str = name or str(getattr(fn, "__qualname__", repr(fn)))
        self.compiler_options = compiler_options
        self.eager = False
        self._warn = warn
        self._cache: dict[Any, _Entry] = {}
        self._roots: list[Any] = []  # user functions traced with converted control flow
        self._why = ""
        # index checks (_checks): the error record every checked program of this function carries from call to
        # call, the calls since it was last read, and per trace what reading it needs
        self.record: Any = None
        self.unread = 0
        self.uncounted = 0  # calls since then of its programs that carry no record (no op in them checks)
        self.layouts: list[list[Any]] = []
        # the cache keys' number for each tree structure of arguments (a number hashes faster than a treedef)
        self._trees: dict[Any, int] = {}
        # (argument types, treedef, its number, dynamic positions, per argument None or its items' types) of
        # calls whose arguments each wrap one array or are a tuple or list of such (see _fast_forms)
        self._fast: tuple[tuple[Any, ...], Any, int, tuple[int, ...], tuple[Any, ...]] | None = None

    # ------------------------------------------------------------------ calling
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _TLS.stack:  # a trace or a gradient is running (_state.active()): inlined into it
            return self.fn(*args, **kwargs)
        if self.eager:
            return self.eager_fn(*args, **kwargs)
        # The call's signature: its arrays (dynamic leaves), their positions among the leaves, and per leaf its
        # shape and dtype or, for a static leaf, its value (_static_key). Arguments with the forms of the call that
        # learned them (_fast_forms: each wraps one array, or is a tuple/list of such) are read without tree
        # flattening; others are flattened as a tree (and their forms learned for the next call).
        fast = self._fast
        dyn: list[Any] | None = None
        if fast is not None and not kwargs and len(args) == len(fast[0]):
            dyn = []
            skey = []
            for a, t, form in zip(args, fast[0], fast[4]):
                if type(a) is not t:
                    dyn = None
                    break
                if form is None:  # a Tensor (the common case, unrolled)
                    d = a._data
                    if type(d) is not _ARRAY_TYPE:
                        dyn = None
                        break
                    dyn.append(d)
                    av = d.aval  # one read for the two (Array.shape and .dtype each read it)
                    skey.append((av.shape, av.dtype))
                    continue
                if tuple(map(type, a)) != form:
                    dyn = None
                    break
                for b in a:
                    d = b._data
                    if type(d) is not _ARRAY_TYPE:
                        dyn = None
                        break
                    dyn.append(d)
                    av = d.aval
                    skey.append((av.shape, av.dtype))
                if dyn is None:
                    break
        if dyn is not None:
            treedef, tree, dyn_pos, forms = fast[1], fast[2], fast[3], None  # type: ignore[index]
            leaves: list[Any] = dyn
        else:
            leaves, treedef = _flatten((args, kwargs))
            tree = self._trees.setdefault(treedef, len(self._trees))
            dyn_pos, dyn, skey = _signature(leaves)
            forms = None if kwargs else _fast_forms(args, leaves)
        key = (tree, dyn_pos, tuple(skey), _state.epoch())
        entry = self._cache.get(key)
        if entry is None:
            # The entry keeps static leaves only: no first-call batch stays alive with it.
            static_leaves = list(leaves)
            for i in dyn_pos:
                static_leaves[i] = None
            try:
                entry = self._build_converting(static_leaves, treedef, dyn_pos, dyn)
            except _FALLBACK_ERRORS as err:
                return self._go_eager(err, args, kwargs)
            except Exception as err:
                raise clean_error(err) from None
            self._cache[key] = entry
        if forms is not None:
            self._fast = (tuple(map(type, args)), treedef, tree, dyn_pos, forms)
        return self._run(entry, dyn)

    def _go_eager(self, err: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        cause = getattr(err, "cause", None) or err
        if self.fallback != "eager":
            raise cause
        self.eager = True
        where = _user_location(cause)
        what = type(cause).__name__
        if isinstance(err, _autograph.Unconvertible):
            what = str(err) if cause is err else f"{what} raised under a tensor condition"
        msg = (
            f"sporax could not compile '{self.name}'{where}: {what}{self._why}; it runs eagerly (op by op) from now on."
        )
        if self._warn is not None:
            self._warn(msg)
        else:
            _log.warning(msg)
        return self.eager_fn(*args, **kwargs)

    def _run(self, entry: _Entry, dyn: list[Any]) -> Any:
        values = [h._stored for h in entry.state]
        nd = entry.n_donated
        donated = values[:nd]
        # State buffers that alias each other, a kept input or a call argument (a Parameter passed as an argument
        # of the step that writes it) must be copied before they are donated. XLA's runtime refuses such a call
        # before running anything ("Attempt to donate the same buffer twice"...). The check runs after a call
        # fails (below): a failed call whose donated buffers alias, and are all still alive, was such a refusal,
        # whatever XLA's message says. It turns the check on for the program, which saves it on every ordinary
        # call (~0.45 us of an MLP b1 step).
        if nd and (entry.aliased or entry.data_parallel) and _aliased(donated, values[nd:], dyn):
            donated = _unalias(donated, [*values[nd:], *dyn])
        record = None
        if entry.data_parallel:
            _progress.entered(self.name)  # the launcher's hang detection (sporax/_launch.py)
        try:
            if entry.whole_inputs:
                inputs: tuple[Any, ...] = (donated, values[nd:], dyn)
            else:
                inputs = _inputs(entry, donated, values[nd:], dyn)
                # global_inputs returns its argument itself when the batch policy splits nothing; the policy
                # follows the auto-parallel context, whose changes bump the epoch (another entry)
                entry.whole_inputs = not entry.data_parallel and inputs[2] is dyn
            if entry.checked:
                if self.uncounted:  # calls of this function's programs without checks, in the record's count
                    self.record = self.record.at[2].add(self.uncounted)
                    self.uncounted = 0
                rec = _mesh.to_global(self.record) if entry.data_parallel else self.record  # (_record_in)
                record, result = entry.compiled(*inputs, rec)  # type: ignore[misc]
            else:
                result = entry.compiled(*inputs)  # type: ignore[misc]
                if self.record is not None:
                    self.uncounted += 1
            out_dyn, new_state = result
            if entry.data_parallel:
                out_dyn = [_mesh.to_local(a) for a in out_dyn]
                new_state = [_mesh.to_local(a) for a in new_state]
                if record is not None:
                    record = _mesh.to_local(record)
        except (RuntimeError, ValueError) as err:
            if (
                nd
                and not (entry.aliased or entry.data_parallel)
                and _aliased(donated, values[nd:], dyn)
                and not any(a.is_deleted() for a in donated)
            ):
                entry.aliased = True  # refused before it ran, nothing donated: again with the buffers copied
                return self._run(entry, dyn)
            if record is None and entry.checked and self.record.is_deleted():  # donated to a call that failed:
                self.record = _checks.new_record()  # a new one (the call's error is raised instead of what it held)
            if "deleted" in str(err):
                raise RuntimeError(
                    f"While running '{self.name}': a Parameter's value was deleted. A Tensor that aliased it "
                    "was donated to a compiled step; take copies with Tensor(param) or param.copy()."
                ) from None
            raise
        if entry.copy_state:
            new_state = [jax.numpy.array(v, copy=True) if i in entry.copy_state else v for i, v in enumerate(new_state)]
        for h, v in zip(entry.writes, new_state):
            h._stored = v
        if type(record) is _ARRAY_TYPE:  # read later, never waited for here
            # (_checks). Called inside a plain JAX transformation (jax.make_jaxpr, jax.grad of a sporax op), the
            # record is that trace's value: it cannot be read, and keeping it would leak the tracer
            self.record = record
            self.unread += 1
            if self.unread == 1:
                _checks.UNREAD.append(self)
            elif self.unread >= _checks.MAX_UNREAD:
                _checks.read(self)
        if entry.wrap is not None:
            return entry.wrap(out_dyn[0])
        if entry.all_dynamic:
            return entry.out_tree.unflatten(out_dyn)
        if entry.constant is not _NOT_CONSTANT:  # (True,) * n of an optimizer, None
            return entry.constant
        leaves = list(entry.out_static)
        for i, a in zip(entry.out_dyn_idx, out_dyn):
            leaves[i] = a
        return entry.out_tree.unflatten(leaves)

    def _record_in(self, entry: _Entry) -> Any:
        """The error record as ``entry``'s program takes it (data-parallel: this rank's part of a mesh array)."""
        return _mesh.to_global(self.record) if entry.data_parallel else self.record

    # ----------------------------------------------------------------- building
    def _call_fn(self, leaves: list[Any], treedef: Any, dyn_pos: Sequence[int], dyn_vals: list[Any]) -> Any:
        leaves = list(leaves)
        for i, v in zip(dyn_pos, dyn_vals, strict=True):
            leaves[i] = v
        args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
        if self._roots:
            with _autograph.converting(self._roots):
                return self.fn(*args, **kwargs)
        return self.fn(*args, **kwargs)

    def _build_converting(self, leaves: list[Any], treedef: Any, dyn_pos: Sequence[int], dyn: list[Any]) -> _Entry:
        """``_build``, converting the user functions whose Python control flow on tensors failed the trace
        (or that print traced tensors), then tracing again."""
        with _autograph.building():
            for _ in range(_MAX_CONVERSIONS):
                try:
                    return self._build(leaves, treedef, dyn_pos, dyn)
                except _autograph.Unconvertible:
                    _autograph.retrying()
                    raise
                except _CONVERT_ERRORS as err:
                    fns = _autograph.functions_for_error(err)
                    if fns and not all(any(f is g for g in self._roots) for f in fns):
                        try:
                            _autograph.check_roots(fns)
                        except _autograph.ConversionError as why:
                            self._why = f" (its control flow cannot be rewritten: {why})"
                        else:
                            self._roots = self._roots + [f for f in fns if all(f is not g for g in self._roots)]
                            _autograph.retrying()  # the retry prints again what this trace printed
                            continue
                    _autograph.retrying()
                    if isinstance(err, _autograph.PrintTraced) and _autograph.allow_trace_time_print(err):
                        self._why = ""
                        continue
                    raise err from None
            return self._build(leaves, treedef, dyn_pos, dyn)

    def _build(self, leaves: list[Any], treedef: Any, dyn_pos: Sequence[int], dyn: list[Any]) -> _Entry:
        stack = _requests.__dict__.setdefault("stack", [])
        stack.append(_Requests())
        try:
            reads, writes = self._discover(leaves, treedef, dyn_pos, dyn)
        finally:
            requested = stack.pop()
        options = _supported(requested.compiler_options()) if self.compiler_options is None else self.compiler_options
        _autograph.retrying()  # the trace below prints again what the discovery pass printed
        for _ in range(3):
            entry = self._compile(leaves, treedef, dyn_pos, reads, writes, options, requested.data_parallel)
            try:
                # Tracing now (not at the first call) lets a missed-state retrace happen before any
                # buffer is donated. jit caches the trace, so the first call only compiles.
                inputs = _inputs(
                    entry,
                    [h._stored for h in entry.state[: entry.n_donated]],
                    [h._stored for h in entry.state[entry.n_donated :]],
                    dyn,
                )
                record = (self._record_in(entry),) if entry.checked else ()
                entry.traced = entry.compiled.trace(*inputs, *record)  # type: ignore[union-attr]
                if entry.checked and self.layouts[-1][0] is None and not entry.data_parallel:
                    _drop_record(entry, inputs)  # no op recorded a check: the program needs no record
                return entry
            except _Retrace as miss:
                _autograph.retrying()
                reads = _merge(reads, miss.reads)
                writes = _merge(writes, miss.writes)
        raise RuntimeError(f"sporax: the state read by '{self.name}' changes from trace to trace.")

    def _discover(self, leaves: list[Any], treedef: Any, dyn_pos: Sequence[int], dyn: list[Any]) -> tuple[list, list]:
        found: dict[str, list[Any]] = {}

        def probe(dyn_vals: list[Any]) -> Any:
            with _state.Frame(discover=True) as fr:
                out = self._call_fn(leaves, treedef, dyn_pos, dyn_vals)
            found["reads"], found["writes"] = fr.reads, fr.changed_writes
            return [x for x in jax.tree_util.tree_leaves(out) if _is_dynamic(x)]

        jax.eval_shape(probe, dyn)
        return found["reads"], found["writes"]

    def _compile(
        self,
        leaves: list[Any],
        treedef: Any,
        dyn_pos: Sequence[int],
        reads: list[Any],
        writes: list[Any],
        options: dict[str, Any] | None = None,
        data_parallel: bool = False,
    ) -> _Entry:
        entry = _Entry()
        entry.data_parallel = data_parallel
        written = {id(h) for h in writes}
        donated = list(writes) if self.donate else []
        kept = [h for h in reads if id(h) not in written] + ([] if self.donate else list(writes))
        entry.state = donated + kept
        entry.n_donated = len(donated)
        entry.writes = list(writes)
        known = {id(h) for h in entry.state}

        def pure(donated_vals: list[Any], kept_vals: list[Any], dyn_vals: list[Any]) -> Any:
            bound = list(zip(entry.state, [*donated_vals, *kept_vals], strict=True))
            with _state.Frame(bound, discover=True) as fr:
                out = self._call_fn(leaves, treedef, dyn_pos, dyn_vals)
            missed_r = [h for h in fr.reads if id(h) not in known]
            initial = {id(h): v for h, v in bound}
            missed_w = [h for h in fr.writes if id(h) not in written and fr.value(h) is not initial.get(id(h))]
            if missed_r or missed_w:
                raise _Retrace(missed_r, missed_w)
            out_leaves, entry.out_tree = jax.tree_util.tree_flatten(out)
            entry.out_dyn_idx = [i for i, x in enumerate(out_leaves) if _is_dynamic(x)]
            entry.out_static = [None if _is_dynamic(x) else x for x in out_leaves]
            entry.all_dynamic = len(entry.out_dyn_idx) == len(out_leaves)
            entry.constant = out if _immutable(out) else _NOT_CONSTANT
            entry.wrap = _wrapper(out, out_leaves, entry.out_tree)
            new_vals = [fr.value(h) for h in entry.writes]
            # New state that is an input or an output buffer as well must be copied after the call, or
            # the next call's donation would delete the caller's array.
            shared = {id(x) for x in (*kept_vals, *dyn_vals)} | {id(out_leaves[i]) for i in entry.out_dyn_idx}
            entry.copy_state = frozenset(i for i, v in enumerate(new_vals) if id(v) in shared)
            return [out_leaves[i] for i in entry.out_dyn_idx], new_vals

        options = self.compiler_options if options is None else options
        entry.checked = _checks.enabled()
        program = pure
        if entry.checked:
            program, layout = _checks.functionalize(pure, len(self.layouts), 3)
            self.layouts.append(layout)
            if self.record is None:
                self.record = _checks.new_record()
        if data_parallel:  # one copy per rank: each rank's checks come back as its part of the error arrays
            program = _mesh.wrap_program(program)
        entry.options = options
        # the donated state, and the error record: each call's record replaces the last one, in its buffer (a
        # data-parallel program's record is this rank's part of a mesh array, made for the call: not donated)
        donate = ((0,) if donated else ()) + ((3,) if entry.checked and not data_parallel else ())
        entry.compiled = jax.jit(program, donate_argnums=donate, compiler_options=options or None)
        return entry


def record_free(entry: _Entry) -> Callable[..., Any]:
    """``entry``'s program as traced when it was built, as a function of ``(donated, kept, dyn)`` returning
    ``(outputs, new state)``: a checked program's error record is an empty constant that XLA folds away (so
    it costs nothing and counts no FLOP). Its user code is not run again: the function replays the trace."""
    run = jax.extend.core.jaxpr_as_fun(entry.traced.jaxpr)
    checked = entry.checked
    first = int(checked)  # a checked program's first output is its record
    n_out = len(entry.out_dyn_idx)

    def program(donated: list[Any], kept: list[Any], dyn: list[Any]) -> tuple[list[Any], list[Any]]:
        outs = run(*donated, *kept, *dyn, *((_checks.new_record(),) if checked else ()))
        return list(outs[first : first + n_out]), list(outs[first + n_out :])

    return program


def _drop_record(entry: _Entry, inputs: tuple[list, list, list]) -> None:
    """Make ``entry`` (checked, traced, with no check in it) run without the error record: one buffer in and
    one out fewer and no update of it at every call (an optimizer's update, a step without gathers)."""
    entry.compiled = jax.jit(
        record_free(entry), donate_argnums=(0,) if entry.n_donated else (), compiler_options=entry.options or None
    )
    entry.checked = False
    entry.traced = entry.compiled.trace(*inputs)


def _inputs(entry: _Entry, donated: list[Any], kept: list[Any], dyn: list[Any]) -> tuple[list, list, list]:
    """The compiled program's arguments; for a data-parallel one, as this rank's parts of mesh arrays; in
    semi-auto parallel across processes with per-rank batches, the inputs as parts of one batch (_spmd)."""
    if not entry.data_parallel:
        return donated, kept, _spmd.global_inputs(dyn)
    g = _mesh.to_global
    return [g(a) for a in donated], [g(a) for a in kept], [g(a) for a in dyn]


_JAX_NOTE = "JAX has removed its internal frames"


def clean_error(err: BaseException) -> BaseException:
    """Drop JAX's note about filtered frames from a user's exception raised during tracing."""
    notes = getattr(err, "__notes__", None)
    if notes:
        kept = [n for n in notes if _JAX_NOTE not in n and not n.startswith("----")]
        if kept:
            err.__notes__ = kept
        else:
            del err.__notes__
    return err


def _merge(a: list[Any], b: list[Any]) -> list[Any]:
    seen = {id(h) for h in a}
    return a + [h for h in b if id(h) not in seen]


def _aliased(donated: list[Any], kept: list[Any], dyn: list[Any]) -> bool:
    """Whether a donated buffer appears twice, or is also a kept input or a call argument."""
    ids = set(map(id, donated))
    return len(ids) != len(donated) or not ids.isdisjoint(map(id, dyn)) or not ids.isdisjoint(map(id, kept))


def _unalias(donated: list[Any], dyn: list[Any]) -> list[Any]:
    """Copy donated buffers that appear twice, or that are also inputs not donated (``dyn``): donation would
    kill them."""
    seen = {id(a) for a in dyn}
    out = []
    for a in donated:
        if id(a) in seen:
            a = jax.numpy.array(a, copy=True)
        seen.add(id(a))
        out.append(a)
    return out


def _user_location(err: BaseException) -> str:
    """' (file.py, line N)' for the innermost frame outside sporax and jax, if any."""
    import traceback

    tb = traceback.extract_tb(err.__traceback__)
    for fs in reversed(tb):
        f = fs.filename.replace("\\", "/")
        if "/sporax/" not in f and "/jax/" not in f and "/jaxlib/" not in f and not f.startswith("<"):
            return f" ({fs.filename}, line {fs.lineno})"
    return ""


def warn_user(msg: str) -> None:
    warnings.warn(msg, RuntimeWarning, stacklevel=3)
