"""Writing checkpoint files: atomically (a temporary file in the target's directory, fsynced, renamed over
the target, so a reader or a crash never sees half a file), in the caller's thread or in one background
thread (``async_save``), whose failure the next save or :func:`_wait_async_thread_save_ckpt` reports."""

from __future__ import annotations

import logging
import os
import re
import stat
import tempfile
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from . import _ckpt_format  # its _write_chunk is the one place bytes reach a file (tests patch it there)
from ._safetensors_format import _safetensors_bytes

_log = logging.getLogger("sporax")


_async_lock = threading.Lock()


_async_thread: threading.Thread | None = None


_async_error: BaseException | None = None


def _fsync_dir(dirname: str) -> None:
    try:
        fd = os.open(dirname, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# A temporary of _atomic_write: ".<file name>.<pid>.<mkstemp's 8 characters>.tmp", for checkpoint files.
_TMP_NAME = re.compile(r"\..+\.(?:ckpt|safetensors)\.(\d+)\.[a-z0-9_]{8}\.tmp")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or unknown: leave its file alone
    return True


def _clean_stale_tmp(dirname: str) -> None:
    """Remove the temporaries that earlier saves into ``dirname`` left when they died midway (killed, power
    loss): those of the same target, and of the other checkpoint names a ModelCheckpoint rotates through. A
    temporary whose process still runs (a save in progress, this process's included) is never touched."""
    try:
        names = os.listdir(dirname or ".")
    except OSError:
        return
    me = os.getpid()
    for name in names:
        m = _TMP_NAME.fullmatch(name)
        if m is None:
            continue
        pid = int(m.group(1))
        if pid == me or _pid_alive(pid):
            continue
        try:
            os.unlink(os.path.join(dirname, name))
            _log.info("Removed %s, left by an interrupted checkpoint save (process %d).", name, pid)
        except OSError:
            pass


def _atomic_write(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write through ``write(f)`` to a temporary file next to ``path``, fsync it, and rename it over ``path``:
    ``path`` holds either its old content or the complete new one, never a partial file. Temporaries left in
    that directory by interrupted earlier saves (their process is gone) are removed first."""
    dirname, base = os.path.split(path)
    _clean_stale_tmp(dirname)
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.{os.getpid()}.", suffix=".tmp", dir=dirname)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IRUSR)  # MindSpore leaves checkpoint files read-only for the owner
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(dirname)


def _exec_save(
    path: str, items: list[tuple[str, Any]], crc_check: bool, format: str, remove_redundancy: bool | None
) -> None:
    try:
        if format == "ckpt":
            _atomic_write(path, lambda f: _ckpt_format._write_ckpt(f, items, crc_check))
        else:
            data = _safetensors_bytes(items, crc_check, remove_redundancy)
            _atomic_write(path, lambda f: _ckpt_format._write_chunk(f, data))
    except BaseException:
        _log.critical(
            "Failed to save the checkpoint file %s. Maybe don't have the permission to write files, "
            "or the disk space is insufficient and so on.",
            path,
        )
        raise


def _async_save_worker(*args: Any) -> None:
    global _async_error
    try:
        _exec_save(*args)
    except BaseException as err:  # reported by _wait_async_thread_save_ckpt
        _async_error = err


def _wait_async_thread_save_ckpt() -> None:
    """Wait for the running asynchronous save, if any; re-raise the error it failed with."""
    global _async_thread, _async_error
    with _async_lock:
        thread, _async_thread = _async_thread, None
    if thread is not None:
        thread.join()
    err, _async_error = _async_error, None
    if err is not None:
        raise err


def _start_async_save(
    path: str, items: list[tuple[str, Any]], crc_check: bool, format: str, remove_redundancy: bool | None
) -> None:
    """Save in a background thread, once the previous asynchronous save is done (its failure is logged)."""
    global _async_thread
    try:
        _wait_async_thread_save_ckpt()
    except BaseException as err:  # the previous asynchronous save failed: already logged, keep going
        _log.error("The previous asynchronous checkpoint save failed: %s", err)
    thread = threading.Thread(
        target=_async_save_worker, args=(path, items, crc_check, format, remove_redundancy), name="asyn_save_ckpt"
    )
    with _async_lock:
        _async_thread = thread
    thread.start()
