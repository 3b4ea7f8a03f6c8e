"""The ``sporax`` command.

sporax run [--mode graph|pynative] SCRIPT [ARGS...]
                                run an unmodified MindSpore script on sporax; --mode sets the
                                execution mode before the script starts (it may still change it)
sporax check                    check the installation (``run_check``)
sporax version
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback

__all__ = ["main"]


def _user_traceback(exc: BaseException) -> str:
    """The traceback with frames inside sporax and jax left out: what the user's code did."""
    import sporax

    hidden = (
        os.path.dirname(sporax.__file__) + os.sep,
        os.sep + "jax" + os.sep,
        os.sep + "jaxlib" + os.sep,
        os.sep + "runpy.py",
        "<frozen runpy>",
    )
    lines = []
    for e in _chain(exc):
        frames = [f for f in traceback.extract_tb(e.__traceback__) if not any(h in f.filename for h in hidden)]
        part = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)) if frames else ""
        part += "".join(traceback.format_exception_only(type(e), e))
        lines.append(part)
    return "\nThe above exception was the direct cause of the following exception:\n\n".join(lines)


def _chain(exc: BaseException) -> list[BaseException]:
    out = [exc]
    while (
        exc.__cause__ is not None
        and not exc.__suppress_context__
        and type(exc.__cause__).__module__.split(".")[0] not in ("jax", "jaxlib")
    ):
        exc = exc.__cause__
        out.append(exc)
    return list(reversed(out))


def run_script(script: str, args: list[str], mode: str | None = None, seed: int | None = None) -> int:
    from .compat import alias_mindspore

    if mode is not None or seed is not None:
        import sporax

        if mode is not None:
            sporax.set_context(mode=sporax.GRAPH_MODE if mode == "graph" else sporax.PYNATIVE_MODE)
        if seed is not None:
            sporax.set_seed(seed)

    if not os.path.isfile(script):
        print(f"sporax run: no such file: {script}", file=sys.stderr)
        return 2
    alias_mindspore()
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", file=sys.stderr)
        return 130
    except BaseException as e:  # noqa: BLE001 - print what the user's code did, without framework frames
        if os.environ.get("SPORAX_FULL_TRACEBACK"):
            raise
        sys.stderr.write(_user_traceback(e))
        sys.stderr.write("(set SPORAX_FULL_TRACEBACK=1 for the full traceback)\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="sporax", description="MindSpore's training API on JAX/XLA.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_run = sub.add_parser("run", help="run a MindSpore script on sporax (import mindspore -> sporax)")
    p_run.add_argument(
        "--mode", choices=("graph", "pynative"), default=None, help="execution mode set before the script starts"
    )
    p_run.add_argument(
        "--seed", type=int, default=None, help="global seed set before the script starts (reproducible runs)"
    )
    p_run.add_argument("script")
    p_run.add_argument("args", nargs=argparse.REMAINDER)
    sub.add_parser("check", help="check the installation")
    sub.add_parser("version", help="print the version")
    ns = parser.parse_args(argv)
    if ns.cmd == "run":
        return run_script(ns.script, ns.args, ns.mode, ns.seed)
    import sporax

    if ns.cmd == "check":
        sporax.run_check()
        return 0
    print(sporax.__version__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
