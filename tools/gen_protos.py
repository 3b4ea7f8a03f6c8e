"""Regenerate sporax's protobuf modules from MindSpore's published schemas.

``sporax/common/_proto/checkpoint.proto`` and ``mind_ir.proto`` are MindSpore's interface formats, copied
unchanged from MindSpore's source (``mindspore/ccsrc/utils/checkpoint.proto``,
``mindspore/core/proto/mind_ir.proto``). This script compiles them into ``checkpoint_pb2.py`` and
``mind_ir_pb2.py`` next to them. It needs ``grpcio-tools`` (a development tool, not a runtime dependency)::

    python -m venv /work/venvs/protoc && /work/venvs/protoc/bin/pip install grpcio-tools
    /work/venvs/protoc/bin/python tools/gen_protos.py

The generated modules register their messages in a private descriptor pool (the one edit this script makes
to protoc's output) and import only the ``protobuf`` runtime (a sporax dependency). Commit them with the
``.proto`` files.
"""

from __future__ import annotations

import pathlib
import sys

PROTO_DIR = pathlib.Path(__file__).resolve().parent.parent / "sporax" / "common" / "_proto"
PROTOS = ("checkpoint.proto", "mind_ir.proto")

# The modules register their messages in a pool of their own, not protobuf's process-wide default one: the
# schemas' top-level names (``Checkpoint``, ``TensorProto``) and file names are generic and would clash with
# another package loading the same or similar schemas (MindSpore itself, in the same process).
_DEFAULT_POOL = "_descriptor_pool.Default()"
_PRIVATE_POOL = "_descriptor_pool.DescriptorPool()"


def main() -> int:
    from grpc_tools import protoc  # a dev tool: pip install grpcio-tools

    for name in PROTOS:
        rc = protoc.main(["protoc", f"-I{PROTO_DIR}", f"--python_out={PROTO_DIR}", str(PROTO_DIR / name)])
        if rc:
            print(f"protoc failed on {name} (exit {rc})", file=sys.stderr)
            return rc
        out = PROTO_DIR / name.replace(".proto", "_pb2.py")
        text = out.read_text()
        if _DEFAULT_POOL not in text:
            print(f"{out}: protoc's output changed form ({_DEFAULT_POOL} not found)", file=sys.stderr)
            return 1
        out.write_text(text.replace(_DEFAULT_POOL, _PRIVATE_POOL))
        print(f"generated {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
