"""TrainFaultTolerance callback: save the last consistent weights when training fails."""

from __future__ import annotations

import logging
import os
import shutil

from ._callback import Callback

_log = logging.getLogger("sporax")

# MindIO TFT switches (MS_ENABLE_TFT) that need Ascend hardware and Huawei's MindIO controller.
_ASCEND_ONLY = ("UCE:1", "ARF:1", "HCCE:1", "TSP:1", "TRE:1", "TRE:2", "ATO:1")


def _ckpt_dir(step, ckpt_save_path, tmp):
    return os.path.join(ckpt_save_path, f"ttp_saved_checkpoints-step_{step}{'_tmp' if tmp else ''}")


class TrainFaultTolerance(Callback):
    """
    Save a checkpoint of the last completed step when the training raises (MindSpore's TTP, "try to persist":
    MindIO TFT's save-on-failure), then let the error through.

    A compiled sporax step writes the network's new weights and optimizer state only after it succeeded, so
    on a failure they are those of the last completed step. They are saved to
    ``<ckpt_save_path>/ttp_saved_checkpoints-step_<step>/rank_<id>/ttp_rank_<id>-<epoch>_<step in epoch>.ckpt``
    (written under a ``_tmp`` name first, renamed when complete), with ``epoch_num``, ``step_num``,
    ``cur_rank``, ``batch_num``, ``global_step`` and ``__exception_save__`` in the file.

    Args:
        ckpt_save_path (str, optional): Where to save on failure. Default: ``None``.
        kwargs (dict): ``ckpt_save_fn``: a function ``save_ckpt(cb_params, append_dict)`` used instead of the
            default save (it is preferred when both are given); ``initial_step`` (int). One of
            `ckpt_save_path` and ``ckpt_save_fn`` is required.

    Raises:
        ValueError: Neither `ckpt_save_path` nor ``ckpt_save_fn`` is given, or ``MS_ENABLE_TFT`` asks for a
            recovery that needs Ascend hardware and MindIO (UCE, ARF, HCCE, TSP, TRE, ATO).
    """

    _builtin_callback = True

    def __init__(self, ckpt_save_path=None, **kwargs):
        super().__init__()
        env = os.getenv("MS_ENABLE_TFT", "")
        asked = [flag for flag in _ASCEND_ONLY if flag in env]
        if asked:
            raise ValueError(
                f"For 'TrainFaultTolerance', MS_ENABLE_TFT asks for {asked}: these recoveries need Ascend devices "
                "and the MindIO TFT controller; on XLA only saving on failure (TTP) is available."
            )
        self.save_cb = kwargs.get("ckpt_save_fn", None)
        self.ckpt_save_path = ckpt_save_path
        if self.save_cb is None and self.ckpt_save_path is None:
            raise ValueError("TrainFaultTolerance construct need to set ckpt_save_fn or ckpt_save_path!")
        self.initial_step = kwargs.get("initial_step", 0)
        self.cb_params = None
        self.cur_step_num = 0
        self.cur_epoch_num = 0
        self.global_step = None
        self.saved_path = None

    def on_train_begin(self, run_context):
        self.cb_params = run_context.original_args()

    def on_train_step_end(self, run_context):
        """Remember the step the weights belong to."""
        cb_params = run_context.original_args()
        self.cb_params = cb_params
        self.cur_step_num = cb_params.cur_step_num
        self.cur_epoch_num = cb_params.cur_epoch_num
        optimizer = cb_params.get("optimizer", None) if hasattr(cb_params, "get") else None
        step = getattr(optimizer, "global_step", None)
        self.global_step = int(step.asnumpy().reshape(-1)[0]) if hasattr(step, "asnumpy") else self.cur_step_num

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is None or not issubclass(exc_type, Exception) or self.cb_params is None or not self.cur_step_num:
            return None
        try:
            self._save_on_failure()
        except Exception as err:  # the training error is the one to report
            _log.error("TrainFaultTolerance could not save the checkpoint on failure: %s", err)
        return None

    def _save_on_failure(self):
        from ...communication import get_rank
        from ..serialization import save_checkpoint

        cb_params = self.cb_params
        cb_params.cur_step_num = self.cur_step_num
        cb_params.cur_epoch_num = self.cur_epoch_num
        append_dict = {"__exception_save__": True}
        if self.save_cb:
            self.save_cb(cb_params, append_dict)
            return
        rank = get_rank()
        batch_num = cb_params.batch_num
        step_in_epoch = int((self.cur_step_num - 1) % batch_num + 1)
        append_dict.update(
            epoch_num=self.cur_epoch_num,
            step_num=self.cur_step_num,
            cur_rank=rank,
            batch_num=batch_num,
            global_step=self.global_step,
        )
        tmp_dir = _ckpt_dir(self.cur_step_num, self.ckpt_save_path, True)
        rank_dir = os.path.join(tmp_dir, f"rank_{rank}")
        os.makedirs(rank_dir, exist_ok=True)
        name = f"ttp_rank_{rank}-{self.cur_epoch_num}_{step_in_epoch}.ckpt"
        save_checkpoint(cb_params.train_network, os.path.join(rank_dir, name), append_dict=append_dict)
        final = _ckpt_dir(self.cur_step_num, self.ckpt_save_path, False)
        if os.path.exists(final):
            shutil.rmtree(final)
        os.rename(tmp_dir, final)
        self.saved_path = os.path.join(final, f"rank_{rank}", name)
        _log.warning("TrainFaultTolerance saved the weights of step %s to %s", self.cur_step_num, self.saved_path)
