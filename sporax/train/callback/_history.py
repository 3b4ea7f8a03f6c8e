"""History callback."""

from __future__ import annotations

import numpy as np

from sporax.common.tensor import Tensor

from ._callback import Callback


class History(Callback):
    """
    Records the network outputs and metrics information into a `History` object.

    The network output recorded is the loss value (the mean if the output is a Tensor, the first element if
    it is a tuple or list); metrics are recorded at the end of epochs that evaluated (`Model.fit`).

    Examples:
        >>> from sporax.train import History
        >>> history_cb = History()
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        """Initialize the `epoch` property at the beginning of training."""
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        """Records the first element of network outputs and metrics information at the end of epoch."""
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch.get("epoch").append(epoch)
        net_output = cb_params.net_outputs
        if isinstance(net_output, (tuple, list)) and net_output and isinstance(net_output[0], Tensor):
            net_output = net_output[0]
        if isinstance(net_output, Tensor):
            net_output = np.mean(net_output.asnumpy())
        metrics = cb_params.get("metrics")
        cur_history = {"net_output": net_output}
        if metrics:
            cur_history.update(metrics)
        for k, v in cur_history.items():
            self.history.setdefault(k, []).append(v)
