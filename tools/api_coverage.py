"""Measure sporax against MindSpore 2.10's public API manifest and write ``docs/api_coverage.md``.

    python tools/api_coverage.py           # print the totals
    python tools/api_coverage.py --write   # regenerate docs/api_coverage.md, drop covered names from the list

The manifest (``tests/api/mindspore_2.10_manifest.json``) is made by ``tools/make_api_manifest.py`` under real
MindSpore. Each of its names ``mindspore.X.name`` is looked up as ``sporax.X.name``. A name is *covered* when

1. it resolves in sporax under the same path,
2. its parameters equal MindSpore's (names, order, kinds and defaults; a default whose repr carries a
   memory address on either side is not compared), constants equal MindSpore's value, and
3. a test names it (it appears as an identifier in a file under ``tests/``, outside ``tests/api``), and
4. it is not listed in ``tests/api/not_supported.json`` with a reason starting ``[kept] `` (a name that
   resolves but does not yet do what MindSpore's does).

Every name that is not covered must be listed in ``tests/api/not_supported.json`` with the reason and what to
use instead; ``tests/test_api_surface.py`` fails on a name that is neither (so the list only shrinks), and on
a listed name that has become covered (run ``--write`` to drop it). Class member tables (``Tensor.sum``,
``nn.Cell.cast_param``...) are measured the same way and reported apart from the module totals.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "api" / "mindspore_2.10_manifest.json"
NOT_SUPPORTED = ROOT / "tests" / "api" / "not_supported.json"
DOC = ROOT / "docs" / "api_coverage.md"

# the manifest's rules for a signature (its JSON form of kinds and defaults), from the script that writes it
_spec = importlib.util.spec_from_file_location("make_api_manifest", Path(__file__).with_name("make_api_manifest.py"))
_manifest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_manifest)
encode_default, read_signature = _manifest.encode_default, _manifest.read_signature


def _defaults_equal(a, b):
    if isinstance(a, dict) and "opaque" in a or isinstance(b, dict) and "opaque" in b:
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    return a == b


def signature_difference(expected, actual):
    """None when the parameter lists agree, else a short text saying where they differ."""
    if expected is None or actual is None:
        return None  # one side has no readable signature (a C builtin): nothing to compare
    exp_names = [p[0] for p in expected]
    act_names = [p[0] for p in actual]
    if exp_names != act_names:
        return f"parameters ({', '.join(act_names)}) != MindSpore's ({', '.join(exp_names)})"
    for (name, kind, default), (_, akind, adefault) in zip(expected, actual, strict=True):
        if kind != akind:
            return f"'{name}' is {akind}, MindSpore's is {kind}"
        if not _defaults_equal(default, adefault):
            return f"'{name}' defaults to {adefault!r}, MindSpore's to {default!r}"
    return None


def tested_identifiers():
    """Every identifier that appears in a test file (outside tests/api)."""
    words = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if "api" in path.relative_to(ROOT / "tests").parts[:1]:
            continue
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text(encoding="utf-8", errors="replace")))
    return words


_MISSING = object()


def _import(modname):
    try:
        return importlib.import_module(modname)
    except ImportError:
        return None


def _sporax_path(ms_path):
    return "sporax" + ms_path[len("mindspore") :]


def _resolve_module(ms_module):
    """The sporax module for a manifest module, or None. An attribute of that name that is not a module
    (``sporax.log`` as a function, say) does not count."""
    mod = _import(_sporax_path(ms_module))
    return mod if inspect.ismodule(mod) else None


def check_name(sp_obj, entry):
    """(resolves, difference) for one manifest entry."""
    if sp_obj is _MISSING:
        return False, "missing"
    kind = entry["kind"]
    if kind == "module":
        return True, None if inspect.ismodule(sp_obj) else "not a module"
    if kind == "constant":
        value = entry.get("value")
        return True, None if _defaults_equal(value, encode_default(sp_obj)) else f"value {sp_obj!r} != {value!r}"
    if kind in ("class", "function") or entry.get("params") is not None:
        if kind == "class" and not inspect.isclass(sp_obj):
            return True, "not a class"
        return True, signature_difference(entry.get("params"), read_signature(sp_obj))
    return True, None


def measure():
    """One row per manifest name: (table, name, resolves, difference, tested)."""
    warnings.simplefilter("ignore")
    import sporax  # noqa: F401

    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    words = tested_identifiers()
    rows = []
    for ms_module, names in manifest["modules"].items():
        mod = _resolve_module(ms_module)
        for name, entry in names.items():
            sp_obj = getattr(mod, name, _MISSING) if mod is not None else _MISSING
            resolves, diff = check_name(sp_obj, entry)
            rows.append((ms_module, name, resolves, diff, name in words))
    for label, table in manifest["classes"].items():
        module, _, attr = _sporax_path(table["path"]).rpartition(".")
        mod = _import(module)
        cls = getattr(mod, attr, None) if mod is not None else None
        for name, entry in table["members"].items():
            sp_obj = getattr(cls, name, _MISSING) if cls is not None else _MISSING
            if sp_obj is _MISSING:
                resolves, diff = False, "missing"
            elif entry["kind"] == "method":
                resolves, diff = True, signature_difference(entry.get("params"), read_signature(sp_obj))
            else:
                resolves, diff = True, None
            rows.append((label, name, resolves, diff, name in words))
    return manifest, rows


def load_not_supported():
    if not NOT_SUPPORTED.exists():
        return {}
    return json.loads(NOT_SUPPORTED.read_text(encoding="utf-8"))


def key(table, name):
    return f"{table}.{name}"


KEPT = "[kept] "


def classify(rows, listed):
    """Split rows into covered keys and uncovered keys with the reason each is uncovered.

    A name passing checks 1-3 is covered unless its entry in the list starts with ``[kept] `` (a name that
    resolves but does not do what MindSpore's does, listed on purpose)."""
    covered, uncovered = set(), {}
    for table, name, resolves, diff, tested in rows:
        k = key(table, name)
        if not resolves:
            uncovered[k] = "not implemented"
        elif diff is not None:
            uncovered[k] = f"signature differs: {diff}"
        elif not tested:
            uncovered[k] = "no test names it"
        elif listed.get(k, "").startswith(KEPT):
            uncovered[k] = listed[k]
        else:
            covered.add(k)
    return covered, uncovered


def totals(manifest, rows, covered):
    per = {}
    for table, name, resolves, diff, _tested in rows:
        t = per.setdefault(table, [0, 0, 0, 0])
        t[0] += 1
        t[1] += resolves
        t[2] += resolves and diff is None
        t[3] += key(table, name) in covered
    modules = [m for m in manifest["modules"]]
    n = sum(per[m][0] for m in modules)
    c = sum(per[m][3] for m in modules)
    return per, n, c


def render(manifest, rows, covered, listed):
    per, n, c = totals(manifest, rows, covered)
    lines = [
        "# API coverage against MindSpore 2.10",
        "",
        "Generated by `python tools/api_coverage.py --write` from `tests/api/mindspore_2.10_manifest.json`",
        "(made by `tools/make_api_manifest.py` under real MindSpore 2.10). Do not edit by hand: reasons for",
        "names not supported live in `tests/api/not_supported.json`.",
        "",
        "A name is **covered** when it resolves under the same path in sporax (`mindspore.X.y` -> `sporax.X.y`),",
        "its parameters equal MindSpore's (names, order, kinds, defaults), a test names it, and it is not",
        "listed as not supported. `tests/test_api_surface.py` holds every other name to the list below.",
        "",
        f"**Overall (modules): {c} of {n} names covered ({100.0 * c / n:.1f} %).**",
        "",
        "| module | names | resolve | signature equal | covered | % |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for table in list(manifest["modules"]) + list(manifest["classes"]):
        t = per.get(table, [0, 0, 0, 0])
        if table == next(iter(manifest["classes"]), None):
            lines += [
                "",
                "Class members (not in the overall figure):",
                "",
                "| class | members | resolve | signature equal | covered | % |",
                "|---|---:|---:|---:|---:|---:|",
            ]
        pct = 100.0 * t[3] / t[0] if t[0] else 100.0
        lines.append(f"| `{table}` | {t[0]} | {t[1]} | {t[2]} | {t[3]} | {pct:.1f} |")
    lines += [
        "",
        "## Not supported yet",
        "",
        "Per table: each name not covered, and why (what to use instead, where there is something).",
        "",
    ]
    by_table = {}
    for table, name, *_ in rows:
        k = key(table, name)
        if k not in covered:
            by_table.setdefault(table, []).append((name, listed.get(k, "")))
    for table, items in by_table.items():
        lines += [f"### `{table}` ({len(items)})", "", "| name | reason |", "|---|---|"]
        lines += [f"| `{name}` | {reason} |" for name, reason in items]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# Which open issue brings a module's missing names (used only when the list is first made).
_PLANNED = [
    ("mindspore.nn", 14),
    ("nn.", 14),
    ("mindspore.numpy", 15),
    ("mindspore.mint", 15),
    ("mindspore.dataset", 16),
    ("dataset.", 16),
    ("mindspore.mindrecord", 16),
    ("mindspore.parallel", 19),
    ("mindspore.boost", 14),
    ("", 10),
]


def _initial_reason(k, why):
    issue = next(n for prefix, n in _PLANNED if k.startswith(prefix))
    return f"{why} (planned: issue {issue})"


def main(argv):
    manifest, rows = measure()
    listed = load_not_supported()
    covered, uncovered = classify(rows, listed)
    per, n, c = totals(manifest, rows, covered)
    if "--init" in argv:
        # Start the list: every uncovered name with the reason it is uncovered today.
        listed = {k: listed.get(k, _initial_reason(k, v)) for k, v in sorted(uncovered.items())}
        NOT_SUPPORTED.write_text(json.dumps(listed, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if "--write" in argv or "--init" in argv:
        listed = {k: v for k, v in listed.items() if k in uncovered}
        NOT_SUPPORTED.write_text(json.dumps(listed, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        covered, uncovered = classify(rows, listed)
        DOC.write_text(render(manifest, rows, covered, listed), encoding="utf-8")
    for table in manifest["modules"]:
        t = per[table]
        print(f"{table:36s} {t[3]:5d}/{t[0]:<5d} ({100.0 * t[3] / t[0]:5.1f} %)  resolve {t[1]}  sig {t[2]}")
    print(f"overall: {c}/{n} ({100.0 * c / n:.1f} %)")


if __name__ == "__main__":
    main(sys.argv[1:])
