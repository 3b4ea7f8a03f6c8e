"""The AST rewrite: Python control flow into calls that decide at run time (AutoGraph's idea).

Each ``if``/``while``/``for`` becomes small nested functions (the branches, the loop test and body,
``get``/``set`` of the names the statement binds) and one call into :mod:`._runtime`, which runs the
plain Python statement when the condition is a Python value and a traced conditional or loop when it
is a tensor. ``return``/``break``/``continue`` inside them become flags, and the statements after a
possible jump are guarded by ``if not flag``. ``and``/``or``/``not``, ``a if c else b`` and calls become
runtime calls too (calls: to convert user functions on demand, and to turn ``print`` of tensors into a
runtime print). Line numbers are kept, so tracebacks and messages point at the user's source.
"""

from __future__ import annotations

import ast
import itertools
from typing import Any

from ._analysis import DO_RET, RET, Facts, _target_names, _walk_no_scopes, always_returns, brk_flag, cont_flag

AG = "__sporax_ag__"
_IT = "__sporax_it__"
_VALS = "__sporax_vals__"
# Builtins that are never worth routing through the runtime (or that must see the caller's frame).
_DIRECT = frozenset(
    (
        "super",
        "isinstance",
        "issubclass",
        "len",
        "hasattr",
        "getattr",
        "setattr",
        "type",
        "id",
        "range",
        "zip",
        "enumerate",
        "tuple",
        "list",
        "dict",
        "set",
        "str",
        "repr",
        "iter",
        "next",
        "reversed",
        "sorted",
        "callable",
        "globals",
    )
)
_FRAME_BUILTINS = frozenset(("locals", "vars", "eval", "exec"))


class ConversionError(Exception):
    """A function the rewrite cannot convert (no source, a generator, ``locals()``...)."""


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _ag(attr: str) -> ast.Attribute:
    return ast.Attribute(value=_name(AG), attr=attr, ctx=ast.Load())


def _call(func: ast.expr, args: list[ast.expr], keywords: list[ast.keyword] | None = None) -> ast.Call:
    return ast.Call(func=func, args=args, keywords=keywords or [])


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(name, True)], value=value)


def _const(v: Any) -> ast.Constant:
    return ast.Constant(value=v)


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _lambda(body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=_no_args(), body=body)


def _fdef(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = _no_args()
    args.args = [ast.arg(arg=p) for p in params]
    return ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)


def _located(nodes: list[ast.stmt], ref: ast.AST) -> list[ast.stmt]:
    """Give generated nodes the first line of ``ref`` (tracebacks then show that line)."""
    line, col = getattr(ref, "lineno", 1), getattr(ref, "col_offset", 0)
    for n in nodes:
        for sub in ast.walk(n):
            if "lineno" in sub._attributes and not hasattr(sub, "lineno"):
                for attr, value in (
                    ("lineno", line),
                    ("col_offset", col),
                    ("end_lineno", line),
                    ("end_col_offset", col),
                ):
                    setattr(sub, attr, value)  # ast.AST declares none of them (each node kind does)
    return nodes


def _contains_scope_breaker(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)) for n in _walk_no_scopes(node))


class _Exprs(ast.NodeTransformer):
    """Rewrites inside expressions: calls, ``and``/``or``/``not``, conditional expressions."""

    def __init__(self, first_arg: str | None) -> None:
        self.first_arg = first_arg

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":
            node.args = [self._fstring(a) if isinstance(a, ast.JoinedStr) else a for a in node.args]
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(func, ast.Name):
            if func.id == "super" and not node.args and not node.keywords and self.first_arg:
                node.args = [_name("__class__"), _name(self.first_arg)]
                return node
            if func.id in _DIRECT:
                return node
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == AG:
            return node
        return ast.copy_location(_call(_ag("call"), [func, *node.args], node.keywords), node)

    def _fstring(self, node: ast.JoinedStr) -> ast.expr:
        parts: list[ast.expr] = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                spec = v.format_spec if v.format_spec is not None else _const(None)
                parts.append(ast.Tuple(elts=[v.value, _const(v.conversion), spec], ctx=ast.Load()))
            else:
                parts.append(v)
        return ast.copy_location(_call(_ag("fstr"), [ast.Tuple(elts=parts, ctx=ast.Load())]), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if any(_contains_scope_breaker(v) for v in node.values[1:]):
            return node
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        args = [node.values[0], *(_lambda(v) for v in node.values[1:])]
        return ast.copy_location(_call(_ag(fn), args), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call(_ag("not_"), [node.operand]), node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if _contains_scope_breaker(node.body) or _contains_scope_breaker(node.orelse):
            return node
        args = [node.test, _lambda(node.body), _lambda(node.orelse), _const(node.lineno)]
        return ast.copy_location(_call(_ag("if_exp"), args), node)


def check_convertible(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Raise ConversionError for functions the rewrite would change the meaning of."""
    if isinstance(fn, ast.AsyncFunctionDef):
        raise ConversionError("it is a coroutine")
    for n in _walk_no_scopes(fn):
        if n is fn:
            continue
        if isinstance(n, (ast.Yield, ast.YieldFrom)) and not isinstance(n, ast.Lambda):
            raise ConversionError("it is a generator")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _FRAME_BUILTINS:
            raise ConversionError(f"it calls {n.func.id}()")


def needs_conversion(fn: ast.FunctionDef) -> bool:
    """Whether the function has anything the rewrite changes (control flow, boolean ops, print)."""
    for n in ast.walk(fn):
        if isinstance(n, (ast.If, ast.While, ast.For, ast.BoolOp, ast.IfExp)):
            return True
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print":
            return True
    return False


class _Function:
    """Converts one function body (nested functions get their own instance)."""

    def __init__(self, fn: ast.FunctionDef, counter: itertools.count) -> None:
        check_convertible(fn)
        self.fn = fn
        self.facts = Facts(fn)
        self.counter = counter
        self.loops: list[int] = []
        self.bindings: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        for n in _walk_no_scopes(fn):
            if isinstance(n, ast.Global):
                self.globals.update(n.names)
            elif isinstance(n, ast.Nonlocal):
                self.nonlocals.update(n.names)
        params = [*fn.args.posonlyargs, *fn.args.args]
        self.exprs = _Exprs(params[0].arg if params else None)

    def run(self) -> ast.FunctionDef:
        fn = self.fn
        body = self.block(fn.body)
        prologue: list[ast.stmt] = []
        epilogue: list[ast.stmt] = []
        if self.facts.ret_flags:
            prologue = [_assign(DO_RET, _const(False)), _assign(RET, _ag("UNDEF"))]
            always = always_returns(fn.body)
            ret = _call(_ag("retval"), [_name(DO_RET), _name(RET), _const(always), _const(fn.name)])
            epilogue = [ast.Return(value=ret)]
        bind = sorted(self.bindings - self.globals - self.nonlocals)
        if bind:
            dummy = ast.Assign(targets=[_name(b, True) for b in bind], value=_const(None))
            prologue.insert(0, ast.If(test=_const(False), body=[dummy], orelse=[]))
        new = ast.FunctionDef(
            name=fn.name,
            args=fn.args,
            body=_located(prologue, fn.body[0]) + body + _located(epilogue, fn.body[-1]),
            decorator_list=fn.decorator_list,
            returns=None,
            type_comment=None,
        )
        return ast.copy_location(new, fn)

    # ------------------------------------------------------------- statements
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, s in enumerate(stmts):
            out.extend(self.stmt(s))
            if isinstance(s, (ast.Break, ast.Continue)) or (isinstance(s, ast.Return) and self.facts.ret_flags):
                break  # what follows is unreachable
            flags = self._jump_flags(s)
            if flags and i + 1 < len(stmts):
                rest = stmts[i + 1 :]
                test: ast.expr = _name(flags[0]) if len(flags) == 1 else ast.BoolOp(ast.Or(), [_name(f) for f in flags])
                guard = ast.copy_location(ast.If(test=ast.UnaryOp(ast.Not(), test), body=rest, orelse=[]), rest[0])
                self.facts.live_after[id(guard)] = self.facts.live_after[id(stmts[-1])]
                out.extend(self.if_(guard))
                break
        return out or [ast.Pass()]

    def _jump_flags(self, s: ast.stmt) -> list[str]:
        """Flags a compound statement may set, so the statements after it must be guarded."""
        if not isinstance(s, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.AsyncWith)) and not (
            hasattr(ast, "Match") and isinstance(s, ast.Match)
        ):
            return []
        flags: list[str] = []
        if self.facts.ret_flags and any(isinstance(n, ast.Return) for n in _walk_no_scopes(s)):
            flags.append(DO_RET)
        if self.loops and not isinstance(s, (ast.For, ast.While)):
            lid = self.loops[-1]
            kinds = self._own_jumps(s)
            if "break" in kinds:
                flags.append(brk_flag(lid))
            if "continue" in kinds:
                flags.append(cont_flag(lid))
        return flags

    @staticmethod
    def _own_jumps(s: ast.stmt) -> set[str]:
        found: set[str] = set()
        todo: list[ast.AST] = [s]
        while todo:
            n = todo.pop()
            if isinstance(n, ast.Break):
                found.add("break")
            elif isinstance(n, ast.Continue):
                found.add("continue")
            for c in ast.iter_child_nodes(n):
                if not isinstance(c, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    todo.append(c)
                elif isinstance(c, (ast.For, ast.While)):
                    todo.extend(c.orelse)  # a loop's else belongs to the enclosing loop
        return found

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        if isinstance(s, ast.If):
            return self.if_(s)
        if isinstance(s, ast.While):
            return self.while_(s)
        if isinstance(s, ast.For):
            return self.for_(s)
        if isinstance(s, ast.Return):
            value = self.expr(s.value) if s.value is not None else _const(None)
            if not self.facts.ret_flags:
                return [ast.copy_location(ast.Return(value=value), s)]
            return _located([_assign(RET, value), _assign(DO_RET, _const(True))], s)
        if isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                return [s]
            flag = (brk_flag if isinstance(s, ast.Break) else cont_flag)(self.loops[-1])
            return _located([_assign(flag, _const(True))], s)
        if isinstance(s, ast.FunctionDef):
            try:
                return [_Function(s, self.counter).run()]
            except ConversionError:
                return [s]
        if isinstance(s, (ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom)):
            return [s]
        if isinstance(s, (ast.With, ast.AsyncWith, ast.Try, ast.AsyncFor)) or (
            hasattr(ast, "Match") and isinstance(s, ast.Match)
        ):
            return [self._compound(s)]
        if hasattr(ast, "TryStar") and isinstance(s, ast.TryStar):
            return [self._compound(s)]
        return [self.exprs.visit(s)]

    def _compound(self, s: ast.stmt) -> ast.stmt:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if block:
                setattr(s, field, self.block(block))
        for h in getattr(s, "handlers", ()):
            h.body = self.block(h.body)
            if h.type is not None:
                h.type = self.expr(h.type)
        for item in getattr(s, "items", ()):
            item.context_expr = self.expr(item.context_expr)
        for case in getattr(s, "cases", ()):
            case.body = self.block(case.body)
            if case.guard is not None:
                case.guard = self.expr(case.guard)
        if hasattr(s, "subject"):
            s.subject = self.expr(s.subject)
        return s

    def expr(self, e: ast.expr) -> ast.expr:
        return self.exprs.visit(e)

    # ------------------------------------------------------------- helpers
    def _decl(self, names: list[str]) -> list[ast.stmt]:
        glob = [n for n in names if n in self.globals]
        loc = [n for n in names if n not in self.globals]
        out: list[ast.stmt] = []
        if glob:
            out.append(ast.Global(names=glob))
        if loc:
            out.append(ast.Nonlocal(names=loc))
        return out

    def _get_set(self, k: int, names: list[str]) -> tuple[list[ast.stmt], ast.expr, ast.expr]:
        if not names:
            return [], _const(None), _const(None)
        get_name, set_name = f"__sporax_get_{k}__", f"__sporax_set_{k}__"
        values = ast.Tuple(elts=[_call(_ag("ld"), [_lambda(_name(n))]) for n in names], ctx=ast.Load())
        get_def = _fdef(get_name, [], [ast.Return(value=values)])
        target = ast.Tuple(elts=[_name(n, True) for n in names], ctx=ast.Store())
        set_body: list[ast.stmt] = [*self._decl(names), ast.Assign(targets=[target], value=_name(_VALS))]
        for n in names:
            is_undef = ast.Compare(left=_name(n), ops=[ast.Is()], comparators=[_ag("UNDEF")])
            delete = ast.Delete(targets=[ast.Name(id=n, ctx=ast.Del())])
            set_body.append(ast.If(test=is_undef, body=[delete], orelse=[]))
        set_def = _fdef(set_name, [_VALS], set_body)
        return [get_def, set_def], _name(get_name), _name(set_name)

    def _names_and_live(self, node: ast.stmt, bound: set[str], loop: bool) -> tuple[list[str], list[str]]:
        names = sorted(bound)
        live = set(self.facts.live_after.get(id(node), frozenset()))
        if loop:
            live |= self.facts.live_head.get(id(node), frozenset())
        # The return flags, and the break/continue flags of the loops around (or of) this statement, are
        # read afterwards; flags of loops nested inside are set again before each such loop runs.
        loops = [*self.loops, self.facts.loop_ids[id(node)]] if loop else self.loops
        flags = {DO_RET, RET} | {f for lid in loops for f in (brk_flag(lid), cont_flag(lid))}
        # Globals and nonlocals outlive the function: always live.
        return names, sorted((live & bound) | (flags & bound) | (bound & (self.globals | self.nonlocals)))

    def _loop_ctx(self) -> int | None:
        return self.loops[-1] if self.loops else None

    # ---------------------------------------------------------------- if
    def if_(self, node: ast.If) -> list[ast.stmt]:
        k = next(self.counter)
        bound = self.facts.bound(node.body + node.orelse, self._loop_ctx())
        self.facts._bound_expr(node.test, bound)
        self.bindings |= bound
        names, live = self._names_and_live(node, bound, loop=False)
        test = self.expr(node.test)
        decl = self._decl(names)
        defs: list[ast.stmt] = [_fdef(f"__sporax_if_true_{k}__", [], decl + self.block(node.body))]
        false_ref: ast.expr = _const(None)
        if node.orelse:
            defs.append(_fdef(f"__sporax_if_false_{k}__", [], decl + self.block(node.orelse)))
            false_ref = _name(f"__sporax_if_false_{k}__")
        gs_defs, get_ref, set_ref = self._get_set(k, names)
        call = _call(
            _ag("if_stmt"),
            [
                test,
                _name(f"__sporax_if_true_{k}__"),
                false_ref,
                get_ref,
                set_ref,
                _const(tuple(names)),
                _const(tuple(live)),
                _const(node.lineno),
                _const(tuple(n for n in names if n in self.globals or n in self.nonlocals)),
            ],
        )
        return _located([*defs, *gs_defs, ast.Expr(value=call)], node)

    # ------------------------------------------------------------- loops
    def _loop_common(self, node: ast.For | ast.While) -> tuple[int, int, list[str], bool, bool, bool]:
        lid = self.facts.loop_ids[id(node)]
        k = next(self.counter)
        kinds = self.facts.loops_with[lid]
        has_ret = self.facts.ret_flags and any(isinstance(n, ast.Return) for n in _walk_no_scopes(node))
        return lid, k, self.facts._loop_flags(lid), "break" in kinds, "continue" in kinds, has_ret

    def _stop_test(self, lid: int, has_brk: bool, has_ret: bool) -> list[ast.expr]:
        conds: list[ast.expr] = []
        if has_ret:
            conds.append(ast.UnaryOp(ast.Not(), _name(DO_RET)))
        if has_brk:
            conds.append(ast.UnaryOp(ast.Not(), _name(brk_flag(lid))))
        return conds

    def _loop_else(self, node: ast.For | ast.While, lid: int, has_brk: bool, has_ret: bool) -> list[ast.stmt]:
        if not node.orelse:
            return []
        flags = ([brk_flag(lid)] if has_brk else []) + ([DO_RET] if has_ret else [])
        if not flags:
            return self.block(node.orelse)
        test: ast.expr = _name(flags[0]) if len(flags) == 1 else ast.BoolOp(ast.Or(), [_name(f) for f in flags])
        guard = ast.copy_location(ast.If(test=ast.UnaryOp(ast.Not(), test), body=node.orelse, orelse=[]), node)
        self.facts.live_after[id(guard)] = self.facts.live_after[id(node)]
        return self.if_(guard)

    def while_(self, node: ast.While) -> list[ast.stmt]:
        lid, k, flags, has_brk, has_cont, has_ret = self._loop_common(node)
        bound = self.facts.bound(node.body, lid) | set(flags) | ({RET, DO_RET} if has_ret else set())
        self.facts._bound_expr(node.test, bound)
        self.bindings |= bound
        names, live = self._names_and_live(node, bound, loop=True)
        pre = [_assign(f, _const(False)) for f in flags]
        conds = self._stop_test(lid, has_brk, has_ret)
        test_expr = ast.BoolOp(ast.And(), [*conds, node.test]) if conds else node.test
        test_def = _fdef(f"__sporax_test_{k}__", [], [ast.Return(value=self.expr(test_expr))])
        self.loops.append(lid)
        body = ([_assign(cont_flag(lid), _const(False))] if has_cont else []) + self.block(node.body)
        self.loops.pop()
        body_def = _fdef(f"__sporax_body_{k}__", [], self._decl(names) + body)
        gs_defs, get_ref, set_ref = self._get_set(k, names)
        call = _call(
            _ag("while_stmt"),
            [
                _name(f"__sporax_test_{k}__"),
                _name(f"__sporax_body_{k}__"),
                get_ref,
                set_ref,
                _const(tuple(names)),
                _const(tuple(live)),
                _const(node.lineno),
                _const(tuple(n for n in names if n in self.globals or n in self.nonlocals)),
            ],
        )
        out = _located([*pre, test_def, body_def, *gs_defs, ast.Expr(value=call)], node)
        return out + self._loop_else(node, lid, has_brk, has_ret)

    def for_(self, node: ast.For) -> list[ast.stmt]:
        lid, k, flags, has_brk, has_cont, has_ret = self._loop_common(node)
        bound = self.facts.bound(node.body, lid) | set(flags) | ({RET, DO_RET} if has_ret else set())
        _target_names(node.target, bound)
        self.bindings |= bound
        names, live = self._names_and_live(node, bound, loop=True)
        pre = [_assign(f, _const(False)) for f in flags]
        it = node.iter
        if (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id == "range"
            and not it.keywords
            and not any(isinstance(a, ast.Starred) for a in it.args)
        ):
            iter_expr: ast.expr = _call(_ag("range_"), [_name("range"), *(self.expr(a) for a in it.args)])
        else:
            iter_expr = self.expr(it)
        conds = self._stop_test(lid, has_brk, has_ret)
        test_ref: ast.expr = _const(None)
        defs: list[ast.stmt] = []
        if conds:
            test_expr = conds[0] if len(conds) == 1 else ast.BoolOp(ast.And(), conds)
            defs.append(_fdef(f"__sporax_test_{k}__", [], [ast.Return(value=self.expr(test_expr))]))
            test_ref = _name(f"__sporax_test_{k}__")
        self.loops.append(lid)
        target = ast.copy_location(ast.Assign(targets=[node.target], value=_name(_IT)), node.target)
        body = [target] + ([_assign(cont_flag(lid), _const(False))] if has_cont else []) + self.block(node.body)
        self.loops.pop()
        defs.append(_fdef(f"__sporax_body_{k}__", [_IT], self._decl(names) + body))
        gs_defs, get_ref, set_ref = self._get_set(k, names)
        call = _call(
            _ag("for_stmt"),
            [
                iter_expr,
                _name(f"__sporax_body_{k}__"),
                test_ref,
                get_ref,
                set_ref,
                _const(tuple(names)),
                _const(tuple(live)),
                _const(node.lineno),
                _const(tuple(n for n in names if n in self.globals or n in self.nonlocals)),
            ],
        )
        out = _located([*pre, *defs, *gs_defs, ast.Expr(value=call)], node)
        return out + self._loop_else(node, lid, has_brk, has_ret)


def convert_function(fn: ast.FunctionDef) -> ast.FunctionDef:
    """The converted copy of ``fn`` (a parsed ``def``); raises ConversionError if it cannot be."""
    return _Function(fn, itertools.count()).run()
