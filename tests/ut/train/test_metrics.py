"""Metrics: hand-computed values, MindSpore 2.10 reference values (tools/make_metric_reference.py), input
types, indexes, the name registry and the errors MindSpore raises."""

from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, train
from sporax.train import metrics as M

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
from make_metric_reference import _plain, cases  # noqa: E402

with open(os.path.join(HERE, "fixtures", "metric_reference.json")) as _f:
    REFERENCE = json.load(_f)
# Where MindSpore 2.10 is wrong, sporax deliberately differs (see the metric's docstring).
DIFFERS = {
    # MindSpore's decrease modes other than mean/sum crash with "can only convert an array of size 1" (ValueError);
    # sporax raises a ValueError that says why.
    "cmm_decrease_none": "ValueError",
    "cmm_decrease_mean_channel": "ValueError",
    "cmm_decrease_sum_channel": "ValueError",
    "cmm_decrease_sum_batch": "ValueError",
}


def _close(ref, got):
    if isinstance(ref, list):
        return isinstance(got, list) and len(ref) == len(got) and all(_close(a, b) for a, b in zip(ref, got))
    if isinstance(ref, str) or isinstance(got, str):
        return ref == got
    # float32 sums may differ in the last bit between NumPy versions (MindSpore runs NumPy 1.x)
    return math.isclose(ref, got, rel_tol=1e-6, abs_tol=1e-12)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_against_mindspore(case):
    name, cls, kwargs, updates, eval_kwargs = case
    ref = REFERENCE[name]
    metric = getattr(train, cls)(**kwargs)
    metric.clear()
    if "error" in ref:
        with pytest.raises(getattr(__builtins__, ref["error"], None) or Exception):
            for args in updates:
                metric.update(*args)
            metric.eval(**eval_kwargs)
        assert DIFFERS.get(name) == ref["error"]
        return
    for args in updates:
        metric.update(*args)
    value = metric.eval(**eval_kwargs)
    assert type(value).__name__ == ref["type"]
    assert _close(ref["value"], _plain(value)), (ref["value"], _plain(value))


# ----------------------------------------------------------------------------- hand-computed values
def test_accuracy_by_hand():
    x = [[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]
    acc = M.Accuracy()
    acc.update(Tensor(np.array(x), ms.float32), Tensor(np.array([1, 0, 1]), ms.float32))
    assert acc.eval() == 2 / 3
    acc.update(np.array([[0.0, 1.0]]), [1])  # numpy and list inputs accumulate
    assert acc.eval() == 3 / 4
    acc.clear()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        acc.eval()
    # multilabel: a sample is right only when every label is
    ml = M.Accuracy("multilabel")
    ml.update(np.array([[1, 0, 1], [0, 1, 1]]), np.array([[1, 0, 1], [0, 1, 0]]))
    assert ml.eval() == 0.5
    # segmentation-shaped classification: (N, C, H) against (N, H)
    seg = M.Accuracy()
    seg.update(np.array([[[0.9, 0.1], [0.1, 0.9]]]), np.array([[0, 0]]))
    assert seg.eval() == 0.5


def test_precision_recall_f1_by_hand():
    x = np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])
    y = np.array([1, 0, 1])  # predictions: 1, 0, 0
    p, r, f = M.Precision(), M.Recall(), M.F1()
    for m in (p, r, f):
        m.update(Tensor(x), Tensor(y))
    np.testing.assert_allclose(p.eval(), [0.5, 1.0])
    np.testing.assert_allclose(r.eval(), [1.0, 0.5])
    np.testing.assert_allclose(f.eval(), [2 / 3, 2 / 3])
    assert p.eval(average=True) == pytest.approx(0.75)
    assert r.eval(average=True) == pytest.approx(0.75)
    fb = M.Fbeta(2)
    fb.update(x, y)
    # class 1: tp=1, fn=1, fp=0 -> 5*1 / (5*1 + 4*1 + 0)
    np.testing.assert_allclose(fb.eval(), [5 * 1 / (5 + 0 + 4 * 0 + 1 * 0 + 1) * 1, 5 / 9], rtol=1e-12)


def test_loss_mae_mse_by_hand():
    loss = M.Loss()
    loss.update(Tensor(np.array(0.2), ms.float32))
    assert loss.eval() == float(np.float32(0.2))
    loss.update(np.array([1.0, 2.0]))
    assert loss.eval() == pytest.approx((float(np.float32(0.2)) + 1.5) / 2)
    with pytest.raises(ValueError, match="dimension of your input"):
        loss.update(np.ones((2, 2)))
    with pytest.raises(ValueError, match="needs 1 input"):
        loss.update(1, 2)
    mae, mse = M.MAE(), M.MSE()
    x, y = np.array([[1.0, 2.0], [3.0, 5.0]]), np.array([[1.5, 2.0], [2.0, 5.0]])
    mae.update(x, y)
    mse.update(x, y)
    assert mae.eval() == 1.5 / 2  # summed over elements, divided by the batch size
    assert mse.eval() == 1.25 / 2
    assert isinstance(mae.eval(), np.float64)
    # results print as under NumPy 1.x (which MindSpore runs on), whatever NumPy is installed
    assert repr(mae.eval()) == "0.75" and str({"mae": mse.eval()}) == "{'mae': 0.625}"


def test_topk_by_hand():
    x = np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.0], [0.9, 0.6, 0.2, 0.01, 0.3]])
    y = np.array([2, 0, 1])
    t3 = M.TopKCategoricalAccuracy(3)
    t3.update(Tensor(x, ms.float32), Tensor(y, ms.float32))
    assert t3.eval() == 2 / 3
    t1 = M.Top1CategoricalAccuracy()
    t1.update(x, np.eye(5)[[3, 2, 0]])  # one-hot labels
    assert t1.eval() == 1.0
    assert M.Top5CategoricalAccuracy().k == 5
    with pytest.raises(TypeError, match="'k' should be int"):
        M.TopKCategoricalAccuracy(1.5)
    with pytest.raises(ValueError, match="must be at least 1"):
        M.TopKCategoricalAccuracy(0)


def test_roc_and_auc_by_hand():
    roc = M.ROC(pos_label=2)
    roc.update(Tensor(np.array([3, 1, 4, 2])), Tensor(np.array([0, 1, 2, 3])))
    fpr, tpr, thresholds = roc.eval()
    np.testing.assert_allclose(fpr, [0, 0, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(tpr, [0, 1, 1, 1, 1])
    np.testing.assert_array_equal(thresholds, [5, 4, 3, 2, 1])
    assert M.auc(fpr, tpr) == 1.0
    assert M.auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])) == 0.75
    assert M.auc(np.array([1.0, 0.5, 0.0]), np.array([1.0, 1.0, 0.0])) == 0.75  # decreasing x
    assert M.auc(np.array([0.5, 0.0, 1.0]), np.array([1.0, 0.0, 1.0]), reorder=True) == 0.75
    with pytest.raises(ValueError, match="must be increasing"):
        M.auc(np.array([0.5, 0.0, 1.0]), np.array([1.0, 0.0, 1.0]))
    with pytest.raises(TypeError, match="must all be np.ndarray"):
        M.auc([0, 1], [0, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.auc(np.array([0.0, 1.0]), np.array([0.0, 1.0, 1.0]))


def test_roc_multiclass_more_samples_than_classes():
    # MindSpore scrambles (N, C) scores when N != C; sporax takes column c as class c's scores.
    x = np.array([[0.1, 0.2, 0.7], [0.8, 0.1, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6], [0.5, 0.3, 0.2]])
    y = np.array([2, 0, 1, 2, 0])
    roc = M.ROC(class_num=3)
    roc.update(x, y)
    fpr, tpr, _ = roc.eval()
    for c in range(3):
        bin_roc = M.ROC(pos_label=1)
        bin_roc.update(x[:, c], (y == c).astype(int))
        bf, bt, _ = bin_roc.eval()
        np.testing.assert_allclose(fpr[c], bf)
        np.testing.assert_allclose(tpr[c], bt)
        assert M.auc(fpr[c], tpr[c]) == 1.0  # every class is ranked perfectly here


def test_confusion_matrix_by_hand():
    cm = M.ConfusionMatrix(num_classes=2)
    cm.update(Tensor(np.array([1, 0, 1, 0])), Tensor(np.array([1, 0, 0, 1])))
    np.testing.assert_array_equal(cm.eval(), [[1, 1], [1, 1]])
    cm3 = M.ConfusionMatrix(num_classes=3, normalize="target")
    cm3.update(np.array([[0.9, 0.1, 0.0], [0.1, 0.8, 0.1], [0.2, 0.7, 0.1]]), np.array([0, 1, 2]))
    np.testing.assert_array_equal(cm3.eval(), [[1, 0, 0], [0, 1, 0], [0, 1, 0]])
    cmm = M.ConfusionMatrixMetric(skip_channel=True, metric_name="tpr")
    cmm.update(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]]))
    cmm.update(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[1], [0]]]))
    np.testing.assert_allclose(cmm.eval(), [0.75])
    with pytest.raises(NotImplementedError, match="not implemented"):
        bad = M.ConfusionMatrixMetric(metric_name="nope")
        bad.update(np.ones((2, 2)), np.ones((2, 2)))
        bad.eval()
    with pytest.raises(ValueError, match="must be in"):
        M.ConfusionMatrix(2, normalize="label")
    with pytest.raises(ValueError, match="'decrease' must be str and must be in"):
        M.ConfusionMatrixMetric(decrease="x")
    with pytest.raises(RuntimeError, match="'update' method before"):
        M.ConfusionMatrix(2).eval()


def test_dice_and_hausdorff_by_hand():
    dice = M.Dice(smooth=1e-5)
    dice.update(Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])), Tensor(np.array([[0, 1], [1, 0], [0, 1]])))
    assert dice.eval() == pytest.approx(0.20467791371802546, rel=1e-12)
    with pytest.raises(ValueError, match="should have same shape"):
        dice.update(np.ones(3), np.ones(4))
    hd = M.HausdorffDistance()
    hd.update(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]), np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]), 0)
    assert hd.eval() == pytest.approx(math.sqrt(2))
    with pytest.raises(ValueError, match="needs 3 inputs"):
        hd.update(np.ones(3), np.ones(3))
    with pytest.raises(RuntimeError, match="'update' method before"):
        M.HausdorffDistance().eval()


# ----------------------------------------------------------------------------- base class, registry, errors
def test_indexes_and_rearrange_inputs():
    acc = M.Accuracy().set_indexes([2, 0])
    assert acc.indexes == [2, 0]
    acc.update(np.array([1, 0]), "ignored", np.array([[0.1, 0.9], [0.2, 0.8]]))
    assert acc.eval() == 0.5
    with pytest.raises(ValueError, match="must be a list and all its elements must be int"):
        acc.set_indexes((0, 1))

    class Sum(M.Metric):
        def __init__(self):
            super().__init__()
            self.clear()

        def clear(self):
            self.total = 0

        @M.rearrange_inputs
        def update(self, *inputs):
            self.total += float(np.sum(self._convert_data(inputs[0])))

        def eval(self):
            return self.total

    s = Sum().set_indexes([1])
    assert s(Tensor(np.ones(3)), [1.0, 2.0]) == 3.0  # __call__ = clear, update, eval
    with pytest.raises(TypeError, match="must be tensor, list or numpy.ndarray"):
        Sum().update(1.0)
    with pytest.raises(TypeError):
        M.Metric()  # abstract


def test_names_and_get_metric_fn():
    assert M.names() == sorted(M.__factory__)
    assert "accuracy" in train.names() and "acc" in train.names()
    assert isinstance(M.get_metric_fn("acc"), M.Accuracy)
    p = M.get_metric_fn("precision", eval_type="multilabel")
    assert isinstance(p, M.Precision) and p._type == "multilabel"
    assert M.get_metric_fn("auc", np.array([0.0, 1.0]), np.array([1.0, 1.0])) == 1.0
    with pytest.raises(KeyError, match="unsupported metric nope"):
        M.get_metric_fn("nope")
    got = M.get_metrics({"acc", "loss"})
    assert set(got) == {"acc", "loss"} and isinstance(got["loss"], M.Loss)
    mine = {"top": M.Top1CategoricalAccuracy()}
    assert M.get_metrics(mine) is mine and M.get_metrics(None) is None
    with pytest.raises(TypeError, match="must be None, dict or set"):
        M.get_metrics(["acc"])
    with pytest.raises(TypeError, match="must be Metric"):
        M.get_metrics({"acc": "accuracy"})


def test_errors_as_mindspore():
    with pytest.raises(TypeError, match="'eval_type' must be in"):
        M.Accuracy("binary")
    with pytest.raises(ValueError, match="it needs 2 inputs"):
        M.Accuracy().update(np.ones((2, 2)))
    acc = M.Accuracy()
    acc.update(np.ones((2, 3)), np.array([0, 1]))
    with pytest.raises(ValueError, match="class number not match"):
        acc.update(np.ones((2, 4)), np.array([0, 1]))
    with pytest.raises(ValueError, match="the dimension of y_pred"):
        M.Accuracy().update(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="should be 0 or 1"):
        M.Accuracy("multilabel").update(np.full((2, 2), 0.5), np.ones((2, 2)))
    with pytest.raises(ValueError, match="should have the same classes number"):
        M.Precision().update(np.ones((2, 2)), np.array([0, 5]))
    with pytest.raises(RuntimeError, match="The 'Recall' can not be calculated"):
        M.Recall().eval()
    p = M.Precision()
    p.update(np.eye(2), np.array([0, 1]))
    with pytest.raises(TypeError, match="For 'Precision', the type of 'average' should be 'bool'"):
        p.eval(1)
    with pytest.raises(ValueError, match="'beta' must be greater than 0"):
        M.Fbeta(0)
    with pytest.raises(RuntimeError, match="The 'Fbeta' can not be calculated"):
        M.F1().eval()
    for m in (M.MAE(), M.MSE(), M.Loss(), M.TopKCategoricalAccuracy(2), M.Dice()):
        with pytest.raises(RuntimeError, match="can not be calculated"):
            m.eval()
    with pytest.raises(TypeError, match="The 'smooth' must be float"):
        M.Dice(1)
    with pytest.raises(RuntimeError, match="'update' method before"):
        M.ROC().eval()
    with pytest.raises(ValueError, match="the 'class_num' must be 1"):
        M.ROC(class_num=3).update(np.ones(3), np.ones(3))


def test_nn_metrics_alias():
    import sporax.nn.metrics as nn_metrics

    assert nn_metrics.Accuracy is M.Accuracy and nn_metrics.get_metrics is M.get_metrics
    assert set(nn_metrics.__all__) >= set(M.__all__)
    assert train.Accuracy is M.Accuracy and train.Metric is M.Metric


def test_occlusion_sensitivity_and_other_metrics():
    class DenseNet(nn.Cell):
        def __init__(self):
            super().__init__()
            w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)
            self.dense = nn.Dense(4, 2, weight_init=Tensor(w), bias_init=Tensor(np.array([0.3, 0.6], np.float32)))

        def construct(self, x):
            return self.dense(x)

    metric = M.OcclusionSensitivity()
    metric.update(DenseNet(), np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
    # occluding x[i-2:i+2] removes those inputs from the score of class 1 (weights 1): baseline 1.6
    np.testing.assert_allclose(metric.eval(), [0.3, 0.6, 1.0, 0.9], rtol=1e-6)
    boxed = M.OcclusionSensitivity(margin=1, n_batch=2, b_box=[1, 2])
    boxed.update(DenseNet(), np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
    np.testing.assert_allclose(boxed.eval(), [0.3, 0.5], rtol=1e-6)  # x[i-1:i+1] occluded
    with pytest.raises(RuntimeError, match="must be 1"):
        metric.update(DenseNet(), np.ones((2, 4), np.float32), np.array([1, 1]))
    with pytest.raises(TypeError, match="The type of 'model' should be 'Cell'"):
        metric.update(lambda x: x, np.ones((1, 4), np.float32), np.array(1))

    p = M.Perplexity()
    p.update(np.array([[0.5, 0.5], [0.25, 0.75]]), np.array([0, 1]))
    assert p.eval() == pytest.approx(math.exp(-(math.log(0.5) + math.log(0.75)) / 2))
    with pytest.raises(RuntimeError, match="should have the same shape"):
        p.update(np.ones((2, 2)), np.ones(3))
    bleu = M.BleuScore(n_gram=1)
    bleu.update([["a", "b", "c"]], [[["a", "b", "d"]]])
    assert bleu.eval() == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="should range from 1 to 4"):
        M.BleuScore(5)
    cos = M.CosineSimilarity(zero_diagonal=False)
    cos.update(np.array([[1.0, 0.0], [1.0, 1.0]]))
    np.testing.assert_allclose(cos.eval(), [[1, 1 / math.sqrt(2)], [1 / math.sqrt(2), 1]])
    for cls in (M.MeanSurfaceDistance, M.RootMeanSquareDistance):
        with pytest.raises(RuntimeError, match="'update' method before"):
            cls().eval()
    with pytest.raises(TypeError, match="must be int or float"):
        M.RootMeanSquareDistance().update(np.ones((2, 2)), np.ones((2, 2)), "1")
