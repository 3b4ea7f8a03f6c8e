"""sporax.runtime and sporax.hal: memory statistics from the device's counters (MindSpore's CPU form on
CPU, where XLA keeps none; the GPU mapping checked with a device that reports counters), synchronize,
streams/events, executor settings and the device queries, with MindSpore's errors.

The CPU forms of ``memory_stats()``/``memory_summary()``/``hal.memory_stats()`` below are what MindSpore
2.10's CPU build returns (recorded by hand from ``mindspore.runtime.memory_stats()`` etc.)."""

import ctypes.util
import os

import numpy as np
import pytest

import sporax as ms
from sporax import hal, ops, runtime
from sporax._engine import _device
from sporax.runtime import executor as _executor
from sporax.runtime import memory as _memory

MS_CPU_STATS = {
    "total_reserved_memory": 0,
    "total_allocated_memory": 0,
    "total_idle_memory": 0,
    "total_eager_free_memory": 0,
    "max_reserved_memory": 0,
    "max_allocated_memory": 0,
    "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
    "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}},
}
MS_CPU_SUMMARY = (
    "|=============================================|\n|               Memory summary                |\n"
    "|=============================================|\n| Metric               | Data                 |\n"
    "|---------------------------------------------|\n| Reserved memory      |      0 B             |\n"
    "|---------------------------------------------|\n| Allocated memory     |      0 B             |\n"
    "|---------------------------------------------|\n| Idle memory          |      0 B             |\n"
    "|---------------------------------------------|\n| Eager free memory    |      0 B             |\n"
    "|---------------------------------------------|\n| Max reserved memory  |      0 B             |\n"
    "|---------------------------------------------|\n| Max allocated memory |      0 B             |\n"
    "|=============================================|\n"
)

on_cpu = pytest.mark.skipif(_device.backend_target() != "CPU", reason="the CPU forms")


@on_cpu
def test_cpu_memory_statistics_are_mindsporeS_cpu_form():
    x = ms.Tensor(np.ones((256, 256), np.float32))
    _ = (x + 1).asnumpy()
    assert runtime.memory_stats() == MS_CPU_STATS
    assert runtime.memory_summary() == MS_CPU_SUMMARY
    assert runtime.memory_allocated() == runtime.max_memory_allocated() == 0
    assert runtime.memory_reserved() == runtime.max_memory_reserved() == 0
    assert hal.memory_stats() == {} and hal.memory_stats("CPU") == {}
    assert hal.memory_allocated() == hal.max_memory_reserved("CPU") == 0
    assert hal.memory_summary() == MS_CPU_SUMMARY
    runtime.reset_peak_memory_stats()
    runtime.reset_max_memory_allocated()
    runtime.reset_max_memory_reserved()
    hal.reset_peak_memory_stats()
    runtime.empty_cache()
    hal.empty_cache()


def test_counters_and_peaks_from_a_device_that_reports_them(monkeypatch):
    """A GPU's PJRT counters (bytes_in_use, peak_bytes_in_use, pool_bytes ...) as MindSpore's statistics;
    XLA's peak cannot be reset, so after a reset the peak is the largest value sampled since."""
    dev = _device.devices()[0]
    counters = {
        "bytes_in_use": 300,
        "peak_bytes_in_use": 900,
        "pool_bytes": 1024,
        "peak_pool_bytes": 4096,
        "bytes_reserved": 0,
        "bytes_limit": 1 << 30,
    }
    monkeypatch.setattr(_device, "raw_memory_stats", lambda d=None: dict(counters))
    monkeypatch.setattr(_device, "_peaks", {})
    s = runtime.memory_stats()
    assert (s["total_allocated_memory"], s["max_allocated_memory"]) == (300, 900)
    assert (s["total_reserved_memory"], s["max_reserved_memory"], s["total_idle_memory"]) == (1024, 4096, 724)
    runtime.reset_max_memory_allocated()
    assert runtime.max_memory_allocated() == 300 and runtime.max_memory_reserved() == 4096
    counters["bytes_in_use"] = 500
    assert runtime.memory_allocated() == 500 and runtime.max_memory_allocated() == 500
    counters["bytes_in_use"] = 200
    assert runtime.max_memory_allocated() == 500
    runtime.reset_peak_memory_stats()
    assert runtime.max_memory_allocated() == 200 and runtime.max_memory_reserved() == 1024
    assert "Allocated memory     |    200 B" in runtime.memory_summary()
    assert _device.memory_counters(dev)["limit"] == 1 << 30


def test_synchronize_streams_and_events():
    x = ms.Tensor(np.random.RandomState(0).rand(64, 64).astype(np.float32))
    y = ops.matmul(x, x)
    runtime.synchronize()
    hal.synchronize()
    s = runtime.Stream()
    assert s.query() is True and s.stream_id() > 0 and runtime.default_stream().stream_id() == 0
    assert s == s and s != runtime.default_stream() and hash(s) == hash(s)
    ev = s.record_event()
    assert isinstance(ev, runtime.Event) and ev.query() is True
    ev.synchronize()
    s.wait_event(ev)
    s.wait_stream(runtime.default_stream())
    s.synchronize()
    start, end = runtime.Event(enable_timing=True), hal.Event(enable_timing=True)
    start.record()
    z = ops.matmul(y, y)
    end.record()
    assert end.query() and start.elapsed_time(end) >= 0.0
    np.testing.assert_allclose(z.asnumpy(), (x.asnumpy() @ x.asnumpy()) @ (x.asnumpy() @ x.asnumpy()), rtol=1e-4)
    assert runtime.current_stream() is runtime.default_stream()
    with runtime.StreamCtx(s):
        assert runtime.current_stream() is s
    assert runtime.current_stream() is runtime.default_stream()
    runtime.set_cur_stream(None)
    assert runtime.communication_stream() is runtime.default_stream() and hal.current_stream() is hal.default_stream()
    hal.set_cur_stream(s)
    hal.set_cur_stream(runtime.default_stream())
    with hal.StreamCtx(None):
        pass


def test_stream_and_event_errors():
    with pytest.raises(TypeError, match="For 'Event', the 'enable_timing' must be a bool"):
        runtime.Event(enable_timing=1)
    with pytest.raises(TypeError, match="For 'Stream', the 'priority' must be int"):
        runtime.Stream(priority=1.5)
    with pytest.raises(TypeError, match="For 'record_event', the argument 'event' should be Event"):
        runtime.Stream().record_event(3)
    with pytest.raises(TypeError, match="For 'elapsed_time', the argument 'end_event' should be Event"):
        runtime.Event().elapsed_time(None)
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        runtime.Event().elapsed_time(runtime.Event())
    with pytest.raises(TypeError, match="For 'set_cur_stream', the argument 'stream' should be Stream"):
        runtime.set_cur_stream("s")
    with pytest.raises(TypeError, match="For 'StreamCtx', the argument 'ctx_stream' should be Stream"):
        runtime.StreamCtx(1)


def test_set_memory_and_dispatch_threads_checked_once(monkeypatch):
    monkeypatch.setattr(_memory, "_memory_conf", {})
    with pytest.raises(ValueError, match="must be a string ending with 'GB'"):
        runtime.set_memory(init_size="2G")
    with pytest.raises(ValueError, match='should not be "0GB"'):
        runtime.set_memory(max_size="0.0GB")
    with pytest.raises(ValueError, match="The optimize_level must be one of \\['O0', 'O1'\\], but got O2."):
        runtime.set_memory(optimize_level="O2")
    with pytest.raises(TypeError, match="'init_size' must be type of str"):
        runtime.set_memory(init_size=2)
    runtime.set_memory("1GB", "0.5GB", "3.5GB", "O1", "0GB")
    assert _memory._memory_conf["max_size"] == 3.5 and _memory._memory_conf["optimize_level"] == "O1"
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        runtime.set_memory()
    monkeypatch.setattr(_executor, "_conf", {})
    with pytest.raises(ValueError, match="must be a positive integer, but got 0"):
        runtime.dispatch_threads_num(0)
    with pytest.raises(TypeError, match="'threads_num' must be type of int"):
        runtime.dispatch_threads_num("4")
    runtime.dispatch_threads_num(4)
    with pytest.raises(RuntimeError, match="The 'dispatch_threads_num' can not be set repeatedly."):
        runtime.dispatch_threads_num(4)


def test_launch_blocking_runs_cpu_work_synchronously(monkeypatch):
    import jax

    before = jax.config.values["jax_cpu_enable_async_dispatch"]
    monkeypatch.setattr(_executor, "_conf", {})
    try:
        runtime.launch_blocking()
        assert jax.config.values["jax_cpu_enable_async_dispatch"] is False
        assert float(ops.add(ms.Tensor(1.0), ms.Tensor(2.0))) == 3.0
    finally:
        jax.config.update("jax_cpu_enable_async_dispatch", before)


def test_set_cpu_affinity_binds_the_process(monkeypatch):
    monkeypatch.setattr(_executor, "_conf", {})
    original = sorted(os.sched_getaffinity(0))
    with pytest.raises(ValueError, match="should be in format 'cpuidX-cpuidY'"):
        runtime.set_cpu_affinity(True, ["0:3"])
    with pytest.raises(TypeError, match="must be list"):
        runtime.set_cpu_affinity(True, "0-3")
    with pytest.raises(ValueError, match="should be a non-negative integer"):
        runtime.set_cpu_affinity(True, None, {"main": [-1]})
    try:
        runtime.set_cpu_affinity(True, [str(original[0])])
        assert sorted(os.sched_getaffinity(0)) == [original[0]]
        with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
            runtime.set_cpu_affinity(True)
        monkeypatch.setattr(_executor, "_conf", {})
        runtime.set_cpu_affinity(True)  # one rank: every available core of the original set
    finally:
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setaffinity(int(tid), original)
            except OSError:
                pass
    monkeypatch.setattr(_executor, "_conf", {})
    runtime.set_cpu_affinity(False)
    assert sorted(os.sched_getaffinity(0)) == original


def test_ascend_only_settings_say_so():
    s = runtime.Stream()
    for call in (
        lambda: runtime.get_device_limit(0),
        lambda: runtime.set_device_limit(0, 1, 1),
        lambda: runtime.get_stream_limit(s),
        lambda: runtime.set_stream_limit(s, 1, 1),
        lambda: runtime.reset_stream_limit(s),
        lambda: runtime.StreamLimitCtx(s, 1, 1).__enter__(),
    ):
        with pytest.raises(RuntimeError, match="only supported on Ascend"):
            call()
    with pytest.raises(TypeError, match="For 'get_stream_limit', the argument 'stream' should be Stream"):
        runtime.get_stream_limit(0)
    with pytest.raises(RuntimeError, match="kernel launch groups are only supported on Ascend"):
        runtime.set_kernel_launch_group()
    with pytest.raises(RuntimeError, match="kernel launch capture is only supported on Ascend"):
        runtime.set_kernel_launch_capture(True)
    with pytest.raises(RuntimeError, match="only supported on Ascend"):
        runtime.memory_replay("memory_block.csv")


def test_pluggable_allocator_loads_functions_but_xla_keeps_its_allocator():
    libc = ctypes.util.find_library("c")
    alloc = runtime.PluggableAllocator(libc, "malloc", "free")
    assert alloc.alloc_fn_ptr == ctypes.cast(ctypes.CDLL(libc).malloc, ctypes.c_void_p).value
    assert alloc.free_fn_ptr != 0
    pool = runtime.MemPool(alloc)
    assert pool.allocator is alloc
    with pytest.raises(AttributeError):
        runtime.PluggableAllocator(libc, "no_such_alloc_fn", "free")
    with pytest.raises(RuntimeError, match="XLA's device allocator cannot be replaced"):
        with runtime.use_mem_pool(pool):
            pass
    with pytest.raises(TypeError, match="should be MemPool"):
        with runtime.use_mem_pool(alloc):
            pass


@on_cpu
def test_hal_devices_on_cpu():
    assert hal.is_available("CPU") and not hal.is_available("Ascend")
    assert hal.is_initialized("CPU") and not hal.is_initialized("Ascend")
    assert hal.device_count() == hal.device_count("CPU") == 1
    assert hal.get_device_name(0) == "CPU" and hal.get_device_name(0, "CPU") == "CPU"
    assert hal.get_device_capability(0) is None and hal.get_device_properties(0) is None
    assert hal.get_arch_list() is None


def test_hal_argument_errors():
    with pytest.raises(ValueError, match="For 'hal.is_available', the argument 'device_target' must be one of"):
        hal.is_available("TPU")
    with pytest.raises(ValueError, match="For 'hal.is_initialized', the argument 'device_target' must be one of"):
        hal.is_initialized("cpu")
    with pytest.raises(TypeError, match="The argument 'device_target' must be str, but got 1"):
        hal.device_count(1)
    with pytest.raises(ValueError, match="must be one of \\['CPU', 'GPU', 'Ascend'\\], but got NPU"):
        hal.memory_stats("NPU")
    with pytest.raises(ValueError, match="Ascend backend is not available for this MindSpore package"):
        hal.memory_allocated("Ascend")
    with pytest.raises(TypeError, match="The argument 'device_id' must be int"):
        hal.get_device_name("0")
    with pytest.raises(ValueError, match="The argument 'device_id' should not be negative, but got -1."):
        hal.get_device_name(-1)
    n = hal.device_count()
    with pytest.raises(ValueError, match=f"must be less than device count: {n}, but got {n}."):
        hal.get_device_properties(n)
