"""The code stays lint-clean and formatted (ruff, configured in pyproject.toml; it also bans importing
JAX outside sporax/_engine and sporax/ops), its layers hold (import-linter) and it type-checks (mypy)."""

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _ruff():
    exe = shutil.which("ruff") or str(pathlib.Path(sys.executable).parent / "ruff")
    if not pathlib.Path(exe).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return exe


def test_ruff_check():
    r = subprocess.run(
        [_ruff(), "check", "sporax", "tests", "bench", "tools", "examples"], cwd=ROOT, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout[-4000:]


def test_ruff_format():
    r = subprocess.run(
        [_ruff(), "format", "--check", "sporax", "tests", "bench", "tools", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout[-4000:]


def test_import_layers():
    """The layers of docs/architecture.md hold: the import-linter contracts in pyproject.toml are kept."""
    exe = shutil.which("lint-imports") or str(pathlib.Path(sys.executable).parent / "lint-imports")
    if not pathlib.Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    r = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_mypy():
    """mypy over sporax ([tool.mypy] in pyproject.toml; the modules not clean yet are listed there). Its cache
    is .mypy_cache (gitignored): a fresh run takes about 15 s of CPU, a warm one a few seconds."""
    exe = shutil.which("mypy") or str(pathlib.Path(sys.executable).parent / "mypy")
    if not pathlib.Path(exe).exists():
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    r = subprocess.run([exe, "--cache-dir", str(ROOT / ".mypy_cache")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
