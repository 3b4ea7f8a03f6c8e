"""FixedLossScaleManager / DynamicLossScaleManager: defaults, host-side updates, update cells, errors
(MindSpore 2.10's messages)."""

import pytest

import sporax as ms
from sporax import amp, nn
from sporax.train import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager


def test_paths():
    assert amp.FixedLossScaleManager is FixedLossScaleManager is ms.train.loss_scale_manager.FixedLossScaleManager
    assert amp.DynamicLossScaleManager is DynamicLossScaleManager
    assert amp.LossScaleManager is LossScaleManager
    assert issubclass(FixedLossScaleManager, LossScaleManager) and issubclass(DynamicLossScaleManager, LossScaleManager)
    assert ms.train.amp.build_train_network is ms.train.build_train_network is amp.build_train_network
    assert ms.train.amp.auto_mixed_precision is amp.auto_mixed_precision


def test_fixed_manager():
    m = FixedLossScaleManager()
    assert m.get_loss_scale() == 128.0 and m.get_drop_overflow_update() is True
    cell = m.get_update_cell()
    assert isinstance(cell, nn.FixedLossScaleUpdateCell) and cell.get_loss_scale() == 128.0
    m.update_loss_scale(True)
    assert m.get_loss_scale() == 128.0
    no_drop = FixedLossScaleManager(1024, False)
    assert no_drop.get_update_cell() is None and no_drop.get_loss_scale() == 1024
    with pytest.raises(ValueError, match="The argument 'loss_scale' must be >= 1, but got 0.5"):
        FixedLossScaleManager(0.5)


def test_dynamic_manager_host_updates():
    m = DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=3)
    assert m.get_drop_overflow_update() is True
    seen = []
    for overflow in [False, False, False, True, False, False, False, True, True, True, True, True]:
        m.update_loss_scale(overflow)
        seen.append(m.get_loss_scale())
    # grows when (cur_iter - last_overflow_iter) % scale_window == 0; halves (>= 1) on overflow
    assert seen == [16, 16, 32, 16, 16, 16, 32, 16, 8, 4, 2, 1]
    assert DynamicLossScaleManager().get_loss_scale() == 2**24


def test_dynamic_manager_update_cell():
    cell = DynamicLossScaleManager(2**10, 4, 50).get_update_cell()
    assert isinstance(cell, nn.DynamicLossScaleUpdateCell)
    assert cell.get_loss_scale() == 2**10
    assert float(cell.scale_factor.asnumpy()) == 4.0 and int(cell.scale_window.asnumpy()) == 50


def test_dynamic_manager_errors():
    with pytest.raises(ValueError, match="The argument 'init_loss_scale' must be > 1, but got 0.5"):
        DynamicLossScaleManager(0.5)
    with pytest.raises(
        ValueError,
        match="For 'DynamicLossScaleManager', the 'scale_window' must be int and must > 0, but got '0' with type 'int'.",
    ):
        DynamicLossScaleManager(2**24, 2, 0)
    with pytest.raises(ValueError, match="The argument 'scale_factor' must be > 0, but got 0"):
        DynamicLossScaleManager(2**24, 0, 10)


def test_dynamic_manager_gives_up_after_1000_overflows():
    m = DynamicLossScaleManager(2, 2, 10)
    for _ in range(1000):
        m.update_loss_scale(True)
    with pytest.raises(RuntimeError, match="continuous overflow 1001 times"):
        m.update_loss_scale(True)
