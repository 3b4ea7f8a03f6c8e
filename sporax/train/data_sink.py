"""``data_sink`` (MindSpore's ``mindspore.train.data_sink``): a function that runs ``sink_size`` steps per call
on a dataset's batches, as one compiled program where the backend runs loops fast (see
:mod:`sporax.train._sink`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _checkparam as validator
from ..common import dtype as mstype
from ._sink import BatchStream, SinkRunner
from ._utils import DatasetMarks

_SUNK = DatasetMarks()  # the datasets a data_sink reads (each at most once), with its runner

__all__ = ["data_sink"]


def data_sink(
    fn: Callable[..., Any], dataset: Any, sink_size: int = 1, jit_config: Any = None, input_signature: Any = None
) -> Callable[..., Any]:
    """
    A wrapper that generates a data-sink-enabled version of the input function.

    Each call of the returned function takes the dataset's next `sink_size` batches (the dataset loops
    forever) and runs `fn(*batch)` on each; the steps are compiled (with `fn`'s Parameters as state), so
    `sink_size` steps are one program where the backend runs loops fast. `fn` that cannot be compiled runs
    eagerly, step by step.

    Args:
        fn (Function): The Python function that will be run with dataset.
        dataset (Dataset): The dataset iterator.
        sink_size (int, optional): Control the amount of data in each sink. Must be positive. Default: ``1`` .
        jit_config (JitConfig, optional): Accepted for compatibility: the steps are always compiled.
            Default: ``None`` .
        input_signature (Union[Tensor, List or Tuple of Tensors], optional): The Tensors describing the
            inputs: each column's shape and dtype must match. Default: ``None`` .

    Returns:
        Function, the generated function will be executed in data sinking mode; it returns the outputs of
        the last step.

    Raises:
        ValueError: If `sink_size` is not positive integer.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import dataset as ds
        >>> data = {"x": np.ones((1,), dtype=np.int32), "y": np.ones((1,), dtype=np.int32)}
        >>> dataset = ds.NumpySlicesDataset(data=data)
        >>> def func_net(x, y):
        ...     out = x + y
        ...     return out
        >>> sink_process = ms.data_sink(func_net, dataset, sink_size=1)
        >>> for _ in range(2):
        ...     out = sink_process()
        ...     print(out)
        2
        2
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be int, but got {type(sink_size).__name__}.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if dataset in _SUNK:
        raise ValueError("The dataset has been used with network.")
    if input_signature is not None:
        validator.check_sink_signature(
            input_signature,
            [mstype.from_np(t) for t in dataset.output_types()],
            [tuple(s) for s in dataset.output_shapes()],
        )
    runner = SinkRunner(fn, BatchStream(dataset, -1, 0), sink_size)
    _SUNK.set(dataset, runner)

    @functools.wraps(fn)
    def sink_process(*args: Any, **kwargs: Any) -> Any:
        return runner.run()

    sink_process.__sporax_sink__ = runner  # type: ignore[attr-defined]
    return sink_process
