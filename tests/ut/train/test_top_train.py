"""Model.fit's evaluation figures and SummaryRecord's file names against MindSpore 2.10.

The references come from ``tools/make_top_reference.py train`` (tests/ut/train/fixtures/top_train_reference.json,
fit_eval_net.ckpt).
"""

from __future__ import annotations

import json
import os
import platform
import re
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Tensor, nn
from sporax.train import Callback, Model, SummaryRecord
from sporax.train.summary import _event

FIX = Path(__file__).parent / "fixtures"
REF = json.loads((FIX / "top_train_reference.json").read_text())


def _fit_eval_data():
    rng = np.random.RandomState(0)
    x, y = rng.randn(10, 3).astype(np.float32), rng.randn(10, 2).astype(np.float32)
    vx, vy = rng.randn(7, 3).astype(np.float32), rng.randn(7, 2).astype(np.float32)
    return x, y, vx, vy


def test_fit_eval_loss_is_mindspores():
    """'eval_loss' in cb_params.eval_results is the loss of the last evaluation batch (MindSpore 2.10 makes a
    new Loss metric at every step); the metrics are averaged over the whole dataset."""
    net = nn.Dense(3, 2)
    ms.load_checkpoint(str(FIX / "fit_eval_net.ckpt"), net)
    x, y, vx, vy = _fit_eval_data()
    train = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    valid = ds.NumpySlicesDataset({"x": vx, "y": vy}, shuffle=False).batch(3)
    results = []

    class Record(Callback):
        def on_eval_end(self, run_context):
            cb = run_context.original_args()
            results.append({"eval_results": dict(cb.eval_results), "metrics": dict(cb.metrics)})

    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss": nn.Loss(), "mae": nn.MAE()})
    model.fit(2, train, valid, callbacks=[Record()], dataset_sink_mode=False)
    ref = REF["fit_eval"]
    assert len(results) == len(ref["per_epoch"])
    for got, want in zip(results, ref["per_epoch"], strict=True):
        for part in ("eval_results", "metrics"):
            assert sorted(got[part]) == sorted(want[part])
            for k, v in want[part].items():
                np.testing.assert_allclose(got[part][k], v, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.weight.asnumpy(), ref["weight"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), ref["bias"], rtol=1e-5, atol=1e-6)


def _names(d):
    out = []
    for n in sorted(os.listdir(d)):
        out.append(re.sub(r"\.\d{9,11}\.", ".<time>.", n).replace(platform.node(), "<host>"))
    return out


@pytest.mark.parametrize(
    ("kwargs", "key"), [({}, "default"), ({"file_prefix": "pre", "file_suffix": "_suf"}, "prefix_suffix")]
)
def test_summary_record_file_name_is_mindspores(tmp_path, kwargs, key):
    """The event file has MindSpore's name; a hard link to it, named ``<name>.tfevents``, is what TensorBoard
    lists (TensorBoard reads files whose name contains 'tfevents'); both hold the same TensorBoard events."""
    with SummaryRecord(str(tmp_path), **kwargs) as s:
        s.add_value("scalar", "loss", Tensor(1.5))
        s.record(1)
        path = s.log_dir
    want = REF["summary_files"][key]
    names = _names(tmp_path)
    assert [n for n in names if not n.endswith(".tfevents")] == want
    assert names == sorted(want + [want[0] + ".tfevents"])
    assert os.path.basename(path) in os.listdir(tmp_path) and not path.endswith(".tfevents")
    link = path + ".tfevents"
    assert os.path.samefile(path, link)
    events = _event.read_events(link)
    assert [(e["step"], v["tag"], v["value"]) for e in events for v in e.get("values", [])] == [(1, "loss", 1.5)]
