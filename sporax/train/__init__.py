"""``sporax.train`` (MindSpore's ``mindspore.train``): checkpoints; Model, callbacks and metrics."""

from . import callback, metrics
from .callback import (
    BackupAndRestore,
    Callback,
    CheckpointConfig,
    EarlyStopping,
    FlopsUtilizationCollector,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    OnRequestExit,
    ProgressBar,
    ReduceLROnPlateau,
    RunContext,
    SummaryCollector,
    SummaryLandscape,
    TimeMonitor,
    TrainFaultTolerance,
)
from .metrics import *  # noqa: F403
from .metrics import get_metrics
from .summary import SummaryRecord
from .data_sink import data_sink
from .dataset_helper import DatasetHelper, connect_network_with_dataset
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from . import amp
from .amp import build_train_network
from .model import Model
from ._ckpt_convert import async_ckpt_thread_status, ckpt_to_safetensors, safetensors_to_ckpt
from .serialization import (
    load_checkpoint,
    load_checkpoint_async,
    load_param_into_net,
    save_checkpoint,
)
from ._export import export
from ._mindir_io import export_split_mindir, load
from ._export_obf import load_obf_params_into_net, obfuscate_ckpt
from ..common._mindir_file import load_mindir, save_mindir  # top-level mindspore.save_mindir / load_mindir
from ..parallel._checkpoint import get_ckpt_path_with_strategy, load_distributed_checkpoint, merge_sliced_parameter
from ..parallel._strategy import build_searched_strategy, restore_group_info_list
from .train_thor import ConvertModelUtils, ConvertNetUtils  # THOR (nn.thor)
from ..boost import base as _boost_base  # noqa: E402

_boost_base.register_checkpoint_loader(load_checkpoint)  # DimReduce reads saved weights (boost is below train)
