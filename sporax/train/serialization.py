"""Saving and loading checkpoints: MindSpore's ``.ckpt`` format (read and written by real MindSpore too) and
safetensors.

A ``.ckpt`` file is MindSpore's protobuf ``Checkpoint`` (see :mod:`sporax.train._checkpoint_pb`): one
``Value{tag, TensorProto{dims, tensor_type, tensor_content}}`` per parameter, tensors over 512 MiB split into
several Values with the same tag, and with ``crc_check=True`` a trailer ``b"crc_num"`` + the CRC32 of the
content as 10 big-endian bytes. Files written here are byte-identical to MindSpore's for the same values.

Writes are atomic: the data goes to a temporary file in the target's directory, is fsynced, then renamed
over the target, so a reader (or a crash) never sees half a file. Loading only parses bytes (no pickle, no
code), checks every length, and raises ``ValueError`` naming the file for a truncated or corrupt one, before
anything is returned or loaded into a network.

The pieces, one job each: :mod:`._ckpt_format` (the ``.ckpt`` codec), :mod:`._safetensors_format`,
:mod:`._ckpt_write` (atomic and asynchronous writes), :mod:`._ckpt_save` (``save_checkpoint``),
:mod:`._ckpt_load` (``load_checkpoint``, ``load_checkpoint_async``) and :mod:`._param_load`
(``load_param_into_net``); this module is their public path, MindSpore's ``mindspore.train.serialization``.
"""

from ._ckpt_format import _CRC_TRAILER_LEN, _SLICE_BYTES, _to_tensor, _write_chunk  # noqa: F401
from ._ckpt_load import ParamDictFuture, load_checkpoint, load_checkpoint_async
from ._ckpt_save import save_checkpoint  # noqa: F401
from ._ckpt_write import _wait_async_thread_save_ckpt  # noqa: F401
from ._param_load import load_param_into_net

__all__ = [
    "save_checkpoint",
    "load_checkpoint",
    "load_checkpoint_async",
    "load_param_into_net",
    "ParamDictFuture",
]
