"""Sink execution: ``sink_size`` training steps per host call (DESIGN §4).

A sink takes the next ``sink_size`` batches of a dataset (continuing across dataset epochs, as MindSpore's
device queue does) and runs the step on each. Two strategies, with the same numbers:

* ``"scan"`` (the default, every backend): the batches are stacked on the host (in a feeder thread, while
  the previous sink runs) and the step runs inside :func:`sporax._engine.scan_steps`, one compiled program:
  one host call per sink. A sink whose stacked data would exceed ``SINK_CHUNK_BYTES`` (256 MiB) runs as a
  few such calls of equal-shaped chunks, and a change of batch shape (a smaller last batch) starts a new
  chunk.
* ``"loop"``: the compiled single step runs once per batch from a Python loop, the batches prefetched and
  already on the device (about 0.05 ms of host work per step).

Measured on XLA:CPU (``bench/bench_lenet_epoch.py --scan-check``, LeNet5 batch 32, one core): with the CPU
convolutions lowered to im2col + GEMM, the step inside the scan takes 2.7 ms against 3.0 ms as its own
program (0.90 in every measurement), so ``"scan"`` is the faster. With ``lax.conv`` it was 28.8 against 12.9 ms: XLA:CPU lowers
convolutions inside a while loop as naive loop nests (DESIGN §5); convolutions too large for the GEMM
lowering are canonical NHWC/HWIO convolutions, which keep the fast kernels inside loops too.
``SPORAX_SINK_STRATEGY=loop`` (or ``scan``) forces a strategy. A step that cannot be compiled (control
flow on a tensor's value) runs with ``"loop"``, eagerly, as ``jit`` falls back.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import Any

import numpy as np

from .._checkparam import check_dataset_columns
from .._engine import _spmd, is_trace_error, scan_steps
from ..common._compile import call_name, compile_call
from ..common.tensor import Tensor
from ..nn.cell import Cell

_log = logging.getLogger("sporax")

SINK_CHUNK_BYTES = 256 * 1024 * 1024
_END = object()


# ---------------------------------------------------------------- the data
class BatchStream:
    """The rows of ``dataset`` one after another across its epochs, from row ``start`` (a global position:
    ``start = k * dataset_size + r`` is row ``r`` of epoch ``k``, with that epoch's shuffle).

    Args:
        dataset: a ``sporax.dataset`` Dataset.
        num_epochs: dataset epochs to read in all, counted from epoch 0 (-1: no end).
        start: the first row.
        output_numpy: rows of NumPy arrays instead of Tensors.
    """

    def __init__(self, dataset: Any, num_epochs: int = -1, start: int = 0, output_numpy: bool = False) -> None:
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.start = start
        self.output_numpy = output_numpy
        self._it: Any = None

    def _open(self) -> None:
        size = self.dataset.get_dataset_size()
        it = self.dataset.create_tuple_iterator(num_epochs=self.num_epochs, output_numpy=self.output_numpy)
        epoch, skip = divmod(self.start, size) if size else (0, 0)
        # Start at that epoch: each epoch's order depends only on (seed, epoch), so a resumed run reads
        # what the uninterrupted one read.
        it.start_at_epoch(epoch)
        self._it = it
        for _ in range(skip):
            if self._next_row() is None:
                break

    def _next_row(self) -> list | None:
        empty = 0
        while True:
            try:
                return next(self._it)
            except StopIteration:
                empty += 1
                if empty > 1 or (self.num_epochs != -1 and self._it.epoch >= self.num_epochs):
                    return None

    def next(self) -> list | None:
        """The next row, or None at the end of the data."""
        if self._it is None:
            self._open()
        return self._next_row()

    def close(self) -> None:
        if self._it is not None:
            self._it.stop()
            self._it = None


def _row_key(row: list) -> tuple:
    return tuple((np.shape(x), np.asarray(x).dtype) for x in row)


class _Feeder:
    """Stacks the rows of each sink into chunks of at most ``max_steps`` equal-shaped rows, as Tensors, in a
    thread, one chunk ahead of the consumer. Chunks never straddle two sinks."""

    def __init__(self, stream: BatchStream | _Prepend, sink_size: int, max_steps: int) -> None:
        self._stream = stream
        self._sink_size = sink_size
        self._max = max(1, max_steps)
        self._q: queue.Queue = queue.Queue(maxsize=1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._work, name="sporax-sink-feeder", daemon=True)
        self._thread.start()

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._q.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _work(self) -> None:
        pending = None
        try:
            while not self._stop.is_set():
                remaining = self._sink_size
                while remaining:
                    rows: list[list] = []
                    key = None
                    while len(rows) < min(remaining, self._max):
                        row = pending if pending is not None else self._stream.next()
                        pending = None
                        if row is None:
                            if rows:
                                self._put((len(rows), _stack(rows)))
                            self._put(_END)
                            return
                        k = _row_key(row)
                        if rows and k != key:
                            pending = row
                            break
                        key = k
                        rows.append(row)
                    if not self._put((len(rows), _stack(rows))):
                        return
                    remaining -= len(rows)
        except BaseException as err:  # noqa: BLE001  (handed to the consumer)
            self._put(err)

    def get(self) -> tuple[int, list[Tensor]] | None:
        item = self._q.get()
        if item is _END:
            self._q.put(_END)
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)  # it waits at most for the batch being read
        self._stream.close()


def _stack(rows: list[list]) -> list[Tensor]:
    return [Tensor(np.stack(col)) for col in zip(*rows)]


# ------------------------------------------------------------- the strategy
def choose_strategy(obj: Any = None) -> str:
    """``"scan"`` or ``"loop"`` for the step ``obj`` (see the module doc): ``SPORAX_SINK_STRATEGY`` if set,
    else ``"scan"``."""
    forced = os.environ.get("SPORAX_SINK_STRATEGY", "").strip().lower()
    if forced in ("scan", "loop"):
        return forced
    return "scan"


def _last(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out[-1]
    if isinstance(out, (tuple, list)):
        return type(out)(_last(o) for o in out)
    if isinstance(out, dict):
        return {k: _last(v) for k, v in out.items()}
    return out


def _row_bytes(row: list) -> int:
    return sum(int(np.asarray(x).nbytes) for x in row) or 1


class SinkRunner:
    """Runs ``sink_size`` steps of ``fn`` on the batches of ``stream`` per :meth:`run`; returns the last step's
    outputs."""

    def __init__(self, fn: Any, stream: BatchStream, sink_size: int, strategy: str | None = None) -> None:
        self.fn = fn
        self.stream = stream
        self.sink_size = sink_size
        self.strategy = strategy or choose_strategy(fn)
        name = self._name = call_name(fn)
        # A sink was asked for: a step that cannot be compiled runs eagerly with a warning (common/_compile.py)
        self._step = compile_call(self._call, name, asked=True)
        self._scan = compile_call(self._scan_call, f"{name} (sink)", asked=True, fallback="raise")
        self._feeder: _Feeder | None = None
        self._checked = False
        self.steps_done = 0

    def _call(self, *row: Any) -> Any:
        return self.fn(*row)

    def _scan_call(self, *stacked: Any) -> Any:
        return _last(scan_steps(lambda row: self.fn(*row), tuple(stacked)))

    def _first_row_fits(self, row: list) -> None:
        if not self._checked:
            if isinstance(self.fn, Cell):
                check_dataset_columns(self.fn, len(row), self.stream.dataset.get_col_names(), Cell)
            self._checked = True

    def _out_of_data(self) -> RuntimeError:
        return RuntimeError(
            f"The dataset ran out of data after {self.steps_done} sink steps: a sink needs {self.sink_size} batches. "
            "Give the dataset more epochs (repeat) or use a smaller 'sink_size'."
        )

    def run(self) -> Any:
        """One sink: ``sink_size`` steps."""
        if self.strategy == "loop":
            return self._run_loop()
        return self._run_scan()

    def _run_loop(self) -> Any:
        out = None
        for _ in range(self.sink_size):
            row = self.stream.next()
            if row is None:
                raise self._out_of_data()
            self._first_row_fits(row)
            out = self._step(*row)
            self.steps_done += 1
        return out

    def _run_scan(self) -> Any:
        if self._feeder is None:
            self.stream.output_numpy = True
            first = self.stream.next()
            if first is None:
                raise self._out_of_data()
            self._first_row_fits(first)
            max_steps = max(1, SINK_CHUNK_BYTES // _row_bytes(first))
            self._feeder = _Feeder(_Prepend(first, self.stream), self.sink_size, max_steps)
        done, out = 0, None
        while done < self.sink_size:
            got = self._feeder.get()
            if got is None:
                raise self._out_of_data()
            n, stacked = got
            if self.strategy == "scan":
                try:
                    with _spmd.stacked_inputs():  # semi-auto parallel: the batch is axis 1 of stacked data
                        out = self._scan(*stacked)
                except Exception as err:
                    if not is_trace_error(err):
                        raise
                    _log.info(
                        "sink: '%s' cannot run inside a compiled loop (%s); running it step by step.",
                        self._name,
                        type(err).__name__,
                    )
                    self.strategy = "scan-fallback"
            if self.strategy != "scan":
                for i in range(n):
                    out = self._step(*[x[i] for x in stacked])
            done += n
            self.steps_done += n
        return out

    def close(self) -> None:
        if self._feeder is not None:
            self._feeder.close()
            self._feeder = None
        self.stream.close()


class _Prepend:
    """A stream with one row put back in front."""

    def __init__(self, row: list, stream: BatchStream) -> None:
        self._row: list | None = row
        self._stream = stream

    def next(self) -> list | None:
        if self._row is not None:
            row, self._row = self._row, None
            return row
        return self._stream.next()

    def close(self) -> None:
        self._stream.close()
