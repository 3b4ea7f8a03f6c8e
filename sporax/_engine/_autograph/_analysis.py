"""Static facts about one function's AST that the rewrite needs.

* which names a block of statements binds (they become the outputs of a converted ``if`` or the carry
  of a converted loop), including the flags the rewrite introduces for ``return``/``break``/``continue``;
* which names are live after each statement (a name assigned in one branch only is an error only if it
  is used afterwards; a loop carries only the names read later);
* whether a block always returns.

The analyses are conservative: a name may be reported live when it is not, never the reverse.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

RET = "__sporax_ret__"
DO_RET = "__sporax_do_ret__"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPOUND = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith, ast.Match, ast.TryStar)


# Methods that change a list, dict or set in place: the object counts as assigned.
_MUTATORS = frozenset(
    ("append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem", "add", "discard")
)


def brk_flag(loop_id: int) -> str:
    return f"__sporax_brk_{loop_id}__"


def cont_flag(loop_id: int) -> str:
    return f"__sporax_cont_{loop_id}__"


def iter_stmts(stmt: ast.stmt) -> Iterable[list[ast.stmt]]:
    """The statement blocks directly inside a compound statement."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for h in getattr(stmt, "handlers", ()):
        yield h.body
    for c in getattr(stmt, "cases", ()):
        yield c.body


def _target_names(node: ast.AST, out: set[str]) -> None:
    if isinstance(node, ast.Name):
        out.add(node.id)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            _target_names(e, out)
    elif isinstance(node, ast.Starred):
        _target_names(node.value, out)


def _walk_no_scopes(node: ast.AST) -> Iterable[ast.AST]:
    """ast.walk that does not enter nested function, class or lambda bodies."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if isinstance(child, _SCOPES):
                yield child  # its name (and defaults/decorators, evaluated here) but not its body
                if not isinstance(child, ast.Lambda):
                    todo.extend(child.decorator_list)
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    todo.extend(child.args.defaults)
                    todo.extend(d for d in child.args.kw_defaults if d is not None)
                continue
            todo.append(child)


class Facts:
    """Loop ids, return-flag use, bound names and liveness for one function body."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.fn = fn
        self.loop_ids: dict[int, int] = {}
        self.loops_with: dict[int, set[str]] = {}  # loop id -> {"break", "continue"}
        self.live_after: dict[int, frozenset[str]] = {}
        self.live_head: dict[int, frozenset[str]] = {}
        args = fn.args
        self.locals = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
        for n in _walk_no_scopes(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.locals.add(n.id)
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                self.locals.difference_update(n.names)
        self._number_loops(fn.body, None)
        self.ret_flags = any(self._nested_return(s) for s in fn.body)
        self.closure_loads = self._closure_loads(fn)
        self._block(fn.body, frozenset())

    # ------------------------------------------------------------------ loops
    def _number_loops(self, stmts: list[ast.stmt], loop: int | None) -> None:
        for s in stmts:
            if isinstance(s, (ast.For, ast.While)):
                lid = len(self.loop_ids)
                self.loop_ids[id(s)] = lid
                self.loops_with[lid] = set()
                self._number_loops(s.body, lid)
                self._number_loops(s.orelse, loop)
            elif isinstance(s, (ast.Break, ast.Continue)):
                if loop is not None:
                    self.loops_with[loop].add("break" if isinstance(s, ast.Break) else "continue")
            elif isinstance(s, _COMPOUND):
                for block in iter_stmts(s):
                    self._number_loops(block, loop)

    def _nested_return(self, s: ast.stmt) -> bool:
        """A return inside an if/for/while (the rewrite moves those bodies into functions)."""
        if isinstance(s, (ast.If, ast.For, ast.While)):
            return any(isinstance(n, ast.Return) for n in _walk_no_scopes(s))
        if isinstance(s, _COMPOUND):
            return any(self._nested_return(c) for block in iter_stmts(s) for c in block)
        return False

    # ------------------------------------------------------------- bound names
    def bound(self, stmts: list[ast.stmt], loop: int | None) -> set[str]:
        """Names the statements bind, plus the rewrite's flags they set (``loop``: innermost loop id)."""
        out: set[str] = set()
        for s in stmts:
            self._bound_stmt(s, loop, out)
        return out

    def _bound_stmt(self, s: ast.stmt, loop: int | None, out: set[str]) -> None:
        if isinstance(s, ast.Return):
            if self.ret_flags:
                out.update((RET, DO_RET))
            return
        if isinstance(s, ast.Break) and loop is not None:
            out.add(brk_flag(loop))
            return
        if isinstance(s, ast.Continue) and loop is not None:
            out.add(cont_flag(loop))
            return
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(s.name)
            return
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                out.add((a.asname or a.name).split(".")[0])
            return
        if isinstance(s, (ast.For, ast.While)):
            lid = self.loop_ids[id(s)]
            if isinstance(s, ast.For):
                _target_names(s.target, out)
            self._bound_expr(s.test if isinstance(s, ast.While) else s.iter, out)
            for c in s.body:
                self._bound_stmt(c, lid, out)
            for c in s.orelse:
                self._bound_stmt(c, loop, out)
            if self.loops_with[lid]:
                out.update(self._loop_flags(lid))
            return
        if isinstance(s, _COMPOUND):
            for n in ast.iter_child_nodes(s):
                if isinstance(n, ast.expr):
                    self._bound_expr(n, out)
                elif isinstance(n, ast.withitem) and n.optional_vars is not None:
                    _target_names(n.optional_vars, out)
                elif isinstance(n, ast.ExceptHandler) and n.name:
                    out.add(n.name)
            for block in iter_stmts(s):
                for c in block:
                    self._bound_stmt(c, loop, out)
            return
        for n in _walk_no_scopes(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)):
                base = n.value
                while isinstance(base, ast.Subscript):
                    base = base.value
                if isinstance(base, ast.Name) and base.id in self.locals:  # x[i] = v updates x in place
                    out.add(base.id)
            elif (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr in _MUTATORS
                and isinstance(n.func.value, ast.Name)
                and n.func.value.id in self.locals
            ):
                out.add(n.func.value.id)  # xs.append(v) changes the list xs
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not s:
                out.add(n.name)

    @staticmethod
    def _bound_expr(e: ast.AST, out: set[str]) -> None:
        for n in _walk_no_scopes(e):
            if isinstance(n, ast.NamedExpr):
                out.add(n.target.id)

    def _loop_flags(self, lid: int) -> list[str]:
        kinds = self.loops_with[lid]
        return ([brk_flag(lid)] if "break" in kinds else []) + ([cont_flag(lid)] if "continue" in kinds else [])

    # --------------------------------------------------------------- liveness
    @staticmethod
    def _closure_loads(fn: ast.FunctionDef) -> frozenset[str]:
        """Names read inside nested functions and lambdas: they may be read at any later time."""
        names: set[str] = set()
        for node in ast.walk(fn):
            if node is fn or not isinstance(node, _SCOPES):
                continue
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    names.add(n.id)
        return frozenset(names)

    @staticmethod
    def _loads(node: ast.AST | None) -> set[str]:
        if node is None:
            return set()
        out = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
        return out

    def _block(self, stmts: list[ast.stmt], out: frozenset[str]) -> frozenset[str]:
        live = out
        for s in reversed(stmts):
            self.live_after[id(s)] = live | self.closure_loads
            live = frozenset(self._stmt(s, live))
        return live

    def _stmt(self, s: ast.stmt, out: frozenset[str]) -> set[str]:
        loads = self._loads
        if isinstance(s, ast.If):
            return loads(s.test) | self._block(s.body, out) | self._block(s.orelse, out)
        if isinstance(s, (ast.While, ast.For)):
            head_gen = loads(s.test) if isinstance(s, ast.While) else set()
            kill: set[str] = set()
            if isinstance(s, ast.For):
                _target_names(s.target, kill)
                head_gen |= loads(s.target) if not isinstance(s.target, ast.Name) else set()
            else_in = self._block(s.orelse, out)
            head = frozenset(head_gen | out | else_in)
            for _ in range(8):
                body_in = self._block(s.body, head | out) - kill
                new = frozenset(head_gen | body_in | out | else_in)
                if new == head:
                    break
                head = new
            self.live_head[id(s)] = head | self.closure_loads
            return set(head) | (loads(s.iter) if isinstance(s, ast.For) else set())
        if isinstance(s, ast.Return):
            return loads(s.value)
        if isinstance(s, (ast.Break, ast.Continue)):
            return set(out)
        if isinstance(s, ast.Try) or (hasattr(ast, "TryStar") and isinstance(s, ast.TryStar)):
            fin_in = self._block(s.finalbody, out)
            h_in: set[str] = set()
            for h in s.handlers:
                h_in |= self._block(h.body, fin_in) | loads(h.type)
            else_in = self._block(s.orelse, fin_in)
            body_in = self._block(s.body, frozenset(else_in | h_in | fin_in))
            return set(body_in | h_in | fin_in | out)
        if isinstance(s, (ast.With, ast.AsyncWith)):
            body_in = self._block(s.body, out)
            return set(body_in | out) | set().union(*(loads(i.context_expr) for i in s.items))
        if isinstance(s, _COMPOUND):  # match, async for: conservative
            ins = set(out) | loads(s)
            for block in iter_stmts(s):
                ins |= self._block(block, out)
            return ins
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            gen: set[str] = set()
            for d in s.decorator_list:
                gen |= loads(d)
            if not isinstance(s, ast.ClassDef):
                for default in [*s.args.defaults, *s.args.kw_defaults]:  # a kw_default is None where none is given
                    gen |= loads(default)
            else:
                for b in [*s.bases, *s.keywords]:
                    gen |= loads(b)
            return (set(out) - {s.name}) | gen
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            kill = set()
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            gen = loads(s.value)
            for t in targets:
                _target_names(t, kill)
                gen |= loads(t)
            if isinstance(s, ast.AnnAssign) and s.value is None:
                kill = set()
            return (set(out) - kill) | gen
        if isinstance(s, ast.AugAssign):
            gen = loads(s.value) | loads(s.target)
            if isinstance(s.target, ast.Name):
                gen.add(s.target.id)
            return set(out) | gen
        if isinstance(s, ast.Delete):
            kill = set()
            for t in s.targets:
                _target_names(t, kill)
            return (set(out) - kill) | loads(s)
        return set(out) | loads(s)


def always_returns(stmts: list[ast.stmt]) -> bool:
    """Every path through the block ends in a ``return`` (or a ``raise``)."""
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Raise)):
            return True
        if isinstance(s, ast.If) and always_returns(s.body) and always_returns(s.orelse):
            return True
        if isinstance(s, (ast.With, ast.AsyncWith)) and always_returns(s.body):
            return True
    return False
