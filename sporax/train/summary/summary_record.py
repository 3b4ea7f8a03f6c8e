"""SummaryRecord: TensorBoard event files with MindSpore's ``SummaryRecord`` interface."""

from __future__ import annotations

import atexit
import logging
import os
import platform
import re
import threading
import time
from collections import defaultdict

import numpy as np

from sporax.common.tensor import Tensor

from ..._checkparam import check_file_name_part, check_value_type
from ...ops.function.debug_func import _register_summary_sink
from .._utils import make_directory
from . import _event

_log = logging.getLogger("sporax")

EVENT_FILE_NAME_MARK = ".out.events.summary."
# the name a hard link to the event file carries so that TensorBoard (which reads files named *tfevents*) finds it
TENSORBOARD_LINK_MARK = ".tfevents"
_instance_lock = threading.Lock()
_summary_lock = threading.Lock()
# summaries raised from inside a network ({'name': 'tag[:Scalar]', 'data': Tensor}), consumed by record()
SUMMARY_TENSOR_CACHE: dict[str, Tensor] = {}
_F32_MIN, _F32_MAX = np.finfo(np.float32).min, np.finfo(np.float32).max


def _cache_summary_tensor_data(summary):
    """Store summary tensors (``[{"name": "tag[:Type]", "data": tensor}, ...]``) for the next `record`."""
    with _summary_lock:
        for item in summary:
            SUMMARY_TENSOR_CACHE[item["name"]] = item["data"]
    return True


def _get_summary_tensor_data():
    global SUMMARY_TENSOR_CACHE
    with _summary_lock:
        data, SUMMARY_TENSOR_CACHE = SUMMARY_TENSOR_CACHE, {}
    return data


def get_event_file_name(prefix, suffix, time_second):
    """MindSpore's event file name: ``prefix + '.out.events.summary.' + time + '.' + device id + '.' + hostname +
    suffix`` (``events.out.events.summary.1795683594.0.vm_MS``)."""
    from sporax.communication import get_rank
    from sporax.context import get_context

    device_id = get_rank() if get_rank() else get_context("device_id")
    return f"{prefix}{EVENT_FILE_NAME_MARK}{time_second}.{device_id}.{platform.node()}{suffix}"


def _link_for_tensorboard(path):
    """Give the event file a second name containing 'tfevents' (a hard link: the same file), which TensorBoard
    needs to find it; where the file system has no hard links, a symbolic link; else nothing."""
    link = path + TENSORBOARD_LINK_MARK
    for make in (os.link, os.symlink):
        try:
            make(os.path.basename(path) if make is os.symlink else path, link)
            return link
        except OSError:
            continue
    return None


def _to_numpy(plugin, value):
    """Check the tensor and return a copy as a numpy.ndarray (MindSpore's checks and messages)."""
    arr = value.asnumpy().copy()
    if plugin == "scalar":
        if arr.size == 1:
            return arr
        raise ValueError(f'For "SummaryRecord", the v rank must be less than or equal to 1, but got {len(arr)}.')
    if plugin == "image":
        if arr.ndim == 4 and arr.shape[1] in (1, 3) and 0 not in arr.shape:
            return arr
        raise ValueError('For "SummaryRecord", the tensor seems not to hold a valid image.')
    if arr.ndim > 0:
        return arr
    raise ValueError('For "SummaryRecord", the value should not be empty.')


def _histogram_bins(count):
    """MindSpore's bucket count: a few buckets for few values, about 10 values per bucket, at most 90."""
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    if count <= 880:
        return count // 10 + 1
    return 90


def _histogram_value(tag, arr):
    """TensorBoard's HistogramProto with MindSpore's buckets (non-finite values are left out)."""
    arr = np.asarray(arr)
    if arr.dtype.kind not in "fiub":
        arr = arr.astype(np.float64)
    values = arr.astype(np.float64).reshape(-1)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        _log.warning("There are no valid values in the ndarray(size=%d, shape=%s)", arr.size, arr.shape)
        return _event.histogram_value(tag, 0.0, 0.0, 0, 0.0, 0.0, [], [])
    vmin, vmax = float(finite.min()), float(finite.max())
    if vmin < _F32_MIN or vmax > _F32_MAX:
        _log.warning("Values(%s, %s) are too large, you may encounter some undefined behaviours hereafter.", vmin, vmax)
    first, last = vmin, vmax
    if not first < last:
        first -= 0.5
        last += 0.5
    edges = np.linspace(first, last, _histogram_bins(finite.size) + 1)
    counts, edges = np.histogram(finite, bins=edges)
    return _event.histogram_value(
        tag, vmin, vmax, finite.size, float(finite.sum()), float(np.square(finite).sum()), edges[1:], counts
    )


def _image_value(tag, arr):
    """A PNG of the N images of an [N, C, H, W] array, laid out 8 per row (MindSpore's canvas and scaling)."""
    if arr.shape[1] == 1:
        arr = np.concatenate([arr, arr, arr], 1)
    n, _, h, w = arr.shape
    cols = min(n, 8)
    rows = int(np.ceil(n / cols))
    canvas = np.zeros((3, h * rows, w * cols), dtype=np.float64 if arr.dtype != np.uint8 else np.uint8)
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h : (y + 1) * h, x * w : (x + 1) * w] = arr[i]
    image = canvas.transpose(1, 2, 0)
    if arr.dtype != np.uint8:
        vmax, vmin = float(np.max(image)), float(np.min(image))
        scale, shift = 1.0, 0.0
        if vmax <= 1 and vmin >= 0:
            scale = 255.0
        else:
            if vmax != vmin:
                scale = 255 / (vmax - vmin + 1)
            shift = vmin
        image = ((image.astype(np.float32) - shift) * scale).astype(np.uint8)
    height, width, channels = image.shape
    return _event.image_value(tag, height, width, channels, _event.png(image))


class SummaryRecord:
    """
    Record summaries (scalars, images, histograms, tensors) in a TensorBoard event file.

    The file is created in `log_dir` and is readable by TensorBoard (``tensorboard --logdir log_dir``); it is
    written by hand (TFRecord framing, CRC-32C) and needs neither TensorFlow nor TensorBoard. Values added with
    `add_value` are written by the next `record`.

    Note:
        1. Close the SummaryRecord at the end (or use it in a ``with`` statement).
        2. Only one SummaryRecord instance is allowed at a time.
        3. The event file has MindSpore's name (``events.out.events.summary.<time>.<device id>.<hostname>_MS``)
           and holds TensorBoard events; a hard link to it named ``<that name>.tfevents`` lets TensorBoard find it
           (TensorBoard reads only files whose name contains 'tfevents'). Graphs and lineage data are not
           recorded; ``SummaryCollector`` writes MindSpore's train/evaluation lineage to the ``..._lineage`` file
           beside it.

    Args:
        log_dir (str): The directory to save the summary in.
        file_prefix (str): The prefix of the file name. Default: ``"events"`` .
        file_suffix (str): The suffix of the file name. Default: ``"_MS"`` .
        num_process (int): Kept for MindSpore compatibility (events are written by the calling thread).
            Default: ``32`` .
        network (Cell): Kept for MindSpore compatibility (graphs are not recorded). Default: ``None`` .
        max_file_size (int, optional): The maximum size of the file in bytes; events beyond it are dropped.
            Default: ``None`` (no limit).
        raise_exception (bool, optional): Raise RuntimeError or OSError when recording fails, instead of logging
            the error. Default: ``False`` .
        export_options (Union[None, dict]): ``{'tensor_format': 'npy'}`` also saves each recorded tensor as a
            ``.npy`` file in ``export_<time>/tensor``. Default: ``None`` .

    Raises:
        TypeError: `max_file_size` is not int or `file_prefix` and `file_suffix` is not string.

    Examples:
        >>> from sporax import Tensor
        >>> from sporax.train import SummaryRecord
        >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
        ...     summary_record.add_value('scalar', 'loss', Tensor(0.1))
        ...     summary_record.record(1)
        True
    """

    count = 0

    def __init__(
        self,
        log_dir,
        file_prefix="events",
        file_suffix="_MS",
        num_process=32,
        network=None,
        max_file_size=None,
        raise_exception=False,
        export_options=None,
    ):
        self._assert_single_instance()
        with _instance_lock:
            self._assert_single_instance()
            SummaryRecord.count += 1
        self._file = None
        self._mode, self._data_pool = "train", defaultdict(list)
        self._status = {"closed": False, "has_graph": False}
        self.file_info = {"file_name": None, "file_path": None}
        self.base_log_dir = log_dir
        self.file_prefix = file_prefix
        self.file_suffix = file_suffix
        self.network = network
        self.max_file_size = max_file_size
        self._num_process = num_process
        self.raise_exception = raise_exception
        self._export_options = export_options
        self._export_dir = None
        self._lock = threading.Lock()
        try:
            self._initialize()
        except (TypeError, ValueError, OSError):
            with _instance_lock:
                SummaryRecord.count -= 1
            raise

    def _initialize(self):
        log_path = make_directory(self.base_log_dir, "log_dir")
        if not isinstance(self.max_file_size, (int, type(None))) or isinstance(self.max_file_size, bool):
            raise TypeError(
                f"For '{self.__class__.__name__}', the 'max_file_size' should be int type, "
                f"but got type {type(self.max_file_size)}"
            )
        if not isinstance(self.file_prefix, str) or not isinstance(self.file_suffix, str):
            raise TypeError(
                f"For '{self.__class__.__name__}', `file_prefix` and `file_suffix`  should be str, "
                f"but got type {type(self.file_prefix)}"
            )
        check_file_name_part(self.file_prefix, "file_prefix")
        check_file_name_part(self.file_suffix, "file_suffix")
        if self.max_file_size is not None and self.max_file_size < 0:
            _log.warning(
                "For '%s', the 'max_file_size' should be greater than 0. but got value %s.",
                self.__class__.__name__,
                self.max_file_size,
            )
            self.max_file_size = None
        check_value_type("raise_exception", self.raise_exception, bool)
        time_second = str(int(time.time()))
        if self._export_options is not None:
            if not isinstance(self._export_options, dict):
                raise TypeError(
                    f'For "{self.__class__.__name__}", the "export_options" must be dict or None, '
                    f"but got {type(self._export_options).__name__}."
                )
            unexpected = set(self._export_options) - {"tensor_format"}
            if unexpected:
                raise ValueError(
                    f'For "SummaryRecord", the keys {unexpected} of "export_options" are unsupported, '
                    "expect the follow keys: ['tensor_format']"
                )
            if self._export_options.get("tensor_format") not in (None, "npy"):
                raise ValueError(
                    'For "SummaryRecord", the export_format "tensor_format" is unsupported, '
                    f"expect the follow values: ['npy', None], but got {self._export_options['tensor_format']!r}."
                )
            if self._export_options.get("tensor_format"):
                self._export_dir = os.path.join(log_path, f"export_{time_second}")
        self._time_second = time_second
        self.file_info["file_name"] = get_event_file_name(self.file_prefix, self.file_suffix, time_second)
        self.file_info["file_path"] = os.path.join(log_path, self.file_info["file_name"])
        self._file = open(self.file_info["file_path"], "ab")  # noqa: SIM115 (closed by close())
        _link_for_tensorboard(self.file_info["file_path"])
        self._remaining = self.max_file_size
        self._write(_event.event(time.time(), 0, file_version="brain.Event:2"))
        atexit.register(self.close)

    # ------------------------------------------------------------------ context manager
    def __enter__(self):
        if self._status.get("closed"):
            raise ValueError(
                f'For "{self.__class__.__name__}", SummaryRecord has been closed, '
                "please check if close() method is called"
            )
        return self

    def __exit__(self, *err):
        self.close()

    # ------------------------------------------------------------------ API
    def set_mode(self, mode):
        """
        Set the model running phase: ``'train'`` or ``'eval'`` (in eval mode, summaries raised from inside the
        network are not recorded).

        Raises:
            ValueError: `mode` is not in the optional values.
        """
        if mode not in ("train", "eval"):
            raise ValueError(
                f'For "{self.__class__.__name__}.set_mode", {mode!r} is not a '
                'recognized mode, expect the parameter "mode" is "train" or "eval"'
            )
        self._mode = mode

    def add_value(self, plugin, name, value):
        """
        Add a value to be recorded by the next `record`.

        Args:
            plugin (str): ``'scalar'`` (a one-element Tensor), ``'image'`` (an [N, C, H, W] Tensor, C 1 or 3),
                ``'histogram'`` or ``'tensor'`` (any Tensor).
            name (str): The tag of the value.
            value (Tensor): The value to store.

        Raises:
            ValueError: `plugin` is not one of the above (graph and lineage plugins are not supported), or `name`
                is not a non-empty string.
            TypeError: `value` is not a Tensor.
        """
        if plugin in ("tensor", "scalar", "image", "histogram"):
            if not name or not isinstance(name, str):
                raise ValueError(
                    f'For "{self.__class__.__name__}", the parameter "name" type should be str, but got {type(name)}.'
                )
            if not isinstance(value, Tensor):
                raise TypeError(
                    f'For "{self.__class__.__name__}", the parameter "value" expect to be Tensor, '
                    f"but got {type(value).__name__}"
                )
            np_value = _to_numpy(plugin, value)
            if name in {item["tag"] for item in self._data_pool[plugin]}:
                _log.warning(
                    "For \"%s.add_value\", '%s/%s' has duplicate values. Only the newest one will be recorded.",
                    self.__class__.__name__,
                    name,
                    plugin,
                )
            self._data_pool[plugin].append({"tag": name, "value": np_value})
            return
        if plugin in ("graph", "train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data", "LANDSCAPE"):
            raise ValueError(
                f'For "{self.__class__.__name__}.add_value", the plugin {plugin!r} is not supported by sporax '
                "(TensorBoard files hold scalars, images, histograms and tensors)."
            )
        raise ValueError(
            f'For "{self.__class__.__name__}.add_value", no such "plugin" of {plugin!r} '
            ", expect value is one of [tensor, scalar, image, histogram, train_lineage, "
            "eval_lineage, dataset_graph, custom_lineage_data, graph, landscape]"
        )

    def record(self, step, train_network=None, plugin_filter=None):
        """
        Write the values added since the last call as one event at `step`.

        Args:
            step (int): Represents training step number.
            train_network (Cell): Kept for MindSpore compatibility (graphs are not recorded). Default: ``None``.
            plugin_filter (Callable[[str], bool], optional): Only plugins for which it returns True are written.
                Default: ``None``.

        Returns:
            bool, whether the record process is successful or not.

        Raises:
            TypeError: `step` is not int, or `train_network` is not a Cell.
        """
        from sporax.nn import Cell

        check_value_type("step", step, int)
        check_value_type("train_network", train_network, [Cell, type(None)])
        if self._status.get("closed"):
            _log.error(
                "For '%s', The record writer is closed, please check if close() method is called",
                self.__class__.__name__,
            )
            return False
        if self._mode == "train":
            self._add_summary_tensor_data()
        pool, self._data_pool = self._data_pool, defaultdict(list)
        values = []
        for plugin, items in pool.items():
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            for item in items:
                values.append(self._encode(plugin, item["tag"], item["value"], step))
        if not values:
            return True
        return self._write(_event.event(time.time(), step, summary=_event.summary(values)))

    def _encode(self, plugin, tag, arr, step):
        if plugin == "scalar":
            return _event.scalar_value(tag, float(arr.reshape(-1)[0]))
        if plugin == "histogram":
            return _histogram_value(tag, arr)
        if plugin == "image":
            return _image_value(tag, arr)
        if self._export_dir is not None:
            path = os.path.join(self._export_dir, "tensor")
            os.makedirs(path, exist_ok=True)
            np.save(os.path.join(path, f"{tag.replace('/', '_')}_{step}.npy"), arr)
        return _event.tensor_value(tag, arr)

    def _add_summary_tensor_data(self):
        for name, tensor in _get_summary_tensor_data().items():
            tag, plugin = self._parse_from(name)
            if (tag, plugin) == (None, None):
                _log.warning("The name(%r) is invalid, expected 'TAG[:TYPE]'.", name)
            else:
                self.add_value(plugin.lower(), tag, tensor)

    def _write(self, payload):
        record = _event.tfrecord(payload)
        with self._lock:
            try:
                if self._remaining is not None:
                    if len(record) > self._remaining:
                        raise RuntimeError(
                            f"'max_file_size' reached: There are {self._remaining} bytes remaining, but the "
                            f"'{self.file_info['file_path']}' requires to write {len(record)} bytes."
                        )
                    self._remaining -= len(record)
                self._file.write(record)
            except (RuntimeError, OSError) as err:
                if self.raise_exception:
                    raise
                _log.error("%s", err)
                return False
        return True

    @property
    def log_dir(self):
        """The full path of the event file."""
        return self.file_info["file_path"]

    def flush(self):
        """Write buffered events to disk."""
        if self._status.get("closed"):
            _log.error(
                "For '%s', the record writer is closed and can not flush, please check if close() method is called",
                self.__class__.__name__,
            )
        elif self._file is not None:
            with self._lock:
                self._file.flush()
                os.fsync(self._file.fileno())

    def _write_lineage(self, payload):
        """Append a LineageEvent (``_lineage.py``) to the ``..._lineage`` file beside the event file (made on the
        first one, as MindSpore's)."""
        if self._status.get("closed"):
            return
        name = get_event_file_name(self.file_prefix, "_lineage", self._time_second)
        path = os.path.join(os.path.dirname(self.file_info["file_path"]), name)
        with self._lock, open(path, "ab") as f:
            f.write(_event.tfrecord(payload))

    def close(self):
        """Flush the buffer, write the file to disk and close it."""
        if self._status.get("closed"):
            return
        atexit.unregister(self.close)
        if self._file is not None:
            with self._lock:
                self._file.flush()
                self._file.close()
        self._status["closed"] = True
        with _instance_lock:
            SummaryRecord.count -= 1

    @classmethod
    def _assert_single_instance(cls):
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, "
                f"you are trying to create a new one when the existing instance number is {cls.count}. "
                "Please check your scripts."
            )

    @staticmethod
    def _parse_from(name=None):
        """Parse the tag and type from 'TAG[:TYPE]'."""
        if not isinstance(name, str):
            return None, None
        match = re.match(r"(.+)\[:(.+)\]", name)
        if match:
            return match.groups()
        return None, None


def _summary_sink(summary):
    """ops.ScalarSummary / ImageSummary / TensorSummary / HistogramSummary inside a network hand their values
    here; they are kept for the open SummaryRecord's next ``record`` (with none open, nothing records them)."""
    if SummaryRecord.count > 0:
        _cache_summary_tensor_data(summary)


_register_summary_sink(_summary_sink)
