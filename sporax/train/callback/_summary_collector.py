"""SummaryCollector: collect the loss, input images, parameter histograms and metrics into TensorBoard files."""

from __future__ import annotations

import json
import logging
import os
import re
import time

import numpy as np

from sporax.common.tensor import Tensor

from ..._checkparam import check_collect_landscape, check_greater_than_zero, check_value_type
from .._utils import make_directory
from ..summary import _lineage
from ..summary.summary_record import SummaryRecord
from ._callback import Callback
from ._landscape import LandscapeCollection

_log = logging.getLogger("sporax")


class SummaryCollector(Callback):
    """
    Collect common information (the loss, the input images, parameter histograms and evaluation metrics) into a
    TensorBoard event file in `summary_dir` (``tensorboard --logdir summary_dir``).

    Data is collected at the first step and then every `collect_freq` steps (every `collect_freq` epochs in sink
    mode). Tags: ``loss/auto`` (the mean of the first network output), ``input_data/auto`` (the first input
    column, when it holds [N, C, H, W] images), ``<parameter name>/auto`` (histograms), and, in `Model.fit` or
    `Model.eval`, ``eval/<metric name>`` (a sporax extra: MindSpore records metrics as lineage data).

    Note:
        1. Multiple SummaryCollector instances in callback list are not allowed.
        2. MindSpore also collects the computational graph, lineage data, the dataset graph and loss-landscape
           data for MindInsight; sporax accepts those options but writes none of them.

    Args:
        summary_dir (str): The collected data will be persisted to this directory.
        collect_freq (int): The frequency of data collection, in steps (epochs in sink mode). Default: ``10`` .
        num_process (int): Kept for MindSpore compatibility. Default: ``32`` .
        collect_specified_data (Union[None, dict]): What to collect: ``collect_metric`` (bool),
            ``collect_input_data`` (bool), ``histogram_regular`` (regular expression of the parameter names whose
            histograms are collected; ``None``: the first five parameters), and MindSpore's ``collect_graph``,
            ``collect_train_lineage``, ``collect_eval_lineage``, ``collect_dataset_graph``, ``collect_landscape``
            (accepted, not collected). Default: ``None`` (everything).
        keep_default_action (bool): With `collect_specified_data` given, whether the unspecified items keep their
            default. Default: ``True`` .
        custom_lineage_data (Union[dict, None]): Custom lineage data (str -> str, int or float); validated, not
            written. Default: ``None`` .
        collect_tensor_freq (Optional[int]): Kept for MindSpore compatibility (summaries raised from inside a
            network follow `collect_freq`). Default: ``None`` .
        max_file_size (Optional[int]): The maximum size in bytes of the file. Default: ``None`` (no limit).
        export_options (Union[None, dict]): As :class:`sporax.train.SummaryRecord`. Default: ``None`` .

    Examples:
        >>> from sporax.train import SummaryCollector
        >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_freq=1)
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    _DEFAULT_SPECIFIED_DATA = {
        "collect_metric": True,
        "collect_graph": True,
        "collect_train_lineage": True,
        "collect_eval_lineage": True,
        "collect_input_data": True,
        "collect_dataset_graph": True,
        "histogram_regular": None,
        "collect_landscape": {
            "landscape_size": 40,
            "unit": "step",
            "num_samples": 2048,
            "create_landscape": {"train": True, "result": True},
            "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]],
        },
    }

    def __init__(
        self,
        summary_dir,
        collect_freq=10,
        num_process=32,
        collect_specified_data=None,
        keep_default_action=True,
        custom_lineage_data=None,
        collect_tensor_freq=None,
        max_file_size=None,
        export_options=None,
    ):
        super().__init__()
        self._summary_dir = make_directory(summary_dir, "summary_dir")
        self._record = None
        check_greater_than_zero(collect_freq, "collect_freq", type(self).__name__)
        self._collect_freq = collect_freq
        check_greater_than_zero(collect_tensor_freq, "collect_tensor_freq", type(self).__name__, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        check_greater_than_zero(max_file_size, "max_file_size", type(self).__name__, allow_none=True)
        self._max_file_size = max_file_size
        self._export_options = export_options
        check_value_type("keep_default_action", keep_default_action, bool)
        self._collect_specified_data = self._process_specified_data(collect_specified_data, keep_default_action)
        landscape = self._collect_specified_data.get("collect_landscape")
        self._landscape = None
        if landscape:
            defaults = self._DEFAULT_SPECIFIED_DATA["collect_landscape"]
            check_collect_landscape(landscape, type(self).__name__, defaults)
            self._landscape = LandscapeCollection(self._summary_dir, dict(defaults, **landscape))
        self._custom_lineage_data = self._process_custom_lineage_data(custom_lineage_data)
        self._temp_optimizer = None
        self._is_parse_loss_success = True
        self._first_step = True
        self._dataset_sink_mode = False
        self._num_process = num_process

    def _process_specified_data(self, specified_data, action):
        check_value_type("collect_specified_data", specified_data, [dict, type(None)])
        if specified_data is None:
            return dict(self._DEFAULT_SPECIFIED_DATA) if action else {}
        for param_name in specified_data:
            check_value_type(param_name, param_name, [str])
        unexpected_params = set(specified_data) - set(self._DEFAULT_SPECIFIED_DATA)
        if unexpected_params:
            raise ValueError(
                f'For "{self.__class__.__name__}", the keys {unexpected_params} of `collect_specified_data` are '
                f"unsupported, expect the follow keys: {list(self._DEFAULT_SPECIFIED_DATA.keys())}"
            )
        if "histogram_regular" in specified_data:
            regular = specified_data.get("histogram_regular")
            check_value_type("histogram_regular", regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.match(regular, "")
                except re.error as exc:
                    raise ValueError(
                        "For `collect_specified_data`, the value of `histogram_regular` is not a valid regular "
                        f"expression. Detail: {exc}."
                    ) from exc
        for item in set(self._DEFAULT_SPECIFIED_DATA) - {"histogram_regular", "collect_landscape"}:
            if item in specified_data:
                check_value_type(item, specified_data.get(item), bool)
        check_value_type("collect_landscape", specified_data.get("collect_landscape"), [dict, type(None)])
        if action:
            result = dict(self._DEFAULT_SPECIFIED_DATA)
            result.update(specified_data)
            return result
        return dict(specified_data)

    @staticmethod
    def _process_custom_lineage_data(custom_lineage_data):
        check_value_type("custom_lineage_data", custom_lineage_data, [dict, type(None)])
        if custom_lineage_data is None:
            return None
        for key, value in custom_lineage_data.items():
            check_value_type(f"custom_lineage_data -> {key}", key, str)
            check_value_type(f"the value of custom_lineage_data -> {key}", value, (int, str, float))
        return custom_lineage_data

    # ------------------------------------------------------------------ context manager and hooks
    def __enter__(self):
        self._record = SummaryRecord(
            log_dir=self._summary_dir,
            max_file_size=self._max_file_size,
            raise_exception=False,
            export_options=self._export_options,
        )
        self._first_step, self._dataset_sink_mode = True, False
        return self

    def __exit__(self, *err):
        if self._record is not None:
            self._record.close()
            self._record = None

    @property
    def summary_record(self):
        """The SummaryRecord writing the file (while the callback is entered)."""
        return self._record

    def _ensure_record(self):
        if self._record is None:  # used without the context manager (a hand-written loop)
            self.__enter__()

    def begin(self, run_context):
        """Check the callbacks and set the record's mode."""
        self._ensure_record()
        cb_params = run_context.original_args()
        self._assert_single_collector(cb_params)
        mode = cb_params.get("mode", "train")
        if mode not in ("train", "eval"):
            raise ValueError(f"Only support `train` (model.train) and `eval` (model.eval) mode, but got `{mode}` mode.")
        self._record.set_mode(mode)
        self._dataset_sink_mode = bool(cb_params.get("dataset_sink_mode", False))

    def step_end(self, run_context):
        """Collect at the first step and every `collect_freq` steps (non-sink mode)."""
        self._ensure_record()
        cb_params = run_context.original_args()
        if self._landscape is not None:
            self._landscape.maybe_save(cb_params, "step")
        if cb_params.get("mode", "train") != "train" or self._dataset_sink_mode:
            return
        self._collect(cb_params, cb_params.cur_step_num)

    def epoch_end(self, run_context):
        """Collect every `collect_freq` epochs (sink mode); record the metrics of `Model.fit`; flush."""
        self._ensure_record()
        cb_params = run_context.original_args()
        if cb_params.get("mode", "train") == "train":
            if self._dataset_sink_mode:
                self._collect(cb_params, cb_params.cur_epoch_num)
            self._collect_eval_metrics(cb_params, cb_params.cur_step_num)
        if self._landscape is not None:
            self._landscape.maybe_save(cb_params, "epoch")
        self._record.flush()

    def end(self, run_context):
        """Record the metrics of `Model.eval`, and whatever is left."""
        self._ensure_record()
        cb_params = run_context.original_args()
        if cb_params.get("mode") == "eval":
            self._collect_eval_metrics(cb_params, cb_params.get("cur_step_num", 0))
        self._record.set_mode("eval")
        self._record.record(step=int(cb_params.get("cur_step_num", 0) or 0))
        self._record.flush()
        if cb_params.get("mode", "train") == "train":
            self._collect_train_lineage(cb_params)
        else:
            self._collect_eval_lineage(cb_params)
        if self._landscape is not None and cb_params.get("mode", "train") == "train":
            self._landscape.save_metadata(cb_params.batch_num)

    # ------------------------------------------------------------------ lineage (MindSpore's _lineage file)
    @staticmethod
    def _dataset_info(dataset):
        """``(path, number of samples, batch size)`` of a dataset (the path of its file-based source, if any)."""
        if dataset is None:  # a hand-written loop's parameters
            return None, None, None
        path, node = None, dataset
        while node is not None and path is None:
            for attr in ("dataset_dir", "dataset_file", "dataset_files"):
                value = getattr(node, attr, None)
                if value:
                    path = value if isinstance(value, str) else list(value)[0]
                    break
            children = getattr(node, "children", None) or []
            node = children[0] if children else None
        if path and os.path.isfile(path):
            path = os.path.dirname(path)
        batch_size = dataset.get_batch_size()
        return path, int(dataset.get_dataset_size() * batch_size), batch_size

    def _collect_train_lineage(self, cb_params):
        if not self._collect_specified_data.get("collect_train_lineage") or self._record is None:
            return
        from ...common.parameter import Parameter
        from ...nn.loss.loss import LossBase
        from ._checkpoint import ModelCheckpoint

        loss = self._get_loss(cb_params)
        optimizer = self._get_optimizer(cb_params)
        lr = getattr(optimizer, "learning_rate", None) if optimizer is not None else None
        loss_fn = cb_params.get("loss_fn")
        network = cb_params.get("train_network")
        if loss_fn is None and network is not None:
            loss_fn = next((c for _, c in network.cells_and_names() if isinstance(c, LossBase)), None)
        ckpt = None
        for cb in cb_params.get("list_callback") or []:
            if isinstance(cb, ModelCheckpoint) and cb.latest_ckpt_file_name:
                ckpt = os.path.realpath(cb.latest_ckpt_file_name)
        path, size, batch_size = self._dataset_info(cb_params.get("train_dataset"))
        info = {
            "loss": None if loss is None else float(np.atleast_1d(loss.asnumpy())[0]),
            "learning_rate": float(np.atleast_1d(lr.asnumpy())[0]) if isinstance(lr, Parameter) else None,
            "optimizer": type(optimizer).__name__ if optimizer is not None else None,
            "network": type(cb_params.get("network", network)).__name__,
            "loss_function": type(loss_fn).__name__ if loss_fn is not None else None,
            "epoch": cb_params.get("epoch_num"),
            "parallel_mode": cb_params.get("parallel_mode"),
            "device_num": cb_params.get("device_number"),
            "model_path": json.dumps({"ckpt": ckpt}),
            "model_size": os.path.getsize(ckpt) if ckpt else 0,
            "train_dataset_path": path,
            "train_dataset_size": size,
            "batch_size": batch_size,
        }
        self._record._write_lineage(_lineage.train_lineage_event(time.time(), info))

    def _collect_eval_lineage(self, cb_params):
        if not self._collect_specified_data.get("collect_eval_lineage") or self._record is None:
            return
        try:
            metric = json.dumps(cb_params.get("metrics"))
        except TypeError as exc:
            _log.warning("Summary cannot collect the type of metrics, currently support type: dict, list, tuple, "
                         "str, int, float, bool and None. %s.", exc)  # fmt: skip
            metric = None
        path, size, _ = self._dataset_info(cb_params.get("valid_dataset"))
        self._record._write_lineage(_lineage.eval_lineage_event(time.time(), metric, path, size))

    # ------------------------------------------------------------------ collection
    def _collect(self, cb_params, current):
        if self._first_step or current % self._collect_freq == 0:
            self._first_step = False
            self._collect_input_data(cb_params)
            self._collect_metric(cb_params)
            self._collect_histogram(cb_params)
            self._record.record(int(cb_params.cur_step_num))

    def _assert_single_collector(self, cb_params):
        callbacks = cb_params.get("list_callback") or []
        count = sum(1 for cb in callbacks if type(cb).__name__ == self.__class__.__name__)
        if count > 1:
            raise ValueError(
                f"There are more than one {self.__class__.__name__} instance in callback list,"
                f"but expected only one {self.__class__.__name__} instance."
            )

    def _collect_input_data(self, cb_params):
        if not self._collect_specified_data.get("collect_input_data"):
            return
        input_data = cb_params.get("train_dataset_element")
        if isinstance(input_data, (list, tuple)) and input_data:
            input_data = input_data[0]
        if not isinstance(input_data, Tensor):
            if input_data is not None:
                _log.warning(
                    "The type of input data is not Tensor/list/tuple, so SummaryCollector will not collect input data."
                )
            self._collect_specified_data["collect_input_data"] = False
            return
        try:
            self._record.add_value("image", "input_data/auto", input_data)
        except (TypeError, ValueError):
            _log.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False

    def _get_loss(self, cb_params):
        if not self._is_parse_loss_success:
            return None
        output = cb_params.get("net_outputs")
        if output is None:
            _log.warning("Can not find any output by this network, so SummaryCollector will not collect loss.")
            self._is_parse_loss_success = False
            return None
        if isinstance(output, (int, float, Tensor)):
            loss = output
        elif isinstance(output, (list, tuple)) and output:
            loss = output[0]
        else:
            _log.warning(
                "The output type could not be identified, expect type is one of [int, float, Tensor, list, tuple], "
                "so no loss was recorded in SummaryCollector."
            )
            self._is_parse_loss_success = False
            return None
        value = loss.asnumpy() if isinstance(loss, Tensor) else np.asarray(loss)
        return Tensor(np.asarray(np.mean(value), np.float32))

    def _collect_metric(self, cb_params):
        if not self._collect_specified_data.get("collect_metric"):
            return
        loss = self._get_loss(cb_params)
        if loss is None:
            return
        try:
            self._record.add_value("scalar", "loss/auto", loss)
        except ValueError:
            _log.warning("The output of network is not a scalar, so SummaryCollector will not collect loss.")
            self._collect_specified_data["collect_metric"] = False

    def _collect_eval_metrics(self, cb_params, step):
        if not self._collect_specified_data.get("collect_metric"):
            return
        metrics = cb_params.get("eval_results") or cb_params.get("metrics")
        if not metrics:
            return
        for name, value in metrics.items():
            arr = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
            if arr.dtype.kind in "fiub" and arr.size == 1:
                self._record.add_value("scalar", f"eval/{name}", Tensor(arr.reshape(()).astype(np.float32)))
        self._record.record(int(step))

    def _get_optimizer(self, cb_params):
        from sporax.nn.optim import Optimizer

        if self._temp_optimizer == "Failed":
            return None
        if self._temp_optimizer is not None:
            return self._temp_optimizer
        optimizer = cb_params.get("optimizer")
        if optimizer is None:
            network = cb_params.get("train_network") if cb_params.get("mode") == "train" else None
            network = network if network is not None else cb_params.get("eval_network")
            if network is not None:
                for _, cell in network.cells_and_names():
                    if isinstance(cell, Optimizer):
                        optimizer = cell
                        break
        if not isinstance(optimizer, Optimizer):
            _log.warning(
                "Can not find optimizer in network, or the optimizer does not inherit MindSpore's optimizer, "
                "so we will not collect data about optimizer in SummaryCollector."
            )
            optimizer = None
        self._temp_optimizer = optimizer if optimizer is not None else "Failed"
        return optimizer

    def _collect_histogram(self, cb_params):
        if "histogram_regular" not in self._collect_specified_data:
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        parameters = list(optimizer.parameters)
        regular = self._collect_specified_data.get("histogram_regular")
        if regular is not None:
            parameters = [p for p in parameters if re.match(regular, p.name)]
        else:
            parameters = parameters[:5]
        for parameter in parameters:
            self._record.add_value("histogram", parameter.name + "/auto", Tensor(parameter.asnumpy()))
