"""The ``sporax`` command.

sporax run [--mode graph|pynative] [--seed N] SCRIPT [ARGS...]
                                run an unmodified MindSpore script on sporax; --mode sets the
                                execution mode before the script starts (it may still change it)
sporax launch -n N [--nnodes M --node-rank R --master-addr A --master-port P] [--log-dir D]
              [--mode ...] [--seed N] SCRIPT [ARGS...]
                                run it on N processes (data-parallel ranks) on this machine, of
                                N * M on M machines (see ``sporax._launch``)
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
        return _failed(e.code if isinstance(e.code, int) else (0 if e.code is None else 1))
    except KeyboardInterrupt:
        print("KeyboardInterrupt", file=sys.stderr)
        return _failed(130)
    except BaseException as e:  # noqa: BLE001 - print what the user's code did, without framework frames
        if os.environ.get("SPORAX_FULL_TRACEBACK"):
            traceback.print_exc()
        elif _peer_lost(e):
            from ._engine import _parallel

            sys.stderr.write(
                f"sporax: rank {_parallel.rank()} stopped: another rank left during a collective "
                f"({str(e).splitlines()[0]})\n"
            )
        else:
            sys.stderr.write(_user_traceback(e))
            sys.stderr.write("(set SPORAX_FULL_TRACEBACK=1 for the full traceback)\n")
        return _failed(1)
    return 0


def _peer_lost(e: BaseException) -> bool:
    """A collective failed because another rank of `sporax launch` went away."""
    from ._engine import _parallel

    return _parallel.launched() and type(e).__name__ == "JaxRuntimeError" and "Connection closed by peer" in str(e)


def _failed(code: int) -> int:
    """The exit code of a failed script. A rank of `sporax launch` exits at once: the process group's
    shutdown would wait for the other ranks, which may be waiting for this one."""
    from ._engine import _parallel

    if code and _parallel.launched():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


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
    p_launch = sub.add_parser("launch", help="run a MindSpore script on N processes (data-parallel ranks)")
    p_launch.add_argument("-n", "--nproc", type=int, required=True, help="ranks (processes) on this machine")
    p_launch.add_argument("--nnodes", type=int, default=1, help="machines taking part (default 1)")
    p_launch.add_argument("--node-rank", type=int, default=0, help="this machine's index, 0 .. nnodes-1")
    p_launch.add_argument("--master-addr", default="127.0.0.1", help="address of the machine with node rank 0")
    p_launch.add_argument(
        "--master-port", type=int, default=None, help="its port (default: a free one; 8118 on several machines)"
    )
    p_launch.add_argument("--log-dir", default=None, help="write each rank's output to DIR/worker_<rank>.log")
    p_launch.add_argument("--mode", choices=("graph", "pynative"), default=None)
    p_launch.add_argument("--seed", type=int, default=None)
    p_launch.add_argument("script")
    p_launch.add_argument("args", nargs=argparse.REMAINDER)
    sub.add_parser("check", help="check the installation")
    sub.add_parser("version", help="print the version")
    ns = parser.parse_args(argv)
    if ns.cmd == "run":
        return run_script(ns.script, ns.args, ns.mode, ns.seed)
    if ns.cmd == "launch":
        from ._launch import launch

        opts = (["--mode", ns.mode] if ns.mode else []) + (["--seed", str(ns.seed)] if ns.seed is not None else [])
        return launch(
            ns.script,
            ns.args,
            ns.nproc,
            ns.nnodes,
            ns.node_rank,
            ns.master_addr,
            ns.master_port,
            ns.log_dir,
            opts,
        )
    import sporax

    if ns.cmd == "check":
        sporax.run_check()
        return 0
    print(sporax.__version__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
