"""MindSpore's training-reliability helpers in ``mindspore.utils``: ``ExitByRequest`` (agree on a graceful
exit across ranks), ``stress_detect`` (check the device's compute and links), and the handles of Huawei's
MindIO TFT / MindX controllers (``TFTCommValue``, ``RSCPluginHandle``, ``_tft_handler``), which report
themselves unavailable outside Ascend clusters exactly as MindSpore's do there.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np

from .. import context, ops
from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["ExitByRequest", "TFTCommValue", "RSCPluginHandle", "TftHandle", "_tft_handler", "stress_detect"]

_log = logging.getLogger("sporax")


class ExitByRequest:
    """Gracefully exit the training after an exit request: every rank puts its request flag (1) into
    `init_value`; when the flags of all ranks sum to the group size, `exit_value` becomes True."""

    def __init__(self) -> None:
        from ..communication import get_group_size

        self.group_size = get_group_size()
        self.is_distributed = self.group_size > 1
        if self.is_distributed:
            self.base = Tensor([self.group_size], dtype=mstype.int32)
        self.base1 = Tensor([1], mstype.int32)
        self.true = Tensor(True, mstype.bool_)

    def exit_by_request(self, grad: Any, init_value: Any, exit_value: Any) -> Any:
        """Update `exit_value` (a bool Parameter) from the all-reduced `init_value`; return `grad`."""
        if self.is_distributed:
            from ..communication import comm_func

            all_status, _ = comm_func.all_reduce(init_value)
            agreed = ops.equal(all_status, self.base).all()
            exit_value.assign_value(agreed.reshape(exit_value.shape))
        return grad


class TFTCommValue:
    """MS_ENABLE_TFT switches: those a MindX controller schedules, those needing the MindIO TTP package, and
    those that switch the collective watchdog off."""

    ENABLE_MINDX = ["TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1", "RSC:1"]
    NEED_MINDIO = ["TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1"]
    DISABLE_WATCHDOG = ["ARF:1", "TSP:1", "HCCE:1"]


def _tft_env() -> str:
    return os.getenv("MS_ENABLE_TFT", "").strip()


class RSCPluginHandle:
    """Hands training-process control to a MindX task agent (Huawei's cluster scheduler) when ``MS_ENABLE_TFT``
    asks for it and the agent (``taskd``) is installed; otherwise the process stays under ``sporax launch``."""

    def __init__(self) -> None:
        self.tft_env = _tft_env()
        self.enable = any(v in self.tft_env for v in TFTCommValue.ENABLE_MINDX)
        self.msmgr: Any = None  # MindX's MSRunPlugin, when it is installed
        self.init_taskd_agent: Any = None  # taskd's entry points, when it is installed
        self.start_taskd_agent: Any = None
        self.register_func: Any = None
        self.using_agent = False

    def check_enable(self) -> bool:
        return self.enable

    def _register_by_agent(self, func_map: dict) -> bool:
        try:
            from taskd.api.taskd_agent_api import init_taskd_agent, register_func, start_taskd_agent
        except ImportError as e:
            _log.warning("Import task agent: %s, try to using mindx plugin.", e)
            return False
        self.init_taskd_agent, self.start_taskd_agent, self.register_func = (
            init_taskd_agent,
            start_taskd_agent,
            register_func,
        )
        try:
            if not init_taskd_agent({"Framework": "MindSpore"}):
                _log.warning("Init taskd agent failed, try to using mindx plugin.")
                return False
            for name, func in func_map.items():
                register_func(name, func)
        except Exception as e:  # noqa: BLE001 (the agent's own errors)
            _log.warning("Register callback func failed: %s, try to using mindx plugin.", e)
            return False
        self.using_agent = True
        return True

    def _register_by_plugin(self, func_map: dict) -> bool:
        self.using_agent = False
        try:
            from taskd.python.framework.agent.ms_mgr.msrun_plugin import MSRunPlugin

            self.msmgr = MSRunPlugin()
            for name, func in func_map.items():
                self.msmgr.register_callbacks(name, func)
        except Exception as e:  # noqa: BLE001
            _log.warning("Import mindx failed: %s, process controlled by msrun.", e)
            return False
        return True

    def register_callback(self, func_map: dict) -> bool:
        if not isinstance(func_map, dict):
            raise ValueError(f"The value of 'func_map' should be a dict, bug got:{func_map}.")
        return self._register_by_agent(func_map) or self._register_by_plugin(func_map)

    def start(self) -> None:
        if self.using_agent:
            self.start_taskd_agent()
            return
        if self.msmgr is None:
            raise RuntimeError("Mindx unavailable, can not start training.")
        self.msmgr.start()


class TftHandle:
    """The MindIO TFT (training fault tolerance) handle: ``init`` starts MindIO's controller and processor on
    Ascend; elsewhere it warns and leaves ``get_tft()`` None (MindSpore's behaviour off Ascend)."""

    def __init__(self) -> None:
        self._controller_ip = self._controller_rank_id = self._controller_port = None
        self.tft = None
        self.enable_mindx = False
        self.tft_notify_controller_prepare_action = None
        self.tft_notify_controller_change_strategy = None

    def get_tft(self) -> Any:
        return self.tft

    def init(self, **kwargs: Any) -> None:
        env = _tft_env()
        if not any(opt in env for opt in TFTCommValue.NEED_MINDIO):
            raise ValueError(f"MindIO TFT register need custom switch on one of:{TFTCommValue.NEED_MINDIO}")
        target = context.get_context("device_target")
        _log.warning("MindIO adataper only support on Ascend device but got device %s!", target)

    def unregister_tft(self) -> None:
        if self.tft is not None:
            self.tft.tft_destroy_processor()


_tft_handler = TftHandle()


def _check_matmul(rng: np.random.RandomState) -> bool:
    a = rng.standard_normal((256, 256)).astype(np.float32)
    b = rng.standard_normal((256, 256)).astype(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    got = ops.matmul(Tensor(a), Tensor(b)).asnumpy()
    again = ops.matmul(Tensor(a), Tensor(b)).asnumpy()
    return bool(np.array_equal(got, again) and np.allclose(got, want, rtol=1e-3, atol=1e-2))


def stress_detect(detect_type: str = "aic") -> int:
    """Stress-test the device: ``'aic'`` runs matrix products on the device twice and compares them with each
    other and with a float64 host reference; ``'hccs'`` all-reduces ones over the ranks of this node and
    checks the sum. Returns 0 (normal), 1 (the test could not run) or 2 (wrong results: suspect hardware)."""
    if detect_type not in ("aic", "hccs"):
        _log.error(
            "For stress detect, detection type must be 'aic' or 'hccs'.But got %s. Exiting stress detect.", detect_type
        )
        return 1
    try:
        if detect_type == "aic":
            rng = np.random.RandomState(0)
            return 0 if all(_check_matmul(rng) for _ in range(4)) else 2
        from ..communication import comm_func, get_group_size

        out, _ = comm_func.all_reduce(Tensor(np.ones(1024, np.float32)))
        return 0 if np.all(out.asnumpy() == get_group_size()) else 2
    except Exception as err:  # noqa: BLE001 (a test that cannot start is code 1)
        _log.error("Stress detection could not run: %s", err)
        return 1
