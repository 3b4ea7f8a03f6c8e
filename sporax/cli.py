"""The ``sporax`` command.

sporax run [--mode graph|pynative] [--seed N] SCRIPT [ARGS...]
                                run an unmodified MindSpore script on sporax; --mode sets the
                                execution mode before the script starts (it may still change it)
sporax launch -n N [--nnodes M --node-rank R --master-addr A --master-port P] [--log-dir D]
              [--timeout S] [--mode ...] [--seed N] SCRIPT [ARGS...]
                                run it on N processes (data-parallel ranks) on this machine, of
                                N * M on M machines (see ``sporax._launch``)
sporax msrun --worker_num=W --local_worker_num=N [--master_addr=A --master_port=P --node_rank=R]
             [--log_dir=D --join=True --cluster_time_out=S --bind_core=True --sim_level=L
             --tail_worker_log=-1] SCRIPT [ARGS...]
                                the same under MindSpore's name and options: a msrun launch script
                                runs with ``msrun`` replaced by ``sporax msrun`` (launch takes them too)
sporax check                    check the installation (``run_check``)
sporax version
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
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
    _stop_with_group()
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


def _stop_with_group() -> None:
    """A rank of `sporax launch` leads its own process group: SIGTERM (from the launcher, or at the launcher's
    death) ends the whole group, child processes the script started included. A script's own SIGTERM handler
    still takes precedence."""
    if not os.environ.get("SPORAX_PROGRESS_FILE") or os.getpgrp() != os.getpid():
        return

    def stop_group(signum: int, frame: object) -> None:
        signal.signal(signum, signal.SIG_DFL)
        os.killpg(os.getpgrp(), signum)

    signal.signal(signal.SIGTERM, stop_group)


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


def _literal_bool(text: str) -> bool:
    """msrun's --join/--bind_core: True or False, as Python writes them."""
    value = {"true": True, "false": False}.get(str(text).strip().lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"expected True or False, got {text!r}")
    return value


def _launch_args(p: argparse.ArgumentParser) -> None:
    """The options of ``sporax launch`` and ``sporax msrun``: sporax's own and MindSpore msrun's, both spellings."""
    p.add_argument(
        "-n", "--nproc", "--local_worker_num", dest="nproc", type=int, default=None, help="ranks on this machine"
    )
    p.add_argument("--worker_num", type=int, default=None, help="ranks in all (msrun); default: -n * --nnodes")
    p.add_argument("--nnodes", type=int, default=None, help="machines taking part (default 1)")
    p.add_argument("--node-rank", "--node_rank", dest="node_rank", type=int, default=None, help="this machine's index")
    p.add_argument("--master-addr", "--master_addr", dest="master_addr", default="127.0.0.1", help="rank 0's machine")
    p.add_argument(
        "--master-port", "--master_port", dest="master_port", type=int, default=None, help="its port (8118 on several)"
    )
    p.add_argument("--log-dir", "--log_dir", dest="log_dir", default=None, help="DIR/worker_<rank>.log per rank")
    p.add_argument("--join", type=_literal_bool, default=None, help="msrun: wait for the job (sporax always waits)")
    p.add_argument(
        "--cluster_time_out",
        "--timeout",
        dest="timeout",
        type=float,
        default=None,
        help="seconds a rank may stay behind the others' collective before the job ends as hung "
        "(default: SPORAX_HANG_TIMEOUT or 600; 0 or negative: wait forever)",
    )
    p.add_argument("--bind_core", type=str, default="False", help="True: an equal share of the cores per rank")
    p.add_argument("--bind_numa", type=str, default="False", help="accepted (msrun); not used")
    p.add_argument("--sim_level", type=int, default=-1, choices=[-1, 0, 1, 2, 3], help="sets MS_SIMULATION_LEVEL")
    p.add_argument("--sim_rank_id", type=int, default=-1, help="accepted (msrun); not used")
    p.add_argument("--rank_table_file", default="", help="accepted (msrun); exported as RANK_TABLE_FILE")
    p.add_argument("--worker_log_name", default="", help="log file stem (default worker)")
    p.add_argument("--tail_worker_log", default="-1", help="msrun --join=True: ranks whose log goes to the console")
    p.add_argument("--mode", choices=("graph", "pynative"), default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)


def _run_launch(ns: argparse.Namespace, msrun: bool) -> int:
    from ._launch import launch

    def usage(msg: str) -> int:
        print(f"sporax {'msrun' if msrun else 'launch'}: {msg}", file=sys.stderr)
        return 2

    if ns.nproc is None and ns.worker_num is None and not msrun:
        return usage("need -n (or --local_worker_num / --worker_num)")
    local = ns.nproc if ns.nproc is not None else (ns.worker_num if ns.worker_num is not None else 8)
    world = ns.worker_num if ns.worker_num is not None else local * (ns.nnodes or 1)
    if local >= 1 and (world < local or world % local):
        return usage(f"--worker_num ({world}) must be a multiple of the ranks on this machine ({local})")
    nnodes = world // local if local >= 1 else 1
    if ns.nnodes is not None and ns.nnodes != nnodes:
        return usage(f"--nnodes {ns.nnodes} does not match --worker_num {world} / -n {local}")
    node_rank = ns.node_rank if ns.node_rank is not None and ns.node_rank >= 0 else None
    if node_rank is None:
        if nnodes > 1:
            return usage("on several machines each needs its --node_rank (sporax numbers ranks node by node)")
        node_rank = 0
    elif nnodes == 1:
        node_rank = 0  # msrun: all workers on this node, --node_rank ignored
    try:
        bind_core = _literal_bool(ns.bind_core)
    except argparse.ArgumentTypeError:
        print("sporax: --bind_core with a core map is not supported; ranks are not bound", file=sys.stderr)
        bind_core = False
    if ns.rank_table_file:
        os.environ["RANK_TABLE_FILE"] = ns.rank_table_file
    log_dir = ns.log_dir
    if msrun and log_dir is None:
        log_dir = "."  # msrun's default log_dir "": the logs go to the working directory
    log_name = ns.worker_log_name or "worker"
    if "{hostname}" in log_name or "{ip}" in log_name:  # msrun's placeholders
        import socket

        host = socket.gethostname()
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((ns.master_addr, 1))  # the address this machine reaches the master from
                ip = s.getsockname()[0]
        except OSError:
            ip = "127.0.0.1"
        log_name = log_name.replace("{hostname}", host).replace("{ip}", ip)
    opts = (["--mode", ns.mode] if ns.mode else []) + (["--seed", str(ns.seed)] if ns.seed is not None else [])
    return launch(
        ns.script,
        ns.args,
        local,
        nnodes,
        node_rank,
        ns.master_addr,
        ns.master_port,
        log_dir,
        opts,
        timeout=ns.timeout,
        msrun=msrun,
        join=bool(ns.join),  # msrun shows the worker logs only with --join=True; sporax waits either way
        tail_worker_log=ns.tail_worker_log,
        bind_core=bind_core,
        sim_level=ns.sim_level,
        worker_log_name=log_name,
    )


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
    _launch_args(p_launch)
    p_msrun = sub.add_parser("msrun", help="the same as launch, under MindSpore's name (msrun's options)")
    _launch_args(p_msrun)
    sub.add_parser("check", help="check the installation")
    sub.add_parser("version", help="print the version")
    ns = parser.parse_args(argv)
    if ns.cmd == "run":
        return run_script(ns.script, ns.args, ns.mode, ns.seed)
    if ns.cmd in ("launch", "msrun"):
        return _run_launch(ns, msrun=ns.cmd == "msrun")
    import sporax

    if ns.cmd == "check":
        sporax.run_check()
        return 0
    print(sporax.__version__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
