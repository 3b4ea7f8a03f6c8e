"""``FileReader``: read MindRecord files row by row; the shard-set reader shared with ``MindDataset``."""

from __future__ import annotations

import mmap
import os
import pathlib
import sqlite3
import threading

import numpy as np

from .._checkparam import check_mr_file_names, check_num_consumer
from . import _format as F
from . import config as _config
from .common.exceptions import ParamTypeError, ParamValueError

__all__ = ["FileReader"]


class ShardFile:
    """One ``.mindrecord`` file, memory-mapped, with its checked header. Rows are located on first use."""

    def __init__(self, path: str, check_db: bool = True) -> None:
        self.path = path
        self.mm: bytes | mmap.mmap = b""
        plain = _config.decrypted_bytes(path) if os.path.isfile(path) else None
        if plain is not None:  # an encrypted file: read from its plain bytes
            self.mm, size = plain, len(plain)
        else:
            try:
                with open(path, "rb") as f:
                    size = os.fstat(f.fileno()).st_size
                    if size:  # the mapping keeps the file open
                        self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except OSError as e:
                raise RuntimeError(f"Invalid file, failed to open mindrecord file {path}: {e.strerror}.") from None
        self.size = size
        try:
            self.header = F.read_header(path, self.mm)
            if check_db:
                _verify_index_file(path)
        except F.FormatError as e:
            self.close()
            raise RuntimeError(f"Invalid mindrecord file: {e}") from None
        except BaseException:
            self.close()
            raise
        h = self.header
        self.schema: dict = h["_schema"]
        self.blob_names = F.blob_fields(self.schema)
        self.raw_names = [n for n in self.schema if n not in self.blob_names]
        self.compressed = F.compresses_integers(self.schema, h["version"])
        self.num_rows = sum(p["end_row_id"] - p["start_row_id"] for p in h["_pages"] if p["page_type"] == F.BLOB)
        self._offs: np.ndarray | None = None
        self._lock = threading.Lock()

    def offsets(self) -> np.ndarray:
        offs = self._offs
        if offs is None:
            with self._lock:
                offs = self._offs
                if offs is None:
                    try:
                        offs = self._offs = F.row_offsets(self.path, self.header, self.mm, self.size)
                    except F.FormatError as e:
                        raise RuntimeError(f"Invalid mindrecord file: {e}") from None
        return offs

    def raw_row(self, i: int) -> dict:
        """The scalar fields of row ``i`` as Python values (checked against the schema)."""
        o = self.offsets()
        try:
            d = F.unpack_map(self.mm, int(o[2, i]), int(o[3, i]))
            out = {}
            for n in self.raw_names:
                if n not in d:
                    raise F.FormatError(f"the raw data has no field '{n}'")
                out[n] = F.verified_raw_value(n, self.schema[n], d[n])
            return out
        except F.FormatError as e:
            raise RuntimeError(f"Invalid mindrecord file {self.path}: row {i}: {e}.") from None

    def blob_row(self, i: int, names=None) -> dict:
        """The blob fields of row ``i`` (``bytes`` or NumPy arrays), all or ``names``."""
        o = self.offsets()
        blob = self.mm[int(o[0, i]) : int(o[1, i])]
        try:
            pieces = F.split_blob(blob, len(self.blob_names))
            return {
                n: F.decode_blob_field(p, self.schema[n], self.compressed)
                for n, p in zip(self.blob_names, pieces)
                if names is None or n in names
            }
        except F.FormatError as e:
            raise RuntimeError(f"Invalid mindrecord file {self.path}: row {i}: {e}.") from None

    def close(self) -> None:
        mm, self.mm = getattr(self, "mm", None), b""
        if isinstance(mm, mmap.mmap):
            try:
                mm.close()
            except BufferError:  # views still alive: the mapping goes with them
                pass


def _verify_index_file(path: str) -> None:
    """MindSpore reads a shard only with its ``.db`` index, made for that file name: check it."""
    db = path + ".db"
    if not os.path.isfile(db):
        raise RuntimeError(
            f"Invalid file, the index file {db} of mindrecord file {path} does not exist (a MindRecord file is "
            "read with the .db file written next to it)."
        )
    plain = _config.decrypted_bytes(db)
    try:
        if plain is None:
            con = sqlite3.connect(pathlib.Path(db).absolute().as_uri() + "?mode=ro", uri=True)
        else:  # an encrypted index, read from its plain bytes in memory
            con = sqlite3.connect(":memory:")
            con.deserialize(plain)
        try:
            row = con.execute("SELECT NAME FROM SHARD_NAME").fetchone()
        finally:
            con.close()
    except sqlite3.Error as e:
        raise RuntimeError(f"Invalid file, the index file {db} is not a MindRecord index: {e}.") from None
    if row is None or row[0] != os.path.basename(path):
        raise RuntimeError(
            f"Invalid file, the index file {db} belongs to {row[0] if row else 'no file'!r}, not to "
            f"{os.path.basename(path)!r} (MindRecord files cannot be renamed)."
        )


class ShardSet:
    """The shards read together: a file with all the shards listed in its header, or a list of files."""

    def __init__(self, shards: list[ShardFile]) -> None:
        self.shards = shards
        first = shards[0]
        for s in shards[1:]:
            if s.schema != first.schema:
                self.close()
                raise RuntimeError(
                    f"Invalid file, the schema of {s.path} differs from the schema of {first.path}; MindRecord files "
                    "read together must share one schema."
                )
        self.schema = first.schema
        self.counts = np.array([s.num_rows for s in shards], np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.counts)])
        self.num_rows = int(self.starts[-1])

    def locate(self, idx: np.ndarray):
        """(shard index, local row) of global rows ``idx``."""
        s = np.searchsorted(self.starts, idx, side="right") - 1
        return s, idx - self.starts[s]

    def close(self) -> None:
        for s in self.shards:
            s.close()


def open_shard_set(file_name, check_db: bool = True) -> ShardSet:
    """The shard set of ``file_name``: a str loads every shard listed in its header (next to it); a list
    loads those files only, in that order."""
    files, expand = check_mr_file_names(file_name, ParamTypeError)
    for f in files:
        if not os.path.isfile(f):
            raise RuntimeError(f"Invalid file, the mindrecord file {f} does not exist or is not a file.")
    if expand:
        head = ShardFile(files[0], check_db=check_db)
        d = os.path.dirname(os.path.abspath(files[0]))
        addrs = head.header["shard_addresses"]
        if not isinstance(addrs, list) or not addrs or not all(isinstance(a, str) for a in addrs):
            head.close()
            raise RuntimeError(f"Invalid mindrecord file {files[0]}: its header lists no shard addresses.")
        paths = [os.path.join(d, os.path.basename(a)) for a in addrs]
        shards = []
        try:
            for p in paths:
                if os.path.abspath(p) == os.path.abspath(files[0]):
                    shards.append(head)
                    continue
                if not os.path.isfile(p):
                    raise RuntimeError(
                        f"Invalid file, the mindrecord file {p} (a shard listed in the header of {files[0]}) does "
                        "not exist."
                    )
                shards.append(ShardFile(p, check_db=check_db))
            if head not in shards:
                head.close()
        except BaseException:
            for s in shards + [head]:
                s.close()
            raise
    else:
        shards = []
        try:
            for p in files:
                shards.append(ShardFile(p, check_db=check_db))
        except BaseException:
            for s in shards:
                s.close()
            raise
    return ShardSet(shards)


class FileReader:
    """Read rows from MindRecord files.

    Args:
        file_name (Union[str, list[str]]): a MindRecord file (every shard of its set is read) or a list
            of files (those only).
        num_consumer (int, optional): accepted for compatibility (rows are read in this thread). Default: ``4``.
        columns (list[str], optional): the fields to read. Default: ``None``, all.
        operator (int, optional): reserved. Default: ``None``.

    Raises:
        ParamValueError: ``num_consumer`` or ``columns`` is invalid.
        RuntimeError: a file is missing, is not a MindRecord file, or is corrupt or truncated.

    Examples:
        >>> from mindspore.mindrecord import FileReader
        >>> reader = FileReader(file_name="test.mindrecord")
        >>> for item in reader.get_next():
        ...     print(item)
        >>> reader.close()
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None) -> None:
        check_num_consumer(num_consumer, ParamValueError)
        shard_set = open_shard_set(file_name)
        self._set: ShardSet | None = shard_set
        schema = shard_set.schema
        if columns is not None:
            if not isinstance(columns, list) or not columns or not all(isinstance(c, str) for c in columns):
                self.close()
                raise ParamTypeError("columns should be a non-empty list of str.")
            bad = [c for c in columns if c not in schema]
            if bad:
                self.close()
                raise ParamValueError(f"columns {bad} are not fields of the schema {list(schema)}.")
        self._columns = columns
        self._file_name = file_name

    def get_next(self):
        """Yield the rows as dicts: scalar fields (Python int, float, str) then blob fields (``bytes`` or
        NumPy arrays).

        Yields:
            dict, one row.
        """
        if self._set is None:
            raise RuntimeError("The FileReader is closed.")
        cols = self._columns
        for s in self._set.shards:
            raw_names = [n for n in s.raw_names if cols is None or n in cols]
            blob_names = [n for n in s.blob_names if cols is None or n in cols]
            for i in range(s.num_rows):
                row = {}
                if raw_names:
                    raw = s.raw_row(i)
                    row.update((n, raw[n]) for n in raw_names)
                if blob_names:
                    row.update(s.blob_row(i, blob_names))
                yield row

    def len(self) -> int:
        """Number of rows."""
        return self._set.num_rows if self._set is not None else 0

    def schema(self) -> dict:
        """The schema: ``{field: {"type": ..., "shape": ...}}``."""
        if self._set is None:
            raise RuntimeError("The FileReader is closed.")
        return {k: dict(v) for k, v in self._set.schema.items()}

    def close(self) -> None:
        """Close the files."""
        s, self._set = getattr(self, "_set", None), None
        if s is not None:
            s.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass
