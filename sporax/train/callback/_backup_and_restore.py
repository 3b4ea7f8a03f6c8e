"""BackupAndRestore callback."""

from __future__ import annotations

import json
import logging
import os
import stat

import numpy as np

from sporax.common.generator import _seed_mod as _seed  # the module: sporax.common.seed is the function
from sporax.common.tensor import Tensor

from ..._checkparam import check_bool, check_positive_int
from .._param_load import _plan_load, _warn_not_loaded
from .._utils import make_directory
from ..serialization import load_checkpoint, save_checkpoint
from ._callback import Callback

_log = logging.getLogger("sporax")

_EPOCH = "__backup_epoch_num__"
_STEP = "__backup_step_num__"
_RNG_SEED = "__backup_rng_seed__"
_RNG_KEY = "__backup_rng_key__"
_RNG_HOST = "__backup_rng_host__"
_LSM = "__backup_loss_scale_manager__."
_LSM_ATTRS = ("loss_scale", "cur_iter", "last_overflow_iter", "_loss_scale", "_cur_iter", "_last_overflow_iter")


def _train_params(cb_params):
    """The parameters to back up: the train network's, then the optimizer's that the network does not hold."""
    params = list(cb_params.train_network.get_parameters())
    seen = {id(p) for p in params}
    optimizer = cb_params.get("optimizer")
    if optimizer is not None and hasattr(optimizer, "get_parameters"):
        params += [p for p in optimizer.get_parameters() if id(p) not in seen]
    names = set()
    unique = []
    for p in params:
        if p.name not in names:
            names.add(p.name)
            unique.append(p)
    return unique


def _loss_scale_manager(cb_params):
    return cb_params.get("loss_scale_manager", cb_params.get("loss_scale_mananger"))


class BackupAndRestore(Callback):
    """
    Callback to back up and restore the parameters during training.

    At the end of every `save_freq` epochs, the train network's parameters (with the optimizer's state:
    moments, global step, learning rate), the random state, the loss-scale manager's state and the epoch and
    step counters are written atomically to ``backup_dir/backup.ckpt``. When training starts and that file
    exists, everything is restored, and `Model` resumes after the saved epoch, so that an interrupted and
    resumed run gives the losses of an uninterrupted one.

    Note:
        This function can only be used in training.

    Args:
        backup_dir (str): Path to store and load the checkpoint file.
        save_freq (Union["epoch", int], optional): ``"epoch"`` saves at the end of each epoch; an integer saves
            every `save_freq` epochs. Default: ``"epoch"`` .
        delete_checkpoint (bool, optional): Whether to delete the backup when training finishes.
            Default: ``True`` .

    Raises:
        ValueError: If backup_dir is not str.
        ValueError: If save_freq is not ``"epoch"`` or int.
        ValueError: If delete_checkpoint is not bool.

    Examples:
        >>> from sporax.train import BackupAndRestore
        >>> backup_ckpt = BackupAndRestore("backup")
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        ckpt_dir = make_directory(backup_dir)
        self.backup_file = os.path.join(ckpt_dir, "backup.ckpt")
        if save_freq != "epoch":
            self.save_freq = check_positive_int(save_freq)
        else:
            self.save_freq = 1
        self.delete_checkpoint = check_bool(delete_checkpoint)
        self.restored_epoch = 0
        self.restored_step = 0

    def on_train_begin(self, run_context):
        """
        Load the backup checkpoint file, if there is one, and tell the training loop where to resume.

        Sets ``cb_params["resume_epoch"]`` and ``cb_params["resume_step"]`` (the epoch and global step that
        were complete when the backup was saved).
        """
        self.restored_epoch = 0
        self.restored_step = 0
        if not os.path.exists(self.backup_file):
            return
        cb_params = run_context.original_args()
        _log.info("Restore checkpoint file is %s, load checkpoint into train net.", self.backup_file)
        param_dict = load_checkpoint(self.backup_file)
        train_net = cb_params.train_network
        # the network's and the optimizer's values are all checked before any is assigned (all or nothing)
        pending, not_loaded, _ = _plan_load(train_net, param_dict, False)
        optimizer = cb_params.get("optimizer")
        if optimizer is not None and hasattr(optimizer, "parameters_and_names"):
            ids = {id(p) for p in train_net.get_parameters()}
            own = {
                p.name: param_dict[p.name]
                for p in optimizer.get_parameters()
                if id(p) not in ids and p.name in param_dict
            }
            if own:
                pending += _plan_load(optimizer, own, False)[0]
        for param, value in pending:
            param.set_data(value)
        _warn_not_loaded(not_loaded)
        if _RNG_KEY in param_dict and _RNG_HOST in param_dict:
            seed = int(param_dict[_RNG_SEED].asnumpy()) if _RNG_SEED in param_dict else None
            _seed.set_rng_state(
                {"seed": seed, "key": param_dict[_RNG_KEY].asnumpy(), "host": json.loads(param_dict[_RNG_HOST])}
            )
        manager = _loss_scale_manager(cb_params)
        if manager is not None:
            for attr in _LSM_ATTRS:
                if _LSM + attr in param_dict and hasattr(manager, attr):
                    value = param_dict[_LSM + attr].asnumpy().item()
                    setattr(manager, attr, type(getattr(manager, attr))(value))
        if _EPOCH in param_dict:
            self.restored_epoch = int(param_dict[_EPOCH].asnumpy())
            self.restored_step = int(param_dict[_STEP].asnumpy())
            cb_params["resume_epoch"] = self.restored_epoch
            cb_params["resume_step"] = self.restored_step
            # Where the restored run stands: when it had already finished there is nothing left to train, and
            # the closing callbacks (ModelCheckpoint.end, on_train_end) see the epoch and step it ended at.
            cb_params.cur_epoch_num = self.restored_epoch
            cb_params.cur_step_num = self.restored_step
            total = cb_params.get("epoch_num")
            if isinstance(total, int) and self.restored_epoch >= total:
                _log.warning(
                    "BackupAndRestore: %s records a finished run (epoch %d of %d): nothing to train.",
                    self.backup_file,
                    self.restored_epoch,
                    total,
                )

    def on_train_epoch_end(self, run_context):
        """Back up the training state at the end of every `save_freq` epochs."""
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.cur_epoch_num
        if cur_epoch_num % self.save_freq != 0:
            return
        _log.info("Train epoch end, backup checkpoint file: %s.", self.backup_file)
        append = {_EPOCH: int(cur_epoch_num), _STEP: int(cb_params.get("cur_step_num", 0))}
        rng = _seed.get_rng_state()
        if rng["seed"] is not None:
            append[_RNG_SEED] = int(rng["seed"])
        append[_RNG_KEY] = Tensor(np.asarray(rng["key"]))
        append[_RNG_HOST] = json.dumps(rng["host"])
        manager = _loss_scale_manager(cb_params)
        if manager is not None:
            for attr in _LSM_ATTRS:
                value = getattr(manager, attr, None)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    append[_LSM + attr] = value
        save_checkpoint(_train_params(cb_params), self.backup_file, append_dict=append)

    def on_train_end(self, run_context):
        """Delete the backup file at the end of training (if `delete_checkpoint`)."""
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            cb_params = run_context.original_args()
            _log.info(
                "Delete restore checkpoint file %s at %s epoch.", self.backup_file, cb_params.get("cur_epoch_num")
            )
            os.chmod(self.backup_file, stat.S_IWRITE)
            os.remove(self.backup_file)
