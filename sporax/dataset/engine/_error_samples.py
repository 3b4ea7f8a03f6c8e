"""What ``ds.config`` changes in a ``map``: the error samples mode and the debug mode's hooks.

``MapDataset`` hands its block function to :func:`map_hooks` and its ordered output to the ``mend`` it returns:

- ``ErrorSamplesMode.RETURN`` (the default): the map runs as it is, and the first failing row raises.
- ``SKIP`` / ``REPLACE``: a block whose map fails is run again row by row in its worker (thread or process), to
  find the failing rows; each one logs MindSpore's warning and is dropped (``SKIP``) or replaced with one of the
  first healthy rows of this map (``REPLACE``: the first :data:`REPLACE_CACHE_ROWS` healthy rows are kept and
  handed out in turn, in place of the failed row; the failed rows of a block that came before any healthy row
  are replaced at the end of the epoch, and if no row is healthy, the pipeline raises MindSpore's ``All data is
  garbage and cannot be replaced.``). MindSpore places its replacements a few rows later (where its C++ workers
  happen to be); the rows given are the same.
- debug mode (``ds.config.set_debug_mode(True)``): the map runs in the calling thread, one row after the
  other, with a copy of each debug hook before its first operation and after each operation; errors raise.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterator

from ..core import config
from ._block import Block, concat, gather, maybe_stack
from .datasets import _is_builtin_op, debug_serial
from .errors import WorkerFailure, pipeline_error

__all__ = ["map_hooks", "with_debug_hooks", "REPLACE_CACHE_ROWS"]

REPLACE_CACHE_ROWS = 16
_log = logging.getLogger("sporax")


def map_hooks(chain: list, run: Callable, workers: int, processes: bool):
    """What ``ds.config`` changes in a ``MapDataset``'s stage: its fused ``chain`` of ``(step, key)``, its block
    function ``run`` (of a Block, or of a tuple ending with the Block), its ``workers`` and ``processes`` ->
    ``(run, workers, processes, mend)``; ``mend(out)`` takes the stage's ordered output."""
    if debug_serial(processes, "map operation"):
        for step, _ in chain:
            step.ops = with_debug_hooks(step.ops)
        return run, 1, False, _same
    mode = config.get_error_samples_mode()
    if mode == config.ErrorSamplesMode.RETURN:
        return run, workers, processes, _same
    replace = mode == config.ErrorSamplesMode.REPLACE
    return _RowGuard(run), workers, processes, lambda out: _mend(out, replace)


def _same(out):
    return out


# ---------------------------------------------------------------------- error samples
def _error_text(e: BaseException) -> str:
    if isinstance(e, WorkerFailure):
        return f"{e.where} Error description:\n{e.stack}".strip()
    text = str(e)
    return text.split("[ERROR] ", 1)[1].strip() if "[ERROR] " in text else text


class _Mended:
    """A block some rows of which failed: ``parts`` holds, in row order, a Block of good rows or ``None`` for a
    failed row; ``errors`` the failed rows' messages."""

    __slots__ = ("parts", "errors", "start")

    def __init__(self, parts: list, errors: list, start: int) -> None:
        self.parts = parts
        self.errors = errors
        self.start = start


class _RowGuard:
    """``run`` on a block; if it fails, ``run`` on each row of it alone, keeping the rows that work."""

    def __init__(self, run: Callable) -> None:
        self.run = run

    def __call__(self, arg):
        try:
            return self.run(arg)
        except Exception as e:  # noqa: BLE001  (found again row by row below)
            block = arg[-1] if isinstance(arg, tuple) else arg
            if block.n == 1:
                return _Mended([None], [_error_text(e)], block.start)
        parts: list = []
        errors: list = []
        for i in range(block.n):
            one = Block([gather(c, [i]) for c in block.cols], 1, block.start + i)
            try:
                parts.append(self.run((*arg[:-1], one) if isinstance(arg, tuple) else one))
            except Exception as e:  # noqa: BLE001  (the error samples mode decides)
                parts.append(None)
                errors.append(_error_text(e))
        return _Mended(parts, errors, block.start)


def _rows_of(block: Block) -> list:
    return [block.row(i) for i in range(block.n)]


def _join(parts: list[Block]) -> Block:
    """Blocks of consecutive rows -> one block."""
    if len(parts) == 1:
        return parts[0]
    ncol = len(parts[0].cols)
    return Block([concat([p.cols[j] for p in parts]) for j in range(ncol)], sum(p.n for p in parts))


def _row_block(row: list) -> Block:
    return Block([maybe_stack([v]) for v in row], 1)


def _copy_row(row: list) -> list:
    return [copy.deepcopy(v) for v in row]


def _mend(out: Iterator, replace: bool) -> Iterator[Block]:
    """The map's output with its failed rows dropped or replaced, renumbered from 0."""
    try:
        yield from _mended(out, replace)
    finally:
        close = getattr(out, "close", None)
        if close is not None:
            close()


def _mended(out: Iterator, replace: bool) -> Iterator[Block]:
    cache: list = []
    used = 0
    deferred = 0
    start = 0
    verb = "replace with a healthy sample" if replace else "skip this sample"
    for res in out:
        if isinstance(res, Block):
            parts = [res]
        else:
            for msg in res.errors:
                _log.warning(f"Detected an erroneous sample in MindData Map operation, and will {verb}: {msg}")
            parts = []
            for p in res.parts:
                if p is not None:
                    parts.append(p)
                elif replace and cache:
                    parts.append(_row_block(cache[used % len(cache)]))
                    used += 1
                elif replace:
                    deferred += 1
            parts = [p for p in parts if p.n]
            if not parts:
                continue
        if replace and len(cache) < REPLACE_CACHE_ROWS:
            for p in parts:
                for row in _rows_of(p)[: REPLACE_CACHE_ROWS - len(cache)]:
                    cache.append(_copy_row(row))
        blk = _join(parts)
        yield Block(blk.cols, blk.n, start)
        start += blk.n
    if deferred:
        if not cache:
            raise pipeline_error("All data is garbage and cannot be replaced.")
        rows = []
        for _ in range(deferred):
            rows.append(_row_block(cache[used % len(cache)]))
            used += 1
        blk = _join(rows)
        yield Block(blk.cols, blk.n, start)


# ---------------------------------------------------------------------- debug hooks
def _op_name(op) -> str:
    if _is_builtin_op(op):
        return type(op).__name__
    return getattr(op, "__name__", None) or type(op).__name__


def _hooks(prev_op_name: str, is_first: bool) -> list:
    out = []
    for h in config._get_debug_hook_list():
        h = copy.deepcopy(h)  # each place gets its own hook (its own state)
        h.set_previous_op_name(prev_op_name)
        h.set_is_first(is_first)
        out.append(h)
    return out


def with_debug_hooks(ops: list) -> list:
    """``ops`` with the debug hooks before the first and after each operation (hooks the user put in the list
    run as the Python operations they are)."""
    out: list = _hooks(_op_name(ops[0]), True) if ops else []
    for op in ops:
        out.append(op)
        out.extend(_hooks(_op_name(op), False))
    return out
