"""Samplers: which rows of a random-access source are read, and in which order (``mindspore.dataset``)."""

from __future__ import annotations

import numpy as np

from ..._checkparam import (
    check_distributed_args,
    check_num_samples,
    check_sampler_arg,
    check_sampler_indices,
    check_sampler_weights,
    check_source_options,
    check_start_index,
)

__all__ = [
    "Sampler",
    "BuiltinSampler",
    "SequentialSampler",
    "RandomSampler",
    "DistributedSampler",
    "SubsetRandomSampler",
    "SubsetSampler",
    "WeightedRandomSampler",
    "PKSampler",
]


class BuiltinSampler:
    """Base class of the built-in samplers."""

    num_samples: int | None = None
    #: the sampler draws random numbers (its order changes with the seed and the epoch)
    _random = False
    _child: BuiltinSampler | None = None

    def indices(self, n: int, rng: np.random.Generator, labels=None) -> np.ndarray:
        """The row indices of one epoch over a source of ``n`` rows (without a child sampler)."""
        raise NotImplementedError

    def count(self, n: int) -> int:
        """How many indices :meth:`indices` returns for ``n`` rows."""
        return len(self.indices(n, np.random.default_rng(0)))

    def get_num_samples(self):
        return self.num_samples

    def add_child(self, sampler) -> None:
        """Add a child sampler: this sampler then samples from the indices the child yields (the child
        samples the dataset's rows).

        Args:
            sampler (Sampler): the child sampler.

        Raises:
            TypeError: ``sampler`` is not a sampler.
            RuntimeError: this sampler already has a child.
        """
        if not isinstance(sampler, BuiltinSampler):
            raise TypeError(f"Input sampler should be a sampler, but got {type(sampler).__name__}.")
        if self._child is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        s: BuiltinSampler | None = sampler
        while s is not None:
            if s is self:
                raise RuntimeError("Cannot add child sampler: it would make a cycle of samplers.")
            s = s._child
        self._child = sampler

    def get_child(self):
        """The child sampler, or ``None``."""
        return self._child

    def is_shuffled(self) -> bool:
        """Whether this sampler or a child draws random numbers."""
        return bool(self._random) or (self._child is not None and self._child.is_shuffled())

    def is_sharded(self) -> bool:
        """Whether this sampler or a child shards the rows."""
        return isinstance(self, DistributedSampler) or (self._child is not None and self._child.is_sharded())

    def sample(self, n: int, rng: np.random.Generator, labels=None) -> np.ndarray:
        """The row indices of one epoch over ``n`` rows, through the child samplers."""
        if self._child is None:
            return self.indices(n, rng, labels)
        rows = self._child.sample(n, rng, labels)
        pos = self.indices(len(rows), rng, None if labels is None else np.asarray(labels)[rows])
        return rows[pos]

    def sample_count(self, n: int) -> int:
        """How many indices :meth:`sample` returns for ``n`` rows."""
        return self.count(n if self._child is None else self._child.sample_count(n))

    def _cap(self, k: int) -> int:
        return k if self.num_samples is None else min(k, self.num_samples)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_samples={self.num_samples})"


class Sampler(BuiltinSampler):
    """Base class of user samplers: override ``__iter__`` to yield row indices.

    Args:
        num_samples (int, optional): at most this many indices. Default: ``None``, all.
    """

    def __init__(self, num_samples=None) -> None:
        self.num_samples = check_num_samples(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("A Sampler subclass must implement __iter__.")

    def indices(self, n, rng, labels=None):
        self.dataset_size = n
        idx = np.fromiter((int(i) for i in self), dtype=np.int64)
        return idx[: self._cap(len(idx))]

    def count(self, n):
        return len(self.indices(n, None))


class _IterableSampler(Sampler):
    """Any iterable of indices used as a sampler."""

    def __init__(self, iterable) -> None:
        super().__init__()
        self._it = iterable

    def __iter__(self):
        return iter(self._it)


class SequentialSampler(BuiltinSampler):
    """Rows in order.

    Args:
        start_index (int, optional): first index. Default: ``None`` (0).
        num_samples (int, optional): at most this many rows. Default: ``None``, all.
    """

    def __init__(self, start_index=None, num_samples=None) -> None:
        self.start_index = check_start_index(start_index)
        self.num_samples = check_num_samples(num_samples)

    def indices(self, n, rng, labels=None):
        if n and self.start_index >= n:
            raise ValueError(f"start_index {self.start_index} must be smaller than the dataset size {n}.")
        return np.arange(self.start_index, self.start_index + self._cap(max(0, n - self.start_index)), dtype=np.int64)

    def count(self, n):
        return self._cap(max(0, n - self.start_index))


class RandomSampler(BuiltinSampler):
    """Rows in a random order (a new one each epoch).

    Args:
        replacement (bool, optional): draw with replacement. Default: ``False``.
        num_samples (int, optional): at most this many rows. Default: ``None``, all.
        shuffle (Shuffle, optional): the shuffle level; only ``Shuffle.GLOBAL`` applies to row sources.
            Default: ``Shuffle.GLOBAL``.
    """

    _random = True

    def __init__(self, replacement=False, num_samples=None, shuffle="global") -> None:
        check_sampler_arg(replacement, "replacement", bool)
        if shuffle not in ("adaptive", "global", "partial", "files", "infile"):
            raise TypeError(f"shuffle must be valid shuffle mode but was: {shuffle}.")
        if shuffle != "global":
            raise RuntimeError(f"The shuffle mode: {shuffle} is not supported with current dataset.")
        self.shuffle = shuffle
        self.replacement = replacement
        self.num_samples = check_num_samples(num_samples)

    def indices(self, n, rng, labels=None):
        if self.replacement:
            return rng.integers(0, n, self.num_samples or n, dtype=np.int64) if n else np.zeros(0, np.int64)
        return rng.permutation(n).astype(np.int64)[: self._cap(n)]

    def count(self, n):
        return (self.num_samples or n) if self.replacement else self._cap(n)


class DistributedSampler(BuiltinSampler):
    """The rows of one shard: ``ceil(n / num_shards)`` rows, shard ``i`` takes rows ``i, i + num_shards, ...``,
    wrapping around to the start so every shard has the same number of rows.

    Args:
        num_shards (int): number of shards.
        shard_id (int): this shard, in [0, num_shards).
        shuffle (bool, optional): shuffle the rows (the same permutation on every shard). Default: ``True``.
        num_samples (int, optional): at most this many rows per shard. Default: ``None``.
        offset (int, optional): first shard of the round-robin. Default: ``-1`` (0).
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1) -> None:
        self.num_shards, self.shard_id, self.shuffle, self.offset = check_distributed_args(
            num_shards, shard_id, shuffle, offset
        )
        self.num_samples = check_num_samples(num_samples)
        self._random = shuffle

    def _per_shard(self, n: int) -> int:
        return -(-n // self.num_shards) if n else 0

    def indices(self, n, rng, labels=None):
        k = self._cap(self._per_shard(n))
        if not n:
            return np.zeros(0, np.int64)
        first = (self.shard_id + max(self.offset, 0)) % self.num_shards
        pos = (np.arange(k, dtype=np.int64) * self.num_shards + first) % n
        if self.shuffle:
            pos = rng.permutation(n).astype(np.int64)[pos]
        return pos

    def count(self, n):
        return self._cap(self._per_shard(n))


class SubsetRandomSampler(BuiltinSampler):
    """The given indices, in a random order.

    Args:
        indices (sequence of int): row indices.
        num_samples (int, optional): at most this many. Default: ``None``.
    """

    _random = True

    def __init__(self, indices, num_samples=None) -> None:
        self._idx = check_sampler_indices(indices)
        self.num_samples = check_num_samples(num_samples)

    def indices(self, n, rng, labels=None):
        _verify_in_range(self._idx, n)
        return self._idx[rng.permutation(len(self._idx))][: self._cap(len(self._idx))]

    def count(self, n):
        return self._cap(len(self._idx))


class SubsetSampler(BuiltinSampler):
    """The given indices, in the given order.

    Args:
        indices (sequence of int): row indices.
        num_samples (int, optional): at most this many. Default: ``None``.
    """

    def __init__(self, indices, num_samples=None) -> None:
        self._idx = check_sampler_indices(indices)
        self.num_samples = check_num_samples(num_samples)

    def indices(self, n, rng, labels=None):
        _verify_in_range(self._idx, n)
        return self._idx[: self._cap(len(self._idx))]

    def count(self, n):
        return self._cap(len(self._idx))


class WeightedRandomSampler(BuiltinSampler):
    """Row ``i`` drawn with probability ``weights[i] / sum(weights)``.

    Args:
        weights (sequence of float): one non-negative weight per row.
        num_samples (int, optional): number of draws. Default: ``None``, ``len(weights)``.
        replacement (bool, optional): draw with replacement. Default: ``True``.
    """

    _random = True

    def __init__(self, weights, num_samples=None, replacement=True) -> None:
        self.weights = check_sampler_weights(weights)
        self.num_samples = check_num_samples(num_samples)
        self.replacement = check_sampler_arg(replacement, "replacement", bool)

    def indices(self, n, rng, labels=None):
        k = self.num_samples or len(self.weights)
        if not self.replacement and k > np.count_nonzero(self.weights):
            raise ValueError("num_samples exceeds the number of rows with a non-zero weight (replacement=False).")
        idx = rng.choice(len(self.weights), size=k, replace=self.replacement, p=self.weights / self.weights.sum())
        _verify_in_range(idx, n)
        return idx.astype(np.int64)

    def count(self, n):
        return self.num_samples or len(self.weights)


class PKSampler(BuiltinSampler):
    """``num_val`` rows of every class (P classes x K rows), for metric learning. A class with fewer rows
    than ``num_val`` repeats its rows.

    Args:
        num_val (int): rows per class.
        num_class (int, optional): not supported (as in MindSpore). Default: ``None``.
        shuffle (bool, optional): shuffle the classes and the rows within each. Default: ``False``.
        class_column (str, optional): the label column. Default: ``'label'``.
        num_samples (int, optional): at most this many rows. Default: ``None``.
    """

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None) -> None:
        check_sampler_arg(num_val, "num_val")
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        check_sampler_arg(shuffle, "shuffle", bool)
        check_sampler_arg(class_column, "class_column", str)
        if num_val <= 0:  # MindSpore accepts it and then draws nothing: a clear error instead
            raise ValueError(f"num_val must be a positive integer, but got {num_val}.")
        self.num_val, self.shuffle, self.class_column = int(num_val), shuffle, class_column
        self.num_samples = check_num_samples(num_samples)
        self._random = self.shuffle

    def indices(self, n, rng, labels=None):
        if labels is None:
            raise RuntimeError(
                "PKSampler needs a source with a class label column (MnistDataset, Cifar, ImageFolder...)."
            )
        labels = np.asarray(labels).reshape(-1)
        classes = np.unique(labels)
        if self.shuffle:
            classes = classes[rng.permutation(len(classes))]
        out = []
        for c in classes:
            rows = np.flatnonzero(labels == c)
            if self.shuffle:
                rows = rows[rng.permutation(len(rows))]
            out.append(np.resize(rows, self.num_val))
        idx = np.concatenate(out).astype(np.int64) if out else np.zeros(0, np.int64)
        return idx[: self._cap(len(idx))]

    def count(self, n):
        raise NotImplementedError


def _verify_in_range(idx: np.ndarray, n: int) -> None:
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        bad = int(idx[(idx < 0) | (idx >= n)][0])
        raise RuntimeError(f"Invalid sampler index {bad}: the dataset has {n} rows.")


def select_sampler(num_samples, sampler, shuffle, num_shards, shard_id, generator=False) -> BuiltinSampler:
    """The sampler a source uses, from its ``sampler``/``shuffle``/``num_shards`` arguments (MindSpore's rules;
    ``generator``: GeneratorDataset's and NumpySlicesDataset's messages)."""
    check_source_options(num_samples, shuffle, sampler, num_shards, shard_id, generator)
    if sampler is not None:
        if isinstance(sampler, BuiltinSampler):
            return sampler
        if isinstance(sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(sampler, num_samples)
        if hasattr(sampler, "__iter__"):
            return _IterableSampler(sampler)
        raise TypeError("sampler should be either iterable or from mindspore.dataset.samplers.")
    if num_shards is not None:
        return DistributedSampler(
            num_shards, shard_id, shuffle=True if shuffle is None else bool(shuffle), num_samples=num_samples
        )
    if shuffle is None or shuffle:
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)
