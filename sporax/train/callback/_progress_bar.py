"""ProgressBar callback (a sporax extra: MindSpore has no progress bar)."""

from __future__ import annotations

import sys
import time

from ..._checkparam import check_positive_int
from ._callback import Callback, _handle_loss
from ._loss_monitor import _metrics_text


def _loss_text(loss):
    try:
        return f"{float(loss):.6g}"
    except (TypeError, ValueError):
        return str(loss)


class ProgressBar(Callback):
    """
    Show training and evaluation progress (a sporax extra; MindSpore has no such callback).

    On a terminal, each epoch gets a `tqdm` bar with the latest loss. When the output is not a terminal (a
    log file, a pipe, a notebook cell without widgets), or `tqdm` is not installed, it prints plain lines
    instead: about `lines_per_epoch` lines per epoch, such as
    ``epoch 1 step 375/1875 (20%), loss 0.3127, 1.92 ms/step``, and one line when each epoch ends.

    Args:
        lines_per_epoch (int, optional): Progress lines per epoch in plain mode. Default: ``10``.
        file (file object, optional): Where to write. Default: ``None`` (``sys.stdout`` when training starts).
        dynamic (bool, optional): ``True`` forces the tqdm bar, ``False`` plain lines, ``None`` picks the bar
            when `file` is a terminal and tqdm is installed. Default: ``None``.

    Examples:
        >>> from sporax.train import ProgressBar
        >>> progress = ProgressBar()
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, lines_per_epoch=10, file=None, dynamic=None):
        super().__init__()
        self.lines_per_epoch = check_positive_int(lines_per_epoch)
        if dynamic is not None and not isinstance(dynamic, bool):
            raise TypeError(f"For 'ProgressBar', the 'dynamic' must be bool or None, but got {type(dynamic).__name__}.")
        self._file = file
        self._dynamic = dynamic
        self._bar = None
        self._mode = "train"
        self._epoch_start = 0.0
        self._last_line_step = 0
        self._last_step = 0

    # ------------------------------------------------------------------ helpers
    def _out(self):
        return self._file if self._file is not None else sys.stdout

    def _use_bar(self):
        if self._dynamic is False:
            return False
        try:
            import tqdm  # noqa: F401
        except ImportError:
            if self._dynamic:
                raise ImportError("ProgressBar(dynamic=True) needs tqdm: pip install tqdm") from None
            return False
        if self._dynamic:
            return True
        isatty = getattr(self._out(), "isatty", None)
        try:
            return bool(isatty and isatty())
        except (OSError, ValueError):
            return False

    @staticmethod
    def _step_in_epoch(cb_params):
        batch_num = cb_params.get("batch_num") or 0
        cur = cb_params.get("cur_step_num", 0)
        if batch_num <= 0:
            return cur, None
        return (cur - 1) % batch_num + 1, batch_num

    def _title(self, cb_params):
        if self._mode == "eval":
            return "eval"
        return f"epoch {cb_params.get('cur_epoch_num', 1)}"

    def _print(self, text):
        print(text, file=self._out(), flush=True)

    # ------------------------------------------------------------------ shared logic
    def _begin_epoch(self, cb_params, mode):
        self._mode = mode
        self._epoch_start = time.time()
        self._last_line_step = 0
        self._last_step = 0
        _, total = self._step_in_epoch(cb_params) if cb_params.get("batch_num") else (0, None)
        if self._use_bar():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=self._title(cb_params), file=self._out(), leave=True, unit="step")
        else:
            self._bar = None

    def _step(self, cb_params):
        step, total = self._step_in_epoch(cb_params)
        if self._mode == "eval":
            step, total = cb_params.get("cur_step_num", 0), cb_params.get("batch_num")
        loss = cb_params.get("net_outputs")
        loss = _handle_loss(loss) if self._mode == "train" else None
        if self._bar is not None:
            self._bar.update(max(step - self._last_step, 0))
            if loss is not None:
                self._bar.set_postfix_str(f"loss={_loss_text(loss)}", refresh=False)
            self._last_step = step
            return
        self._last_step = step
        every = max((total or 1) // self.lines_per_epoch, 1)
        if step - self._last_line_step < every or (total and step >= total):
            return
        self._last_line_step = step
        elapsed = (time.time() - self._epoch_start) * 1000 / max(step, 1)
        where = f"step {step}/{total} ({100 * step // total}%)" if total else f"step {step}"
        text = f"{self._title(cb_params)} {where}"
        if loss is not None:
            text += f", loss {_loss_text(loss)}"
        self._print(f"{text}, {elapsed:.2f} ms/step")

    def _end_epoch(self, cb_params):
        seconds = time.time() - self._epoch_start
        if self._bar is not None:
            self._bar.close()
            self._bar = None
            return
        text = f"{self._title(cb_params)} done in {seconds:.2f} s"
        if self._mode == "train":
            loss = cb_params.get("net_outputs")
            if loss is not None:
                text += f", loss {_loss_text(_handle_loss(loss))}"
        self._print(text)

    def _metrics(self, cb_params):
        metrics = cb_params.get("metrics")
        if metrics:
            self._print(f"{self._title(cb_params)} metrics: {_metrics_text(metrics)}")

    # ------------------------------------------------------------------ hooks
    def on_train_epoch_begin(self, run_context):
        """Start the epoch's bar."""
        self._begin_epoch(run_context.original_args(), "train")

    def on_train_step_end(self, run_context):
        """Advance the bar."""
        self._step(run_context.original_args())

    def on_train_epoch_end(self, run_context):
        """Close the bar; print the metrics of `Model.fit`'s evaluation."""
        cb_params = run_context.original_args()
        self._mode = "train"
        self._end_epoch(cb_params)
        self._metrics(cb_params)

    def on_eval_epoch_begin(self, run_context):
        """Start the evaluation bar."""
        self._begin_epoch(run_context.original_args(), "eval")

    def on_eval_step_end(self, run_context):
        """Advance the evaluation bar."""
        self._step(run_context.original_args())

    def on_eval_epoch_end(self, run_context):
        """Close the evaluation bar."""
        self._end_epoch(run_context.original_args())
        self._mode = "train"

    def __exit__(self, *err):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
