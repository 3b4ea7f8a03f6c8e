"""The MindRecord format's argument checks (``mindspore.mindrecord``'s writer, reader, page and converters).

MindRecord raises its own error classes (``ParamValueError``, ``ParamTypeError`` of
``mindrecord.common.exceptions``); this package sits below ``mindrecord``, so a check that raises one of them
takes the class from its caller.
"""

from __future__ import annotations

import numbers
import os
from typing import Any


def check_mr_int(value: Any, lower: int, error: type[Exception], message: str) -> int:
    """An int (not a bool) >= ``lower``; anything else raises ``error(message)``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lower:
        raise error(message)
    return int(value)


def check_num_consumer(num_consumer: Any, error: type[Exception]) -> int:
    """A reader's ``num_consumer``: an int >= 1."""
    return check_mr_int(
        num_consumer, 1, error, f"Consumer number should be a positive integer, but got {num_consumer!r}."
    )


def check_mr_page(page: Any, num_row: Any, error: type[Exception]) -> None:
    """``MindPage``'s ``page`` (an int >= 0) and ``num_row`` (an int > 0)."""
    check_mr_int(page, 0, error, "Page should be int and greater than or equal to 0.")
    check_mr_int(num_row, 1, error, "num_row should be int and greater than 0.")


def check_mr_file_name(file_name: Any, error: type[Exception]) -> str:
    """A MindRecord file's name: a str."""
    if not isinstance(file_name, str):
        raise error(f"File path: {file_name} is not string.")
    return file_name


def check_converter_path(path: Any, name: str) -> str:
    """A converter's ``source`` / ``destination`` / ... path: a non-empty str."""
    if not isinstance(path, str) or not path:
        raise ValueError(f"The parameter {name} must be a non-empty str.")
    return path


def check_partition_number(partition_number: Any) -> int:
    """A converter's ``partition_number``: an int."""
    if isinstance(partition_number, bool) or not isinstance(partition_number, int):
        raise ValueError("The parameter partition_number must be int")
    return partition_number


def check_mr_size(what: str, value: Any, lower: int, upper: int) -> int:
    """``FileWriter.set_header_size`` / ``set_page_size``: an int in ``[lower, upper]`` bytes (``what``: "header"
    or "page"); anything else raises RuntimeError, as MindSpore's writer does."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lower <= int(value) <= upper:
        raise RuntimeError(f"Invalid data, {what} size: {value} should be in range [{lower} bytes, {upper} bytes].")
    return int(value)


def check_converter_file(path: str) -> str:
    """A file a converter reads: it exists."""
    if not os.path.isfile(path):
        raise ValueError(f"Invalid file, {path} does not exist.")
    return path


def check_enc_key(enc_key: Any) -> str:
    """``mindrecord.set_enc_key``'s key: a str of 16, 24 or 32 characters."""
    if not isinstance(enc_key, str):
        raise ValueError("The input enc_key is not str.")
    if len(enc_key) not in (16, 24, 32):
        raise ValueError("The length of input enc_key is not 16, 24, 32.")
    return enc_key


def check_cipher_mode(mode: Any, arg_name: str) -> str:
    """``set_enc_mode`` / ``set_dec_mode``'s named cipher: ``"AES-GCM"`` (callables are checked by the caller)."""
    if not isinstance(mode, str):
        raise ValueError(f"The input {arg_name} is not str.")
    if mode != "AES-GCM":
        raise ValueError(f"The input {arg_name} is invalid.")
    return mode


def check_mr_file_names(file_name: Any, error: type[Exception]) -> tuple[list[str], bool]:
    """A reader's ``file_name``: one file (whose header lists the shards read with it) or a non-empty list of
    files; the files, and whether they come from one name (True) or a list (False)."""
    if isinstance(file_name, str):
        return [file_name], True
    if isinstance(file_name, (list, tuple)) and file_name and all(isinstance(f, str) for f in file_name):
        return list(file_name), False
    raise error("file_name should be a str or a non-empty list of str.")
