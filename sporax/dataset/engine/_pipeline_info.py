"""What a pipeline says about itself and the bookkeeping MindSpore's ``Dataset`` carries: shuffled or sharded,
sync points, the sink-mode input indexes, the initial step, and MindSpore's tree-building hooks (sporax runs
the Python graph itself, so ``create_ir_tree`` returns that graph)."""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any


class PipelineInfo:
    """Mixed into :class:`Dataset` (kept apart so each file holds one concept)."""

    _input_indexs: Any = ()
    _global_step = None
    if TYPE_CHECKING:  # given by Dataset
        children: list[Any]
        num_parallel_workers: int | None

        def get_dataset_size(self) -> int: ...

    # ------------------------------------------------------------------ shuffle / shard / sync
    def is_shuffled(self) -> bool:
        """Whether this dataset or one it reads shuffles rows."""
        sampler = getattr(self, "_sampler", None)
        if sampler is not None and sampler.is_shuffled():
            return True
        if type(self).__name__ == "ShuffleDataset" or getattr(self, "_shuffles", False):
            return True
        return any(c.is_shuffled() for c in self.children)

    def is_sharded(self) -> bool:
        """Whether this dataset or one it reads is split into shards."""
        sampler = getattr(self, "_sampler", None)
        if sampler is not None and sampler.is_sharded():
            return True
        if getattr(self, "num_shards", None):
            return True
        return any(c.is_sharded() for c in self.children)

    def is_sync(self) -> bool:
        """Whether a ``sync_wait`` is in the pipeline."""
        return bool(self.children) and self.children[0].is_sync()

    def get_sync_notifiers(self) -> dict:
        """``{condition name: function releasing it}`` of the first ``sync_wait`` in the pipeline."""
        return self.children[0].get_sync_notifiers() if self.children else {}

    def disable_sync(self) -> dict:
        """Let every row through the ``sync_wait`` points (the training ended)."""
        return self.children[0].disable_sync() if self.children else {}

    # ------------------------------------------------------------------ bookkeeping
    @property
    def input_indexs(self):
        """The column indexes a sink-mode network takes, inherited from the inputs when not set."""
        if self._input_indexs != ():
            return self._input_indexs
        for c in self.children:
            v = c.input_indexs
            if v != ():
                return v
        return self._input_indexs

    @input_indexs.setter
    def input_indexs(self, value):
        self._input_indexs = value

    def copy_batch_size(self, value) -> None:
        """Record ``value`` as this node's batch size."""
        self._batch_size = value

    def set_init_step(self, init_step) -> None:
        """The step a resumed run starts at."""
        self._global_step = init_step

    def get_init_step(self):
        """The step set by :meth:`set_init_step` here or in the input (0 when none)."""
        if self._global_step is not None:
            return self._global_step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    def __len__(self) -> int:
        return self.get_dataset_size()

    # ------------------------------------------------------------------ MindSpore's tree hooks
    def create_ir_tree(self, getter_mode=False):
        """A copy of the pipeline, prepared to run: ``(tree, dataset)`` (sporax's tree is the graph itself)."""
        dataset = self.pre_process(copy.deepcopy(self))
        return dataset.parse_tree(getter_mode), dataset

    def pre_process(self, dataset):
        """Prepare ``dataset`` before it runs (nothing to insert in sporax); returns it."""
        return dataset

    def parse_tree(self, getter_mode=False):
        """Prepare every node (``pre_parse``, ``iterator_bootstrap``, ``parse``, ``post_parse``); returns the root."""
        children = [c.parse_tree(getter_mode) for c in self.children]
        self.pre_parse(getter_mode)
        self.iterator_bootstrap()
        return self.post_parse(self.parse(children))

    def pre_parse(self, getter_mode) -> None:
        """In getter mode (shapes, sizes) a node runs on one worker, without processes."""
        if getter_mode:
            if hasattr(self, "python_multiprocessing"):
                self.python_multiprocessing = False
            if hasattr(self, "num_parallel_workers"):
                self.num_parallel_workers = 1

    def parse(self, children=None):
        """This node with ``children`` as its inputs."""
        if children is not None:
            self.children = list(children)
        return self

    def post_parse(self, ir_node):
        return ir_node

    def iterator_bootstrap(self) -> None:
        """Start what a node needs before it is iterated (nothing in sporax)."""

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """The rows as a device transfer queue: an iterator of Tensors (sporax's transfer stage)."""
        from ._device_queue import DeviceQueue

        return DeviceQueue(self, send_epoch_end, create_data_info_queue, queue_name)

    def to_json(self, filename=""):
        """The pipeline in MindSpore's JSON form (a dict); written to ``filename`` when given."""
        from ._serialize import to_dict

        tree = to_dict(self)
        if filename:
            with open(filename, "w", encoding="utf-8") as f:
                json.dump(tree, f, indent=2)
        return tree
