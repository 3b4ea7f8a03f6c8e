"""Reference values for sporax's recurrent, normalisation, attention and embedding layers, made under real
MindSpore 2.10 (CPU):

    /work/msvenv/bin/python tools/make_nn_seq_reference.py

Writes ``tests/ut/nn/fixtures/nn_seq_reference.npz``: for each case its inputs, the weights set on the
layer (by MindSpore's parameter names), the outputs, and the gradients of ``sum(out_i * probe_i)`` with
respect to the float inputs and every trainable parameter. ``tests/ut/nn/test_rnn.py`` and friends load
it; they never import MindSpore.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops

ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "nn" / "fixtures" / "nn_seq_reference.npz"


def _rng(seed):
    return np.random.RandomState(seed)


# Each case: (name, layer factory, call-argument builder, train mode). The builder returns a list of call
# arguments with numpy arrays (float ones differentiated), nested tuples allowed, None allowed.
def _rnn_cases():
    r = _rng(0)

    def f32(*shape):
        return r.uniform(-1, 1, shape).astype(np.float32)

    return [
        (
            "lstm_bi2_bf",
            lambda: nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True),
            [f32(2, 5, 3), (f32(4, 2, 4), f32(4, 2, 4))],
        ),
        (
            "lstm_bi2_seq",
            lambda: nn.LSTM(3, 4, 2, bidirectional=True),
            [f32(5, 2, 3), (f32(4, 2, 4), f32(4, 2, 4)), np.array([5, 3], np.int32)],
        ),
        ("lstm_1_nohx", lambda: nn.LSTM(3, 4), [f32(4, 2, 3)]),
        ("gru_bi1_seq", lambda: nn.GRU(3, 4, 1, bidirectional=True), [f32(5, 2, 3), None, np.array([2, 5], np.int64)]),
        ("gru_2_nobias", lambda: nn.GRU(3, 4, 2, has_bias=False), [f32(4, 2, 3), f32(2, 2, 4)]),
        ("rnn_relu_2_bf", lambda: nn.RNN(3, 4, 2, nonlinearity="relu", batch_first=True), [f32(2, 4, 3), f32(2, 2, 4)]),
        (
            "rnn_tanh_bi_seq",
            lambda: nn.RNN(3, 4, 1, bidirectional=True, batch_first=True),
            [f32(2, 5, 3), f32(2, 2, 4), np.array([3, 5], np.int32)],
        ),
        ("rnncell_tanh", lambda: nn.RNNCell(3, 4), [f32(2, 3), f32(2, 4)]),
        ("rnncell_relu", lambda: nn.RNNCell(3, 4, nonlinearity="relu"), [f32(2, 3), f32(2, 4)]),
        ("lstmcell", lambda: nn.LSTMCell(3, 4), [f32(2, 3), (f32(2, 4), f32(2, 4))]),
        ("grucell_nobias", lambda: nn.GRUCell(3, 4, has_bias=False), [f32(2, 3), f32(2, 4)]),
    ]


def _norm_cases():
    r = _rng(1)

    def f32(*shape):
        return r.uniform(-2, 2, shape).astype(np.float32)

    return [
        ("bn1d_train_3d", lambda: nn.BatchNorm1d(3), [f32(4, 3, 2)], True),
        ("bn3d_train", lambda: nn.BatchNorm3d(3), [f32(2, 3, 2, 2, 3)], True),
        ("bn3d_eval", lambda: nn.BatchNorm3d(3), [f32(2, 3, 2, 1, 2)], False),
        ("syncbn_train", lambda: nn.SyncBatchNorm(3), [f32(4, 3, 2, 2)], True),
        ("groupnorm_4d", lambda: nn.GroupNorm(2, 4), [f32(2, 4, 3, 3)], False),
        ("groupnorm_3d", lambda: nn.GroupNorm(4, 4, eps=1e-3), [f32(2, 4, 5)], False),
        ("layernorm_axis1", lambda: nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1), [f32(2, 3, 4)]),
        ("layernorm_mixed", lambda: nn.LayerNorm((4,), begin_norm_axis=1, begin_params_axis=-1), [f32(2, 3, 4)]),
    ]


def _attention_cases():
    r = _rng(3)

    def f32(*shape):
        return r.uniform(-1, 1, shape).astype(np.float32)

    causal = np.triu(np.ones((4, 4), bool), 1)
    kpm = np.array([[False, False, False, True, True], [False, False, False, False, False]])
    x = f32(4, 2, 8)
    return [
        ("mha_self", lambda: nn.MultiheadAttention(8, 2), [x, x, x]),
        (
            "mha_masks",
            lambda: nn.MultiheadAttention(8, 2, batch_first=True),
            [f32(2, 4, 8), f32(2, 5, 8), f32(2, 5, 8), kpm, True, np.triu(np.ones((4, 5), bool), 2)],
        ),
        # (a bool key_padding_mask next to a float attn_mask is added as 1.0 by MindSpore 2.10, not masked:
        # both masks float here)
        (
            "mha_float_masks",
            lambda: nn.MultiheadAttention(8, 2),
            [
                f32(4, 2, 8),
                f32(5, 2, 8),
                f32(5, 2, 8),
                np.where(kpm, -1e9, 0.0).astype(np.float32),
                True,
                f32(2 * 2, 4, 5),
                False,
            ],
        ),
        (
            "mha_kvdim_biaskv",
            lambda: nn.MultiheadAttention(8, 4, add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=3),
            [f32(4, 2, 8), f32(5, 2, 6), f32(5, 2, 3), None, True, None, False],
        ),
        ("enc_layer_post", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), [f32(4, 2, 8), causal]),
        (
            "enc_layer_pre_gelu",
            lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True, batch_first=True),
            [f32(2, 4, 8)],
        ),
        (
            "dec_layer",
            lambda: nn.TransformerDecoderLayer(8, 2, 16),
            [f32(4, 2, 8), f32(5, 2, 8), causal, None, None, kpm],
        ),
        ("transformer", lambda: nn.Transformer(8, 2, 1, 1, 16), [f32(5, 2, 8), f32(4, 2, 8), None, causal]),
    ]


def _embedding_cases():
    r = _rng(4)
    ids = np.array([[1, 3, 3], [0, 2, 4]], np.int32)
    vals = r.uniform(-1, 1, (2, 3)).astype(np.float32)
    vals[1, 1] = 0.0
    fields = np.array([[0, 1, 1], [2, 0, 0]], np.int32)
    return [
        ("embedding_onehot", lambda: nn.Embedding(5, 3, use_one_hot=True), [ids]),
        # (EmbeddingLookup's max_norm is not here: MindSpore 2.10's ClipByNorm over the last axis of a 3-D
        # output divides rows by other rows' norms; tests check sporax's per-row clip against NumPy)
        ("embedding_lookup", lambda: nn.EmbeddingLookup(5, 3), [ids]),
        ("mfe_sum", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="SUM"), [ids, vals, fields]),
        ("mfe_mean", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="MEAN"), [ids, vals, fields]),
        ("mfe_max", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="MAX"), [ids, vals, fields]),
    ]


def _basic_cases():
    r = _rng(5)

    def f32(*shape, lo=-1.0, hi=1.0):
        return r.uniform(lo, hi, shape).astype(np.float32)

    spd = f32(3, 3)
    spd = (spd @ spd.T + 3 * np.eye(3)).astype(np.float32)
    return [
        ("linear", lambda: nn.Linear(3, 4), [f32(2, 3)]),
        ("bidense", lambda: nn.BiDense(3, 4, 5), [f32(2, 3, 3), f32(2, 3, 4)]),
        ("densebnact", lambda: nn.DenseBnAct(3, 4, has_bn=True, activation="leakyrelu"), [f32(5, 3)], True),
        ("reducelogsumexp", lambda: nn.ReduceLogSumExp((0, 2), keep_dims=True), [f32(2, 3, 4)]),
        ("moments", lambda: nn.Moments(axis=(0, 1), keep_dims=False), [f32(2, 3, 4)]),
        # (MatDet / MatInverse: MindSpore 2.10's CPU build has no DetTriangle / CholeskyTrsm kernel; NumPy checks)
        ("lgamma", lambda: nn.LGamma(), [f32(5, lo=0.2, hi=4.0)]),
        ("digamma", lambda: nn.DiGamma(), [f32(5, lo=0.2, hi=4.0)]),
        ("lbeta", lambda: nn.LBeta(), [f32(4, lo=0.5, hi=3.0), f32(4, lo=0.5, hi=3.0)]),
        # (Roll: no CPU kernel in MindSpore 2.10; NumPy checks)
        ("tril", lambda: nn.Tril(), [f32(3, 4), 1]),
        ("triu", lambda: nn.Triu(), [f32(2, 3, 3), -1]),
        ("norm", lambda: nn.Norm(axis=1, keep_dims=True), [f32(3, 4)]),
        # (MatrixDiag / MatrixDiagPart / MatrixSetDiag: no CPU kernels in MindSpore 2.10; NumPy checks)
        ("l1regularizer", lambda: nn.L1Regularizer(0.5), [f32(3, 4)]),
        (
            "timedistributed_reshape",
            lambda: nn.TimeDistributed(nn.Dense(3, 2), time_axis=1, reshape_with_axis=0),
            [f32(4, 5, 3)],
        ),
        ("timedistributed_loop", lambda: nn.TimeDistributed(nn.Dense(3, 2), time_axis=1), [f32(4, 5, 3)]),
    ]


def _fn_cases():
    """Functional ops: (name, function of MindSpore tensors, inputs; the first input is differentiated)."""
    r = _rng(2)

    def f32(*shape):
        return r.uniform(-2, 2, shape).astype(np.float32)

    return [
        ("F.group_norm", lambda x, w, b: ops.group_norm(x, 2, w, b, 1e-4), [f32(2, 6, 3), f32(6), f32(6)]),
        ("F.l2_normalize", lambda x: ops.L2Normalize(axis=1, epsilon=1e-4)(x), [f32(3, 4)]),
        ("F.renorm", lambda x: ops.renorm(x, 2, 0, 1.5), [f32(3, 4)]),
        ("F.lrn", lambda x: ops.LRN(2, 1.0, 0.5, 0.75)(x), [f32(1, 5, 2, 2)]),
    ]


def _ops_cases():
    """(name, function, inputs, differentiable) for the small ops."""
    r = _rng(6)

    def f32(*shape):
        return r.uniform(-2, 2, shape).astype(np.float32)

    boxes = np.array(
        [[0, 0, 99, 99], [0, 0, 100, 99], [0, 0, 99, 100], [-1, 0, 5, 5], [0, 0, 149, 49], [5, 5, 3, 3]], np.float32
    )
    return [
        (
            "O.intopk",
            lambda a, b: ops.intopk(a, b, 2),
            [np.array([[1, 3, 3, 0], [4, 1, 0, 2], [0, 0, 0, 0]], np.float32), np.array([2, 3, 1], np.int32)],
            False,
        ),
        ("O.check_valid", lambda a, b: ops.check_valid(a, b), [boxes, np.array([50, 150, 1], np.float32)], False),
        ("O.check_valid_ratio", lambda a, b: ops.CheckValid()(a, b), [boxes, np.array([50, 50, 2], np.float32)], False),
        ("O.pdist", lambda a: ops.pdist(a, 2.0), [f32(4, 3)], True),
        ("O.pdist_p1", lambda a: ops.Pdist(1.0)(a), [f32(4, 3)], True),
        ("O.nth_element", lambda a: ops.NthElement()(a, 2), [f32(2, 3, 5)], False),
        ("O.nth_element_rev", lambda a: ops.NthElement(reverse=True)(a, 0), [f32(3, 4)], False),
        ("O.nuclear_norm", lambda a: ops.NuclearNorm(dim=[0, 2], keepdim=True)(a), [f32(3, 2, 4)], False),
        ("O.nuclear_norm_default", lambda a: ops.NuclearNorm()(a), [f32(3, 4)], False),
        ("O.dim_map", lambda a: ops.DataFormatDimMap()(a), [np.array([-4, -3, -2, -1, 0, 1, 2, 3], np.int32)], False),
        (
            "O.vec_permute",
            lambda a: ops.DataFormatVecPermute("NCHW", "NHWC")(a),
            [np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.int32)],
            False,
        ),
        # (SeLU's gradient: MindSpore 2.10's CPU SeLUGrad is wrong for negative inputs; tests use the analytic one)
        ("O.selu", lambda a: ops.SeLU()(a), [f32(3, 4)], False),
        ("O.dense", lambda a, w, b: ops.Dense()(a, w, b), [f32(2, 3), f32(4, 3), f32(4)], True),
        ("O.msort", lambda a: ops.msort(a), [f32(4, 3)], True),
        ("O.fliplr", lambda a: ops.fliplr(a), [f32(2, 3, 2)], True),
        ("O.flipud", lambda a: ops.flipud(a), [f32(3, 2)], True),
        ("O.bias_add", lambda a, b: ops.bias_add(a, b), [f32(2, 3, 2, 2), f32(3)], True),
        ("O.logsumexp", lambda a: ops.logsumexp(a, dim=1, keepdim=True), [f32(2, 3, 4)], True),
        ("O.masked_select", lambda a, m: ops.MaskedSelect()(a, m), [f32(2, 3), np.array([True, False, True])], False),
    ]


def _lstm_op_cases():
    """ops.LSTM (MindSpore's CPU kernel, flat weights): (name, function, inputs)."""
    r = _rng(7)
    cases = []
    for i, h, layers, d, bias in [(3, 4, 1, 1, True), (3, 4, 1, 2, True), (4, 4, 3, 1, True), (3, 4, 1, 1, False)]:
        g = 4 * h
        n = sum(g * ((i if layer == 0 else h * d) + h) for layer in range(layers)) * d + (g * layers * d if bias else 0)
        op = ops.LSTM(i, h, layers, bias, d == 2, 0.0)
        inputs = [
            r.uniform(-1, 1, (5, 2, i)).astype(np.float32),
            r.uniform(-0.5, 0.5, (layers * d, 2, h)).astype(np.float32),
            r.uniform(-0.5, 0.5, (layers * d, 2, h)).astype(np.float32),
            r.uniform(-0.4, 0.4, (n, 1, 1)).astype(np.float32),
        ]
        cases.append((f"P.lstm_{i}{h}{layers}{d}{int(bias)}", lambda *a, op=op: op(*a)[:3], inputs))
    return cases


def _detection_cases():
    """(name, function, inputs, differentiable) for the detection/decoding ops."""
    r = _rng(8)
    feats = r.uniform(-1, 1, (2, 3, 6, 5)).astype(np.float32)
    rois = np.array(
        [[0, 0.5, 1.0, 3.5, 4.0], [1, 2.0, 0.0, 8.0, 9.0], [0, -2.0, -1.0, 1.0, 2.0], [1, 1.0, 1.0, 1.0, 1.0]],
        np.float32,
    )
    logits = r.uniform(-1, 1, (6, 3, 4)).astype(np.float32)
    logits[2, 0] = logits[1, 0]  # a repeat to merge
    boxes = r.uniform(0, 1, (2, 6, 1, 4)).astype(np.float32)
    boxes[..., 2:] += boxes[..., :2]
    seq = r.randint(0, 4, (2, 2, 7)).astype(np.int32)
    ov = r.uniform(0, 1, (6, 6)).astype(np.float32)
    return [
        ("D.roialign", lambda f, x: ops.ROIAlign(3, 2, 0.5, 2)(f, x), [feats, rois], True),
        # (roi_end_mode=0: MindSpore 2.10's CPU ROIAlignGrad does not match its own forward; values only)
        ("D.roialign_end0", lambda f, x: ops.ROIAlign(2, 2, 1.0, 3, 0)(f, x), [feats, rois], False),
        ("D.ctc", lambda x, n: ops.CTCGreedyDecoder()(x, n), [logits, np.array([6, 4, 0], np.int32)], False),
        (
            "D.ctc_nomerge",
            lambda x, n: ops.CTCGreedyDecoder(False)(x, n),
            [logits, np.array([6, 5, 3], np.int32)],
            False,
        ),
        (
            "D.nms_overlaps",
            lambda o, sc: ops.NonMaxSuppressionWithOverlaps()(
                o, sc, Tensor(4, ms.int32), Tensor(0.5, ms.float32), Tensor(0.2, ms.float32)
            ),
            [ov, r.uniform(0, 1, 6).astype(np.float32)],
            False,
        ),
        (
            "D.combined_nms",
            lambda b, sc: ops.CombinedNonMaxSuppression()(
                b, sc, Tensor(3, ms.int32), Tensor(4, ms.int32), Tensor(0.3, ms.float32), Tensor(0.1, ms.float32)
            ),
            [boxes, r.uniform(0, 1, (2, 6, 2)).astype(np.float32)],
            False,
        ),
        (
            "D.no_repeat_ngram",
            lambda sq, lp: ops.NoRepeatNGram(2)(sq, lp),
            [seq, r.uniform(-1, 0, (2, 2, 5)).astype(np.float32)],
            False,
        ),
    ]


def run_fn_case(name, fn, inputs, store, meta, grads=True):
    r = _rng(zlib.crc32(name.encode()))
    args = [Tensor(a) for a in inputs]
    for i, a in enumerate(inputs):
        store[f"{name}/in.{i}"] = a
    out = fn(*args)
    outs = out if isinstance(out, tuple) else (out,)
    probes = [r.uniform(-1, 1, o.shape).astype(np.float32) for o in outs]
    for i, (o, pr) in enumerate(zip(outs, probes)):
        store[f"{name}/out.{i}"] = o.asnumpy()
        store[f"{name}/probe/out.{i}"] = pr

    def loss(*xs):
        o = fn(*xs)
        o = o if isinstance(o, tuple) else (o,)
        return sum((a * Tensor(p)).sum() for a, p in zip(o, probes))

    if grads:
        g = ms.grad(loss, grad_position=0)(*args)
        store[f"{name}/grad/in.0"] = g.asnumpy()
    meta[name] = {"n_in": len(inputs), "n_out": len(outs)}


def _to_ms(a):
    if a is None or isinstance(a, (bool, int, float)):
        return a
    if isinstance(a, tuple):
        return tuple(_to_ms(x) for x in a)
    return Tensor(a)


def _flat(tree, prefix, out):
    if tree is None or isinstance(tree, (bool, int, float)):
        return
    if isinstance(tree, (tuple, list)):
        for i, t in enumerate(tree):
            _flat(t, f"{prefix}.{i}", out)
        return
    out[prefix] = tree.asnumpy() if hasattr(tree, "asnumpy") else np.asarray(tree)


def run_case(name, factory, args, store, meta, train=False):
    net = factory()
    net.set_train(train)
    r = _rng(zlib.crc32(name.encode()))
    names = []
    for p in net.trainable_params():
        w = r.uniform(-0.5, 0.5, p.shape).astype(np.float32)
        p.set_data(Tensor(w))
        store[f"{name}/param/{p.name}"] = w
        names.append(p.name)
    flat_in = {}
    _flat(args, "in", flat_in)
    for k, v in flat_in.items():
        store[f"{name}/{k}"] = v
    ms_args = [_to_ms(a) for a in args]
    out = net(*ms_args)
    flat_out = {}
    _flat(out, "out", flat_out)
    probes = {k: r.uniform(-1, 1, v.shape).astype(np.float32) for k, v in flat_out.items()}
    for k, v in flat_out.items():
        store[f"{name}/{k}"] = v
        store[f"{name}/probe/{k}"] = probes[k]
    # gradient of sum(out * probe) w.r.t. the first (float) input and every parameter
    keys = list(flat_out)

    def loss_fn(x0, *rest):
        o = net(x0, *rest)
        fo = {}
        _flat_ms(o, "out", fo)
        total = 0
        for k in keys:
            total = total + (fo[k] * Tensor(probes[k])).sum()
        return total

    float_in = np.issubdtype(np.asarray(args[0]).dtype, np.floating)
    params = net.trainable_params()
    grad_fn = ms.value_and_grad(loss_fn, grad_position=0 if float_in else None, weights=params or None)
    _, grads = grad_fn(*ms_args)
    if params:
        gx, gw = grads if float_in else (None, grads)
    else:
        gx, gw = grads, ()
    if float_in:
        store[f"{name}/grad/in.0"] = gx.asnumpy()
    for pn, p, g in zip(names, net.trainable_params(), gw):
        g = g.asnumpy()
        if g.shape != tuple(p.shape):  # a sparse lookup's gradient: one row per looked-up index; made dense
            dense = np.zeros(p.shape, np.float32)
            np.add.at(dense, np.asarray(args[0]).reshape(-1), g)
            g = dense
        store[f"{name}/grad/param/{pn}"] = g
    meta[name] = {"params": names, "outputs": keys, "args": _struct(args, "in")}


def _struct(tree, prefix):
    """The call arguments' structure with fixture keys at the leaves (None stays None)."""
    if tree is None:
        return None
    if isinstance(tree, (bool, int, float)):
        return {"py": tree}
    if isinstance(tree, (tuple, list)):
        return [_struct(t, f"{prefix}.{i}") for i, t in enumerate(tree)]
    return prefix


def _flat_ms(tree, prefix, out):
    if tree is None:
        return
    if isinstance(tree, (tuple, list)):
        for i, t in enumerate(tree):
            _flat_ms(t, f"{prefix}.{i}", out)
        return
    out[prefix] = tree


def _checkpoints(store):
    """MindSpore-saved checkpoints of an LSTM and a TransformerEncoderLayer (their default random weights) and
    their outputs on a fixed input: sporax must load them by MindSpore's parameter names and reproduce them."""
    x = _rng(9).uniform(-1, 1, (2, 5, 8)).astype(np.float32)
    store["ckpt/x"] = x
    nets = {
        "lstm": nn.LSTM(8, 4, 2, batch_first=True, bidirectional=True),
        "encoder": nn.TransformerEncoderLayer(8, 2, 16, batch_first=True),
    }
    for name, net in nets.items():
        net.set_train(False)
        out = net(Tensor(x))
        store[f"ckpt/{name}/out"] = (out[0] if isinstance(out, tuple) else out).asnumpy()
        ms.save_checkpoint(net, str(OUT.parent / f"nn_seq_{name}.ckpt"))


def main():
    store, meta = {}, {}
    _checkpoints(store)
    for name, factory, args in _rnn_cases():
        run_case(name, factory, args, store, meta)
    for name, factory, args, *train in _norm_cases():
        run_case(name, factory, args, store, meta, train=bool(train and train[0]))
    for name, factory, args in _attention_cases():
        run_case(name, factory, args, store, meta)
    for name, factory, args, *train in _basic_cases():
        run_case(name, factory, args, store, meta, train=bool(train and train[0]))
    for name, factory, args in _embedding_cases():
        run_case(name, factory, args, store, meta)
    for name, fn, inputs in _fn_cases():
        run_fn_case(name, fn, inputs, store, meta)
    for name, fn, inputs, diff in _ops_cases():
        run_fn_case(name, fn, inputs, store, meta, grads=diff)
    for name, fn, inputs in _lstm_op_cases():
        run_fn_case(name, fn, inputs, store, meta)
    for name, fn, inputs, diff in _detection_cases():
        run_fn_case(name, fn, inputs, store, meta, grads=diff)
    store["__meta__"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **store)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(meta)} cases)")


if __name__ == "__main__":
    main()
