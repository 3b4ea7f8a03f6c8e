"""sporax's public surface against MindSpore 2.10's manifest (tests/api/mindspore_2.10_manifest.json).

Every manifest name is either covered (resolves under the same path, MindSpore's parameters, named by a test)
or listed with its reason in tests/api/not_supported.json; a covered name must leave the list, and
docs/api_coverage.md must be the generated one. `python tools/api_coverage.py --write` updates both.
"""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_tool():
    spec = importlib.util.spec_from_file_location("api_coverage", ROOT / "tools" / "api_coverage.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def measured():
    tool = _load_tool()
    manifest, rows = tool.measure()
    listed = tool.load_not_supported()
    covered, uncovered = tool.classify(rows, listed)
    return tool, manifest, rows, listed, covered, uncovered


def test_manifest_is_mindspore_2_10():
    manifest = json.loads((ROOT / "tests/api/mindspore_2.10_manifest.json").read_text())
    assert manifest["mindspore_version"] == "2.10.0"
    assert len(manifest["modules"]) >= 40
    # spot checks of what the manifest records
    assert manifest["modules"]["mindspore.ops"]["ReduceSum"]["params"][0][:2] == ["keep_dims", "positional_or_keyword"]
    assert "grad" in manifest["modules"]["mindspore"]


def test_every_uncovered_name_is_listed(measured):
    tool, _, _, listed, _, uncovered = measured
    missing = sorted(f"{k}: {why}" for k, why in uncovered.items() if k not in listed)
    assert not missing, (
        f"{len(missing)} names are not covered and not listed in tests/api/not_supported.json "
        "(the list may only shrink: fix the name, or, for a deliberate gap, list it with its reason):\n"
        + "\n".join(missing[:60])
    )


def test_covered_names_leave_the_list(measured):
    tool, _, _, listed, covered, _ = measured
    stale = sorted(k for k in listed if k in covered)
    assert not stale, (
        f"{len(stale)} listed names are covered now: run `python tools/api_coverage.py --write`:\n"
        + "\n".join(stale[:60])
    )


def test_listed_names_are_manifest_names(measured):
    tool, _, rows, listed, _, _ = measured
    known = {tool.key(table, name) for table, name, *_ in rows}
    unknown = sorted(k for k in listed if k not in known)
    assert not unknown, f"not in the manifest: {unknown[:20]}"


def test_coverage_doc_is_current(measured):
    tool, manifest, rows, listed, covered, _ = measured
    expected = tool.render(manifest, rows, covered, listed)
    actual = (ROOT / "docs" / "api_coverage.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/api_coverage.md is stale: run `python tools/api_coverage.py --write`"


def test_signature_comparison_catches_differences():
    tool = _load_tool()

    def f(x, axis=None, keep_dims=False): ...

    def g(x, axis=(), keep_dims=False): ...

    def h(x, keepdims=False, axis=None): ...

    expected = tool.read_signature(f)
    assert tool.signature_difference(expected, tool.read_signature(f)) is None
    assert "defaults" in tool.signature_difference(expected, tool.read_signature(g))
    assert "parameters" in tool.signature_difference(expected, tool.read_signature(h))

    # True and 1 are different defaults
    def k(x, axis=None, keep_dims=0): ...

    assert tool.signature_difference(expected, tool.read_signature(k)) is not None
