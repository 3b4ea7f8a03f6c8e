"""OnRequestExit callback."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading

from ..._checkparam import check_isinstance
from .._utils import make_directory
from ..serialization import load_checkpoint, load_param_into_net, save_checkpoint
from ._callback import Callback

_log = logging.getLogger("sporax")


class OnRequestExit(Callback):
    """
    Respond to the user's closing request: finish the current step, save the checkpoint and exit the training
    or eval process.

    The request is the signal `sig` sent to the process, or ``{"GracefulExit": 1}`` written to the JSON file
    `config_file`. After the current step, training stops and the train network is saved to
    ``directory/rank_{id}/{file_name}_train.ckpt`` (the eval network to ``..._eval.ckpt`` during eval); the next
    run with this callback loads that file when it starts.

    Note:
        sporax cannot export MINDIR files: with `save_mindir`, only the checkpoint is saved (a warning says so).

    Args:
        save_ckpt (bool): Whether to save the checkpoint before the training process exit. Default: ``True`` .
        save_mindir (bool): Whether to save the mindir before the training process exit. Default: ``True`` .
        file_name (str): The saved checkpoint file name (suffix '.ckpt' added). Default: ``'Net'`` .
        directory (str): The path to save files; a 'rank_{id}' folder is made inside. Default: ``'./'`` .
        config_file (str): A json config file used to exit training process gracefully. Key:
            ``{"GracefulExit": 1}`` . Default: ``None`` .
        sig (int): The user registered exit signal, it must be a capturable and negligible signal.
            Default: ``signal.SIGTERM`` .

    Raises:
        ValueError: If the 'save_ckpt' is not a bool.
        ValueError: If the 'save_mindir' is not a bool.
        ValueError: If the 'file_name' is not a str.
        ValueError: If the 'directory' is not a str.
        ValueError: If the 'sig' is not an int or the 'sig' is ``signal.SIGKILL``.

    Examples:
        >>> from sporax.train import OnRequestExit
        >>> on_request_exit = OnRequestExit(file_name='LeNet5', directory='./checkpoint')
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(
        self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None, sig=signal.SIGTERM
    ):
        super().__init__()
        self.save_ckpt = check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = check_isinstance("save_mindir", save_mindir, bool)
        self.sig = check_isinstance("sig", sig, int)
        check_isinstance("file_name", file_name, str)
        if directory is not None:
            check_isinstance("directory", directory, str)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self._old_handler = None
        self._warned_mindir = False
        self.train_name, self.eval_name = self._get_save_path(file_name)

    # ------------------------------------------------------------------ signal handling
    def _install(self):
        if threading.current_thread() is not threading.main_thread():
            _log.warning("OnRequestExit: signals can only be handled in the main thread; use 'config_file'.")
            return
        if self._old_handler is None:
            self._old_handler = signal.signal(self.sig, self._handle_signal)

    def _uninstall(self):
        if self._old_handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(self.sig, self._old_handler)
        self._old_handler = None

    def _handle_signal(self, signum, frame):
        """Handle the received signal."""
        _log.debug("signum: %s, frame: %s", signum, frame)
        self.exit = True

    def _exit_requested_by_config(self):
        """Whether the json config file asks for a graceful exit."""
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, encoding="utf-8") as f:
            try:
                config_info = json.load(f)
            except json.JSONDecodeError as e:
                _log.warning("Parse json file failed: %s, please check json file: %s", e, self.remote_config_file)
                return False
        return isinstance(config_info, dict) and config_info.get(self.key) == 1

    def _requested(self):
        with self.lock:
            if not self.exit and self._exit_requested_by_config():
                self.exit = True
            return self.exit

    def _save(self, net, name, cb_params):
        if self.save_ckpt and net is not None:
            append_dict = {}
            for key in ("cur_epoch_num", "cur_step_num", "batch_num"):
                value = cb_params.get(key)
                if isinstance(value, int):
                    append_dict[key.replace("cur_", "")] = value
            save_checkpoint(net, name, append_dict=append_dict or None)
        if self.save_mindir and not self._warned_mindir:
            self._warned_mindir = True
            _log.warning("OnRequestExit: sporax cannot export MINDIR files; only the checkpoint was saved.")

    @staticmethod
    def _load(path, net):
        if net is not None and os.path.isfile(path):
            load_param_into_net(net, load_checkpoint(path))

    # ------------------------------------------------------------------ hooks
    def on_train_begin(self, run_context):
        """Register the handler for the exit signal; load the checkpoint saved by an earlier exit request."""
        self.exit = False
        self._install()
        if self.save_ckpt:
            self._load(f"{self.train_name}.ckpt", run_context.original_args().get("train_network"))

    def on_train_step_end(self, run_context):
        """Stop training after this step if an exit was requested."""
        if self._requested():
            run_context.request_stop()

    def on_train_epoch_end(self, run_context):
        """Stop training after this epoch if an exit was requested."""
        if self._requested():
            run_context.request_stop()

    def on_train_end(self, run_context):
        """Save the checkpoint if an exit was requested; restore the previous signal handler."""
        try:
            if self.exit:
                cb_params = run_context.original_args()
                self._save(cb_params.get("train_network"), self.train_name, cb_params)
        finally:
            self._uninstall()

    def on_eval_begin(self, run_context):
        """Register the handler for the exit signal; load the checkpoint saved by an earlier exit request."""
        self._install()
        if not self.save_ckpt:
            return
        eval_net = run_context.original_args().get("eval_network")
        if os.path.isfile(f"{self.eval_name}.ckpt"):
            self._load(f"{self.eval_name}.ckpt", eval_net)
        elif os.path.isfile(f"{self.train_name}.ckpt"):
            self._load(f"{self.train_name}.ckpt", eval_net)

    def on_eval_step_end(self, run_context):
        """Stop evaluation after this step if an exit was requested."""
        if self._requested():
            run_context.request_stop()

    def on_eval_end(self, run_context):
        """Save the checkpoint if an exit was requested; restore the previous signal handler."""
        try:
            if self.exit:
                cb_params = run_context.original_args()
                self._save(cb_params.get("eval_network"), self.eval_name, cb_params)
        finally:
            self._uninstall()

    def __exit__(self, *err):
        self._uninstall()

    def _get_save_path(self, file_name):
        """Paths of the checkpoint files (without extension)."""
        from sporax.context import get_context

        device_id = get_context("device_id")
        base = os.getcwd() if self.save_path is None else self.save_path
        path = make_directory(os.path.join(base, f"rank_{device_id}"))
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")
