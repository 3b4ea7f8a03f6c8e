"""``Dataset.device_que``: the rows as a queue of device Tensors (the transfer stage of the pipeline)."""

from __future__ import annotations

import weakref

from ..._checkparam import check_pipeline_type

_QUEUES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def queue_by_name(queue_name: str) -> DeviceQueue | None:
    """The live queue named ``queue_name`` (what ``nn.GetNextSingleOp`` reads), or None."""
    return _QUEUES.get(queue_name)


class DeviceQueue:
    """An iterator of rows as lists of Tensors, prefetched in the background (``send_epoch_end``: one epoch
    per ``iter``; the iterator then stops)."""

    def __init__(self, dataset, send_epoch_end=True, create_data_info_queue=False, queue_name="") -> None:
        check_pipeline_type(send_epoch_end, bool, "send_epoch_end")
        check_pipeline_type(create_data_info_queue, bool, "create_data_info_queue")
        check_pipeline_type(queue_name, str, "queue_name")
        self.dataset = dataset
        self.send_epoch_end = send_epoch_end
        self.queue_name = queue_name or f"sporax_queue_{id(self):x}"
        self._info: list | None = [] if create_data_info_queue else None
        self._it = dataset.create_tuple_iterator(num_epochs=-1)
        _QUEUES[self.queue_name] = self

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self._it)
        if self._info is not None:
            self._info.append([(x.dtype, tuple(x.shape)) for x in row])
        return row

    def get_data_info(self):
        """The dtypes and shapes of the last rows sent (with ``create_data_info_queue=True``)."""
        return list(self._info or [])

    def stop_send(self) -> None:
        self._it.stop()

    def get_queue_name(self) -> str:
        return self.queue_name
