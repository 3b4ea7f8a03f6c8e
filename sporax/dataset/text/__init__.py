"""Text transforms and utilities (``mindspore.dataset.text``). JiebaTokenizer and the SentencePiece operations
need the optional packages ``jieba`` and ``sentencepiece`` (``pip install 'sporax[text]'``)."""

from . import transforms, utils
from .transforms import *
from .utils import *
