"""The top level and ``common``: dtype names, seeds and generators, from_numpy, JitConfig, jit checks,
jit_class/lazy_inline/no_inline, recompute, set_device/get_current_device/set_deterministic, jit_syntax_level,
``mindspore.log``, ``mindspore.utils`` DLPack. Expected values and errors come from real MindSpore 2.10
(tools/make_top_reference.py -> fixtures/top_reference.json)."""

import json
import logging
import re
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.common import dtype as mstype

REF = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())


def _raises(ref, fn):
    cls = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError}[ref["error"]]
    with pytest.raises(cls, match="^" + re.escape(ref["message"]) + "$"):
        fn()


# ----------------------------------------------------------------------------------------- dtypes
@pytest.mark.parametrize("name", sorted(REF["dtype"]))
def test_dtype_repr_and_str(name):
    t = getattr(mstype, name)
    assert [repr(t), str(t)] == REF["dtype"][name]
    assert getattr(ms, name) is t


def test_tensor_type_float_type_quant_dtype():
    tt = mstype.TensorType(ms.float32)
    assert [repr(tt), str(tt), repr(tt.element_type())] == REF["tensor_type"]
    assert tt == mstype.TensorType(ms.float32) and tt != mstype.TensorType(ms.int32)
    assert [repr(t) for t in mstype.float_type] == REF["float_type"]
    assert {m.name: m._value_ for m in mstype.QuantDtype} == REF["quant_dtype"]


def test_float8_and_int4_tensors_round_trip():
    x = np.array([0.5, 1.5, -2.0], np.float32)
    for t in (ms.float8_e4m3fn, ms.float8_e5m2):
        y = ms.Tensor(x, t)
        assert y.dtype is t and str(y.dtype) == REF["dtype"][repr(t)[len("mindspore.") :]][1]
        np.testing.assert_array_equal(y.astype(ms.float32).asnumpy(), x)  # exactly representable
    q = ms.Tensor(np.array([-8, 0, 7], np.int8), ms.qint4x2)
    assert q.dtype is ms.qint4x2
    np.testing.assert_array_equal(q.astype(ms.int32).asnumpy(), [-8, 0, 7])
    with pytest.raises(TypeError, match="no array representation"):
        ms.Tensor(x, ms.hifloat8)


def test_tensor_printing_keeps_str_names():
    assert repr(ms.Tensor(np.array([1.5], np.float32))) == "Tensor(shape=[1], dtype=Float32, value=[1.5])"
    assert f"{ms.float32}" == "Float32" and f"{ms.float32!r}" == "mindspore.float32"


# ------------------------------------------------------------------------------- seeds, generators
def test_manual_seed_makes_random_ops_reproducible():
    before = ms.get_seed()
    assert [ms.manual_seed(5) is ms.default_generator, ms.initial_seed()] == REF["manual_seed"][:2]
    assert ms.get_seed() == before  # manual_seed leaves set_seed's global seed alone (None in MindSpore's run)
    a = ms.ops.rand(4)
    ms.manual_seed(5)
    np.testing.assert_array_equal(ms.ops.rand(4).asnumpy(), a.asnumpy())
    for ref, bad in ((REF["seed_errors"]["float"], 1.5), (REF["seed_errors"]["str"], "1")):
        _raises(ref, lambda bad=bad: ms.manual_seed(bad))


def test_rng_state_round_trip_and_seed():
    st = ms.get_rng_state()
    assert [str(st.dtype), list(st.shape)] == REF["rng_state"]
    x = ms.ops.rand(3)
    ms.set_rng_state(st)
    np.testing.assert_array_equal(ms.ops.rand(3).asnumpy(), x.asnumpy())
    s = ms.seed()
    assert isinstance(s, int) and ms.initial_seed() == s
    with pytest.raises(ValueError, match="16 bytes"):
        ms.set_rng_state(ms.Tensor(np.zeros(3, np.uint8)))


def test_generator_objects():
    g = ms.Generator()
    assert [g.initial_seed(), g.manual_seed(7) is g, g.initial_seed()] == REF["generator"]
    k1 = g._next_key()
    g.manual_seed(7)
    assert np.array_equal(
        np.asarray(ms._engine.jax.random.key_data(k1)), np.asarray(ms._engine.jax.random.key_data(g._next_key()))
    )
    st = g.get_state()
    g2 = ms.Generator()
    g2.set_state(st)
    assert g2.initial_seed() == 7
    assert ms.common.default_generator is ms.default_generator


# ------------------------------------------------------------------------------------ from_numpy
def test_from_numpy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ms.from_numpy(a)
    assert t.asnumpy().tolist() == REF["from_numpy"][0]
    assert str(ms.Tensor.from_numpy(np.arange(3, dtype=np.int32)).dtype) == REF["from_numpy"][1]
    assert ms.common.from_numpy is ms.from_numpy
    _raises(REF["from_numpy_error"], lambda: ms.from_numpy([1, 2]))
    assert ms.tensor([1, 2], ms.int32, device=None).dtype is ms.int32


# ------------------------------------------------------------------------------- jit and friends
def test_jit_config():
    assert ms.JitConfig(jit_level="O1").jit_config_dict == REF["jit_config"]
    assert ms.JitConfig().jit_config_dict == REF["jit_config_default"]
    for key, ref in REF["jit_config_errors"].items():
        bad = {"jit_level": "O5", "exc_mode": "x", "jit_syntax_level": "X", "debug_level": "x", "infer_boost": "x"}
        _raises(ref, lambda key=key, bad=bad: ms.JitConfig(**{key: bad[key]}))


def test_jit_options_checked_and_accepted():
    for key, bad in (("jit_level", "O2"), ("capture_mode", "x"), ("dynamic", 2)):
        _raises(REF["jit_errors"][key], lambda key=key, bad=bad: ms.jit(lambda a: a, **{key: bad}))

    @ms.jit(jit_level="O1", backend="ms_backend", capture_mode="trace")
    def f(a):
        return a * 2

    np.testing.assert_array_equal(f(ms.Tensor([1.0, 2.0])).asnumpy(), [2.0, 4.0])


def test_jit_syntax_levels():
    assert [ms.STRICT, ms.COMPATIBLE, ms.LAX, ms.get_context("jit_syntax_level")] == REF["syntax_levels"]
    assert ms.context.STRICT == ms.STRICT and ms.context.LAX == ms.LAX and ms.context.COMPATIBLE == ms.COMPATIBLE
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        assert ms.get_context("jit_syntax_level") == ms.STRICT
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)
    _raises(REF["syntax_level_error"], lambda: ms.set_context(jit_syntax_level=5))


def test_jit_class_lazy_inline_no_inline():
    class Plain:
        def __init__(self):
            self.k = 3.0

    assert ms.jit_class(Plain) is Plain
    _raises(REF["jit_class_errors"]["int"], lambda: ms.jit_class(3))
    with pytest.raises(TypeError, match=r"^Decorator jit_class is used for user-defined classes and cannot be used"):
        ms.jit_class(nn.Dense)
    obj = Plain()

    @ms.jit
    def f(a):
        return a * obj.k

    np.testing.assert_array_equal(f(ms.Tensor([1.0])).asnumpy(), [3.0])

    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.dense(x)

    @ms.no_inline
    def twice(x):
        return x * 2

    assert ms.lazy_inline()(twice) is twice and ms.no_inline()(twice) is twice
    out = Block()(ms.Tensor(np.ones((1, 2), np.float32)))
    np.testing.assert_array_equal(twice(out).asnumpy(), [[4.0, 4.0]])


def test_recompute_gives_the_same_gradients():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    ones = ms.Tensor(np.ones((1, 3), np.float32))
    params = net.trainable_params()
    plain = ms.grad(lambda a: net(a).sum(), None, params)(ones)
    remat = ms.grad(lambda a: ms.recompute(net, a).sum(), None, params)(ones)
    assert [[g.asnumpy().tolist() for g in plain], [g.asnumpy().tolist() for g in remat]] == REF["recompute"]
    _raises(REF["recompute_error"], lambda: ms.recompute(lambda a: a, ones))


# ------------------------------------------------------------------------------------- devices
def test_set_device_and_get_current_device():
    assert list(ms.get_current_device()) == REF["current_device"]
    d = ms.get_current_device()
    assert (d.device_target, d.device_id) == tuple(REF["current_device"])
    ms.set_device("CPU", 0)
    assert ms.get_context("device_target") == "CPU"
    _raises(REF["set_device_error"], lambda: ms.set_device("GPUX"))
    _raises(REF["set_device_id_error"], lambda: ms.set_device("CPU", -1))


def test_set_deterministic(monkeypatch):
    from sporax import device_manager

    monkeypatch.setattr(device_manager, "_deterministic_set", [False])
    monkeypatch.setitem(ms.context._context, "deterministic", "OFF")
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    _raises(REF["set_deterministic_type_error"], lambda: ms.set_deterministic(1))
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == REF["deterministic"]
    assert "--xla_gpu_deterministic_ops=true" in device_manager.os.environ["XLA_FLAGS"]
    _raises(REF["set_deterministic_again"], lambda: ms.set_deterministic(True))


# ------------------------------------------------------------------------------------------ log
@pytest.fixture
def fresh_log(monkeypatch):
    for var in ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "GLOG_stderrthreshold"):
        monkeypatch.delenv(var, raising=False)
    ms.log._reset()
    yield monkeypatch
    ms.log._reset()


@pytest.mark.parametrize("case,env", [("default", {}), ("v3", {"GLOG_v": "3"}), ("v0", {"GLOG_v": "0"})])
def test_log_level_and_config(fresh_log, case, env):
    for k, v in env.items():
        fresh_log.setenv(k, v)
    assert ms.get_level() == REF["log"][case]["level"]
    assert ms.get_log_config() == REF["log"][case]["config"]
    assert ms.log.get_level is ms.get_level


def test_log_to_files(fresh_log, tmp_path):
    fresh_log.setenv("GLOG_logtostderr", "0")
    fresh_log.setenv("GLOG_log_dir", str(tmp_path))
    cfg = ms.get_log_config()
    want = dict(REF["log"]["file"]["config"])
    want["GLOG_log_dir"] = str(tmp_path / "rank_0" / "logs")
    assert cfg == want
    ms.log.warning("hello %d", 42)
    (logfile,) = (tmp_path / "rank_0" / "logs").iterdir()
    text = logfile.read_text()
    assert re.match(r"\[WARNING\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[", text)
    assert text.rstrip().endswith("hello 42")


def test_log_bad_level(fresh_log):
    fresh_log.setenv("GLOG_v", "9")
    msg = REF["log"]["bad_level"]["error"].split(": ", 1)[1]
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        ms.get_level()


def test_log_functions_respect_level(fresh_log, capsys):
    fresh_log.setenv("GLOG_v", "3")
    ms.log.warning("not shown")
    ms.log.error("shown %s", "now")
    err = capsys.readouterr().err
    assert "not shown" not in err and "[ERROR] ME(" in err and err.rstrip().endswith("shown now")
    assert ms.log._get_logger().level == logging.ERROR


# ---------------------------------------------------------------------------------------- utils
def test_utils_dlpack():
    from sporax import utils

    t = ms.Tensor(np.arange(3, dtype=np.float32))
    back = utils.from_dlpack(utils.to_dlpack(t))
    np.testing.assert_array_equal(back.asnumpy(), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(utils.from_dlpack(np.arange(4)).asnumpy(), np.arange(4))
    with pytest.raises(TypeError, match="For 'to_dlpack'"):
        utils.to_dlpack(np.ones(2))


def test_top_level_reexports():
    import sporax.profiler
    import sporax.runtime

    for name in ms._FROM_RUNTIME:
        assert getattr(ms, name) is getattr(sporax.runtime, name), name
    assert ms.Profiler is sporax.profiler.Profiler and ms.from_dlpack is ms.utils.from_dlpack
    assert ms.to_dlpack is ms.utils.to_dlpack
    assert ms.get_ps_context is ms.context.get_ps_context and ms.set_ps_context is ms.context.set_ps_context
    assert ms.memory_allocated() >= 0 and ms.synchronize() is None
    t = ms.Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(ms.from_dlpack(ms.to_dlpack(t)).asnumpy(), [0.0, 1.0, 2.0])


def test_frombuffer():
    # MindSpore 2.10: [0. 1. 2. 3.], [1. 2.], the float bits as int32, and this RuntimeError for 3 bytes
    b = np.arange(4, dtype=np.float32).tobytes()
    assert ms.frombuffer(b, ms.float32).asnumpy().tolist() == [0.0, 1.0, 2.0, 3.0]
    assert ms.frombuffer(b, ms.float32, 2, 4).asnumpy().tolist() == [1.0, 2.0]
    assert ms.frombuffer(b, dtype=ms.int32, count=-1, offset=0).asnumpy().tolist() == [
        0,
        1065353216,
        1073741824,
        1077936128,
    ]
    with pytest.raises(RuntimeError) as info:
        ms.frombuffer(b"abc", ms.float32)
    assert str(info.value) == "buffer length (3 bytes) after offset (0 bytes) must be a multiple of element size (4)."
