"""``Model`` (MindSpore's ``mindspore.train.Model``): train, eval, fit and predict with callbacks and metrics.

Networks are built as MindSpore builds them; the loops are in :mod:`sporax.train._loop` (a compiled step per
batch, or one host call per sink with ``dataset_sink_mode=True``, on every backend).
"""

from __future__ import annotations

import logging
from typing import Any

from .. import _checkparam as validator
from .. import nn
from ..boost import AutoBoost
from ..common.tensor import Tensor
from ..context import ParallelMode  # noqa: F401  (programs import mindspore.train.model.ParallelMode)
from ..dataset.engine.datasets import Dataset
from ..nn.cell import Cell
from ..nn.graph_cell import GraphCell
from ..parallel._shard import infer_layout
from ..parallel._utils import _get_device_num, _get_parallel_mode
from ._loop import _ModelLoops
from ._utils import DatasetMarks
from .callback import _CallbackManager, _InternalCallbackParam

__all__ = ["Model"]

_log = logging.getLogger("sporax")

_WARMUP_EPOCH = DatasetMarks()  # the epoch Model.build warmed each dataset up for


def _first_element(dataset: Any) -> list:
    it = dataset.create_tuple_iterator(num_epochs=1)
    try:
        return next(it)
    finally:
        it.stop()


class Model(_ModelLoops):
    """
    High-Level API for training or inference.

    `Model` groups layers into an object with training and inference features based on the arguments.

    Args:
        network (Cell): A training or testing network.
        loss_fn (Cell, optional): Objective function. If `loss_fn` is None, the `network` should contain the
            calculation of loss. Default: ``None`` .
        optimizer (Cell, optional): Optimizer for updating the weights. If `optimizer` is None, the `network`
            needs to do backpropagation and update weights. Default: ``None`` .
        metrics (Union[dict, set], optional): A Dictionary or a set of metrics for model evaluation,
            eg: {'accuracy', 'recall'}. Default: ``None`` .
        eval_network (Cell, optional): Network for evaluation. If not defined, `network` and `loss_fn` are
            wrapped as `eval_network` . Default: ``None`` .
        eval_indexes (list, optional): With `eval_network`: the positions of the loss value, the predicted value
            and the label in its outputs. Default: ``None`` .
        amp_level (str, optional): Level for mixed precision training (see
            :func:`sporax.amp.build_train_network`), "O0", "O1", "O2", "O3" or "auto". Default: ``"O0"`` .
        boost_level (str, optional): Boost mode level, "O0", "O1" or "O2": with O1/O2 (and an optimizer, and
            metrics or an eval network) the network and optimizer go through :class:`sporax.boost.AutoBoost`
            and train with a boost train cell. Default: ``"O0"`` .
        kwargs: ``loss_scale_manager`` (a :class:`sporax.amp.LossScaleManager`) and ``keep_batchnorm_fp32``
            (bool) for mixed precision.

    Examples:
        >>> import sporax as ms
        >>> from sporax import nn
        >>> from sporax.train import Model
        >>> net = nn.Dense(10, 3)
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
        >>> optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
        >>> model.train_network
        >>> model.predict_network
        >>> model.eval_network
    """

    def __init__(
        self,
        network: Cell,
        loss_fn: Cell | None = None,
        optimizer: Cell | None = None,
        metrics: Any = None,
        eval_network: Cell | None = None,
        eval_indexes: list | None = None,
        amp_level: str = "O0",
        boost_level: str = "O0",
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = None
        self._loss_scale_manager_set = False
        self._keep_bn_fp32 = None
        validator.check_model_kwargs(kwargs)
        self._amp_level = amp_level
        self._boost_level = kwargs.get("acc_level", boost_level)
        self._eval_network = eval_network
        self._eval_indexes: list | None = None
        self._process_amp_args(kwargs)
        self._parallel_mode = _get_parallel_mode()
        self._device_number = _get_device_num()
        self._metrics = metrics
        validator.check_model_amp_level(optimizer, amp_level)
        self._graph_cell_rules(kwargs)
        self._build_boost_network(kwargs)
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._build_predict_network()

    # ------------------------------------------------------------ building
    def _build_boost_network(self, kwargs: dict) -> None:
        """Level O1/O2: the network and optimizer as :class:`AutoBoost` processes them (MindSpore's rules:
        an optimizer, and metrics or an eval network, are needed; otherwise a warning and no boost)."""
        processor = AutoBoost(self._boost_level, kwargs.get("boost_config_dict", ""))
        if processor.level not in ("O1", "O2"):
            return
        if self._optimizer is None:
            _log.warning("In boost mode, the optimizer must be defined.")
            return
        if self._eval_network is None and self._metrics is None:
            _log.warning("In boost mode, the eval_network and metrics cannot be undefined at the same time.")
            return
        self._network, self._optimizer = processor.network_auto_process_train(self._network, self._optimizer)
        if self._eval_network is not None:
            self._eval_network = processor.network_auto_process_eval(self._eval_network)

    def _process_amp_args(self, kwargs: dict) -> None:
        if "keep_batchnorm_fp32" in kwargs:
            self._keep_bn_fp32 = kwargs["keep_batchnorm_fp32"]
        if "loss_scale_manager" in kwargs:
            self._loss_scale_manager = kwargs["loss_scale_manager"]
            self._loss_scale_manager_set = True

    def _graph_cell_rules(self, kwargs: dict) -> None:
        if not isinstance(self._network, GraphCell):
            return
        if self._amp_level != "O0":
            _log.warning("amp_level will not work when network is a GraphCell.")
        validator.check_graph_cell_args(self._loss_fn, self._optimizer, kwargs)

    def _build_train_network(self) -> Cell:
        network = self._network
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the 'network' must be a Cell, but got {type(network).__name__}.")
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if self._optimizer is not None:
            # As MindSpore: always through amp.build_train_network (at O0: WithLossCell + TrainOneStepCell;
            # it also trains a GradAccumulationCell on the mean gradient).
            return self._build_amp_network()
        if self._loss_fn is not None:
            return nn.WithLossCell(network, self._loss_fn)
        return network

    def _build_amp_network(self) -> Cell:
        from .. import amp

        amp_config: dict[str, Any] = {}
        if self._loss_scale_manager_set:
            amp_config["loss_scale_manager"] = self._loss_scale_manager
        if self._keep_bn_fp32 is not None:
            amp_config["keep_batchnorm_fp32"] = self._keep_bn_fp32
        return amp.build_train_network(
            self._network,
            self._optimizer,
            self._loss_fn,
            level=self._amp_level,
            boost_level=self._boost_level,
            **amp_config,
        )

    def _build_eval_network(self, metrics: Any, eval_network: Cell | None, eval_indexes: list | None) -> None:
        self._metric_fns: dict = {}
        if metrics is None:
            return
        from .metrics import get_metrics

        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(
                    "The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                    f"length of it must be three. But got 'eval_indexes' {eval_indexes}"
                )
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError(
                "If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you"
                " don't want an evaluation.\n"
                "If evaluation is required, you need to specify `eval_network`, which will be used in"
                " the framework to evaluate the model.\n"
                "For the simple scenarios with one data, one label and one logits, `eval_network` is"
                " optional, and then you can set `eval_network` or `loss_fn`. For the latter case,"
                " framework will automatically build an evaluation network with `network` and"
                " `loss_fn`."
            )
        self._eval_network = nn.WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    def _build_predict_network(self) -> None:
        self._predict_network = self._network

    @property
    def train_network(self) -> Cell:
        """Get the model's train network."""
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        """Get the model's predict network."""
        return self._predict_network

    @property
    def eval_network(self) -> Cell | None:
        """Get the model's eval network."""
        return self._eval_network

    # ------------------------------------------------------------ train
    def _train_sink_size(
        self, api: str, epoch: Any, train_dataset: Any, dataset_sink_mode: bool, sink_size: Any, initial_epoch: Any
    ) -> int:
        """The train arguments checked (MindSpore's order), and the steps per sink (-1: the dataset's size)."""
        if isinstance(self._train_network, GraphCell) and dataset_sink_mode:
            raise ValueError("Dataset sink mode is currently not supported when training with a GraphCell.")
        validator.check_is_type(sink_size, int, "sink_size", api)
        validator.check_count(epoch, "epoch", api, 1)
        validator.check_count(initial_epoch, "initial_epoch", api, 0)
        validator.check_dataset_arg("train_dataset", train_dataset, Dataset, api)
        validator.check_epochs(epoch, initial_epoch, api)
        validator.check_build_epoch(_WARMUP_EPOCH.get(train_dataset), epoch, api)
        dataset_size = validator.check_dataset_size(train_dataset.get_dataset_size())
        if sink_size == -1:
            sink_size = dataset_size
        return validator.check_model_sink_size(sink_size, api)

    def train(
        self,
        epoch: int,
        train_dataset: Any,
        callbacks: Any = None,
        dataset_sink_mode: bool = False,
        sink_size: int = -1,
        initial_epoch: int = 0,
    ) -> None:
        """
        Training API.

        Note:
            With `dataset_sink_mode=True` every epoch is one sink of `sink_size` steps run as one host call
            (on every backend), and the callbacks' step hooks run once per sink with `cur_step_num` advanced by
            `sink_size`. If `sink_size` > 0, each epoch takes the next `sink_size` batches, continuing across the
            dataset's epochs where the previous sink stopped.

        Args:
            epoch (int): Total training epochs. With `initial_epoch`, the final epoch.
            train_dataset (Dataset): A training dataset iterator. With `loss_fn`, it yields (data, label);
                otherwise its columns are the train network's inputs.
            callbacks (Optional[list[Callback], Callback], optional): Callbacks run while training.
                Default: ``None``.
            dataset_sink_mode (bool, optional): Run `sink_size` steps per host call. Default: ``False``.
            sink_size (int, optional): Steps per sink, -1 for the dataset size. Only used in sink mode.
                Default: ``-1``.
            initial_epoch (int, optional): Epoch at which to start train, for resuming a previous run: the
                dataset continues at that epoch's data. Default: ``0``.

        Examples:
            >>> model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
            >>> model.train(2, dataset)
        """
        validator.check_arg_type("dataset_sink_mode", dataset_sink_mode, bool, "Model")
        sink_size = self._train_sink_size(
            "Model.train", epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch
        )
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

    def fit(
        self,
        epoch: int,
        train_dataset: Any,
        valid_dataset: Any = None,
        valid_frequency: Any = 1,
        callbacks: Any = None,
        dataset_sink_mode: bool = False,
        valid_dataset_sink_mode: bool = False,
        sink_size: int = -1,
        initial_epoch: int = 0,
    ) -> None:
        """
        Fit API: training, with an evaluation of `valid_dataset` after every `valid_frequency` epochs.

        Args:
            epoch (int): Total training epochs.
            train_dataset (Dataset): A training dataset iterator.
            valid_dataset (Dataset, optional): Dataset to evaluate the model. Default: ``None`` .
            valid_frequency (int, list, optional): Evaluate every `valid_frequency` epochs (int), or at the end of
                the listed epochs (list). Default: ``1`` .
            callbacks ([list[Callback], Callback], optional): Callbacks run while training. Default: ``None`` .
            dataset_sink_mode (bool, optional): Sink the training data. Default: ``False`` .
            valid_dataset_sink_mode (bool, optional): Sink the validation data. Default: ``False`` .
            sink_size (int, optional): Steps per sink. Default: ``-1`` .
            initial_epoch (int, optional): Epoch at which to start train. Default: ``0`` .

        Examples:
            >>> model = Model(net, loss_fn=loss, optimizer=optim, metrics={"accuracy"})
            >>> model.fit(2, train_dataset, valid_dataset)
        """
        validator.check_arg_type("dataset_sink_mode", dataset_sink_mode, bool, "Model")
        validator.check_arg_type("valid_dataset_sink_mode", valid_dataset_sink_mode, bool, "Model")
        sink_size = self._train_sink_size(
            "Model.fit", epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch
        )
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError(
                "For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got type "
                f"{type(valid_frequency)}."
            )
        if valid_dataset and not self._metric_fns:
            raise ValueError(
                "For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                "None or empty, you should set the argument 'metrics' for model."
            )
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "fit")
        self._train(
            epoch,
            train_dataset,
            callbacks,
            dataset_sink_mode,
            sink_size,
            initial_epoch,
            valid_infos=(valid_dataset, valid_frequency, valid_dataset_sink_mode),
        )

    # ------------------------------------------------------------ eval
    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> dict:
        """
        Evaluation API.

        Args:
            valid_dataset (Dataset): Dataset to evaluate the model.
            callbacks (Optional[list(Callback), Callback], optional): Callbacks run while evaluating.
                Default: ``None`` .
            dataset_sink_mode (bool, optional): Accepted as in MindSpore, where an evaluation sink is one step per
                call: the evaluation runs step by step either way. Default: ``False`` .

        Returns:
            Dict, the key is the metric name defined by users and the value is the metrics value for
            the model in the test mode.

        Examples:
            >>> model = Model(net, loss_fn=loss, optimizer=None, metrics={'acc'})
            >>> acc = model.eval(dataset, dataset_sink_mode=False)
        """
        validator.check_arg_type("dataset_sink_mode", dataset_sink_mode, bool, "Model")
        if not self._metric_fns:
            raise ValueError(
                "For Model.eval, the model argument 'metrics' can not be None or empty, "
                "you should set the argument 'metrics' for model."
            )
        if isinstance(self._eval_network, GraphCell) and dataset_sink_mode:
            raise ValueError("Sink mode is currently not supported when evaluating with a GraphCell.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "eval")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        validator.check_dataset_arg("valid_dataset", valid_dataset, Dataset, "Model.eval")
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        self._clear_metrics()
        with _CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params, dataset_sink_mode)

    # ------------------------------------------------------------ predict
    def predict(self, *predict_data: Any, backend: Any = None, config: Any = None) -> Any:
        """
        Generate output predictions for the input samples.

        Args:
            predict_data (Union[Tensor, list[Tensor], tuple[Tensor]], optional): The predict data.
            backend (str): Only ``None`` (MindSpore Lite is not part of sporax). Default: ``None`` .
            config (dict, optional): Ignored (MindSpore Lite's configuration). Default: ``None`` .

        Returns:
            Tensor, array(s) of predictions.

        Examples:
            >>> input_data = Tensor(np.random.randint(0, 255, [1, 1, 32, 32]), ms.float32)
            >>> model = Model(LeNet5())
            >>> result = model.predict(input_data)
        """
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}")
        if backend == "lite":
            _log.warning("Lite inference is not part of sporax, fallback to original inference!")
        for item in predict_data:
            if item is None:
                continue
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
                continue
            if not isinstance(item, (int, float, str, tuple, list, dict)):
                data_class_str = "Tensor, None, int, float, str"
                raise TypeError(
                    f"The types of input data must be in the Union({data_class_str}, tuple[{data_class_str}], "
                    f"list[{data_class_str}], dict[{data_class_str}]), but got type {type(item).__name__}."
                )
        self._check_network_mode(self._predict_network, False)
        return self._predict_network(*predict_data)

    # ------------------------------------------------------------ build
    def infer_train_layout(self, train_dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1) -> dict:
        """The layout of every Parameter the train network's strategies split, in semi-auto parallel
        (MindSpore's ``parameter_layout_dict``: ``[device_matrix, tensor_map, ...]`` by name), from one forward
        pass on the dataset's first batch without updating anything."""
        if _get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
            if not validator.check_bool(dataset_sink_mode, "dataset_sink_mode"):
                raise ValueError("Only dataset sink mode is supported for now.")
            validator.check_is_int(sink_size, "sink_size")
            validator.check_dataset_size(train_dataset.get_dataset_size())
            if sink_size < -1 or sink_size == 0:
                raise ValueError(
                    "For 'infer_train_layout', the argument 'sink_size' must be -1 or positive, "
                    f"but got sink_size {sink_size}."
                )
            return infer_layout(self, "train", tuple(_first_element(train_dataset)))
        return infer_layout(self, "train", ())

    def infer_predict_layout(self, *predict_data: Any, skip_backend_compile: bool = False) -> dict:
        """The layout of every Parameter the predict network's strategies split, in semi-auto parallel, from
        one forward pass on ``predict_data``."""
        return infer_layout(self, "predict", predict_data)

    def build(
        self,
        train_dataset: Any = None,
        valid_dataset: Any = None,
        sink_size: int = -1,
        epoch: int = 1,
        sink_mode: bool = True,
    ) -> None:
        """
        Build the train and eval networks for the datasets before training (MindSpore's graph warm-up): checks
        the datasets against the networks and compiles the steps for their first batch, so that `train` and
        `eval` start at once. The train step is compiled by running it once on the first batch, after which every
        Parameter and the random state are put back: the training that follows is unchanged. A sink's program
        (`dataset_sink_mode=True`) is compiled at the first sink.

        Args:
            train_dataset (Dataset, optional): A training dataset. Default: ``None`` .
            valid_dataset (Dataset, optional): An evaluating dataset; needs `metrics`. Default: ``None`` .
            sink_size (int, optional): Control the number of steps for each sinking. Default: ``-1`` .
            epoch (int, optional): Control the training epochs: `train` must then use the same. Default: ``1`` .
            sink_mode (bool, optional): Build for dataset sink mode. Default: ``True`` .

        Examples:
            >>> model = Model(net, loss_fn=loss, optimizer=optim)
            >>> model.build(dataset, epoch=2)
            >>> model.train(2, dataset)
        """
        validator.check_count(epoch, "epoch", "Model.build", 1)
        if not train_dataset and not valid_dataset:
            raise ValueError("The argument 'train_dataset' and 'valid_dataset' can not both be None or empty.")
        from ..dataset import Dataset

        if train_dataset:
            if not isinstance(train_dataset, Dataset):
                raise TypeError(f"The type of 'train_dataset' must be `Dataset`, but got {type(train_dataset)}.")
            _WARMUP_EPOCH.set(train_dataset, epoch)
            element = _first_element(train_dataset)
            self._first_batch_fits(self._train_network, element, train_dataset)
            self._train_network.set_train(True)
            self._backbone_is_train = True
            self._warm_up(self._train_network, element)
        if valid_dataset:
            if not isinstance(valid_dataset, Dataset):
                raise TypeError(f"The type of 'valid_dataset' must be `Dataset`, but got {type(valid_dataset)}.")
            if not self._metric_fns:
                raise RuntimeError(
                    "If define `valid_dataset`, metric fn can not be None or empty, "
                    "you should set the argument 'metrics' for model."
                )
            element = _first_element(valid_dataset)
            validator.check_dataset_columns(
                self._eval_network, len(element), valid_dataset.get_col_names(), Cell, "eval"
            )
            self._eval_network.set_train(False)
            self._backbone_is_train = False
            self._warm_up(self._eval_network, element)

    def _warm_up(self, network: Cell, element: list) -> None:
        """Compile ``network``'s step for ``element`` by running it, then restore its Parameters and the RNG."""
        from ..common.seed import get_rng_state, set_rng_state

        params = list(network.get_parameters())
        saved = [Tensor(p) for p in params]  # copies
        rng = get_rng_state()
        self._step_of(network)(*element)
        for p, value in zip(params, saved, strict=True):
            p.set_data(value)
        set_rng_state(rng)
