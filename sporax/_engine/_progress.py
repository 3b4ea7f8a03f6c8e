"""How far this rank got, for the launcher's hang detection (``sporax/_launch.py``).

Under ``sporax launch`` / ``sporax msrun`` each rank gets ``SPORAX_PROGRESS_FILE``. Joining the process group,
and every program with collectives that this rank starts (the first barrier, a data-parallel train step, an
eager collective) count as one collective entered: :func:`entered` writes ``"<count> <program name>"`` at the start of that
file (one ``pwrite``, a few microseconds). The launcher reads the files; a rank whose count stays behind the
count the other ranks wait at, for longer than the hang timeout, is the one that stopped making progress.
"""

from __future__ import annotations

import os

ENV_PROGRESS = "SPORAX_PROGRESS_FILE"
_SIZE = 256

_path = os.environ.get(ENV_PROGRESS)
_state = {"fd": -1, "count": 0}


def entered(what: str) -> None:
    """Record that this rank enters one more collective (in the program ``what``)."""
    if not _path:
        return
    if _state["fd"] < 0:
        try:
            _state["fd"] = os.open(_path, os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError:
            return
    _state["count"] += 1
    data = f"{_state['count']} {what}".encode("utf-8", "replace")[: _SIZE - 1].ljust(_SIZE)
    try:
        os.pwrite(_state["fd"], data, 0)
    except OSError:
        pass


def count() -> int:
    """The collectives this rank entered so far."""
    return int(_state["count"])
