"""Iterators over a dataset: ``create_tuple_iterator`` / ``create_dict_iterator``.

Each epoch runs the pipeline behind a prefetch thread, which also turns the rows into Tensors (the
host-to-device transfer overlaps the training step). A ``map`` with several workers keeps its pool across
epochs and runs on into the next epoch while this one is read, as MindSpore's pipeline does (``Run``).
Stopping an iterator (``stop``, an exception, its last epoch's end, garbage collection) stops and joins
every worker.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._checkparam import check_column_names, check_num_epochs, check_pipeline_type
from ..core import config
from ._block import item
from ._exec import Ctx, Run, prefetch

__all__ = ["TupleIterator", "DictIterator"]


def _to_tensor(x):
    if isinstance(x, np.ndarray) and (x.dtype.kind in "USO"):
        return x
    from ...common.tensor import Tensor

    return Tensor(x)


def _can_run_ahead(ds) -> bool:
    """Whether the pipeline may run on into the next epoch: not where a stage waits for the consumer
    (``sync_wait``) or serves its rows from a cache."""
    todo = [ds]
    while todo:
        node = todo.pop()
        if getattr(node, "_waits_for_consumer", False) or node.__dict__.get("cache") is not None:
            return False
        todo.extend(node.children)
    return True


class _Iterator:
    def __init__(self, dataset, columns, num_epochs, output_numpy, do_copy) -> None:
        from .datasets import ProjectDataset

        check_pipeline_type(output_numpy, bool, "output_numpy")
        check_pipeline_type(do_copy, bool, "do_copy")
        check_num_epochs(num_epochs)
        if check_column_names(columns, "column_names") is not None:
            dataset = ProjectDataset(dataset, columns)
        self._ds = dataset
        self._names = dataset._columns()
        self._num_epochs = num_epochs
        self._output_numpy = bool(output_numpy)
        self._epoch = 0
        self._gen = None
        self._stop = threading.Event()
        seed = config._seed_or_none()
        self._seed = int(np.random.SeedSequence().generate_state(1)[0]) if seed is None else seed
        self._run = Run(num_epochs, _can_run_ahead(dataset))

    def _run_epoch(self):
        ctx = Ctx(self._seed, (self._epoch,), self._stop, config.get_prefetch_size(), run=self._run)
        ds, numpy_out = self._ds, self._output_numpy

        def rows():
            it = ds._iter(ctx, ())
            try:
                for blk in it:
                    cols = blk.cols
                    for i in range(blk.n):
                        vals = [item(c, i) for c in cols]
                        yield vals if numpy_out else [_to_tensor(v) for v in vals]
            finally:
                it.close()

        return prefetch(rows, ctx.prefetch, ctx)

    def __iter__(self):
        return self

    def __next__(self):
        if self._gen is None:
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                raise StopIteration
            self._gen = self._run_epoch()
        try:
            row = next(self._gen)
        except StopIteration:
            self._gen = None
            self._epoch += 1
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                self._run.close()
            raise
        except BaseException:
            self.stop()
            raise
        return self._wrap(row)

    def _wrap(self, row):
        return row

    def stop(self) -> None:
        """Stop every worker (those that run on into the next epoch too)."""
        gen, self._gen = self._gen, None
        if gen is not None:
            gen.close()
        run = getattr(self, "_run", None)  # None: __init__ failed
        if run is not None:
            run.close()

    def __del__(self) -> None:
        try:
            self.stop()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass

    def get_col_names(self) -> list[str]:
        return list(self._names)

    @property
    def epoch(self) -> int:
        """The dataset epoch this iterator reads (from 0; the number of epochs it has finished)."""
        return self._epoch

    def start_at_epoch(self, epoch: int) -> None:
        """Read from dataset epoch ``epoch`` on, with that epoch's order (each epoch's shuffle depends only
        on the seed and the epoch number): a resumed run reads what the uninterrupted one read. Call it
        before the first row."""
        if self._gen is not None:
            raise RuntimeError("start_at_epoch must be called before the iterator yields its first row.")
        self._epoch = int(epoch)


class TupleIterator(_Iterator):
    """Yields each row as a list (MindSpore yields lists) of Tensors or NumPy arrays."""


class DictIterator(_Iterator):
    """Yields each row as ``{column name: value}``."""

    def _wrap(self, row):
        return dict(zip(self._names, row))
