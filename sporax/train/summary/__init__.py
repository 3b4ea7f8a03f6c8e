"""Summaries (MindSpore's ``mindspore.train.summary``): TensorBoard event files."""

from .summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
