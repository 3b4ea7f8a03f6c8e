"""sporax sets glibc's malloc up for XLA's scratch memory at import, unless SPORAX_MALLOC_TUNING=0."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sporax._engine import _malloc


@pytest.mark.parametrize("value, on", [("1", True), ("0", False), ("off", False), ("false", False), ("", True)])
def test_switch(monkeypatch, value, on):
    monkeypatch.setenv(_malloc.ENV_SWITCH, value)
    assert _malloc.enabled() is on
    if not on:
        assert _malloc.tune() is False  # nothing done when switched off


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_settings_take_effect_on_glibc(monkeypatch):
    monkeypatch.delenv(_malloc.ENV_SWITCH, raising=False)
    assert _malloc.tune() is True


def test_a_large_block_freed_stays_in_the_heap():
    """With the settings, a 64 MB block is served from the heap (no mmap): reallocating it after a free
    costs no new page faults; with SPORAX_MALLOC_TUNING=0 glibc maps it afresh (faults every time)."""
    code = (
        "import ctypes, resource, sporax\n"
        "libc = ctypes.CDLL('libc.so.6'); libc.malloc.restype = ctypes.c_void_p\n"
        "libc.free.argtypes = [ctypes.c_void_p]\n"
        "def touch():\n"
        "    p = libc.malloc(64 << 20); ctypes.memset(p, 1, 64 << 20); libc.free(p)\n"
        "touch(); f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
        "for _ in range(5): touch()\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)\n"
    )
    faults = {}
    for value in ("1", "0"):
        env = {"SPORAX_MALLOC_TUNING": value, "PATH": "/usr/bin:/bin"}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        faults[value] = int(out.stdout.split()[-1])
    pages = (64 << 20) // 4096
    assert faults["1"] < pages // 10  # reused: almost no faults over five rounds
    assert faults["0"] > 4 * pages  # glibc's default: the block is mapped afresh each round
