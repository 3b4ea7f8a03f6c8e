"""Reference values of MindSpore 2.10's activations and losses for sporax's tests.

Run under real MindSpore (CPU):

    /work/msvenv/bin/python tools/make_nn_act_loss_reference.py

It writes ``tests/ut/nn/fixtures/nn_act_loss_reference.json`` (the cases) and ``.npz`` (inputs, outputs and
gradients). Each case calls ``ops.<name>``, a primitive ``P:<Name>(init)`` or a cell ``nn.<Name>(init)`` on
small fixed inputs; ``grad`` lists the argument positions whose gradient of ``sum(first output)`` is
recorded (computed by ``mindspore.grad``). ``tests/ut/nn/test_loss_reference.py`` runs the same cases in
sporax. Only the JSON/NPZ outputs are read by the tests; MindSpore is never imported there.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "nn" / "fixtures"

rng = np.random.default_rng(20261126)


def f32(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def prob(*shape, axis=-1):
    p = rng.uniform(0.05, 1.0, shape).astype(np.float32)
    return (p / p.sum(axis=axis, keepdims=True)).astype(np.float32)


def ints(hi, *shape, dtype=np.int32):
    return rng.integers(0, hi, shape).astype(dtype)


def sign(*shape):
    return np.where(rng.uniform(size=shape) > 0.5, 1.0, -1.0).astype(np.float32)


X = f32(2, 3, 4)
XA = np.array([[-2.5, -1.0, -0.4, -0.1, 0.0, 0.2, 0.45, 0.8, 1.3, 3.0, 6.5, 21.0]], np.float32)

CASES: list[dict] = []


def case(name, call, args, kwargs=None, init=None, grad=(0,)):
    """``args``/``init`` values: numpy arrays (stored in the npz) or JSON literals."""
    arrays = {}

    def enc(v, key):
        if isinstance(v, np.ndarray):
            arrays[key] = v
            return {"array": f"{name}.{key}"}
        if isinstance(v, tuple):
            return [enc(e, f"{key}_{i}") for i, e in enumerate(v)]
        return v

    spec = {
        "name": name,
        "call": call,
        "args": [enc(a, f"a{i}") for i, a in enumerate(args)],
        "kwargs": {k: enc(v, f"k_{k}") for k, v in (kwargs or {}).items()},
        "init": {k: enc(v, f"i_{k}") for k, v in (init or {}).items()},
        "grad": list(grad),
    }
    CASES.append((spec, arrays))


# ------------------------------------------------------------------ activations (ops)
for op in [
    "relu",
    "relu6",
    "silu",
    "selu",
    "softsign",
    "hardswish",
    "hardsigmoid",
    "mish",
    "logsigmoid",
    "fast_gelu",
    "tanhshrink",
    "sigmoid",
]:
    case(f"ops_{op}", f"ops.{op}", [XA])
case("ops_gelu_none", "ops.gelu", [XA], {"approximate": "none"})
case("ops_gelu_tanh", "ops.gelu", [XA], {"approximate": "tanh"})
case("ops_leaky_relu", "ops.leaky_relu", [XA], {"alpha": 0.3})
case("ops_elu", "ops.elu", [XA], {"alpha": 1.0})
case("ops_celu", "ops.celu", [XA], {"alpha": 0.6})
case("ops_softplus", "ops.softplus", [XA], {"beta": 2, "threshold": 5})
case("ops_hardtanh", "ops.hardtanh", [XA], {"min_val": -0.5, "max_val": 0.8})
case("ops_prelu", "ops.prelu", [X, np.array([0.1, -0.2, 0.3], np.float32)], grad=(0, 1))
case("ops_hardshrink", "ops.hardshrink", [XA], {"lambd": 0.3})
case("ops_softshrink", "ops.softshrink", [XA], {"lambd": 0.3})
case("ops_glu", "ops.glu", [f32(2, 4, 3)], {"axis": 1})
case("ops_threshold", "ops.threshold", [XA, 0.3, 20.0])
case("ops_softmin", "ops.softmin", [X], {"axis": 1})
case("ops_softmax", "ops.softmax", [X], {"axis": 0})
case("ops_log_softmax", "ops.log_softmax", [X], {"axis": 1})

# ------------------------------------------------------------- activations (primitives)
for prim in [
    "GeLU",
    "FastGeLU",
    "Gelu",
    "FastGelu",
    "Softsign",
    "HSwish",
    "HSigmoid",
    "Mish",
    "Sigmoid",
    "Softplus",
    "ReLU",
    "ReLU6",
    "Tanh",
]:
    case(f"P_{prim}", f"P:{prim}", [XA], grad=())  # same kernels as the ops_ cases (gradients there)
case("P_HShrink", "P:HShrink", [XA], init={"lambd": 0.3}, grad=())
case("P_SoftShrink", "P:SoftShrink", [XA], init={"lambd": 0.3}, grad=())
case("P_PReLU", "P:PReLU", [X, np.array([0.1, -0.2, 0.3], np.float32)], grad=(0, 1))

# ------------------------------------------------------------------ activations (cells)
for cell in [
    "GELU",
    "FastGelu",
    "SiLU",
    "Mish",
    "HSwish",
    "HSigmoid",
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Tanh",
    "SeLU",
    "Softsign",
    "LogSigmoid",
    "Tanhshrink",
    "ELU",
    "LeakyReLU",
    "CELU",
    "Hardtanh",
]:
    case(f"nn_{cell}", f"nn.{cell}", [XA], grad=())
case("nn_GELU_erf", "nn.GELU", [XA], init={"approximate": False}, grad=())
case("nn_HShrink", "nn.HShrink", [XA], init={"lambd": 0.3}, grad=())
case("nn_SoftShrink", "nn.SoftShrink", [XA], init={"lambd": 0.3}, grad=())
case("nn_GLU", "nn.GLU", [f32(2, 3, 4)], init={"axis": -1})
case("nn_Softmin", "nn.Softmin", [X], init={"axis": 1})
case("nn_Softmax2d", "nn.Softmax2d", [X], grad=())
case("nn_Threshold", "nn.Threshold", [XA], init={"threshold": 0.3, "value": 20.0}, grad=())
case("nn_CELU_alpha", "nn.CELU", [XA], init={"alpha": 0.6}, grad=())
case("nn_Hardtanh_range", "nn.Hardtanh", [XA], init={"min_val": -0.5, "max_val": 0.8}, grad=())
case("nn_PReLU", "nn.PReLU", [X], init={"channel": 3, "w": 0.1})
case("nn_PReLUExt", "nn.PReLUExt", [X], init={"num_parameters": 3, "init": 0.2})

# ------------------------------------------------------------------------ losses (ops)
LOGITS = f32(4, 5)
LABELS = np.array([1, 0, 4, 2], np.int32)
W5 = np.array([0.5, 1.0, 2.0, 1.5, 0.7], np.float32)
case("ops_cross_entropy", "ops.cross_entropy", [LOGITS, LABELS])
case("ops_cross_entropy_w", "ops.cross_entropy", [LOGITS, LABELS], {"weight": W5, "label_smoothing": 0.1})
case("ops_cross_entropy_ign", "ops.cross_entropy", [LOGITS, np.array([1, -100, 4, 2], np.int32)], {"reduction": "sum"})
case("ops_cross_entropy_prob", "ops.cross_entropy", [LOGITS, prob(4, 5)])
case("ops_cross_entropy_3d", "ops.cross_entropy", [f32(2, 3, 4), ints(3, 2, 4)], {"reduction": "none"})
LOGP = np.log(prob(4, 5))
case("ops_nll_loss", "ops.nll_loss", [LOGP, LABELS])
case("ops_nll_loss_w", "ops.nll_loss", [LOGP, LABELS], {"weight": W5, "reduction": "none"})
P45 = rng.uniform(0.05, 0.95, (4, 5)).astype(np.float32)
Y45 = (rng.uniform(size=(4, 5)) > 0.5).astype(np.float32)
case("ops_bce", "ops.binary_cross_entropy", [P45, Y45])
case("ops_bce_w", "ops.binary_cross_entropy", [P45, Y45], {"weight": f32(4, 5, lo=0.1, hi=1.0), "reduction": "sum"})
case(
    "ops_bce_logits",
    "ops.binary_cross_entropy_with_logits",
    [LOGITS, Y45],
    {"weight": f32(5, lo=0.1, hi=1.0), "pos_weight": f32(5, lo=0.5, hi=2.0)},
)
case("ops_bce_logits_none", "ops.binary_cross_entropy_with_logits", [LOGITS, Y45], {"reduction": "none"})
for red in ["mean", "batchmean", "sum", "none"]:
    case(f"ops_kl_div_{red}", "ops.kl_div", [LOGP, prob(4, 5)], {"reduction": red})
A45, B45 = f32(4, 5), f32(4, 5)
case("ops_smooth_l1", "ops.smooth_l1_loss", [A45, B45], {"beta": 0.5, "reduction": "mean"})
case("ops_smooth_l1_none", "ops.smooth_l1_loss", [A45, B45])
case("ops_huber", "ops.huber_loss", [A45, B45], {"delta": 0.7})
case("ops_huber_none", "ops.huber_loss", [A45, B45], {"reduction": "none"})
case("ops_l1", "ops.l1_loss", [A45, B45], {"reduction": "sum"})
case("ops_mse", "ops.mse_loss", [A45, B45])
case(
    "ops_cosine_embedding",
    "ops.cosine_embedding_loss",
    [f32(4, 3), f32(4, 3), np.array([1, -1, 1, -1], np.int32)],
    {"margin": 0.2},
    grad=(0, 1),
)
case("ops_margin_ranking", "ops.margin_ranking_loss", [f32(6), f32(6), sign(6)], {"margin": 0.1}, grad=(0, 1))
case("ops_hinge_embedding", "ops.hinge_embedding_loss", [f32(3, 4), sign(3, 4)], {"margin": 0.5})
case("ops_hinge_embedding_sum", "ops.hinge_embedding_loss", [f32(3, 4), sign(3, 4)], {"reduction": "sum"})
case(
    "ops_gaussian_nll",
    "ops.gaussian_nll_loss",
    [f32(4, 3), f32(4, 3), f32(4, 3, lo=0.1, hi=2.0)],
    {"full": True},
    grad=(0, 2),
)
case(
    "ops_gaussian_nll_bcast",
    "ops.gaussian_nll_loss",
    [f32(4, 3), f32(4, 3), f32(4, lo=0.1, hi=2.0)],
    {"reduction": "sum"},
    grad=(0, 2),
)
case("ops_multi_margin", "ops.multi_margin_loss", [LOGITS, LABELS.astype(np.int64)])
case(
    "ops_multi_margin_p2",
    "ops.multi_margin_loss",
    [LOGITS, LABELS.astype(np.int64)],
    {"p": 2, "margin": 2, "weight": W5, "reduction": "none"},
)
ML_T = np.array([[3, 0, -1, 1, 2], [1, 4, 2, 0, 3], [-1, 2, 1, 0, 0], [2, -1, 0, 0, 0]], np.int32)
case("ops_multilabel_margin", "ops.multilabel_margin_loss", [LOGITS, ML_T])
case("ops_multilabel_margin_none", "ops.multilabel_margin_loss", [LOGITS, ML_T], {"reduction": "none"})
case("ops_multilabel_soft_margin", "ops.multilabel_soft_margin_loss", [LOGITS, Y45], {"weight": W5})
case("ops_soft_margin", "ops.soft_margin_loss", [A45, sign(4, 5)])
TA, TP, TN = f32(4, 6), f32(4, 6), f32(4, 6)
case("ops_triplet", "ops.triplet_margin_loss", [TA, TP, TN], grad=(0, 1, 2))
case(
    "ops_triplet_swap_p1",
    "ops.triplet_margin_loss",
    [TA, TP, TN],
    {"margin": 0.5, "p": 1, "swap": True, "reduction": "none"},
    grad=(0, 1, 2),
)
# CTC: T=6, N=3, C=5 (blank 0); targets padded to S=3
CTC_LP = np.log(prob(6, 3, 5))
CTC_T = np.array([[1, 2, 2], [3, 4, 0], [2, 0, 0]], np.int32)
CTC_IL = np.array([6, 5, 3], np.int32)
CTC_TL = np.array([3, 2, 1], np.int32)
for red in ["none", "mean"]:
    # the CTC gradient (MindSpore's exp(log_probs) - posterior convention) is compared on these two cases,
    # 'zero_infinity' and nn.CTCLoss; for ops.CTCLoss the gradient is its second output
    case(f"ops_ctc_loss_{red}", "ops.ctc_loss", [CTC_LP, CTC_T, CTC_IL, CTC_TL], {"reduction": red})
CTC_T4 = np.array([[1, 2, 2], [3, 0, 4], [2, 4, 4]], np.int32)
case("ops_ctc_loss_blank", "ops.ctc_loss", [CTC_LP, CTC_T4, CTC_IL, CTC_TL], {"blank": 4, "reduction": "sum"}, grad=())
CTC_T_INF = np.array([[1, 1, 1], [3, 4, 0], [2, 0, 0]], np.int32)
CTC_IL_INF = np.array([4, 5, 3], np.int32)
case(
    "ops_ctc_loss_zero_inf",
    "ops.ctc_loss",
    [CTC_LP, CTC_T_INF, CTC_IL_INF, CTC_TL],
    {"reduction": "none", "zero_infinity": True},
)
case("ops_ctc_greedy_decoder", "ops.ctc_greedy_decoder", [f32(6, 2, 4), np.array([6, 4], np.int32)], grad=())

# ------------------------------------------------------------------ losses (primitives)
case(
    "P_BCEWithLogitsLoss",
    "P:BCEWithLogitsLoss",
    [LOGITS, Y45, f32(5, lo=0.1, hi=1.0), f32(5, lo=0.5, hi=2.0)],
    init={"reduction": "sum"},
)
case("P_BinaryCrossEntropy", "P:BinaryCrossEntropy", [P45, Y45, f32(4, 5, lo=0.1, hi=1.0)], init={"reduction": "none"})
case("P_NLLLoss", "P:NLLLoss", [LOGP, LABELS, W5], init={"reduction": "mean"})
case("P_NLLLoss_ign", "P:NLLLoss", [LOGP, LABELS, W5], init={"reduction": "sum", "ignore_index": 0})
for red in ["mean", "batchmean", "sum", "none"]:
    case(f"P_KLDivLoss_{red}", "P:KLDivLoss", [LOGP, prob(4, 5)], init={"reduction": red}, grad=())
case("P_SmoothL1Loss", "P:SmoothL1Loss", [A45, B45], init={"beta": 0.5, "reduction": "sum"})
case("P_SoftMarginLoss", "P:SoftMarginLoss", [A45, sign(4, 5)], init={"reduction": "none"})
case(
    "P_MultiMarginLoss",
    "P:MultiMarginLoss",
    [LOGITS, LABELS.astype(np.int64), W5],
    init={"p": 2, "margin": 0.5, "reduction": "sum"},
)
case("P_MultilabelMarginLoss", "P:MultilabelMarginLoss", [LOGITS, ML_T.astype(np.int32)], init={"reduction": "sum"})
case(
    "P_TripletMarginLoss",
    "P:TripletMarginLoss",
    [TA, TP, TN, np.array(0.7, np.float32)],
    init={"p": 3, "swap": True, "reduction": "sum"},
    grad=(0, 1, 2),
)
case("P_L2Loss", "P:L2Loss", [A45])
case("P_SigmoidCrossEntropyWithLogits", "P:SigmoidCrossEntropyWithLogits", [LOGITS, Y45])
case("P_SoftmaxCrossEntropyWithLogits", "P:SoftmaxCrossEntropyWithLogits", [LOGITS, prob(4, 5)])
case("P_SparseSoftmaxCrossEntropyWithLogits", "P:SparseSoftmaxCrossEntropyWithLogits", [LOGITS, LABELS])
case("P_CTCLossV2", "P:CTCLossV2", [CTC_LP, CTC_T, CTC_IL, CTC_TL], grad=())
TF_X = f32(5, 2, 4)
TF_IDX = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64)
TF_VAL = np.array([1, 1, 2, 0, 2], np.int32)
TF_SEQ = np.array([5, 5], np.int32)
case("P_CTCLoss", "P:CTCLoss", [TF_X, TF_IDX, TF_VAL, TF_SEQ], grad=())
case("P_CTCLoss_nomerge", "P:CTCLoss", [TF_X, TF_IDX, TF_VAL, TF_SEQ], init={"ctc_merge_repeated": False}, grad=())
case(
    "P_CTCLoss_collapse",
    "P:CTCLoss",
    [TF_X, TF_IDX, TF_VAL, np.array([4, 5], np.int32)],
    init={"preprocess_collapse_repeated": True},
    grad=(),
)
case(
    "P_RNNTLoss",
    "P:RNNTLoss",
    [f32(2, 4, 3, 5), np.array([[1, 2], [3, 0]], np.int32), np.array([4, 3], np.int32), np.array([2, 1], np.int32)],
    grad=(),
)

# ------------------------------------------------------------------------ losses (cells)
case("nn_CTCLoss", "nn.CTCLoss", [CTC_LP, CTC_T, CTC_IL, CTC_TL])
case(
    "nn_CTCLoss_2d",
    "nn.CTCLoss",
    [CTC_LP[:, 0], CTC_T[:1], CTC_IL[:1], CTC_TL[:1]],
    init={"reduction": "none"},
    grad=(),
)
FL_X = f32(3, 4, 2)
case("nn_FocalLoss_sparse", "nn.FocalLoss", [FL_X, ints(4, 3, 1, 2)], init={"weight": W5[:4], "gamma": 1.5})
case(
    "nn_FocalLoss_onehot",
    "nn.FocalLoss",
    [f32(3, 4), np.eye(4, dtype=np.float32)[[1, 3, 0]]],
    init={"reduction": "sum"},
)
case("nn_DiceLoss", "nn.DiceLoss", [P45, Y45], init={"smooth": 1e-3})
case(
    "nn_MultiClassDiceLoss",
    "nn.MultiClassDiceLoss",
    [f32(3, 4), np.eye(4, dtype=np.float32)[[1, 3, 0]]],
    init={"weights": f32(4, 2, lo=0.1, hi=1.0), "ignore_indiex": 2, "activation": "softmax"},
)
case("nn_KLDivLoss", "nn.KLDivLoss", [LOGP, prob(4, 5)], init={"reduction": "batchmean"})
case(
    "nn_CosineEmbeddingLoss",
    "nn.CosineEmbeddingLoss",
    [f32(4, 3), f32(4, 3), np.array([1, -1, -1, 1], np.int32)],
    init={"margin": -0.3},
    grad=(0, 1),
)
case(
    "nn_MarginRankingLoss",
    "nn.MarginRankingLoss",
    [f32(6), f32(6), sign(6)],
    init={"margin": 0.2, "reduction": "sum"},
    grad=(0, 1),
)
case("nn_HingeEmbeddingLoss", "nn.HingeEmbeddingLoss", [f32(3, 4), sign(3, 4)], init={"margin": 0.8})
case("nn_HuberLoss", "nn.HuberLoss", [A45, B45], init={"delta": 0.4, "reduction": "sum"})
case(
    "nn_GaussianNLLLoss",
    "nn.GaussianNLLLoss",
    [f32(4, 3), f32(4, 3), f32(4, 3, lo=0.1, hi=2.0)],
    init={"full": True, "reduction": "none"},
    grad=(0, 2),
)
case("nn_PoissonNLLLoss", "nn.PoissonNLLLoss", [f32(4, 3), f32(4, 3, lo=0.0, hi=4.0)])
case(
    "nn_PoissonNLLLoss_full",
    "nn.PoissonNLLLoss",
    [f32(4, 3, lo=0.1, hi=3.0), f32(4, 3, lo=0.0, hi=4.0)],
    init={"log_input": False, "full": True, "reduction": "sum"},
)
case(
    "nn_MultiMarginLoss",
    "nn.MultiMarginLoss",
    [LOGITS, LABELS.astype(np.int64)],
    init={"p": 1, "margin": 0.8, "weight": W5},
)
case("nn_MultilabelMarginLoss", "nn.MultilabelMarginLoss", [LOGITS, ML_T.astype(np.int32)])
case("nn_MultiLabelSoftMarginLoss", "nn.MultiLabelSoftMarginLoss", [LOGITS, Y45], init={"reduction": "sum"})
case("nn_SoftMarginLoss", "nn.SoftMarginLoss", [A45, sign(4, 5)])
case("nn_TripletMarginLoss", "nn.TripletMarginLoss", [TA, TP, TN], init={"margin": 0.4, "swap": True}, grad=(0, 1, 2))
case(
    "nn_TripletMarginWithDistanceLoss",
    "nn.TripletMarginWithDistanceLoss",
    [TA, TP, TN],
    init={"margin": 0.6, "swap": True},
    grad=(0, 1, 2),
)
case("nn_RMSELoss", "nn.RMSELoss", [A45, B45])
case("nn_MAELoss", "nn.MAELoss", [A45, B45], init={"reduction": "none"})
case("nn_L1LossExt", "nn.L1LossExt", [A45, B45], init={"reduction": "sum"})
case("nn_BCELoss", "nn.BCELoss", [P45, Y45], init={"weight": f32(4, 5, lo=0.1, hi=1.0)})
case(
    "nn_BCEWithLogitsLoss",
    "nn.BCEWithLogitsLoss",
    [LOGITS, Y45],
    init={"reduction": "sum", "weight": f32(5, lo=0.1, hi=1.0), "pos_weight": f32(5, lo=0.5, hi=2.0)},
)
case("nn_NLLLoss", "nn.NLLLoss", [LOGP, LABELS], init={"weight": W5, "ignore_index": 4})
case("nn_CrossEntropyLoss", "nn.CrossEntropyLoss", [LOGITS, LABELS], init={"label_smoothing": 0.2})
case("nn_SmoothL1Loss", "nn.SmoothL1Loss", [A45, B45], init={"beta": 0.3, "reduction": "mean"})
case("nn_MSELoss", "nn.MSELoss", [A45, B45])
case("nn_L1Loss", "nn.L1Loss", [A45, B45])
case(
    "nn_SoftmaxCrossEntropyWithLogits_sparse",
    "nn.SoftmaxCrossEntropyWithLogits",
    [LOGITS, LABELS],
    init={"sparse": True, "reduction": "mean"},
)
SS_W, SS_B = f32(10, 3), f32(10)
case(
    "nn_SampledSoftmaxLoss",
    "nn.SampledSoftmaxLoss",
    [SS_W, SS_B, np.array([[1], [3], [4]], np.int32), f32(3, 3)],
    init={
        "num_sampled": 4,
        "num_classes": 10,
        "reduction": "mean",
        "sampled_values": (
            np.array([5, 8, 7, 9], np.int32),
            np.full((3, 1), 0.4, np.float32),
            np.full((4,), 0.4, np.float32),
        ),
    },
    grad=(0, 1, 3),
)
case(
    "nn_SampledSoftmaxLoss_true2",
    "nn.SampledSoftmaxLoss",
    [SS_W, SS_B, np.array([[1, 2], [3, 0], [4, 6]], np.int64), f32(3, 3)],
    init={
        "num_sampled": 3,
        "num_classes": 10,
        "num_true": 2,
        "sampled_values": (
            np.array([5, 8, 9], np.int32),
            np.full((3, 2), 0.3, np.float32),
            np.full((3,), 0.3, np.float32),
        ),
    },
    grad=(3,),
)
case("nn_LossBase_get_loss", "getloss", [f32(3, 4), f32(3, 4, lo=0.0, hi=1.0)], init={"reduction": "sum"}, grad=(0,))
case(
    "nn_LossBase_get_loss_mean",
    "getloss",
    [f32(3, 4), f32(1, 4, lo=0.0, hi=1.0)],
    init={"reduction": "mean"},
    grad=(0,),
)


# ------------------------------------------------------------------ other dtypes (results keep them)
H, D = XA.astype(np.float16), XA.astype(np.float64)
case("f16_ops_gelu", "ops.gelu", [H], {"approximate": "tanh"}, grad=())
case("f16_ops_hardswish", "ops.hardswish", [H], grad=())
case("f16_ops_softplus", "ops.softplus", [H], grad=())
case("f64_ops_softmin", "ops.softmin", [X.astype(np.float64)], {"axis": -1}, grad=())
case("f64_ops_mish", "ops.mish", [D], grad=())
case("f16_ops_kl_div", "ops.kl_div", [LOGP.astype(np.float16), prob(4, 5).astype(np.float16)], grad=())
case("f64_ops_smooth_l1", "ops.smooth_l1_loss", [A45.astype(np.float64), B45.astype(np.float64)], grad=())
case(
    "f16_ops_bce_logits",
    "ops.binary_cross_entropy_with_logits",
    [LOGITS.astype(np.float16), Y45.astype(np.float16)],
    grad=(),
)
case(
    "f64_ops_cosine_embedding",
    "ops.cosine_embedding_loss",
    [f32(4, 3).astype(np.float64), f32(4, 3).astype(np.float64), np.array([1, -1, 1, -1], np.int32)],
    grad=(),
)
case(
    "f16_ops_hinge", "ops.hinge_embedding_loss", [f32(3, 4).astype(np.float16), sign(3, 4).astype(np.float16)], grad=()
)
case("f16_nn_MAELoss", "nn.MAELoss", [A45.astype(np.float16), B45.astype(np.float16)], grad=())
case("f64_nn_MSELoss", "nn.MSELoss", [A45.astype(np.float64), B45.astype(np.float64)], grad=())
case("f64_ops_ctc_loss", "ops.ctc_loss", [CTC_LP.astype(np.float64), CTC_T, CTC_IL, CTC_TL], grad=())
case("f16_ops_cross_entropy", "ops.cross_entropy", [LOGITS.astype(np.float16), LABELS], grad=())
case("f64_ops_nll_loss", "ops.nll_loss", [LOGP.astype(np.float64), LABELS], grad=())


# ------------------------------------------------------------------------- edge cases
P_EDGE = np.array([[0.0, 1.0, 0.5, 1e-8], [1.0, 0.0, 0.999, 0.3]], np.float32)
Y_EDGE = np.array([[0.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 0.5]], np.float32)
case("edge_bce_clamp", "ops.binary_cross_entropy", [P_EDGE, Y_EDGE], {"reduction": "none"}, grad=())
KL_T = prob(4, 5)
KL_T[0, 1] = 0.0
KL_T[2, 3] = 0.0
case("edge_kl_div_zero_labels", "ops.kl_div", [LOGP, KL_T], {"reduction": "none"})
case(
    "edge_ce_3d_weight_ignore",
    "nn.CrossEntropyLoss",
    [f32(2, 3, 4), np.array([[0, 2, -100, 1], [1, 1, 0, -100]], np.int32)],
    init={"weight": np.array([0.2, 1.0, 3.0], np.float32)},
)
case("edge_nll_3d", "ops.nll_loss", [np.log(prob(2, 3, 4, axis=1)), ints(3, 2, 4)], {"reduction": "sum"})
case("edge_ce_prob_smooth", "ops.cross_entropy", [LOGITS, prob(4, 5)], {"label_smoothing": 0.3, "weight": W5})
case(
    "edge_ctc_empty_target",
    "ops.ctc_loss",
    [CTC_LP, CTC_T, CTC_IL, np.array([3, 0, 1], np.int32)],
    {"reduction": "none"},
    grad=(),
)
case(
    "edge_bce_logits_large",
    "ops.binary_cross_entropy_with_logits",
    [np.array([[-60.0, -20.0, 0.0, 20.0, 60.0]], np.float32), np.array([[1.0, 0.0, 0.5, 1.0, 0.0]], np.float32)],
    {"reduction": "none"},
)
case(
    "edge_smooth_l1_boundary",
    "ops.smooth_l1_loss",
    [np.array([0.5, -0.5, 0.2, 1.0, 0.0], np.float32), np.zeros(5, np.float32)],
    {"beta": 0.5, "reduction": "sum"},
)
case(
    "edge_huber_boundary",
    "ops.huber_loss",
    [np.array([0.7, -0.7, 0.2, 1.0, 0.0], np.float32), np.zeros(5, np.float32)],
    {"delta": 0.7, "reduction": "sum"},
)
case("edge_ce_all_ignored", "ops.cross_entropy", [LOGITS, np.full(4, -100, np.int32)], grad=())
case(
    "edge_hinge_zero_target",
    "ops.hinge_embedding_loss",
    [np.array([[0.5, -0.5, 2.0]], np.float32), np.array([[0.0, -1.0, 1.0]], np.float32)],
    {"reduction": "none"},
)
case("edge_hardshrink_at_lambd", "ops.hardshrink", [np.array([-0.3, 0.3, 0.31, -0.29], np.float32)], {"lambd": 0.3})
case("edge_gelu_large", "ops.gelu", [np.array([-30.0, -8.0, 8.0, 30.0], np.float32)], grad=())


def resolve(spec, arrays, lib):
    """Build and return ``(fn, args)`` for one case with ``lib`` (mindspore or sporax)."""
    ops, nn, Tensor = lib.ops, lib.nn, lib.Tensor

    def dec(v):
        if isinstance(v, dict) and "array" in v:
            return Tensor(arrays[v["array"]])
        if isinstance(v, list) and v and all(isinstance(e, dict) for e in v):
            return tuple(dec(e) for e in v)
        return v

    args = [dec(a) for a in spec["args"]]
    kwargs = {k: dec(v) for k, v in spec["kwargs"].items()}
    init = {k: dec(v) for k, v in spec["init"].items()}
    call = spec["call"]
    if call == "getloss":

        class _Loss(nn.LossBase):
            def construct(self, x, w):
                return self.get_loss(x, w)

        fn = _Loss(**init)
    elif call.startswith("ops."):
        f = getattr(ops, call[4:])

        def fn(*a):
            return f(*a, **kwargs)
    elif call.startswith("P:"):
        fn = getattr(ops, call[2:])(**init)
    else:
        fn = getattr(nn, call[3:])(**init)
    return fn, args


def first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def main():
    import mindspore as ms

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    store = {}
    specs = []
    for spec, arrays in CASES:
        full = {f"{spec['name']}.{k}": v for k, v in arrays.items()}
        try:
            fn, args = resolve(spec, full, ms)
            out = fn(*args)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            values = [o.asnumpy() for o in outs]
        except Exception as e:  # noqa: BLE001  (a case MindSpore's CPU build cannot run)
            print(f"skip {spec['name']}: {type(e).__name__}: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        spec = dict(spec, n_out=len(outs))
        for i, o in enumerate(values):
            store[f"{spec['name']}.out{i}"] = o
        if spec["grad"]:

            def total(*a, fn=fn):
                return first(fn(*a)).sum()

            try:
                grads = ms.grad(total, grad_position=tuple(spec["grad"]))(*args)
                grads = grads if isinstance(grads, tuple) else (grads,)
                for pos, g in zip(spec["grad"], grads, strict=True):
                    store[f"{spec['name']}.grad{pos}"] = g.asnumpy()
            except Exception as e:  # noqa: BLE001
                print(f"no grad {spec['name']}: {type(e).__name__}: {str(e).splitlines()[0]}", file=sys.stderr)
                spec["grad"] = []
        store.update(full)
        specs.append(spec)
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT / "nn_act_loss_reference.npz", **store)
    (OUT / "nn_act_loss_reference.json").write_text(json.dumps(specs, indent=0) + "\n", encoding="utf-8")
    print(f"{len(specs)} cases of {len(CASES)}")


if __name__ == "__main__":
    main()
