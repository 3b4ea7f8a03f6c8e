"""Callbacks (MindSpore's ``mindspore.train.callback``)."""

from ._backup_and_restore import BackupAndRestore
from ._callback import Callback, RunContext, _CallbackManager, _handle_loss, _InternalCallbackParam
from ._cur_net import checkpoint_cb_for_save_op as _checkpoint_cb_for_save_op
from ._cur_net import set_cur_net as _set_cur_net
from ._checkpoint import CheckpointConfig, ModelCheckpoint, _CheckpointManager, _chg_ckpt_file_name_if_same_exist
from ._early_stop import EarlyStopping
from ._flops_collector import FlopsUtilizationCollector
from ._history import History
from ._landscape import SummaryLandscape
from ._lambda_callback import LambdaCallback
from ._loss_monitor import LossMonitor
from ._lr_scheduler_callback import LearningRateScheduler
from ._on_request_exit import OnRequestExit
from ._progress_bar import ProgressBar
from ._reduce_lr_on_plateau import ReduceLROnPlateau
from ._summary_collector import SummaryCollector
from ._time_monitor import TimeMonitor
from ._train_fault_tolerance import TrainFaultTolerance

__all__ = [
    "Callback",
    "LossMonitor",
    "TimeMonitor",
    "ModelCheckpoint",
    "SummaryCollector",
    "CheckpointConfig",
    "RunContext",
    "LearningRateScheduler",
    "History",
    "LambdaCallback",
    "ReduceLROnPlateau",
    "EarlyStopping",
    "OnRequestExit",
    "BackupAndRestore",
    "ProgressBar",
    "FlopsUtilizationCollector",
    "TrainFaultTolerance",
    "SummaryLandscape",
]
