"""The loops of ``Model``: training step by step and by sinks, evaluation, fit's evaluations, resume points.

Each training step runs the train network as one compiled program (in PyNative too; a network that cannot
be compiled runs eagerly, as PyNative does). The weights, optimizer moments and step counters stay on the
device between steps and are written back to the Cells' Parameters after every step (a pointer swap), so a
callback always sees the current ones. With ``dataset_sink_mode=True`` each epoch is one sink of
``sink_size`` steps, one host call (see :mod:`sporax.train._sink`). A step's index checks are read after
the next step is dispatched (or when a tensor is read); the loops read the last ones before they end
(``_engine._checks``).
"""

from __future__ import annotations

import copy
import logging
import math
from collections.abc import Iterable
from typing import Any, cast

from .._checkparam import check_dataset_columns, check_loss_fn_columns
from .._engine._checks import surface_pending
from ..common._compile import call_name, compile_call, host_driven
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ..nn.graph_cell import GraphCell
from ._utils import DatasetMarks
from .callback import RunContext, TimeMonitor, _CallbackManager, _InternalCallbackParam
from .callback._callback import is_builtin_callback
from .dataset_helper import DatasetHelper, connect_network_with_dataset

_log = logging.getLogger("sporax")

_MODEL_OF_DATASET = DatasetMarks()  # the Model that trains each dataset (one Model per dataset)


def _transfer_tensor_to_tuple(inputs: Any) -> Any:
    if isinstance(inputs, Tensor):
        return (inputs,)
    return inputs


class _Step:
    """The compiled call of a network (state as implicit inputs and outputs, see ``sporax.jit``)."""

    def __init__(self, network: Cell) -> None:
        self.network = network
        # The compile rule (sporax/common/_compile.py): in PyNative a network that cannot be compiled simply
        # runs eagerly, as PyNative does (a log line); in GRAPH_MODE that is a warning.
        self._jit = self._call if host_driven(network) else compile_call(self._call, call_name(network))

    def _call(self, *inputs: Any) -> Any:
        return self.network(*inputs)

    def __call__(self, *inputs: Any) -> Any:
        return self._jit(*inputs)


class _ModelLoops:
    """Training and evaluation loops of :class:`sporax.train.Model` (MindSpore's ``_train_process``,
    ``_train_dataset_sink_process``, ``_eval_process`` ...).

    The loops' own state is set in ``__init__``; the networks, metrics and parallel settings they run are
    :class:`~sporax.train.Model`'s (built by its ``__init__``), declared here for the reader and the type
    checker.
    """

    # Model's, set by Model.__init__ before any loop runs
    _train_network: Cell
    _eval_network: Any
    _network: Cell
    _loss_fn: Any
    _optimizer: Any
    _loss_scale_manager: Any
    _metric_fns: dict
    _eval_indexes: list | None
    _parallel_mode: Any
    _device_number: int

    def __init__(self) -> None:
        self._steps: dict[int, tuple[Cell, _Step]] = {}  # id(network) -> (network, its compiled step)
        self._backbone_is_train = True  # whether the backbone was last set to training
        self._current_epoch_num = 0  # the epoch running (for MindSpore's Model attributes)
        self._current_step_num = 0  # the step in that epoch
        self.epoch_iter = 0  # epochs done in a sink-mode train
        self.batch_num = -1  # steps per epoch of the current train (-1 before the first)

    # ------------------------------------------------------------ metrics
    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs: Any) -> None:
        from .metrics import Loss

        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self) -> dict:
        return {key: value.eval() for key, value in self._metric_fns.items()}

    # ------------------------------------------------------------ helpers
    def _step_of(self, network: Cell) -> _Step:
        """The compiled step of ``network`` (one per network, compiled per input signature)."""
        hit = self._steps.get(id(network))
        if hit is None or hit[0] is not network:
            hit = (network, _Step(network))
            self._steps[id(network)] = hit
        return hit[1]

    def _exec_preprocess(
        self,
        is_train: bool,
        dataset: Any,
        dataset_sink_mode: bool,
        sink_size: int = -1,
        epoch_num: int = 1,
        dataset_helper: DatasetHelper | None = None,
        start: int = 0,
    ) -> tuple[DatasetHelper, Cell]:
        if is_train:
            network = self._train_network
        else:
            network = self._eval_network
        if dataset_helper is None:
            dataset_helper = DatasetHelper(dataset, dataset_sink_mode, sink_size, epoch_num)
            dataset_helper._set_range(start, epoch_num)
        if dataset_sink_mode:
            network = connect_network_with_dataset(network, dataset_helper)
        network.set_train(is_train)
        self._backbone_is_train = is_train
        return dataset_helper, network

    def _check_network_mode(self, network: Cell, is_train: bool) -> Cell:
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)
        return network

    @staticmethod
    def _transform_callbacks(callbacks: Any) -> list:
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    def _claim_dataset(self, dataset: Any) -> None:
        """Mark ``dataset`` as this Model's (runtime state, not an argument check): one Model per dataset."""
        if dataset not in _MODEL_OF_DATASET:
            _MODEL_OF_DATASET.set(dataset, hash(self))
        if _MODEL_OF_DATASET.get(dataset) != hash(self):
            raise RuntimeError(
                "The dataset object had been used in other model by model.train(...), please create a new dataset."
            )

    @staticmethod
    def _check_methods_for_custom_callbacks(callbacks: Any, current_mode: str) -> None:
        legacy = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
        for cb in callbacks if isinstance(callbacks, list) else [callbacks]:
            name = type(cb).__name__
            if is_builtin_callback(cb):
                continue
            invalid = set(type(cb).__dict__) & legacy
            if not invalid:
                continue
            msg = (
                f"For {name} callback, {invalid} methods may not be supported in later version, Use methods "
                "prefixed with 'on_train' or 'on_eval' instead when using customized callbacks."
            )
            if current_mode in ("train", "eval"):
                _log.warning(msg)
            else:
                raise ValueError(msg)

    @staticmethod
    def _should_eval(epoch: int, validation_freq: Any) -> bool:
        return epoch % validation_freq == 0 if isinstance(validation_freq, int) else epoch in validation_freq

    def _train(
        self,
        epoch: int,
        train_dataset: Any,
        callbacks: Any,
        dataset_sink_mode: bool,
        sink_size: int,
        initial_epoch: int,
        valid_infos: tuple = (None, 1, False),
    ) -> None:
        if dataset_sink_mode and host_driven(self._train_network):
            # the host picks each step's program (boost's layer-group freezing): no one program can loop them
            if sink_size not in (-1, train_dataset.get_dataset_size()):
                raise ValueError(
                    f"For 'Model.train', a boost train cell ({type(self._train_network).__name__}) picks each step's "
                    f"program on the host and trains step by step: 'sink_size' must be -1, but got {sink_size}."
                )
            _log.warning("Model.train: the boost train cell picks each step's program on the host; dataset sink "
                         "mode runs step by step.")  # fmt: skip
            dataset_sink_mode = False
        cb_params = _InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        if dataset_sink_mode and sink_size > 0:
            cb_params.batch_num = sink_size
        else:
            cb_params.batch_num = train_dataset.get_dataset_size()
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = self._parallel_mode
        cb_params.device_number = self._device_number
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager
        cb_params.initial_step = None
        cb_params.initial_epoch = initial_epoch
        with _CallbackManager(cb_params.list_callback) as list_callback:
            self._claim_dataset(train_dataset)
            if dataset_sink_mode:
                self._train_dataset_sink_process(
                    epoch, train_dataset, list_callback, cb_params, sink_size, initial_epoch, valid_infos
                )
            else:
                self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)

    def _train_dataset_sink_process(
        self,
        epoch: int,
        train_dataset: Any,
        list_callback: _CallbackManager,
        cb_params: _InternalCallbackParam,
        sink_size: int,
        initial_epoch: int,
        valid_infos: tuple,
    ) -> None:
        dataset_size = train_dataset.get_dataset_size()
        # The data of all the sinks, continuing where the last one stopped (MindSpore's __total_batch__).
        dataset_sink_num = math.ceil(epoch * sink_size / dataset_size)
        cb_params.sink_size = sink_size
        cb_params.dataset_sink_mode = True
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        initial_epoch = self._resume_point(cb_params, initial_epoch)
        dataset_helper = None
        self.epoch_iter = 0
        try:
            while self.epoch_iter < (epoch - initial_epoch):
                cb_params.cur_epoch_num = self.epoch_iter + 1 + initial_epoch
                self._current_epoch_num = cb_params.cur_epoch_num
                self._current_step_num = 0
                list_callback.on_train_epoch_begin(run_context)
                dataset_helper, train_network = self._exec_preprocess(
                    True,
                    train_dataset,
                    True,
                    sink_size,
                    dataset_sink_num,
                    dataset_helper,
                    start=initial_epoch * sink_size,
                )
                cb_params.train_network = train_network
                cb_params.dataset_helper = dataset_helper
                for inputs in dataset_helper:
                    cb_params.cur_step_num += dataset_helper.sink_size()
                    self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                    cb_params.train_dataset_element = inputs
                    list_callback.on_train_step_begin(run_context)
                    train_network = self._check_network_mode(train_network, True)
                    outputs = train_network(*inputs)
                    cb_params.net_outputs = outputs
                    list_callback.on_train_step_end(run_context)
                dataset_helper.continue_send()
                self._eval_during_train(valid_infos, cb_params, list_callback)
                list_callback.on_train_epoch_end(run_context)
                cb_params.pop("metrics", None)
                cb_params.pop("eval_results", None)
                if run_context.get_stop_requested():
                    break
                self.epoch_iter += 1
        finally:
            if dataset_helper is not None:
                dataset_helper.stop_send()
                dataset_helper.release()
        surface_pending()  # the last sinks' index checks (read after their call, never waited for per call)
        list_callback.on_train_end(run_context)

    def _train_process(
        self,
        epoch: int,
        train_dataset: Any,
        list_callback: _CallbackManager,
        cb_params: _InternalCallbackParam,
        initial_epoch: int,
        valid_infos: tuple,
    ) -> None:
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        initial_epoch = self._resume_point(cb_params, initial_epoch)
        dataset_helper, _ = self._exec_preprocess(
            True, train_dataset, False, epoch_num=epoch, start=initial_epoch * train_dataset.get_dataset_size()
        )
        network = self._train_network
        step = self._step_of(network)
        checked = False
        lsm = self._loss_scale_manager
        check_overflow = lsm is not None and lsm.get_drop_overflow_update()
        try:
            for i in range(initial_epoch, epoch):
                cb_params.cur_epoch_num = i + 1
                self._current_epoch_num = cb_params.cur_epoch_num
                self._current_step_num = 0
                list_callback.on_train_epoch_begin(run_context)
                for next_element in dataset_helper:
                    next_element = _transfer_tensor_to_tuple(next_element)
                    if not checked:
                        self._first_batch_fits(network, next_element, train_dataset)
                        checked = True
                    cb_params.cur_step_num += 1
                    self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                    cb_params.train_dataset_element = next_element
                    list_callback.on_train_step_begin(run_context)
                    self._check_network_mode(network, True)
                    outputs = step(*next_element)
                    cb_params.net_outputs = outputs
                    if check_overflow:
                        lsm.update_loss_scale(bool(outputs[1].asnumpy().all()))
                    list_callback.on_train_step_end(run_context)
                    if run_context.get_stop_requested():
                        break
                self._eval_during_train(valid_infos, cb_params, list_callback)
                list_callback.on_train_epoch_end(run_context)
                cb_params.pop("metrics", None)
                cb_params.pop("eval_results", None)
                if run_context.get_stop_requested():
                    break
        finally:
            dataset_helper.stop_send()
        surface_pending()  # the last steps' index checks (read after their call, never waited for per call)
        list_callback.on_train_end(run_context)

    @staticmethod
    def _resume_point(cb_params: _InternalCallbackParam, initial_epoch: int) -> int:
        """The epoch to start from: after the one a restoring callback (BackupAndRestore) reports in
        ``cb_params.resume_epoch`` from ``on_train_begin``, with ``cur_step_num`` continuing from its
        ``resume_step``."""
        resume = cb_params.get("resume_epoch")
        if resume is None or int(resume) <= initial_epoch:
            return initial_epoch
        cb_params.cur_step_num = int(cb_params.get("resume_step", 0))
        return int(resume)

    def _first_batch_fits(self, network: Cell, element: Any, dataset: Any) -> None:
        if self._loss_fn is not None:
            check_loss_fn_columns(len(element))
        check_dataset_columns(network, len(element), dataset.get_col_names(), Cell)

    def _eval_during_train(
        self, valid_infos: tuple, cb_params: _InternalCallbackParam, list_callback: _CallbackManager
    ) -> None:
        valid_dataset, valid_frequency, valid_dataset_sink_mode = valid_infos
        if not (valid_dataset and self._should_eval(cb_params.cur_epoch_num, valid_frequency)):
            return
        train_cur_step_num = cb_params.cur_step_num
        train_batch_num = cb_params.batch_num
        train_dataset_sink_mode = cb_params.dataset_sink_mode
        train_net_outputs = cb_params.net_outputs
        eval_callback = []
        for cb in list_callback.callbacks:
            if is_builtin_callback(cb):
                if isinstance(cb, TimeMonitor):
                    eval_callback.append(cb)
            else:
                eval_callback.append(cb)
        self._eval_in_fit(valid_dataset, eval_callback, valid_dataset_sink_mode, cb_params)
        cb_params.mode = "train"
        cb_params.cur_step_num = train_cur_step_num
        cb_params.batch_num = train_batch_num
        cb_params.dataset_sink_mode = train_dataset_sink_mode
        cb_params.net_outputs = train_net_outputs

    def _eval_in_fit(
        self, valid_dataset: Any, callbacks: list, dataset_sink_mode: bool, cb_params: _InternalCallbackParam
    ) -> dict:
        if isinstance(self._eval_network, GraphCell) and dataset_sink_mode:
            raise ValueError("Sink mode is currently not supported when evaluating with a GraphCell.")
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        with _CallbackManager(callbacks) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params, dataset_sink_mode, add_eval_loss=True)

    def _eval_process(
        self,
        valid_dataset: Any,
        list_callback: _CallbackManager,
        cb_params: _InternalCallbackParam,
        dataset_sink_mode: bool = False,
        add_eval_loss: bool = False,
    ) -> dict:
        # An evaluation sink is one step per call in MindSpore too (the dataset's loop size is 1): the
        # metrics are updated on the host after every step either way.
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = dataset_sink_mode
        list_callback.on_eval_begin(run_context)
        dataset_helper, _ = self._exec_preprocess(False, valid_dataset, False)
        network = self._eval_network
        step = self._step_of(network)
        eval_loss_fn = None
        list_callback.on_eval_epoch_begin(run_context)
        checked = False
        try:
            for next_element in dataset_helper:
                next_element = _transfer_tensor_to_tuple(next_element)
                if not checked:
                    check_dataset_columns(network, len(next_element), valid_dataset.get_col_names(), Cell, "eval")
                    checked = True
                cb_params.cur_step_num += 1
                cb_params.eval_dataset_element = next_element
                list_callback.on_eval_step_begin(run_context)
                self._check_network_mode(network, False)
                outputs = step(*next_element)
                cb_params.net_outputs = outputs
                list_callback.on_eval_step_end(run_context)
                self._update_metrics(outputs)
                if add_eval_loss:
                    # MindSpore 2.10 makes a new Loss metric at every step: 'eval_loss' is the last batch's loss
                    from .metrics import get_metric_fn

                    eval_loss_fn = get_metric_fn("loss")
                    eval_loss_fn.update(outputs[cast(list, self._eval_indexes)[0]])
                if run_context.get_stop_requested():
                    break
        finally:
            dataset_helper.stop_send()
        surface_pending()
        list_callback.on_eval_epoch_end(run_context)
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if eval_loss_fn is not None:
            cb_params.eval_results = copy.deepcopy(metrics)
            cb_params.eval_results.update({"eval_loss": eval_loss_fn.eval()})
        list_callback.on_eval_end(run_context)
        return metrics
