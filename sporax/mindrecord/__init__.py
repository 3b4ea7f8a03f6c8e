"""``mindspore.mindrecord`` on sporax: MindSpore's native record format.

:class:`FileWriter` writes rows to ``.mindrecord`` files (with their SQLite ``.db`` indexes) in MindSpore's
on-disk layout, version 3.0: files written here are read by MindSpore, and files written by MindSpore are
read here (and by ``mindspore.dataset.MindDataset``). :class:`FileReader` reads them row by row.
"""

from .common.exceptions import *
from .config import set_dec_mode, set_enc_key, set_enc_mode
from .filereader import FileReader
from .filewriter import FileWriter
from .mindpage import MindPage
from .tools import Cifar10ToMR, Cifar100ToMR, CsvToMR, ImageNetToMR, MnistToMR, TFRecordToMR
from .tools._converters import FAILED, SUCCESS, MSRStatus

__all__ = ["FileWriter", "FileReader", "MindPage", "SUCCESS", "FAILED", "MSRStatus", "MnistToMR", "Cifar10ToMR",
           "Cifar100ToMR", "ImageNetToMR", "CsvToMR", "TFRecordToMR", "set_enc_key", "set_enc_mode",
           "set_dec_mode"]  # fmt: skip
