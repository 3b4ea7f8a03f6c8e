"""WaitedDSCallback: the data pipeline's steps and epochs wait for training's, as MindSpore's example shows."""

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import nn


class _Waited(ds.WaitedDSCallback):
    def __init__(self, events, step_size=1):
        super().__init__(step_size)
        self.events = events

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        self.events.append(
            f"ds_epoch_begin_{ds_run_context.cur_epoch_num}_after_{train_run_context.original_args().cur_epoch_num}"
        )

    def sync_step_begin(self, train_run_context, ds_run_context):
        d, cb = ds_run_context, train_run_context.original_args()
        self.events.append(f"ds_step_begin_{d.cur_epoch_num}_{d.cur_step_num}_after_{cb.cur_step_num}")


class _Train(ms.train.Callback):
    def __init__(self, events):
        self.events = events

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.events.append(f"train_step_end_{cb.cur_epoch_num}_{cb.cur_step_num}")

    def on_train_epoch_end(self, run_context):
        self.events.append(f"train_epoch_end_{run_context.original_args().cur_epoch_num}")


class _Net(nn.Cell):
    def construct(self, x, y):
        return x


def test_waited_ds_callback_with_model_train():
    events = []
    waited, train_cb = _Waited(events), _Train(events)
    arr = np.arange(1, 5, dtype=np.float32)
    data = ds.NumpySlicesDataset((arr, arr), column_names=["c1", "c2"], shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=waited)
    ms.train.Model(_Net()).train(2, data, dataset_sink_mode=False, callbacks=[train_cb, waited])
    # the order of events MindSpore 2.10 gives for this script: each dataset step after the first waits for the
    # training step before it, the second dataset epoch for the first training epoch
    assert events == [
        "train_step_end_1_1", "ds_step_begin_1_2_after_1", "train_step_end_1_2", "ds_step_begin_1_3_after_2",
        "train_step_end_1_3", "ds_step_begin_1_4_after_3", "train_step_end_1_4", "train_epoch_end_1",
        "ds_epoch_begin_2_after_2", "ds_step_begin_2_5_after_4", "train_step_end_2_5", "ds_step_begin_2_6_after_5",
        "train_step_end_2_6", "ds_step_begin_2_7_after_6", "train_step_end_2_7", "ds_step_begin_2_8_after_7",
        "train_step_end_2_8", "train_epoch_end_2",
    ]  # fmt: skip
    assert waited.training_ended


def test_waited_ds_callback_checks_and_timeout():
    assert issubclass(ds.WaitedDSCallback, ms.train.Callback) and issubclass(ds.WaitedDSCallback, ds.DSCallback)
    from sporax.dataset import callback

    assert callback.WaitedDSCallback is ds.WaitedDSCallback
    data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    with pytest.raises(AttributeError, match="without overriding any methods"):
        data.map(operations=(lambda x: x), callbacks=ds.WaitedDSCallback())
    events = []
    old = ds.config.get_callback_timeout()
    ds.config.set_callback_timeout(1)
    try:
        it = data.map(operations=(lambda x: x), callbacks=_Waited(events)).create_tuple_iterator(num_epochs=1)
        with pytest.raises(RuntimeError, match=r"ds_step_begin timed out after 1 second\(s\)"):
            list(it)  # nothing trains: step 2 waits for a training step that never ends
    finally:
        ds.config.set_callback_timeout(old)
    with pytest.raises(ValueError, match="step_size"):
        _Waited([], 0)
