"""``map`` and ``filter``: operations applied to each row, to a whole block at once where they are
vectorised, row by row otherwise, on ``num_parallel_workers`` threads (or processes,
``python_multiprocessing=True``); results are taken back in order, so the output is the same whatever
the number of workers."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_column_names, check_map_operations, check_pipeline_type
from . import _random
from ._block import Block, RowStack, gather, item, to_np
from ._exec import ordered_map
from .datasets import Dataset, _is_builtin_op, _op_name, output_layout
from .errors import pipeline_error, wrap_user_call

# ====================================================================== map
__all__ = ["MapDataset", "FilterDataset"]


class _MapStep:
    """One ``map``: its operations and where its inputs come from and its outputs go."""

    def __init__(self, ops, in_idx, layout, n_out, out_names) -> None:
        self.ops = ops
        self.in_idx = in_idx
        self.layout = layout
        self.n_out = n_out
        self.out_names = out_names
        self.random = any(
            getattr(op, "_random", False) or (not _is_builtin_op(op) and getattr(op, "random", True)) for op in ops
        )

    def apply(self, cols: list, n: int) -> list:
        cur = [cols[i] for i in self.in_idx]
        ops, k = self.ops, 0
        while k < len(ops):
            out = _apply_batch(ops[k], cur)
            if out is not None:
                cur, k = out, k + 1
                continue
            # the rest of the operations row by row: each row goes through all of them before the next row
            # (its data stays in the cache, and no block-sized array is made between two operations)
            cur, k = _apply_rows(ops[k:], cur, n), len(ops)
        if len(cur) != self.n_out:
            raise pipeline_error(
                "Invalid columns, the number of columns returned in 'map' operations should match the number of "
                f"'output_columns', but got the number of columns returned in 'map' operations: {len(cur)}, "
                f"the number of 'output_columns': {self.n_out}."
            )
        return [cols[j] if kind == 0 else cur[j] for kind, j in self.layout]


def _apply_batch(op, cols: list) -> list | None:
    """A built-in operation applied to a whole stacked column at once, or ``None`` where it is not vectorised."""
    if _is_builtin_op(op) and len(cols) == 1 and isinstance(cols[0], np.ndarray):
        out = op._apply_batch(cols[0])
        if out is not NotImplemented:
            return [out]
    return None


def _call(op, args: list) -> tuple:
    try:
        r = op(*args)
    except Exception as e:
        if _is_builtin_op(op):
            raise pipeline_error(f"map operation: [{type(op).__name__}] failed. {e}") from e
        raise wrap_user_call(e, "map operation: [PyFunc] failed.") from None
    return r if isinstance(r, tuple) else (r,)


def _run_ops(ops: list, vals: list, width: list, first: int) -> list:
    """``ops`` one after the other on one row's ``vals``; ``width[first + j]``: the columns ``ops[j]`` returns."""
    for j, op in enumerate(ops, first):
        r = _call(op, vals)
        if width[j] is None:
            width[j] = len(r)
        elif len(r) != width[j]:
            raise pipeline_error(
                f"map operation: [{_op_name(op)}] returned {len(r)} columns for one row and {width[j]} for another."
            )
        vals = [to_np(v) for v in r]
    return vals


def _fused_tail(ops: list):
    """A kernel ``(value, out) -> array | None`` doing the last two operations in one pass (a built-in one
    offers it for the one after it: ``Normalize`` then ``HWC2CHW``), writing into ``out`` where it can;
    ``None`` where there is none."""
    if len(ops) < 2 or not _is_builtin_op(ops[-2]) or not _is_builtin_op(ops[-1]):
        return None
    then = getattr(ops[-2], "_then", None)
    return then(ops[-1]) if then is not None else None


def _apply_rows(ops: list, cols: list, n: int) -> list:
    """``ops`` one after the other on each row of ``cols`` (``n`` rows); the outputs, stacked where they can be."""
    if n == 0:
        return [[] for _ in cols]
    width: list = [None] * len(ops)  # the number of columns each operation returns
    outs: list[RowStack] | None = None
    fused = _fused_tail(ops)
    body = ops[:-2] if fused is not None else ops
    for i in range(n):
        vals = _run_ops(body, [item(c, i) for c in cols], width, 0)
        if fused is not None:
            dst = outs[0].slot() if outs is not None and len(outs) == 1 else None
            try:
                y = fused(vals[0], dst) if len(vals) == 1 else None
            except Exception:  # noqa: BLE001  (the two operations run as they are and say what is wrong)
                y = None
            if y is None:
                vals = _run_ops(ops[-2:], vals, width, len(body))
            elif y is dst:
                outs[0].filled()  # type: ignore[index]  # dst is only set once outs exist
                continue
            else:
                vals = [y]
        if outs is None:
            outs = [RowStack(n) for _ in vals]
        for o, v in zip(outs, vals):
            o.add(v)
    assert outs is not None  # n > 0: the first row made them
    return [o.done() for o in outs]


class MapDataset(Dataset):
    """The result of :meth:`Dataset.map`."""

    def __init__(
        self,
        child,
        operations,
        input_columns,
        output_columns,
        column_order,
        num_parallel_workers,
        python_multiprocessing,
    ) -> None:
        super().__init__([child], num_parallel_workers)
        self.python_multiprocessing = check_pipeline_type(python_multiprocessing, bool, "python_multiprocessing")
        self.input_columns = check_column_names(input_columns, "input_columns")
        self.output_columns = check_column_names(output_columns, "output_columns")
        self.column_order = check_column_names(column_order, "column_order")
        self.operations = check_map_operations(operations)

    def _step(self) -> tuple[_MapStep, list[str]]:
        cols = self.children[0]._columns()
        ins = self.input_columns or cols[:1]
        outs = self.output_columns or ins
        names, layout = output_layout(cols, ins, outs)
        in_idx = [cols.index(c) for c in ins]
        if len(set(names)) != len(names):
            raise pipeline_error(f"Invalid parameter, duplicate column names after map: {names}.")
        step = _MapStep(self.operations, in_idx, layout, len(outs), names)
        if self.column_order is not None:
            for c in self.column_order:
                if c not in names:
                    raise pipeline_error(f"Invalid column, column name: {c} does not exist.")
            order = [names.index(c) for c in self.column_order]
            step.layout = [step.layout[i] for i in order]
            names = list(self.column_order)
        return step, names

    def _columns(self):
        return self._step()[1]

    def _fusable_child(self):
        c = self.children[0]
        if (
            isinstance(c, MapDataset)
            and c.python_multiprocessing == self.python_multiprocessing
            and not getattr(c, "_ds_callbacks", None)
        ):
            return c
        return None

    def _iter(self, ctx, key):
        # fuse a chain of maps into one stage: one pass over each block, one hand-off between threads
        chain, node, nkey = [], self, key
        while True:
            chain.append((node._step()[0], nkey))
            nxt = node._fusable_child()
            if nxt is None:
                break
            node, nkey = nxt, nkey + (0,)
        chain.reverse()
        workers = max(n._workers() for n in self._fused_nodes())
        processes = self.python_multiprocessing and workers > 1
        seed = ctx.seed

        def run(arg) -> Block:
            path, block = arg
            cols = block.cols
            for step, skey in chain:
                if step.random:
                    with _random.use(_random.make(seed, *path, *skey, block.start, 7)):
                        cols = step.apply(cols, block.n)
                else:
                    cols = step.apply(cols, block.n)
            return Block(cols, block.n, block.start)

        # ds.config: the debug mode's hooks and the error samples mode (mend: the failed rows dropped or replaced)
        from ._error_samples import map_hooks

        run, workers, processes, mend = map_hooks(chain, run, workers, processes)

        def make_source(c):
            return node.children[0]._iter(c, nkey + (0,))

        # with several workers the pool and the reading of its input run on into the next epoch (Run)
        out = None
        if ctx.run is not None and (workers > 1 or processes):
            out = ctx.run.stream((id(self), key), ctx, make_source, run, workers, processes)
        source = None
        if out is None:
            source = make_source(ctx)
            path = ctx.path
            out = ordered_map(((path, b) for b in source), run, workers, ctx, processes=processes)
        out = mend(out)
        cbs = getattr(self, "_ds_callbacks", None)
        if cbs:
            from ._callbacks import CallbackRunner

            if getattr(self, "_cb_runner", None) is None:
                self._cb_runner = CallbackRunner(cbs)
            out = self._cb_runner.run(out, ctx.path[0] if ctx.path else 0)
        try:
            yield from out
        finally:
            out.close()
            if source is not None:
                source.close()

    def _fused_nodes(self):
        node = self
        while node is not None:
            yield node
            node = node._fusable_child()


class FilterDataset(Dataset):
    """The result of :meth:`Dataset.filter`."""

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None) -> None:
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError("Predicate should be a Python function or a callable Python object.")
        self.predicate = predicate
        self.input_columns = check_column_names(input_columns, "input_columns")

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.input_columns or []:
            if c not in cols:
                raise pipeline_error(
                    f"Invalid parameter, input column name: {c} doesn't exist in the dataset columns {cols}."
                )
        return cols

    def _size(self):
        return None

    def _iter(self, ctx, key):
        cols = self._columns()
        idx = [cols.index(c) for c in self.input_columns] if self.input_columns else list(range(len(cols)))
        child = self.children[0]._iter(ctx, key + (0,))

        def run(blk: Block):
            keep = []
            for i in range(blk.n):
                try:
                    ok = self.predicate(*[item(blk.cols[j], i) for j in idx])
                except Exception as e:
                    raise wrap_user_call(e, "filter operation: [predicate] failed.") from None
                if bool(np.asarray(ok)):
                    keep.append(i)
            if len(keep) == blk.n:
                return blk
            return Block([gather(c, keep) for c in blk.cols], len(keep), blk.start)

        start = 0
        try:
            for blk in ordered_map(child, run, self._workers(), ctx):
                if blk.n:
                    yield Block(blk.cols, blk.n, start)
                    start += blk.n
        finally:
            child.close()
