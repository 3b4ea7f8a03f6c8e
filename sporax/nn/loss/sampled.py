"""``nn.SampledSoftmaxLoss``: softmax cross entropy over the true classes and a sample of the others."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .loss import LossBase

__all__ = ["SampledSoftmaxLoss"]


class SampledSoftmaxLoss(LossBase):
    """Sampled softmax loss (training a large output layer on ``num_true`` true classes and
    ``num_sampled`` sampled classes per step).

    Args:
        num_sampled: classes sampled per batch.
        num_classes: all classes.
        num_true: true classes per example. Default 1.
        sampled_values: ``(sampled_candidates, true_expected_count, sampled_expected_count)``; when None
            the classes are drawn uniformly without replacement (excluding the batch's true classes when
            ``remove_accidental_hits``), each with expected count ``num_sampled / num_classes``.
        remove_accidental_hits: do not sample a true class of the batch. Default True.
        seed: the sampler's seed (0: the framework's random state). Default 0.
        reduction: 'none' (default), 'mean' or 'sum'; checked, but as in MindSpore 2.10 the loss is returned
            per example.

    Inputs:
        weights ``(num_classes, dim)``, biases ``(num_classes,)``, labels ``(batch, num_true)`` int32/int64,
        logits ``(batch, dim)``.
    """

    def __init__(
        self,
        num_sampled: int,
        num_classes: int,
        num_true: int = 1,
        sampled_values: Any = None,
        remove_accidental_hits: bool = True,
        seed: int = 0,
        reduction: str = "none",
    ) -> None:
        super().__init__(reduction)
        name = "SampledSoftmaxLoss"
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(
                f"For '{name}', the 'num_sampled' must be smaller than or equal to 'num_classes', "
                f"but got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}."
            )
        if num_true > num_classes:
            raise ValueError(
                f"For '{name}', the 'num_true' must be smaller than or equal to 'num_classes', "
                f"but got 'num_true': {num_true} amd 'num_classes': {num_classes}."
            )
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(
                    f"For '{name}', the type of 'sampled_values' must be a list or tuple, "
                    f"but got {type(sampled_values).__name__}."
                )
            if len(sampled_values) != 3:
                raise ValueError(
                    f"For '{name}', the length of 'sampled_values' must be equal to 3,but got {len(sampled_values)}."
                )
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values, self.remove_accidental_hits, self.seed = sampled_values, remove_accidental_hits, seed

    def _sample(self, labels: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        import numpy as np

        from ..._engine import jax, jnp
        from ...common.seed import next_key
        from ...ops._utils import wrap

        scores = jax.random.uniform(next_key(self.seed or None), (self.num_classes,))
        if self.remove_accidental_hits:
            hit = jnp.zeros((self.num_classes,), bool).at[labels._data.reshape(-1)].set(True)
            scores = jnp.where(hit, 2.0, scores)  # sorted last: never among the first num_sampled
        sampled = jnp.argsort(scores)[: self.num_sampled].astype(jnp.int32)
        q = np.float32(self.num_sampled / self.num_classes)
        true_count = Tensor(np.full((labels.shape[0], self.num_true), q, np.float32))
        return wrap(sampled), true_count, Tensor(np.full((self.num_sampled,), q, np.float32))

    def construct(self, weights: Any, biases: Any, labels: Any, logits: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        name = "SampledSoftmaxLoss"
        for arg, t in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            validator.check_instance(t, Tensor, arg, name)
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(
                f"For '{name}', the type of 'labels' should be one of ['Int32', 'Int64'], but got {labels.dtype}."
            )
        labels = ops.cast(labels, mstype.int32).reshape(-1, self.num_true)
        sampled, true_count, sampled_count = (
            self._sample(labels) if self.sampled_values is None else self.sampled_values
        )
        sampled = ops.cast(sampled, mstype.int32)
        true_w = ops.gather(weights, labels.reshape(-1), 0).reshape(labels.shape[0], self.num_true, -1)
        sampled_w = ops.gather(weights, sampled, 0)
        true_logits = (logits.expand_dims(1) * true_w).sum(-1) + ops.gather(biases, labels.reshape(-1), 0).reshape(
            labels.shape
        )
        sampled_logits = ops.matmul(logits, sampled_w.T) + ops.gather(biases, sampled, 0)
        true_logits = true_logits - ops.log(true_count)
        sampled_logits = sampled_logits - ops.log(sampled_count)
        out_logits = ops.cat((true_logits, sampled_logits), 1)
        targets = ops.cat((ops.ones_like(true_logits) / self.num_true, ops.zeros_like(sampled_logits)), 1)
        shifted = out_logits - out_logits.max(axis=1, keepdims=True)
        e = ops.exp(shifted)
        pred = e / e.sum(axis=1, keepdims=True)
        x = -1 * (targets * ops.log(pred + 1.0e-20)).sum(1)
        return x  # per example: MindSpore 2.10 applies no reduction here, whatever 'reduction' says
