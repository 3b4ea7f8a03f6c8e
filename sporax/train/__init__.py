"""``sporax.train`` (MindSpore's ``mindspore.train``): checkpoints; Model, callbacks and metrics."""

from .callback import Callback, RunContext
from .serialization import (
    load_checkpoint,
    load_checkpoint_async,
    load_param_into_net,
    save_checkpoint,
)
