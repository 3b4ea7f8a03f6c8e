"""Shared test setup: a fresh seed and PyNative mode for every test."""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import pytest

import sporax as ms


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(0)
    yield
    # a compiled program's failed index check that the test never read belongs to this test, not the next one
    from sporax._engine import _checks

    _checks.surface_pending()
    ms.set_context(mode=ms.PYNATIVE_MODE)
