"""``DatasetHelper`` and ``connect_network_with_dataset`` (MindSpore's ``mindspore.train.dataset_helper``).

In sink mode the data goes to the network through the helper, not through the call: iterating the helper
yields one empty tuple per sink, and the network returned by :func:`connect_network_with_dataset`, called
with it, runs ``sink_size`` steps on the next ``sink_size`` batches (one compiled program where the backend
runs loops fast; see :mod:`sporax.train._sink`) and returns the last step's outputs. Sink mode works on
every backend, CPU included.
"""

from __future__ import annotations

from typing import Any

from .._checkparam import check_sink_size
from ..common import dtype as mstype
from ..dataset.core import config as dataset_config
from ..nn.cell import Cell
from ._sink import BatchStream, SinkRunner

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


class DatasetHelper:
    """
    DatasetHelper is a class to process the MindData dataset and provides the information of dataset.

    Note:
        The iteration of DatasetHelper will provide one epoch data.

    Args:
        dataset (Dataset): The dataset iterator.
        dataset_sink_mode (bool, optional): If True, the network connected with
            :func:`connect_network_with_dataset` takes the data from the helper, ``sink_size`` steps per call;
            otherwise iterating yields each row of the dataset. Default: ``True``.
        sink_size (int, optional): Steps per sink. -1: the dataset size. Default: ``-1``.
        epoch_num (int, optional): The number of passes of the entire dataset to be sent. Default: ``1``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import dataset as ds
        >>> data = {"x": np.float32(np.random.rand(64, 10)), "y": np.random.randint(0, 5, (64,))}
        >>> train_dataset = ds.NumpySlicesDataset(data=data).batch(32)
        >>> set_helper = ms.train.DatasetHelper(train_dataset, dataset_sink_mode=False)
        >>> for next_element in set_helper:
        ...     data = next_element[0]
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1, epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"The 'dataset_sink_mode' must be bool, but got {type(dataset_sink_mode).__name__}.")
        sink_size = check_sink_size(sink_size)
        if sink_size == -1:
            sink_size = dataset.get_dataset_size()
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = sink_size
        self._epoch_num = epoch_num
        self._start = 0
        # A helper made by the user reads the data for as long as the loop asks (MindSpore's device queue does
        # not end where `epoch_num` dataset epochs do); Model sets the exact end.
        self._num_epochs = -1 if dataset_sink_mode else epoch_num
        self._iter: Any = None
        self._stream: BatchStream | None = None
        self._network: Cell | None = None
        self._sink_network: _DataSinkNetwork | None = None

    def _set_range(self, start: int, num_epochs: int) -> None:
        """Start at global row ``start`` and read until ``num_epochs`` dataset epochs (for Model and resume)."""
        self._start = start
        self._num_epochs = num_epochs

    def __iter__(self) -> Any:
        if self.dataset_sink_mode:
            return iter([()])
        if self._iter is None:
            size = self.dataset.get_dataset_size()
            # as MindSpore's host-fed training loop: ds.config.set_iterator_mode's do_copy
            do_copy = dataset_config.get_iterator_mode()["do_copy"]
            self._iter = self.dataset.create_tuple_iterator(num_epochs=self._num_epochs, do_copy=do_copy)
            self._iter.start_at_epoch(self._start // size if size else 0)
        return self._iter

    def types_shapes(self) -> tuple[list, list]:
        """The types and shapes of the dataset's columns.

        Returns:
            tuple, a tuple of (types, shapes).
        """
        types = [mstype.from_np(t) for t in self.dataset.output_types()]
        return types, [tuple(s) for s in self.dataset.output_shapes()]

    def sink_size(self) -> int:
        """The number of steps of each sink (1 outside sink mode).

        Returns:
            int, the sink_size for each iteration.
        """
        return self._sink_size if self.dataset_sink_mode else 1

    def _runner_stream(self) -> BatchStream:
        if self._stream is None:
            self._stream = BatchStream(self.dataset, self._num_epochs, self._start)
        return self._stream

    def stop_send(self) -> None:
        """Stop reading the data (workers are stopped and joined)."""
        if self._sink_network is not None:
            self._sink_network._runner.close()
        if self._iter is not None:
            self._iter.stop()

    def release(self) -> None:
        """Free the resources of data sinking."""
        self.stop_send()

    def continue_send(self) -> None:
        """Continue to send data at the beginning of an epoch (data is read on demand here)."""

    def get_data_info(self) -> tuple[list, list]:
        """The types and shapes of the next batch."""
        return self.types_shapes()


class _DataSinkNetwork(Cell):
    """``network`` fed from a DatasetHelper: each call runs one sink and returns the last step's outputs."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.__dict__["_runner"] = SinkRunner(network, helper._runner_stream(), helper.sink_size())
        self.add_flags(sink_mode=True)

    def __call__(self, *inputs: Any) -> Any:
        if inputs:
            raise TypeError(
                f"The network connected with a dataset takes its data from the dataset, but it was called with "
                f"{len(inputs)} inputs."
            )
        return self._runner.run()

    def construct(self) -> Any:
        return self._runner.run()

    @property
    def sink_strategy(self) -> str:
        """``"scan"`` (one compiled loop per sink) or ``"loop"`` (a compiled step per batch)."""
        return self._runner.strategy


def connect_network_with_dataset(network: Cell, dataset_helper: DatasetHelper) -> Cell:
    """
    Connect the `network` with the dataset in `dataset_helper`. Only supported in sink mode
    (dataset_sink_mode=True).

    Args:
        network (Cell): The training network for dataset.
        dataset_helper (DatasetHelper): A class to process the MindData dataset.

    Returns:
        Cell, a new network that runs ``sink_size`` steps on the dataset's next batches per call.

    Raises:
        RuntimeError: If the API was not called in dataset sink mode.
        ValueError: If the dataset was connected to another network.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import nn
        >>> from sporax import dataset as ds
        >>> data = {"x": np.float32(np.random.rand(64, 10)), "y": np.random.randint(0, 5, (64,))}
        >>> train_dataset = ds.NumpySlicesDataset(data=data).batch(32)
        >>> dataset_helper = ms.train.DatasetHelper(train_dataset, dataset_sink_mode=True)
        >>> net = nn.Dense(10, 5)
        >>> net_with_dataset = ms.train.connect_network_with_dataset(net, dataset_helper)
    """
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode.")
    sink = dataset_helper._sink_network  # set together with _network
    if dataset_helper._network is None or sink is None:
        sink = _DataSinkNetwork(network, dataset_helper)
        dataset_helper._network, dataset_helper._sink_network = network, sink
    elif dataset_helper._network is not network:
        raise ValueError("The dataset has been connected to other network, please check the code.")
    return sink
