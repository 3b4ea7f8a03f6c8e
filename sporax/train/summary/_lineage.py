"""MindSpore's lineage records (``lineage.proto``'s ``LineageEvent``): what a training or an evaluation used and
gave, written by ``SummaryCollector`` to the ``<prefix>.out.events.summary.<time>.<device>.<host>_lineage`` file
next to the event file (MindInsight reads it; the framing is TFRecord's, as the event file's)."""

from __future__ import annotations

from ._event import _f_bytes, _f_double, _f_float, _f_varint

__all__ = ["train_lineage_event", "eval_lineage_event"]


def _str(field: int, value) -> bytes:
    return b"" if value is None else _f_bytes(field, str(value).encode())


def _int(field: int, value) -> bytes:
    return b"" if value is None else _f_varint(field, int(value) & 0xFFFFFFFFFFFFFFFF)


def train_lineage_event(wall_time: float, info: dict) -> bytes:
    """A LineageEvent holding a TrainLineage. ``info``: optimizer, learning_rate, loss_function, epoch,
    parallel_mode, device_num, batch_size, train_dataset_path, train_dataset_size, network, loss,
    model_path, model_size (None: left out, as MindSpore leaves out what it could not find)."""
    hyper = (
        _str(1, info.get("optimizer"))
        + (b"" if info.get("learning_rate") is None else _f_float(2, info["learning_rate"]))
        + _str(3, info.get("loss_function"))
        + _int(4, info.get("epoch"))
        + _str(5, info.get("parallel_mode"))
        + _int(6, info.get("device_num"))
        + _int(8, info.get("batch_size"))
    )
    dataset = _str(1, info.get("train_dataset_path")) + _int(2, info.get("train_dataset_size"))
    algorithm = _str(1, info.get("network")) + (b"" if info.get("loss") is None else _f_float(2, info["loss"]))
    model = _str(3, info.get("model_path")) + _int(4, info.get("model_size"))
    lineage = (
        _f_bytes(1, hyper) + (_f_bytes(2, dataset) if dataset else b"") + _f_bytes(3, algorithm) + _f_bytes(4, model)
    )
    return _f_double(1, wall_time) + _f_bytes(6, lineage)


def eval_lineage_event(
    wall_time: float, metric: str | None, dataset_path: str | None, dataset_size: int | None
) -> bytes:
    """A LineageEvent holding an EvaluationLineage (the metrics as JSON, the validation dataset)."""
    dataset = _str(1, dataset_path) + _int(2, dataset_size)
    lineage = _str(2, metric) + _f_bytes(3, dataset)
    return _f_double(1, wall_time) + _f_bytes(7, lineage)
