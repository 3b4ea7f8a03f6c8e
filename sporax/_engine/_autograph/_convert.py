"""Converting user functions: source -> rewritten code object, cached per code object, and installed
(``fn.__code__`` swapped) only while a trace runs.

Swapping the code object of the very function object the user (and the framework) holds means every
path into it, a Cell's ``construct`` called by ``Cell.__call__``, a loss function held by a gradient,
runs the converted code during the trace, and the original code again afterwards (PyNative stays the
user's own code). Converted code behaves like the original for Python values, so another thread calling
the function meanwhile gets the same results.

A lambda is converted as a ``def`` returning its body; its node is found in its file's source by the
positions of its code's instructions.
"""

from __future__ import annotations
import __future__

import ast
import copy
import functools
import gc
import inspect
import linecache
import operator
import os
import sys
import sysconfig
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import _runtime
from ._transform import AG, ConversionError, check_convertible, convert_function, needs_conversion
from ._values import PrintTraced

_FUTURE = functools.reduce(operator.or_, (getattr(__future__, n).compiler_flag for n in __future__.all_feature_names))
_NOT_FUNCTIONS = frozenset(("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"))
_ASYNC_OR_GEN = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


# --------------------------------------------------------------------------- whose code
def _framework_dirs() -> tuple[str, ...]:
    import importlib.util

    dirs = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))]  # sporax/
    for name in ("jax", "jaxlib", "numpy", "ml_dtypes", "scipy", "opt_einsum", "optax"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # pragma: no cover
            spec = None
        if spec is not None and spec.origin:
            dirs.append(os.path.dirname(os.path.abspath(spec.origin)))
    return tuple(d + os.sep for d in dirs)


_FRAMEWORK = _framework_dirs()
_STDLIB = tuple(
    os.path.abspath(p) + os.sep for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
)
_file_kind: dict[str, int] = {}  # 0: framework/stdlib, 1: user code, 2: installed third-party package


def file_kind(filename: str) -> int:
    kind = _file_kind.get(filename)
    if kind is None:
        path = os.path.abspath(filename)
        third = "site-packages" in path or "dist-packages" in path
        if filename.startswith("<"):
            kind = 0 if filename.startswith("<frozen") else 1  # exec'd code, a REPL: user code without source
        elif path.startswith(_FRAMEWORK):
            kind = 0
        elif path.startswith(_STDLIB) and not third:
            kind = 0
        else:
            kind = 2 if third else 1
        _file_kind[filename] = kind
    return kind


# ----------------------------------------------------------------------------- converting
_converted: dict[types.CodeType, types.CodeType | None] = {}
_failed: dict[types.CodeType, ConversionError] = {}
_owned: dict[types.CodeType, types.CodeType] = {}  # converted code objects (and nested ones) -> original


def converted_code(code: types.CodeType) -> types.CodeType | None:
    """The rewritten code for ``code`` (None: nothing to rewrite). Raises ConversionError."""
    try:
        return _converted[code]
    except KeyError:
        pass
    err = _failed.get(code)
    if err is not None:
        raise err
    try:
        new = _convert(code)
    except ConversionError as e:
        _failed[code] = e
        raise
    _converted[code] = new
    if new is not None:
        for c in _walk_codes(new):
            _owned[c] = code
    return new


def is_converted(code: types.CodeType) -> bool:
    return code in _owned


def _walk_codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _walk_codes(c)


def _parse(code: types.CodeType) -> ast.FunctionDef:
    if code.co_flags & _ASYNC_OR_GEN:
        raise ConversionError("it is a generator or coroutine")
    if code.co_name == "<lambda>":
        return _parse_lambda(code)
    try:
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError) as err:
        raise ConversionError(f"its source code is not available ({err})") from None
    first = lines[0]
    indent = first[: len(first) - len(first.lstrip())]
    src = "".join(lines)
    offset = start - 1
    if indent:
        src = "if True:\n" + src
        offset -= 1
    try:
        tree = ast.parse(src)
    except SyntaxError as err:
        raise ConversionError(f"its source could not be parsed ({err})") from None
    node: Any = tree.body[0]
    if indent:
        node = node.body[0]
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError("it is a coroutine")
    if not isinstance(node, ast.FunctionDef) or node.name != code.co_name:
        raise ConversionError("its source could not be matched to its code")
    ast.increment_lineno(node, offset)
    return node


_LAMBDA = "__sporax_lambda__"  # the name a lambda's body is compiled under (its code gets "<lambda>" back)
_trees: dict[str, tuple[str, ast.Module]] = {}  # file -> (source, parsed module), for finding lambdas


def _module_tree(filename: str) -> ast.Module:
    linecache.checkcache(filename)
    src = "".join(linecache.getlines(filename))
    if not src:
        raise ConversionError("its source code is not available")
    hit = _trees.get(filename)
    if hit is not None and hit[0] == src:
        return hit[1]
    try:
        tree = ast.parse(src)
    except SyntaxError as err:
        raise ConversionError(f"its source could not be parsed ({err})") from None
    if len(_trees) >= 32:
        _trees.clear()
    _trees[filename] = (src, tree)
    return tree


def _parse_lambda(code: types.CodeType) -> ast.FunctionDef:
    """A lambda as ``def __sporax_lambda__(<its arguments>): return <its body>``.

    Several lambdas may share a line (or be nested), so the one whose code this is is found by position:
    the smallest ``lambda`` on the code's first line whose body spans every instruction's source
    position (``co_positions``), with the same arguments.
    """
    spans = [
        (line, col, end_line, end_col)
        for line, end_line, col, end_col in code.co_positions()
        if None not in (line, end_line, col, end_col) and (line, col) != (end_line, end_col)
    ]
    if not spans:
        raise ConversionError("its source could not be matched to its code")
    start = min((s[0], s[1]) for s in spans)
    end = max((s[2], s[3]) for s in spans)
    found = []
    for n in ast.walk(_module_tree(code.co_filename)):
        if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno and _same_arguments(n.args, code):
            b = n.body
            lo, hi = (b.lineno, b.col_offset), (b.end_lineno or b.lineno, b.end_col_offset or 0)
            if lo <= start and end <= hi:
                found.append(((lo, (-hi[0], -hi[1])), n))  # nested candidates: the innermost sorts last
    if not found:
        raise ConversionError("its source could not be matched to its code")
    best = max(found, key=lambda item: item[0])[1]
    lam = copy.deepcopy(best)  # the conversion edits nodes in place; the cached tree stays as parsed
    ret = ast.copy_location(ast.Return(value=lam.body), lam.body)
    fdef = ast.FunctionDef(name=_LAMBDA, args=lam.args, body=[ret], decorator_list=[], returns=None, type_comment=None)
    return ast.copy_location(fdef, lam)


def _same_arguments(args: ast.arguments, code: types.CodeType) -> bool:
    pos = [a.arg for a in (*args.posonlyargs, *args.args)]
    kwonly = [a.arg for a in args.kwonlyargs]
    names = pos + kwonly + [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return (
        len(pos) == code.co_argcount
        and len(kwonly) == code.co_kwonlyargcount
        and list(code.co_varnames[: len(names)]) == names
    )


def _convert(code: types.CodeType) -> types.CodeType | None:
    node = _parse(code)
    check_convertible(node)
    if not needs_conversion(node):
        return None
    new_fn = convert_function(node)
    new_fn.decorator_list = []
    params = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=n) for n in code.co_freevars],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    ret = ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))
    factory = ast.FunctionDef(
        name="__sporax_factory__", args=params, body=[new_fn, ret], decorator_list=[], returns=None
    )
    ast.copy_location(factory, node)
    ast.copy_location(ret, node)
    body: list[ast.stmt] = [factory]
    cls = _mangling_class(code, node)
    if cls:
        body = [ast.ClassDef(name=cls, bases=[], keywords=[], body=[factory], decorator_list=[])]
        ast.copy_location(body[0], node)
    module = ast.Module(body=body, type_ignores=[])
    ast.fix_missing_locations(module)
    try:
        mod_code = compile(module, code.co_filename, "exec", flags=code.co_flags & _FUTURE, dont_inherit=True)
    except SyntaxError as err:
        raise ConversionError(f"the rewritten code does not compile ({err})") from None
    new = _find(mod_code, node.name)
    if new is None or new.co_freevars != code.co_freevars:
        raise ConversionError("its closure could not be kept")
    return new.replace(co_name=code.co_name, co_qualname=code.co_qualname)


def _find(mod_code: types.CodeType, name: str) -> types.CodeType | None:
    for c in _walk_codes(mod_code):
        if c.co_name == "__sporax_factory__":
            for inner in c.co_consts:
                if isinstance(inner, types.CodeType) and inner.co_name == name:
                    return inner
    return None


def _mangling_class(code: types.CodeType, node: ast.FunctionDef) -> str | None:
    """The class whose private names (``self.__x``) the function's code was compiled with, if any."""
    private = set()
    for n in ast.walk(node):
        ident = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
        if ident and ident.startswith("__") and not ident.endswith("__"):
            private.add(ident)
    if not private:
        return None
    names: set[str] = set()
    for c in _walk_codes(code):
        names.update(c.co_names, c.co_varnames, c.co_freevars, c.co_cellvars)
    for p in private:
        for name in names:
            if name.endswith(p) and name.startswith("_") and len(name) > len(p) + 1 and not name.startswith("__"):
                return name[1 : -len(p)]
    return None


# ---------------------------------------------------------------------------- installing
_lock = threading.RLock()
_installed: dict[int, list[Any]] = {}  # id(fn) -> [fn, original code, users]


class _Session:
    """The functions converted for one trace; their original code comes back when it ends."""

    def __init__(self) -> None:
        self.fns: dict[int, types.FunctionType] = {}
        self.seen: set[int] = set()

    def install(self, fn: types.FunctionType) -> bool:
        with _lock:
            if id(fn) in self.fns:
                return True
            ent = _installed.get(id(fn))
            if ent is not None and ent[0] is fn:
                ent[2] += 1
            else:
                code = fn.__code__
                if code in _owned:
                    return False
                new = converted_code(code)
                if new is None:
                    return False
                if fn.__globals__.get(AG) is not _runtime:
                    fn.__globals__[AG] = _runtime
                _installed[id(fn)] = [fn, code, 1]
                fn.__code__ = new
            self.fns[id(fn)] = fn
            return True

    def close(self) -> None:
        with _lock:
            for fn in self.fns.values():
                ent = _installed[id(fn)]
                ent[2] -= 1
                if ent[2] == 0:
                    fn.__code__ = ent[1]
                    del _installed[id(fn)]
            self.fns.clear()


class _Local(threading.local):
    def __init__(self) -> None:
        self.sessions: list[_Session] = []
        self.building = 0
        self.held: _HeldOutput | None = None


_local = _Local()


class _HeldOutput:
    """``sys.stdout`` while a jit build traces: what the building thread prints is held back, dropped if the
    trace is retried (the retry prints it again), and written when the build ends."""

    def __init__(self, target: Any) -> None:
        self._target = target
        self._thread = threading.get_ident()
        self._held: list[str] = []
        self._done = False  # once the build ends it only passes writes on (another build may wrap it)

    def write(self, text: str) -> int:
        if not self._done and threading.get_ident() == self._thread:
            self._held.append(text)
            return len(text)
        return self._target.write(text)

    def flush(self) -> None:
        if self._done or threading.get_ident() != self._thread:
            self._target.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


@contextmanager
def building() -> Iterator[None]:
    """Mark a jit build (the traces that may be retried with converted functions)."""
    _local.building += 1
    held = None
    if _local.building == 1 and sys.stdout is not None:
        held = _local.held = _HeldOutput(sys.stdout)
        sys.stdout = held  # type: ignore[assignment]
    try:
        yield
    finally:
        _local.building -= 1
        if held is not None:
            held._done = True
            _local.held = None
            while isinstance(sys.stdout, _HeldOutput) and sys.stdout._done:
                sys.stdout = sys.stdout._target
            if held._held:
                held._target.write("".join(held._held))


def retrying() -> None:
    """A build's trace failed and runs again: drop what it printed."""
    held = getattr(_local, "held", None)
    if held is not None:
        held._held.clear()


_print_ok: set[types.CodeType] = set()


def traced_text() -> None:
    """Called when a traced Tensor is turned into text (``str``, ``repr``, ``format``)."""
    if not _local.building:
        return
    f: Any = sys._getframe(2)
    for _ in range(8):
        if f is None or file_kind(f.f_code.co_filename) != 0:
            break
        f = f.f_back
    if f is None:
        return
    code = f.f_code
    if "print" in code.co_names and code not in _owned and code not in _print_ok and file_kind(code.co_filename) == 1:
        raise PrintTraced(f"'{code.co_qualname}' prints a traced tensor")


def allow_trace_time_print(err: BaseException) -> bool:
    """After a PrintTraced whose function cannot be converted: let that function print at trace time."""
    fr = None
    tb = err.__traceback__
    while tb is not None:
        if file_kind(tb.tb_frame.f_code.co_filename) != 0:
            fr = tb.tb_frame
        tb = tb.tb_next
    if fr is None or fr.f_code in _print_ok:
        return False
    _print_ok.add(fr.f_code)
    return True


@contextmanager
def converting(fns: list[types.FunctionType]) -> Iterator[None]:
    """Run the block with ``fns`` (and the user functions their converted code calls) converted."""
    session = _Session()
    _local.sessions.append(session)
    try:
        for fn in fns:
            session.install(fn)
        yield
    finally:
        _local.sessions.pop()
        session.close()


def check_roots(fns: list[types.FunctionType]) -> None:
    """Convert (and cache) ``fns`` now; raises ConversionError if one cannot be converted or has nothing
    the rewrite would change."""
    for fn in fns:
        if converted_code(fn.__code__) is None:
            raise ConversionError("it has no control flow the rewrite could change")


def _prepare(f: Any) -> None:
    """Called by converted code before each call: convert user functions on demand."""
    sessions = _local.sessions
    if not sessions:
        return
    session = sessions[-1]
    t = type(f)
    if t is types.FunctionType:
        fn = f
    elif t is types.MethodType:
        fn = f.__func__
    elif t is types.BuiltinFunctionType or isinstance(f, type):
        return
    else:  # a Cell (its construct) or another callable object (its __call__)
        fn = getattr(t, "construct", None) or getattr(t, "__call__", None)  # noqa: B004
    if type(fn) is not types.FunctionType:
        return
    key = id(fn)
    if key in session.seen:
        return
    session.seen.add(key)
    code = fn.__code__
    if code in _owned or code.co_flags & _ASYNC_OR_GEN or file_kind(code.co_filename) != 1:
        return
    try:
        session.install(fn)
    except ConversionError:
        pass


_runtime._prepare[0] = _prepare


# ------------------------------------------------------------------------ finding functions
def functions_for_error(err: BaseException) -> list[types.FunctionType] | None:
    """The user function(s) whose code raised ``err`` (innermost user frame of its traceback), or None
    when that code is already converted, or cannot be found."""
    frames = []
    tb = err.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    user = [fr for fr in frames if file_kind(fr.f_code.co_filename) != 0]
    for k in range(len(user) - 1, -1, -1):
        fr = user[k]
        code = fr.f_code
        if code in _owned:
            return None
        if code.co_name in _NOT_FUNCTIONS:
            continue
        if code.co_name == "<module>":
            return None
        # A function defined inside a caller on the stack is created anew at each call: convert the caller
        # (the rewrite converts the functions it defines).
        for outer in reversed(user[:k]):
            if outer.f_code.co_name in _NOT_FUNCTIONS or outer.f_code in _owned:
                continue
            if any(c is code for c in _walk_codes(outer.f_code)):
                fr, code = outer, outer.f_code
        return _functions_with_code(fr, code) or None
    return None


def _functions_with_code(frame: types.FrameType, code: types.CodeType) -> list[types.FunctionType]:
    found: dict[int, types.FunctionType] = {}

    def match(obj: Any) -> None:
        for _ in range(16):
            if isinstance(obj, (staticmethod, classmethod, types.MethodType)):
                obj = obj.__func__
            elif isinstance(obj, property):
                for acc in (obj.fget, obj.fset, obj.fdel):
                    match(acc)
                return
            elif type(obj) is types.FunctionType and obj.__code__ is code:
                found[id(obj)] = obj
                return
            else:
                obj = getattr(obj, "__wrapped__", None) if callable(obj) else None
                if obj is None:
                    return

    argnames = code.co_varnames[: code.co_argcount]
    if argnames:
        first = frame.f_locals.get(argnames[0])
        if first is not None:
            klass = first if isinstance(first, type) else type(first)
            for c in klass.__mro__:
                match(c.__dict__.get(code.co_name))
    match(frame.f_globals.get(code.co_name))
    if not found:
        for ref in gc.get_referrers(code):
            if type(ref) is types.FunctionType and ref.__code__ is code:
                found[id(ref)] = ref
    return list(found.values())
