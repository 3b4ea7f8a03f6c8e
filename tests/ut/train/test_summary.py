"""SummaryRecord / SummaryCollector: TensorBoard event files written by hand, read back and parsed (TFRecord
framing with CRC-32C, Event/Summary protobufs, PNG images, histograms)."""

from __future__ import annotations

import glob
import io
import os
import struct

import numpy as np
import pytest
from PIL import Image

from sporax import Tensor, nn
from sporax.train import RunContext, SummaryCollector, SummaryRecord
from sporax.train.callback import _CallbackManager, _InternalCallbackParam
from sporax.train.summary import _event


def _values(events):
    out = {}
    for ev in events:
        for v in ev.get("values", []):
            out.setdefault(v["tag"], []).append((ev["step"], v))
    return out


def test_crc32c_and_record_framing(tmp_path):
    assert _event.crc32c(b"123456789") == 0xE3069283  # the standard CRC-32C check value
    assert _event.crc32c(b"") == 0
    data = bytes(range(256)) * 5
    # slicing-by-8 equals the bytewise definition
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    assert _event.crc32c(data) == crc ^ 0xFFFFFFFF
    rec = _event.tfrecord(b"hello")
    assert struct.unpack("<Q", rec[:8])[0] == 5 and rec[12:17] == b"hello"
    path = tmp_path / "r"
    path.write_bytes(rec + _event.tfrecord(b""))
    assert _event.read_records(str(path)) == [b"hello", b""]
    path.write_bytes(rec[:-1] + bytes([rec[-1] ^ 1]))
    with pytest.raises(ValueError, match="corrupt record"):
        _event.read_records(str(path))


def test_summary_record_scalars_histograms_images_tensors(tmp_path):
    rng = np.random.RandomState(0)
    weights = rng.randn(50, 20).astype(np.float32)
    images = rng.rand(3, 1, 5, 4).astype(np.float32)  # values in [0, 1]: scaled by 255
    with SummaryRecord(str(tmp_path), file_prefix="events", file_suffix="_MS") as rec:
        rec.add_value("scalar", "loss", Tensor(np.float32(0.25)))
        rec.add_value("histogram", "w", Tensor(weights))
        rec.add_value("image", "img", Tensor(images))
        rec.add_value("tensor", "t", Tensor(np.arange(6, dtype=np.int32).reshape(2, 3)))
        assert rec.record(3)
        rec.add_value("scalar", "loss", Tensor(np.array([0.125], np.float32)))
        assert rec.record(7, plugin_filter=lambda plugin: plugin == "scalar")
        path = rec.log_dir
    name = os.path.basename(path)
    assert (
        name.startswith("events.out.events.summary.")
        and name.endswith("_MS")
        and os.path.dirname(path) == str(tmp_path)
    )
    events = _event.read_events(path)
    assert events[0]["file_version"] == "brain.Event:2"
    vals = _values(events)
    assert [(s, v["value"]) for s, v in vals["loss"]] == [(3, 0.25), (7, 0.125)]

    ((step, hist),) = vals["w"]
    assert step == 3 and hist["kind"] == "histogram"
    assert hist["num"] == 1000 and hist["bucket"].sum() == 1000 and len(hist["bucket"]) == 90
    assert hist["min"] == pytest.approx(weights.min()) and hist["max"] == pytest.approx(weights.max())
    assert hist["sum"] == pytest.approx(float(weights.astype(np.float64).sum()))
    assert hist["sum_squares"] == pytest.approx(float(np.square(weights.astype(np.float64)).sum()))
    assert hist["bucket_limit"][-1] == pytest.approx(weights.max())
    counts, _ = np.histogram(weights.astype(np.float64), bins=np.linspace(weights.min(), weights.max(), 91))
    np.testing.assert_array_equal(hist["bucket"], counts)

    ((_, img),) = vals["img"]
    assert (img["height"], img["width"], img["colorspace"]) == (5, 12, 3)  # three images side by side
    pixels = np.asarray(Image.open(io.BytesIO(img["png"])))
    assert pixels.shape == (5, 12, 3)
    expected = (images[:, 0].transpose(1, 0, 2).reshape(5, 12) * 255).astype(np.uint8)
    np.testing.assert_array_equal(pixels[..., 0], expected)
    np.testing.assert_array_equal(pixels[..., 2], expected)

    ((_, ten),) = vals["t"]
    np.testing.assert_array_equal(ten["value"], np.arange(6).reshape(2, 3))
    assert ten["value"].dtype == np.int32


def test_summary_record_rules_and_errors(tmp_path, caplog):
    with SummaryRecord(str(tmp_path)) as rec:
        with pytest.raises(RuntimeError, match="only one instance is supported"):
            SummaryRecord(str(tmp_path))
        with pytest.raises(ValueError, match='the parameter "name" type should be str'):
            rec.add_value("scalar", "", Tensor(1.0))
        with pytest.raises(TypeError, match='the parameter "value" expect to be Tensor, but got float'):
            rec.add_value("scalar", "a", 1.0)
        with pytest.raises(ValueError, match="the v rank must be less than or equal to 1"):
            rec.add_value("scalar", "a", Tensor(np.ones(2, np.float32)))
        with pytest.raises(ValueError, match="not to hold a valid image"):
            rec.add_value("image", "a", Tensor(np.ones((2, 2), np.float32)))
        with pytest.raises(ValueError, match='no such "plugin"'):
            rec.add_value("audio", "a", Tensor(1.0))
        with pytest.raises(ValueError, match="not supported by sporax"):
            rec.add_value("graph", "g", None)
        with pytest.raises(ValueError, match="is not a recognized mode"):
            rec.set_mode("test")
        with pytest.raises(TypeError, match="The type of 'step' should be 'int'"):
            rec.record(1.5)
        rec.add_value("scalar", "a", Tensor(1.0))
        rec.add_value("scalar", "a", Tensor(2.0))
        assert "has duplicate values" in caplog.text
        rec.record(1)
    assert not rec.record(2)  # closed
    with pytest.raises(ValueError, match="SummaryRecord has been closed"):
        rec.__enter__()
    with pytest.raises(TypeError, match="'max_file_size' should be int type"):
        SummaryRecord(str(tmp_path), max_file_size="1")
    with pytest.raises(ValueError, match="can only contain"):
        SummaryRecord(str(tmp_path), file_prefix="a b")
    # max_file_size: events that do not fit are dropped (or raise with raise_exception)
    d = tmp_path / "small"
    with SummaryRecord(str(d), max_file_size=200) as rec:
        rec.add_value("scalar", "a", Tensor(1.0))
        assert rec.record(1)
        rec.add_value("tensor", "big", Tensor(np.zeros(100, np.float32)))
        assert not rec.record(2)
        assert "'max_file_size' reached" in caplog.text
    with SummaryRecord(str(d), max_file_size=60, raise_exception=True) as rec:
        rec.add_value("tensor", "big", Tensor(np.zeros(100, np.float32)))
        with pytest.raises(RuntimeError, match="'max_file_size' reached"):
            rec.record(1)
    # export_options: tensors also saved as .npy
    d2 = tmp_path / "export"
    with SummaryRecord(str(d2), export_options={"tensor_format": "npy"}) as rec:
        rec.add_value("tensor", "x", Tensor(np.arange(3, dtype=np.float32)))
        rec.record(4)
    (npy,) = glob.glob(str(d2 / "export_*" / "tensor" / "x_4.npy"))
    np.testing.assert_array_equal(np.load(npy), [0, 1, 2])
    with pytest.raises(ValueError, match="are unsupported"):
        SummaryRecord(str(d2), export_options={"image_format": "png"})


def _fake_train(collector, epochs=2, batch_num=5, metrics=None, images=True):
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    p = _InternalCallbackParam(
        train_network=train,
        optimizer=opt,
        epoch_num=epochs,
        batch_num=batch_num,
        cur_step_num=0,
        mode="train",
        dataset_sink_mode=False,
        list_callback=[collector],
    )
    with _CallbackManager([collector]) as cbm:
        rc = RunContext(p)
        cbm.on_train_begin(rc)
        for e in range(epochs):
            p.cur_epoch_num = e + 1
            cbm.on_train_epoch_begin(rc)
            for _ in range(batch_num):
                p.cur_step_num += 1
                x = np.full((2, 3, 4, 4), p.cur_step_num / 20, np.float32) if images else np.ones((2, 4), np.float32)
                p.train_dataset_element = [Tensor(x), Tensor(np.zeros(2, np.int32))]
                cbm.on_train_step_begin(rc)
                p.net_outputs = Tensor(np.float32(1.0 / p.cur_step_num))
                cbm.on_train_step_end(rc)
            if metrics:
                p.metrics = p.eval_results = metrics(e + 1)
            cbm.on_train_epoch_end(rc)
            p.pop("metrics", None)
            p.pop("eval_results", None)
        cbm.on_train_end(rc)


def test_summary_collector(tmp_path):
    d = tmp_path / "s"
    _fake_train(SummaryCollector(str(d), collect_freq=3), metrics=lambda e: {"acc": 0.5 * e})
    (path,) = glob.glob(str(d / "*tfevents*"))
    vals = _values(_event.read_events(path))
    # the first step, then every 3rd step
    assert [(s, round(v["value"], 6)) for s, v in vals["loss/auto"]] == [
        (1, 1.0),
        (3, round(1 / 3, 6)),
        (6, round(1 / 6, 6)),
        (9, round(1 / 9, 6)),
    ]
    assert [s for s, _ in vals["input_data/auto"]] == [1, 3, 6, 9]
    assert vals["input_data/auto"][0][1]["width"] == 8  # two 4x4 images side by side
    assert [s for s, _ in vals["weight/auto"]] == [1, 3, 6, 9] and "bias/auto" in vals
    assert [(s, v["value"]) for s, v in vals["eval/acc"]] == [(5, 0.5), (10, 1.0)]

    d2 = tmp_path / "s2"
    collector = SummaryCollector(
        str(d2),
        collect_freq=1,
        keep_default_action=False,
        collect_specified_data={"collect_metric": True, "histogram_regular": "^bias"},
    )
    _fake_train(collector, epochs=1, batch_num=2, images=False)
    vals = _values(_event.read_events(glob.glob(str(d2 / "*tfevents*"))[0]))
    assert set(vals) == {"loss/auto", "bias/auto"}


def test_summary_collector_args(tmp_path):
    with pytest.raises(ValueError, match="should be greater than 0"):
        SummaryCollector(str(tmp_path), collect_freq=0)
    with pytest.raises(TypeError, match="The type of 'collect_freq' should be 'int'"):
        SummaryCollector(str(tmp_path), collect_freq=1.0)
    with pytest.raises(ValueError, match="are unsupported"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_all": True})
    with pytest.raises(ValueError, match="not a valid regular expression"):
        SummaryCollector(str(tmp_path), collect_specified_data={"histogram_regular": "("})
    with pytest.raises(TypeError, match="The type of 'collect_metric' should be 'bool'"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_metric": 1})
    with pytest.raises(TypeError):
        SummaryCollector(str(tmp_path), custom_lineage_data={"a": [1]})
    a, b = SummaryCollector(str(tmp_path / "a")), SummaryCollector(str(tmp_path / "b"))
    p = _InternalCallbackParam(mode="train", list_callback=[a, b], dataset_sink_mode=False)
    with pytest.raises(ValueError, match="more than one SummaryCollector"):
        with _CallbackManager([a]) as cbm:
            cbm.on_train_begin(RunContext(p))


def test_summary_ops_inside_a_network_reach_summary_record(tmp_path):
    """ops.ScalarSummary / TensorSummary called in construct (eagerly and compiled) are written by the next
    SummaryRecord.record, as MindSpore's summary operators are."""
    import sporax as ms
    from sporax import ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scalar = ops.ScalarSummary()
            self.tensor = ops.TensorSummary()

        def construct(self, x):
            y = x * 2
            self.scalar("doubled_sum", y.sum())
            self.tensor("doubled", y)
            return y

    net = Net()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    with SummaryRecord(str(tmp_path)) as rec:
        net(x)
        assert rec.record(1)
        ms.jit(net.construct)(x * 2)
        assert rec.record(2)
        path = rec.log_dir
    vals = _values(_event.read_events(path))
    assert [(s, v["value"]) for s, v in vals["doubled_sum"]] == [(1, 6.0), (2, 12.0)]
    assert [s for s, _ in vals["doubled"]] == [1, 2]
