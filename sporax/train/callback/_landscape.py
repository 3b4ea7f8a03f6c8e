"""Loss landscapes (MindSpore's ``SummaryLandscape``) and the weights ``SummaryCollector`` keeps for them.

``SummaryCollector`` saves the backbone's weights at the steps (or epochs) of ``collect_landscape``'s
``intervals`` in ``<summary_dir>/ckpt_dir`` with ``train_metadata.json``. ``SummaryLandscape`` then evaluates the
loss on a grid around the final weights: along the two principal directions of an interval's weight trajectory
(PCA, with the trajectory itself as the loss path), or along two random directions (the training result), each
direction scaled per parameter to the parameter's norm (filter normalisation). The grids are written to the
summary file as TensorBoard tensors ``landscape_[a, b]/x``, ``/y``, ``/z`` (and ``/path``, ``/convergence``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import stat
from collections import defaultdict

import numpy as np
from scipy import linalg

from ..._checkparam import (
    check_collect_landscape,
    check_create_landscape,
    check_landscape_device_ids,
    check_landscape_size,
    check_landscape_unit,
    check_value_type,
)
from ...common.tensor import Tensor
from .._utils import make_directory

_log = logging.getLogger("sporax")


# ---------------------------------------------------------------------------------------- collecting
def _backbone(network):
    """The network the loss is computed from: the ``_backbone`` of a WithLossCell, below the train-step cells."""
    backbone = next((c._backbone for _, c in network.cells_and_names() if hasattr(c, "_backbone")), network)
    while "network" in backbone.name_cells():
        has_optimizer = "optimizer" in backbone.name_cells()
        backbone = backbone.network
        if has_optimizer:
            break
    return backbone


class LandscapeCollection:
    """What SummaryCollector keeps for loss landscapes: the weights at the intervals' steps/epochs and
    ``train_metadata.json`` (MindSpore's layout, so either framework's SummaryLandscape reads it)."""

    def __init__(self, summary_dir, collect_landscape):
        self.settings = collect_landscape
        self.ckpt_dir = make_directory(os.path.join(summary_dir, "ckpt_dir"), "ckpt_dir")
        self.model_params_file_map = {}
        self.epoch_group = defaultdict(list)
        for i, interval in enumerate(collect_landscape.get("intervals")):
            self.epoch_group[i].extend(interval)

    @property
    def unit(self):
        return self.settings.get("unit", "step")

    def maybe_save(self, cb_params, unit):
        """Save the weights if ``unit`` is the collection unit and the current step/epoch is in an interval."""
        if self.unit != unit or cb_params.get("mode", "train") != "train":
            return
        current = cb_params.cur_epoch_num if unit == "epoch" else cb_params.cur_step_num
        if not any(current in interval for interval in self.settings.get("intervals")):
            return
        from ..serialization import save_checkpoint

        backbone = _backbone(cb_params.train_network)
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{current}_{unit}.ckpt")
        self.model_params_file_map[str(current)] = path
        if not os.path.isfile(path):
            save_checkpoint([{"name": p.name, "data": Tensor(p.asnumpy())} for p in backbone.get_parameters()], path)

    def save_metadata(self, step_per_epoch):
        data = {
            "epoch_group": self.epoch_group,
            "model_params_file_map": self.model_params_file_map,
            "step_per_epoch": step_per_epoch,
            "unit": self.unit,
            "num_samples": self.settings.get("num_samples", 2048),
            "landscape_size": self.settings.get("landscape_size", 40),
            "create_landscape": self.settings.get("create_landscape", {"train": True, "result": True}),
        }
        path = os.path.join(self.ckpt_dir, "train_metadata.json")
        if os.path.isfile(path):
            return
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.chmod(path, stat.S_IRUSR)


# ----------------------------------------------------------------------------------------------- PCA
class _PCA:
    """The first principal components of the rows of x: ``u * s`` of the SVD of the centred x (exact for
    small x, randomised for large), signs fixed so the largest entry of each component is positive."""

    def __init__(self, n_comps):
        self._n_comps = n_comps

    @staticmethod
    def _svd_flip(u, v, u_based=True):
        if u_based:
            signs = np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])
        else:
            signs = np.sign(v[range(v.shape[0]), np.argmax(np.abs(v), axis=1)])
        return u * signs, v * signs[:, np.newaxis]

    def compute(self, x):
        x = x - np.mean(x, axis=0)
        n = self._n_comps
        if max(x.shape) > 500 and 1 <= n < 0.8 * min(x.shape):
            u, s = self._randomized(x, n)
        else:
            u, s, vt = linalg.svd(x, full_matrices=False)
            u, vt = self._svd_flip(u, vt)
        s = np.where(s == 0, 1e-19, s)
        return u[:, :n] * s[:n]

    def _randomized(self, m, n, oversamples=10):
        rng = np.random.RandomState(None)
        transposed = m.shape[0] < m.shape[1]
        a = m.T if transposed else m
        n_iter = 7 if n < 0.1 * min(m.shape) else 4
        q = rng.normal(size=(a.shape[1], n + oversamples)).astype(a.dtype, copy=False)
        for _ in range(n_iter):
            q, _ = linalg.lu(a @ q, permute_l=True)
            q, _ = linalg.lu(a.T @ q, permute_l=True)
        q, _ = linalg.qr(a @ q, mode="economic")
        uhat, s, vt = linalg.svd(q.T @ a, full_matrices=False)
        u = q @ uhat
        u, vt = self._svd_flip(u, vt, u_based=not transposed)
        if transposed:
            return vt[:n, :].T, s[:n]
        return u[:, :n], s[:n]


# ------------------------------------------------------------------------------------------ landscape
def _is_direction_param(name):
    return ("weight" in name or "bias" in name) and "moment" not in name


class SummaryLandscape:
    """
    Compute loss landscapes from the weights ``SummaryCollector`` saved (``collect_landscape``) and write them
    to a summary file.

    Args:
        summary_dir (str): The summary directory of the training (its ``ckpt_dir`` holds the weights and
            ``train_metadata.json``).

    Examples:
        >>> def callback_fn():
        ...     return model, network, dataset, {"Loss": Loss()}
        >>> SummaryLandscape("./summary").gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
    """

    def __init__(self, summary_dir):
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = make_directory(os.path.join(self._summary_dir, "ckpt_dir"), "ckpt_dir")
        self._model_params_file_map = {}
        self._epoch_group = defaultdict(list)
        self._metric_fns = None

    def clean_ckpt(self):
        """Delete the saved weights (``ckpt_dir``)."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def _metadata(self):
        path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(path):
            raise FileNotFoundError(
                f'For "{type(self).__name__}", train_metadata.json file does not exist under the path, please use '
                "summary_collector to collect information to create the json file"
            )
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self._verify_metadata(data)
        return data

    def _verify_metadata(self, data):
        """train_metadata.json's content as SummaryCollector writes it (a file's content, not an argument)."""
        keys = ["epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples", "landscape_size",
                "create_landscape"]  # fmt: skip
        for key in data:
            if key not in keys:
                raise ValueError(f'"train_metadata" json file should be {keys}, but got the: {key}')
        owner = type(self).__name__
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(
                    f'For "{owner}", the "epoch_group" in train_metadata.json, length of each list in "epoch_group" '
                    f"should not be less than 3, but got: {len(epochs)}. "
                )
            for epoch in epochs:
                if str(epoch) not in data["model_params_file_map"]:
                    raise ValueError(
                        f'For "{owner}", the "model_params_file_map" in train_metadata.json does not exist '
                        f"{epoch}th checkpoint in intervals."
                    )
        check_value_type("step_per_epoch", data["step_per_epoch"], int)
        check_landscape_size(data["landscape_size"], owner)
        check_landscape_unit(data["unit"], owner)
        check_value_type("num_samples", data["num_samples"], int)
        check_create_landscape(data["create_landscape"], owner)

    def gen_landscapes_with_multi_process(self, callback_fn, collect_landscape=None, device_ids=None, output=None):
        """Compute the landscapes and write them to a summary file in `output` (default: the summary directory).

        Args:
            callback_fn (function): Returns ``(model, network, dataset, metrics)``: the Model whose
                ``train_network`` outputs the loss, the network the weights are loaded into, the dataset the
                loss is computed on, and metrics holding a ``'Loss'`` metric.
            collect_landscape (Union[dict, None]): Overrides of the collected settings (``landscape_size``,
                ``unit``, ``num_samples``, ``create_landscape``, ``intervals``). Default: ``None`` .
            device_ids (List(int)): Devices to use (checked as MindSpore does; the grid is computed in this
                process, on its device). Default: ``None`` .
            output (str): The directory of the summary file. Default: ``None`` .
        """
        from ..summary.summary_record import SummaryRecord

        check_landscape_device_ids(device_ids, type(self).__name__)
        if collect_landscape is not None:
            check_collect_landscape(collect_landscape, type(self).__name__)
            path = os.path.join(self._ckpt_dir, "train_metadata.json")
            if not os.path.exists(path):
                raise FileNotFoundError(
                    f'For "{type(self).__name__}", train_metadata.json file path of {path} not exists.'
                )
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            data.update({k: v for k, v in collect_landscape.items() if k in data})
            if "intervals" in collect_landscape:
                data["epoch_group"] = {str(i): list(v) for i, v in enumerate(collect_landscape["intervals"])}
            os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.chmod(path, stat.S_IRUSR)
        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        with SummaryRecord(output_path, file_suffix="_landscape") as record:
            for interval, landscape in self._list_landscapes(callback_fn):
                tag = f"landscape_{interval}"
                for part, value in landscape.items():
                    record.add_value("tensor", f"{tag}/{part}", Tensor(np.asarray(value, np.float32)))
                record.record(0)
                record.flush()

    def _list_landscapes(self, callback_fn):
        data = self._metadata()
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        groups = list(self._epoch_group.values())
        if data["create_landscape"].get("train", False):
            for epochs in groups:
                yield [epochs[0], epochs[-1]], self._landscape_by_pca(epochs, 0.2, data, callback_fn)
        if data["create_landscape"].get("result", False):
            final = [groups[-1][-1]]
            yield final, self._landscape_by_random(final, 0.2, data, callback_fn)

    # ------------------------------------------------------------------ directions
    def _params(self, epochs):
        from ..serialization import load_checkpoint

        return [load_checkpoint(self._model_params_file_map[str(e)]) for e in epochs]

    @staticmethod
    def _flat(params):
        return np.concatenate(
            [np.asarray(v.asnumpy(), np.float64).ravel() for k, v in params.items() if _is_direction_param(k)]
        )

    @staticmethod
    def _split(vector, final):
        """``vector`` (over the direction parameters) reshaped per parameter; zeros for the others."""
        out, i = {}, 0
        for name, p in final.items():
            shape = p.shape
            if _is_direction_param(name):
                size = int(np.prod(shape, dtype=np.int64))
                out[name] = vector[i : i + size].reshape(shape)
                i += size
            else:
                out[name] = np.zeros(shape)
        return out

    @staticmethod
    def _normalize(direction, final):
        """Scale each parameter's part of ``direction`` to that parameter's norm (filter normalisation)."""
        for name, d in direction.items():
            if _is_direction_param(name):
                norm = np.linalg.norm(d)
                direction[name] = d * (np.linalg.norm(final[name].asnumpy()) / norm) if norm else d
            else:
                direction[name] = np.zeros_like(d)
        return direction

    def _landscape_by_pca(self, epochs, proz, data, callback_fn):
        params = self._params(epochs)
        final = params[-1]
        matrix = np.vstack([self._flat(p) for p in params])
        matrix = matrix[:-1] - matrix[-1]
        comps = _PCA(2).compute(matrix.T)
        v = self._normalize(self._split(comps[:, 0], final), final)
        w = self._normalize(self._split(comps[:, -1], final), final)
        names = [k for k in final if _is_direction_param(k)]
        basis = np.vstack(
            [np.concatenate([v[k].ravel() for k in names]), np.concatenate([w[k].ravel() for k in names])]
        ).T
        base = self._flat(final)
        coefs = np.array([np.linalg.lstsq(basis, self._flat(p) - base, rcond=None)[0] for p in params])
        cx, cy = coefs[:, 0], coefs[:, 1]
        size = data["landscape_size"]
        x_axis = np.linspace(cx.min() - proz * (cx.max() - cx.min()), cx.max() + proz * (cx.max() - cx.min()), size)
        y_axis = np.linspace(cy.min() - proz * (cy.max() - cy.min()), cy.max() + proz * (cy.max() - cy.min()), size)
        evaluate = self._evaluator(callback_fn, data, final)
        path = np.array([evaluate(a, b, v, w) for a, b in coefs])
        z = np.array([[evaluate(a, b, v, w) for a in x_axis] for b in y_axis])
        zero = int(np.argmin(np.abs(cx)))
        return {"x": x_axis, "y": y_axis, "z": z, "path": np.vstack([cx, cy, path]),
                "convergence": np.array([0.0, 0.0, path[zero]])}  # fmt: skip

    def _landscape_by_random(self, epochs, proz, data, callback_fn):
        final = self._params(epochs)[-1]
        total = sum(int(np.prod(p.shape, dtype=np.int64)) for p in final.values())
        v_rand, w_rand = np.random.normal(size=total), np.random.normal(size=total)
        v, w, i = {}, {}, 0
        for name, p in final.items():
            size = int(np.prod(p.shape, dtype=np.int64))
            v[name], w[name] = v_rand[i : i + size].reshape(p.shape), w_rand[i : i + size].reshape(p.shape)
            i += size
        v, w = self._normalize(v, final), self._normalize(w, final)
        size = data["landscape_size"]
        axis = np.linspace(-proz * 5, proz * 5, size)
        evaluate = self._evaluator(callback_fn, data, final)
        z = np.array([[evaluate(a, b, v, w) for a in axis] for b in axis])
        return {
            "x": axis,
            "y": axis,
            "z": z,
            "convergence": np.array([axis[size // 2], axis[size // 2], z[size // 2][size // 2]]),
        }

    # ------------------------------------------------------------------ loss
    def _evaluator(self, callback_fn, data, final):
        from ..metrics import get_metrics
        from ..serialization import load_param_into_net

        model, network, dataset, metrics = callback_fn()
        batches = max(1, data["num_samples"] // dataset.get_batch_size())
        dataset = dataset.take(batches)
        self._metric_fns = get_metrics(metrics)
        base = {k: np.asarray(p.asnumpy(), np.float64) for k, p in final.items()}

        def evaluate(alpha, beta, v, w):
            values = {k: Tensor((b + alpha * v[k] + beta * w[k]).astype(np.float32)) for k, b in base.items()}
            load_param_into_net(network, {k: _param(k, t) for k, t in values.items()})
            return self._loss(model, dataset)

        return evaluate

    def _loss(self, model, dataset):
        for metric in self._metric_fns.values():
            metric.clear()
        network = model.train_network
        network.set_train(True)
        for batch in dataset.create_tuple_iterator(num_epochs=1):
            outputs = network(*batch)
            outputs = outputs if isinstance(outputs, tuple) else (outputs,)
            for metric in self._metric_fns.values():
                metric.update(*outputs)
        return {k: m.eval() for k, m in self._metric_fns.items()}.get("Loss")


def _param(name, tensor):
    from ...common.parameter import Parameter

    return Parameter(tensor, name=name)
