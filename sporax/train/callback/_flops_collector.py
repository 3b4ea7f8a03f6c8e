"""FlopsUtilizationCollector callback: model / hardware FLOPs utilisation (MFU / HFU) of the training step."""

from __future__ import annotations

import logging
import os
import stat
import time
from math import floor

from ..._checkparam import check_bool, check_positive_int
from ...common._runtime_api import flops_of
from ._callback import Callback

_log = logging.getLogger("sporax")


class FlopsUtilizationCollector(Callback):
    """
    Print the model FLOPs utilisation (MFU) and hardware FLOPs utilisation (HFU) of each step.

    The FLOPs of one step are XLA's cost analysis of the compiled step (every floating-point operation of the
    forward, backward and optimizer update; MindSpore counts MatMul, BatchMatMul, convolutions and attention
    only). Model and hardware FLOPs are equal (the executable is what runs, recomputation included). The
    utilisation is ``FLOPs / computility / step time``.

    Args:
        data_size (int): The number of steps between prints.
        computility (int, optional): The peak FLOPs per second of one device. Default: ``1`` .
        full_flops (bool, optional): Report the whole model's FLOPs (summed over the data-parallel group) or
            this device's share. Default: ``True`` .
        enable_ma_collector (bool, optional): Also write the FLOPs and step times to
            ``$MA_LOG_DIR/flops_rank_<id>.txt`` and ``time_step_rank_<id>.txt``. Default: ``False`` .

    Raises:
        TypeError: If `data_size` is not a positive int, or `full_flops` / `enable_ma_collector` are not bool.
        ValueError: The step is not compiled (it runs eagerly).
    """

    _builtin_callback = True

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ""
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size = None
        check_bool(full_flops, "full_flops")
        check_bool(enable_ma_collector, "enable_ma_collector")
        check_positive_int(data_size, "data_size")

    def step_begin(self, run_context):
        """Record the time at the beginning of the step."""
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = getattr(run_context.original_args(), "batch_num", None)
            if isinstance(batch_num, int) and batch_num > 0:
                self.batch_step_size = batch_num
            check_positive_int(self.batch_step_size)
        self.step_time = time.time()

    def _fail(self, msg):
        if self.verbose:
            raise ValueError(msg)
        _log.info(msg)
        return False

    def _collect(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode not in ("train", "eval"):
            return self._fail("FlopsUtilizationCollector only support train and eval mode!")
        network = cb_params.train_network if cb_params.mode == "train" else cb_params.eval_network
        flops = flops_of(network)
        if flops is None:
            return self._fail("FlopsUtilizationCollector now only support graph mode.")
        from ...communication import get_group_size

        group = get_group_size() if _parallel_mode() != "stand_alone" else 1
        self.shard_model_flops = self.shard_hardware_flops = flops
        self.full_model_flops = self.full_hardware_flops = flops * group
        return True

    def step_end(self, run_context):
        """Print the step time and the utilisation."""
        step_ms = (time.time() - self.step_time) * 1000
        cb_params = run_context.original_args()
        rank_id = _rank()
        if not self.mfu_calculated:
            if not self._collect(run_context):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            log_dir = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            if self.ma:
                self.time_step_path = os.path.join(log_dir, f"time_step_rank_{rank_id}.txt")
                stamp = int(round(time.time() * 1000))
                flags, modes = os.O_WRONLY | os.O_CREAT, stat.S_IWUSR | stat.S_IRUSR
                with os.fdopen(os.open(os.path.join(log_dir, f"flops_rank_{rank_id}.txt"), flags, modes), "w") as f:
                    f.write(f'flops{{type="model_flops", rank_id="{rank_id}"}} {self.shard_model_flops} {stamp}\n')
                    f.write(
                        f'flops{{type="hardware_flops", rank_id="{rank_id}"}} {self.shard_hardware_flops} {stamp}\n'
                    )
            if self.verbose:
                if self.full_flops:
                    group = self.full_model_flops / self.shard_model_flops if self.shard_model_flops else 1
                    print(
                        f"Full model flops is {self.full_mfu * self.computility}, "
                        f"Full hardware flops is {self.full_hfu * self.computility}, "
                        f"Shard model flops is {self.shard_model_flops}, "
                        f"Shard hardware flops is {self.shard_hardware_flops}.",
                        flush=True,
                    )
                    self.full_mfu /= group
                    self.full_hfu /= group
                else:
                    print(
                        f"Shard model flops is {self.shard_model_flops}, "
                        f"Shard hardware flops is {self.shard_hardware_flops}.",
                        flush=True,
                    )
        if cb_params.dataset_sink_mode:
            step_ms = step_ms / self.batch_step_size
        if self.ma:
            with os.fdopen(
                os.open(self.time_step_path, os.O_WRONLY | os.O_CREAT, stat.S_IWUSR | stat.S_IRUSR), "w"
            ) as f:
                f.write(
                    f'time_monitor{{type="per_step_time", rank_id="{rank_id}"}} {step_ms} '
                    f"{int(round(time.time() * 1000))}\n"
                )
        line = f"{cb_params.mode.title()} per step time: {step_ms:5.3f} ms"
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops else (self.shard_mfu, self.shard_hfu)
            line += _floored_percentage(" mfu:", 1000 * mfu / step_ms, 2)
            line += _floored_percentage(" hfu:", 1000 * hfu / step_ms, 2)
            print(line, flush=True)


def _floored_percentage(label, val, digits):
    val *= 10 ** (digits + 2)
    return label + "{1:.{0}f}%".format(digits, floor(val) / 10**digits)


def _parallel_mode():
    from ... import context

    return context.get_auto_parallel_context("parallel_mode")


def _rank():
    from ...communication import get_rank

    return get_rank() if _parallel_mode() != "stand_alone" else 0
