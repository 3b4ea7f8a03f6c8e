"""ModelCheckpoint and CheckpointConfig."""

from __future__ import annotations

import logging
import os
import stat
import time

from sporax.common.parameter import Parameter
from sporax.common.tensor import Tensor

from ..._checkparam import check_async_save, check_bool, check_isinstance, check_non_negative_int
from .._utils import make_directory
from ..serialization import _wait_async_thread_save_ckpt, save_checkpoint
from ._callback import Callback

_log = logging.getLogger("sporax")

_info_list = ["epoch_num", "step_num"]
_BREAKPOINT = "_breakpoint.ckpt"


def _cell_type():
    from sporax.nn import Cell

    return Cell


def _wait_async_save_ckpt(async_save=False):
    """Wait for the running asynchronous checkpoint save to finish."""
    if async_save:
        _wait_async_thread_save_ckpt()


def _chg_ckpt_file_name_if_same_exist(directory, prefix, exception=False):
    """The prefix to use: ``prefix_N`` when checkpoint files with `prefix` already exist in `directory`."""
    if callable(prefix) or callable(directory):
        return prefix
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        ext = os.path.splitext(filename)[-1]
        if exception and not filename.endswith(_BREAKPOINT):
            continue
        if not exception and (ext not in (".ckpt", ".safetensors") or filename.endswith(_BREAKPOINT)):
            continue
        if filename.startswith(prefix) and len(filename) > pre_len and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1 : pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    if suffix_num != 0:
        prefix = f"{prefix}_{suffix_num}"
    return prefix


class CheckpointConfig:
    """
    The configuration of model checkpoint.

    Note:
        If both `save_checkpoint_steps` and `save_checkpoint_seconds` are set, `save_checkpoint_seconds` is
        ignored. If both `keep_checkpoint_max` and `keep_checkpoint_per_n_minutes` are set,
        `keep_checkpoint_per_n_minutes` is ignored.

    Args:
        save_checkpoint_steps (int, optional): Steps to save checkpoint. Default: ``1`` .
        save_checkpoint_seconds (int, optional): Seconds to save checkpoint. Default: ``0`` .
        keep_checkpoint_max (int, optional): Maximum number of checkpoint files kept. Default: ``5`` .
        keep_checkpoint_per_n_minutes (int, optional): Keep one checkpoint file every
            `keep_checkpoint_per_n_minutes` minutes. Default: ``0`` .
        integrated_save (bool, optional): Whether to merge split Tensors (automatic parallel). Default: ``True`` .
        async_save (Union[bool, str], optional): Save in a background thread (``True``, ``"thread"`` or
            ``"process"``). Default: ``False`` .
        saved_network (Cell, optional): Network to save instead of the train network. Default: ``None`` .
        append_info (list, optional): Information saved with the parameters: ``"epoch_num"``, ``"step_num"``
            and at most one dict (str -> int, float, bool, str, Parameter or Tensor). Default: ``None`` .
        enc_key (Union[None, bytes], optional): Encryption key; encryption is not supported by sporax, so it
            must be ``None``. Default: ``None`` .
        enc_mode (str, optional): Encryption mode. Default: ``'AES-GCM'`` .
        exception_save (bool, optional): Save a ``<prefix>-<epoch>_<step>_breakpoint.ckpt`` file when training
            raises. Default: ``False`` .
        crc_check (bool, optional): Append a CRC32 of the content to the file. Default: ``False`` .
        remove_redundancy (bool, optional): Save without data-parallel redundancy. Default: ``False`` .
        format (str, optional): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Raises:
        ValueError: If input parameter is not the correct type.

    Examples:
        >>> from sporax.train import CheckpointConfig
        >>> config = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=10)
        >>> config.keep_checkpoint_max
        10
    """

    def __init__(
        self,
        save_checkpoint_steps=1,
        save_checkpoint_seconds=0,
        keep_checkpoint_max=5,
        keep_checkpoint_per_n_minutes=0,
        integrated_save=True,
        async_save=False,
        saved_network=None,
        append_info=None,
        enc_key=None,
        enc_mode="AES-GCM",
        exception_save=False,
        crc_check=False,
        remove_redundancy=False,
        format="ckpt",
        **kwargs,
    ):
        if save_checkpoint_steps is not None:
            save_checkpoint_steps = check_non_negative_int(save_checkpoint_steps)
        if save_checkpoint_seconds is not None:
            save_checkpoint_seconds = check_non_negative_int(save_checkpoint_seconds)
        if keep_checkpoint_max is not None:
            keep_checkpoint_max = check_non_negative_int(keep_checkpoint_max)
        if keep_checkpoint_per_n_minutes is not None:
            keep_checkpoint_per_n_minutes = check_non_negative_int(keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, _cell_type()):
            raise TypeError(
                "For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                f"but got {str(type(saved_network))}."
            )
        if (
            not save_checkpoint_steps
            and not save_checkpoint_seconds
            and not keep_checkpoint_max
            and not keep_checkpoint_per_n_minutes
        ):
            raise ValueError(
                "For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', 'save_checkpoint_seconds', "
                "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0."
            )
        check_bool(exception_save)
        self.exception_save = exception_save
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if self._save_checkpoint_steps and self._save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if self._keep_checkpoint_max and self._keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not self._keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = check_bool(integrated_save)
        self._async_save = check_async_save(async_save)
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = check_isinstance("enc_key", enc_key, (type(None), bytes))
        self._enc_mode = check_isinstance("enc_mode", enc_mode, str)
        self._crc_check = check_isinstance("crc_check", crc_check, bool)
        self._format = check_isinstance("format", format, str)
        if self._format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'save_checkpoint', the format must be 'ckpt' or 'safetensors', but got {format}.")
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        self.remove_redundancy = check_isinstance("remove_redundancy", remove_redundancy, bool)
        param_not_default = enc_key is not None or enc_mode != "AES-GCM" or crc_check or exception_save
        if format == "safetensors" and (param_not_default or self._map_param_inc):
            raise ValueError("For 'save_checkpoint', when format is 'safetensors', other param must be default.")
        if enc_key is not None:
            raise NotImplementedError(
                "For 'CheckpointConfig', checkpoint encryption ('enc_key') is not supported by sporax: "
                "save without 'enc_key'."
            )

    @property
    def save_checkpoint_steps(self):
        """int, steps to save checkpoint."""
        return self._save_checkpoint_steps

    @property
    def save_checkpoint_seconds(self):
        """int, seconds to save the checkpoint file."""
        return self._save_checkpoint_seconds

    @property
    def keep_checkpoint_max(self):
        """int, maximum number of checkpoint files kept."""
        return self._keep_checkpoint_max

    @property
    def keep_checkpoint_per_n_minutes(self):
        """int, keep one checkpoint file every n minutes."""
        return self._keep_checkpoint_per_n_minutes

    @property
    def integrated_save(self):
        """bool, whether to merge split Tensors in automatic parallel."""
        return self._integrated_save

    @property
    def async_save(self):
        """Union[bool, str], whether or how checkpoints are saved asynchronously."""
        return self._async_save

    @property
    def saved_network(self):
        """Cell, the network saved in the checkpoint file."""
        return self._saved_network

    @property
    def enc_key(self):
        """Union[None, bytes], the encryption key."""
        return self._enc_key

    @property
    def enc_mode(self):
        """str, the encryption mode."""
        return self._enc_mode

    @property
    def crc_check(self):
        """bool, whether a CRC32 is appended."""
        return self._crc_check

    @property
    def format(self):
        """str, the checkpoint format."""
        return self._format

    @property
    def append_dict(self):
        """dict, the information saved with the parameters."""
        return self._append_dict

    @property
    def map_param_inc(self):
        """bool, whether to save map Parameters incrementally."""
        return self._map_param_inc

    def get_checkpoint_policy(self):
        """
        Get the policy of checkpoint.

        Returns:
            dict, the information of checkpoint policy.
        """
        return {
            "save_checkpoint_steps": self.save_checkpoint_steps,
            "save_checkpoint_seconds": self.save_checkpoint_seconds,
            "keep_checkpoint_max": self.keep_checkpoint_max,
            "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
            "saved_network": self.saved_network,
        }

    @staticmethod
    def _handle_append_info(append_info):
        """Handle ckpt append info."""
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(
                f"For 'CheckpointConfig', the type of 'append_info' must be list,but got {str(type(append_info))}."
            )
        handle_append_info = {}
        if "epoch_num" in append_info:
            handle_append_info["epoch_num"] = 0
        if "step_num" in append_info:
            handle_append_info["step_num"] = 0
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError(
                    "For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                    f"but got {str(type(element))}."
                )
            if isinstance(element, str) and element not in _info_list:
                raise ValueError(
                    "For 'CheckpointConfig', the value of element in the argument 'append_info' "
                    f"must be in {_info_list}, but got {element}."
                )
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError(
                        f"For 'CheckpointConfig', the element of 'append_info' must has only one dict, but got {dict_num}"
                    )
                for key, value in element.items():
                    if isinstance(key, str) and isinstance(value, (int, float, bool, str, Parameter, Tensor)):
                        handle_append_info[key] = value
                    else:
                        raise TypeError(
                            "For 'CheckpointConfig', the key type of the dict 'append_info' "
                            "must be string, the value type must be int or float or bool, "
                            f"but got key type {type(key)}, value type {type(value)}"
                        )
        return handle_append_info


class ModelCheckpoint(Callback):
    """
    The checkpoint callback class.

    Saves the train network's parameters (with the optimizer's state when the train network holds the
    optimizer, as `Model` builds it) to ``<prefix>-<epoch>_<step>.ckpt`` in `directory`; `<step>` counts within
    the epoch. If files with `prefix` already exist there, the prefix becomes ``prefix_1``, ``prefix_2``... The
    newest `keep_checkpoint_max` files are kept. A last checkpoint is saved when training ends.

    Args:
        prefix (Union[str, callable object], optional): The prefix name, or a callable taking cb_params and
            returning the file name (without extension). Default: ``'CKP'`` .
        directory (Union[str, callable object], optional): The folder where checkpoints are stored, or a
            callable taking cb_params and returning it. Default: ``None`` (the current directory).
        config (CheckpointConfig, optional): Checkpoint strategy configuration. Default: ``None`` .

    Raises:
        ValueError: If `prefix` is not str or contains the '/' character and is not a callable object.
        ValueError: If `directory` is not str and is not a callable object.
        TypeError: If the config is not CheckpointConfig type.

    Examples:
        >>> from sporax.train import ModelCheckpoint, CheckpointConfig
        >>> config = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=5)
        >>> ckpoint_cb = ModelCheckpoint(prefix="lenet", directory="./ckpt", config=config)
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._init_time = time.time()
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._prefix_func = None
        self._directory_func = None
        if not callable(prefix) and (not isinstance(prefix, str) or prefix.find("/") >= 0):
            raise ValueError(
                "For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it must be "
                f"callable or string that does not contain '/', but got {prefix}."
            )
        self._prefix = prefix
        self._exception_prefix = prefix
        if directory is not None:
            if callable(directory):
                self._directory_func = directory
                self._directory = os.getcwd()
            else:
                self._directory = make_directory(directory)
        else:
            self._directory = os.getcwd()
        if callable(prefix):
            self._prefix_func = prefix
        if config is None:
            self._config = CheckpointConfig()
        else:
            if not isinstance(config, CheckpointConfig):
                raise TypeError(
                    "For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                    f"but got {type(config)}."
                )
            self._config = config
        self._manager = _CheckpointManager(self._config.format)
        if not callable(directory) and not callable(prefix):
            self._prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._prefix)
        self._append_dict = self._config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._cb_params = None
        self._cur_epoch = 0
        self._cur_step_in_epoch = 0

    # ------------------------------------------------------------------ hooks
    def on_train_begin(self, run_context):
        """Remember the run's parameters (for `exception_save`)."""
        self._cb_params = run_context.original_args()
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        """Track the epoch (for `exception_save`)."""
        cb_params = run_context.original_args()
        self._cb_params = cb_params
        self._cur_epoch = cb_params.get("cur_epoch_num", 0)
        self._cur_step_in_epoch = 0
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        """Track the step (for `exception_save`)."""
        cb_params = run_context.original_args()
        batch_num = cb_params.get("batch_num") or 1
        self._cur_step_in_epoch = int((cb_params.get("cur_step_num", 1) - 1) % batch_num + 1)
        self.step_begin(run_context)

    def step_end(self, run_context):
        """
        Save the checkpoint at the end of step.

        Args:
            run_context (RunContext): Context of the training.
        """
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or self._prefix.find("/") >= 0:
                raise ValueError(
                    "For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, it must "
                    f"return a string that does not contain '/', but got {self._prefix}."
                )
        if self._directory_func:
            self._directory = make_directory(self._directory_func(cb_params))
        self._save_ckpt(cb_params)

    def end(self, run_context):
        """
        Save the last checkpoint after training finished.

        Args:
            run_context (RunContext): Context of the train running.
        """
        cb_params = run_context.original_args()
        self._save_ckpt(cb_params, True)
        _wait_async_save_ckpt(self._config.async_save)

    def __exit__(self, exc_type, exc_value, traceback):
        """With `exception_save`, save ``<prefix>-<epoch>_<step>_breakpoint.ckpt`` when training raised."""
        try:
            if exc_type is not None and self._config.exception_save and self._cb_params is not None:
                self._save_breakpoint(self._cb_params)
        finally:
            self._cb_params = None
            _wait_async_save_ckpt(self._config.async_save)

    # ------------------------------------------------------------------ saving
    def _save_breakpoint(self, cb_params):
        network = cb_params.get("train_network")
        if network is None:
            return
        prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._exception_prefix, True)
        cur_file = os.path.join(self._directory, f"{prefix}-{self._cur_epoch}_{self._cur_step_in_epoch}{_BREAKPOINT}")
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + self._cur_epoch
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + self._cur_step_in_epoch
        _wait_async_save_ckpt(self._config.async_save)
        save_checkpoint(network, cur_file, self._config.integrated_save, False, self._append_dict or None)
        _log.warning("Training raised: saved the breakpoint checkpoint %s.", cur_file)

    def _should_save(self, cb_params, force_to_save):
        """Whether this step (or the time since the last save) calls for a checkpoint."""
        if self._config.save_checkpoint_steps and self._config.save_checkpoint_steps > 0:
            if (
                cb_params.cur_step_num >= self._last_triggered_step + self._config.save_checkpoint_steps
                or force_to_save is True
            ):
                return True
        elif self._config.save_checkpoint_seconds and self._config.save_checkpoint_seconds > 0:
            self._cur_time = time.time()
            if (self._cur_time - self._last_time) > self._config.save_checkpoint_seconds or force_to_save:
                self._last_time = self._cur_time
                return True
        return False

    def _append_dict_content(self, epoch_num, step_num):
        """Append append_dict content."""
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step_num

    def _save_ckpt(self, cb_params, force_to_save=False):
        """Save checkpoint files."""
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._should_save(cb_params, force_to_save):
            return
        step_num_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        _wait_async_save_ckpt(self._config.async_save)
        fmt = self._config.format
        if self._prefix_func:
            cur_ckpoint_file = f"{self._prefix}.{fmt}"
        else:
            cur_ckpoint_file = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_num_in_epoch}.{fmt}"
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        keep_max = self._config.keep_checkpoint_max
        per_n_minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file()
        elif per_n_minutes and per_n_minutes > 0:
            self._cur_time_for_keep = time.time()
            if (self._cur_time_for_keep - self._last_time_for_keep) < per_n_minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(per_n_minutes, self._cur_time_for_keep)
        cur_file = os.path.join(self._directory, cur_ckpoint_file)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        self._append_dict_content(cb_params.cur_epoch_num, cb_params.cur_step_num)
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        if self._config.remove_redundancy:
            from sporax.communication import get_group_size

            if get_group_size() == 1:
                raise TypeError(
                    "The deduplication feature for saving checkpoint can only be used "
                    "in parallel scenarios, but got 'stand_alone'."
                )
            raise NotImplementedError(
                "For 'ModelCheckpoint', 'remove_redundancy' (each rank saving a part of the parameters) is not "
                "supported by sporax yet: save without it."
            )
        save_checkpoint(
            network,
            cur_file,
            self._config.integrated_save,
            self._config.async_save,
            self._append_dict or None,
            crc_check=self._config.crc_check,
            format=fmt,
        )
        self._manager.saved(cur_file)
        self._latest_ckpt_file_name = cur_file

    @property
    def latest_ckpt_file_name(self):
        """Return the latest checkpoint path and file name."""
        return self._latest_ckpt_file_name

    @property
    def _get_save_checkpoint_steps(self):
        """Return save ckpt steps"""
        return self._config.save_checkpoint_steps

    @property
    def _get_last_trigger_step(self):
        """Return last triggered steps"""
        return self._last_triggered_step


class _CheckpointManager:
    """Manage checkpoint files according to the checkpoint config (oldest first by modification time)."""

    def __init__(self, format="ckpt"):
        self._ckpoint_filelist = []
        self._format = format
        self._order = {}

    @property
    def ckpoint_filelist(self):
        """Get all the related checkpoint files managed here."""
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self):
        """Get the number of the related checkpoint files managed here."""
        return len(self._ckpoint_filelist)

    def saved(self, file_name):
        """Record that `file_name` was just written (orders files whose modification times are equal)."""
        self._order[file_name] = len(self._order) + 1

    def update_ckpoint_filelist(self, directory, prefix):
        """Update the checkpoint file list."""
        self._ckpoint_filelist = []
        ext = f".{self._format}"
        for filename in os.listdir(directory):
            if os.path.splitext(filename)[-1] == ext and filename.startswith(prefix + "-"):
                mid_name = filename[len(prefix) : -len(ext)]
                if not any(char.isalpha() for char in mid_name):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def _age_key(self, file_name):
        try:
            mtime = os.stat(file_name).st_mtime_ns
        except OSError:
            mtime = 0
        return (mtime, self._order.get(file_name, 0))

    def remove_ckpoint_file(self, file_name):
        """Remove the specified checkpoint file from this checkpoint manager and also from the directory."""
        try:
            os.chmod(file_name, stat.S_IWRITE)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
            self._order.pop(file_name, None)
        except OSError:
            _log.warning("OSError, failed to remove the older ckpt file %s.", file_name)
        except ValueError:
            _log.warning("ValueError, failed to remove the older ckpt file %s.", file_name)

    def remove_oldest_ckpoint_file(self):
        """Remove the oldest checkpoint file from this checkpoint manager and also from the directory."""
        ckpoint_files = sorted(self._ckpoint_filelist, key=self._age_key)
        self.remove_ckpoint_file(ckpoint_files[0])

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        """Only keep the latest one ckpt file per minutes, remove other files generated in [last_time, cur_time]."""
        del_list = []
        oldest_file = ""
        oldest_time = cur_time
        for ck_file in self._ckpoint_filelist:
            modify_time = os.path.getmtime(ck_file)
            if cur_time - modify_time < 60 * minutes:
                del_list.append(ck_file)
                if modify_time < oldest_time:
                    oldest_time = modify_time
                    oldest_file = ck_file
        for mv_file in del_list:
            if mv_file == oldest_file:
                continue
            self.remove_ckpoint_file(mv_file)


CheckpointManager = _CheckpointManager
