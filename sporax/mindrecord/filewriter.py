"""``FileWriter``: write MindRecord files (MindSpore's shard format, readable by MindSpore)."""

from __future__ import annotations

import mmap
import numbers
import os
import shutil
import sqlite3
import struct
import tempfile

import numpy as np

from .._checkparam import check_mr_file_name, check_mr_size
from . import _format as F
from . import config as _config
from .common.exceptions import (
    MRMAddSchemaError,
    MRMDefineIndexError,
    MRMOpenForAppendError,
    ParamTypeError,
    ParamValueError,
)

__all__ = ["FileWriter"]

_U64 = struct.Struct("<Q")
_ZERO_BLOB = b"\x00\x00\x00\x00"
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}


class _Shard:
    """One shard being written: its temporary files and its page table."""

    def __init__(self, path: str) -> None:
        self.path = path
        d, base = os.path.split(path)
        fd, self.tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=d or ".")
        self.f = os.fdopen(fd, "w+b")
        self.pages: list[dict] = []
        self.index_values: list[tuple] = []
        self.rows = 0
        self.old_header_len = 0

    def last(self, kind: str):
        for p in reversed(self.pages):
            if p["page_type"] == kind:
                return p
        return None

    def last_page_id(self) -> int:
        return self.pages[-1]["page_id"] if self.pages else -1

    def new_page(self, kind: str, type_id: int, start: int, end: int, groups: list, size: int) -> dict:
        p = {
            "page_id": self.last_page_id() + 1,
            "shard_id": 0,
            "page_type": kind,
            "page_type_id": type_id,
            "start_row_id": start,
            "end_row_id": end,
            "row_group_ids": groups,
            "page_size": size,
        }
        self.pages.append(p)
        return p

    def discard(self) -> None:
        try:
            self.f.close()
        except OSError:
            pass
        for p in (self.tmp, self.tmp + ".db"):
            try:
                os.remove(p)
            except OSError:
                pass


class FileWriter:
    """Write rows to MindRecord files: ``shard_num`` files (``file_name`` itself for one shard, else
    ``file_name0``, ``file_name1``...), each with its SQLite index ``.db``. The files are written under
    temporary names and moved into place by :meth:`commit`.

    Args:
        file_name (str): path of the MindRecord file.
        shard_num (int, optional): number of files, in [1, 1000]. Default: ``1``.
        overwrite (bool, optional): replace existing files of the same names. Default: ``False``.

    Raises:
        ParamValueError: ``file_name`` is not a str or ``shard_num`` is out of range.

    Examples:
        >>> from mindspore.mindrecord import FileWriter
        >>> writer = FileWriter("test.mindrecord", shard_num=1, overwrite=True)
        >>> writer.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"}}, "my schema")
        0
        >>> writer.write_raw_data([{"label": 1, "data": b"\\x10\\x00"}])
        >>> writer.commit()
    """

    def __init__(self, file_name, shard_num=1, overwrite=False) -> None:
        check_mr_file_name(file_name, ParamValueError)
        if not file_name or file_name.endswith(os.sep):
            raise ParamValueError(f"File path: {file_name!r} is not a file name.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, numbers.Integral):
            raise ParamTypeError(f"Parameter shard_num expects int, but got {type(shard_num).__name__}.")
        shard_num = int(shard_num)
        if not 1 <= shard_num <= F.MAX_SHARDS:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between 1 and {F.MAX_SHARDS}.")
        if not isinstance(overwrite, bool):
            raise ParamTypeError(f"Parameter overwrite expects bool, but got {type(overwrite).__name__}.")
        path = os.path.abspath(file_name)
        width = len(str(shard_num - 1))  # MindSpore pads the shard index to the widest index: x00 .. x15
        self._paths = [path] if shard_num == 1 else [path + str(i).rjust(width, "0") for i in range(shard_num)]
        self._overwrite = overwrite
        self._header_size = F.DEFAULT_HEADER_SIZE
        self._page_size = F.DEFAULT_PAGE_SIZE
        self._schema: dict | None = None
        self._desc = ""
        self._index_fields: list[str] | None = None
        self._shards: list[_Shard] | None = None
        self._compression = 0
        self._committed = False
        self._append = False

    # -------------------------------------------------------------- append
    @classmethod
    def open_for_append(cls, file_name) -> FileWriter:
        """A writer that appends rows to existing MindRecord files (all shards of ``file_name``'s set).

        Args:
            file_name (str): one of the MindRecord files.

        Returns:
            FileWriter.

        Raises:
            MRMOpenForAppendError: the files cannot be read as MindRecord files.
        """
        from .filereader import open_shard_set

        check_mr_file_name(file_name, ParamValueError)
        try:
            files = open_shard_set(file_name)
        except (OSError, ValueError, RuntimeError) as e:
            raise MRMOpenForAppendError(str(e)) from None
        w = cls.__new__(cls)
        first = files.shards[0].header
        w._paths = [s.path for s in files.shards]
        w._overwrite = True
        w._header_size = first["header_size"]
        w._page_size = first["page_size"]
        w._schema = first["_schema"]
        w._desc = first["_desc"]
        w._index_fields = list(first["_index_fields"])
        w._compression = int(first.get("compression_size") or 0)
        w._committed = False
        w._append = True
        w._shards = []
        try:
            for s in files.shards:
                sh = _Shard(s.path)
                w._shards.append(sh)
                plain = _config.decrypted_bytes(s.path)
                if plain is not None:  # appending to an encrypted file: continue its plain bytes
                    sh.f.write(plain)
                else:
                    with open(s.path, "rb") as src:
                        shutil.copyfileobj(src, sh.f)
                sh.pages = [_page_from_header(p) for p in s.header["_pages"]]
                sh.rows = s.num_rows
                sh.old_header_len = s.header["_header_len"]
                sh.index_values = [tuple(s.raw_row(i).get(f) for f in w._index_fields) for i in range(s.num_rows)]
        except BaseException:
            w._discard()
            raise
        finally:
            files.close()
        return w

    # -------------------------------------------------------------- settings
    def add_schema(self, content, desc=None) -> int:
        """Set the schema: ``{name: {"type": t}}`` for a scalar (``int32``, ``int64``, ``float32``,
        ``float64``, ``string``, ``bytes``) or ``{name: {"type": t, "shape": [...]}}`` for a NumPy array
        (``int32``, ``int64``, ``float32``, ``float64``; one dimension may be -1).

        Args:
            content (dict): the schema.
            desc (str, optional): a description. Default: ``None``.

        Returns:
            int, the schema id (0).

        Raises:
            MRMInvalidSchemaError: the schema is invalid.
            MRMAddSchemaError: a schema was already added.
        """
        if self._schema is not None:
            raise MRMAddSchemaError("only one schema can be added to a MindRecord file.")
        schema = F.validate_schema(content)
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError(f"Parameter desc expects str, but got {type(desc).__name__}.")
        self._schema = schema
        self._desc = desc or ""
        return 0

    def add_index(self, index_fields) -> None:
        """Select the fields indexed in the ``.db`` file (scalar fields other than ``bytes``). Without a
        call, every such field is indexed.

        Args:
            index_fields (list[str]): the fields.

        Raises:
            ParamTypeError: ``index_fields`` is not a list of str.
            MRMDefineIndexError: a field is not in the schema or is not a scalar.
        """
        if not isinstance(index_fields, list) or not all(isinstance(f, str) for f in index_fields):
            raise ParamTypeError("Parameter index_fields expects list of str.")
        if not index_fields:
            raise ParamValueError("index_fields is empty.")
        if self._schema is None:
            raise MRMDefineIndexError("add_schema must be called before add_index.")
        if self._shards is not None:
            raise MRMDefineIndexError("add_index must be called before writing.")
        for f in index_fields:
            spec = self._schema.get(f)
            if spec is None:
                raise MRMDefineIndexError(f"'index_fields': {f} can not found in schema: {self._schema}.")
            if "shape" in spec or spec["type"] == "bytes":
                raise MRMDefineIndexError(f"Failed to set field {f} since it's not primitive type.")
        if len(set(index_fields)) != len(index_fields):
            raise MRMDefineIndexError(f"index_fields has duplicates: {index_fields}.")
        self._index_fields = list(index_fields)

    def set_header_size(self, header_size) -> None:
        """Set the size of the header area of every file, in [16 KB, 128 MB] (before writing).

        Args:
            header_size (int): the size in bytes. Default of a writer: 16 MB.

        Raises:
            RuntimeError: the size is out of range, or rows were written already.
        """
        size = check_mr_size("header", header_size, F.MIN_HEADER_SIZE, F.MAX_HEADER_SIZE)
        self._refuse_if_writing("header")
        self._header_size = size

    def set_page_size(self, page_size) -> None:
        """Set the page size, in [32 KB, 256 MB] (before writing). A row must fit in one page.

        Args:
            page_size (int): the size in bytes. Default of a writer: 32 MB.

        Raises:
            RuntimeError: the size is out of range, or rows were written already.
        """
        size = check_mr_size("page", page_size, F.MIN_PAGE_SIZE, F.MAX_PAGE_SIZE)
        self._refuse_if_writing("page")
        self._page_size = size

    def _refuse_if_writing(self, what: str) -> None:
        if self._shards is not None:
            raise RuntimeError(f"The {what} size can only be set before writing data.")

    # -------------------------------------------------------------- writing
    def _open(self) -> list[_Shard]:
        """The shards being written, created on first use (the schema must be set)."""
        if self._committed:
            raise RuntimeError(
                "Not allowed to call `write_raw_data` on flushed MindRecord files. When creating new MindRecord "
                "files, please remove `commit` before `write_raw_data`. In other cases, when appending to existing "
                "MindRecord files, please call `open_for_append` first and then `write_raw_data`."
            )
        if self._shards is not None:
            return self._shards
        self._added_schema()
        self._verify_targets()
        self._shards = shards = []
        try:
            for p in self._paths:
                shards.append(_Shard(p))
        except OSError as e:
            self._discard()
            raise RuntimeError(f"Invalid file, failed to create mindrecord file in {os.path.dirname(p)}: {e}") from None
        return shards

    def _added_schema(self) -> dict:
        """The schema given to :meth:`add_schema`."""
        if self._schema is None:
            raise RuntimeError("The schema is not set: call add_schema before writing data.")
        return self._schema

    def _verify_targets(self) -> None:
        for p in self._paths:
            d = os.path.dirname(p)
            if not os.path.isdir(d):
                raise RuntimeError(f"Invalid file, the directory of the mindrecord file does not exist: {d}.")
            if not self._overwrite and (os.path.exists(p) or os.path.exists(p + ".db")):
                raise RuntimeError(
                    f"Invalid file, mindrecord files already exist. Please check file path: {p}. If you do not want to "
                    "keep the files, set the 'overwrite' parameter to True and try again."
                )

    def write_raw_data(self, raw_data, parallel_writer=False) -> None:
        """Write rows: a list of dicts holding every field of the schema (other keys are ignored). The rows
        are spread over the shards in consecutive, balanced chunks.

        Args:
            raw_data (list[dict]): the rows.
            parallel_writer (bool, optional): accepted for compatibility (rows are serialised in this
                process). Default: ``False``.

        Raises:
            ParamTypeError: ``raw_data`` is not a list of dicts.
            RuntimeError: a row does not match the schema (no row of the call is written), or a row
                does not fit in a page.
        """
        if not isinstance(raw_data, list):
            raise ParamTypeError("'raw_data' expect list type.")
        if not isinstance(parallel_writer, bool):
            raise ParamTypeError("'parallel_writer' expect bool type.")
        shards = self._open()
        if not raw_data:
            return
        rows = [self._serialize(i, r) for i, r in enumerate(raw_data)]
        ps = self._page_size
        for i, (raw, blob, _, _) in enumerate(rows):
            if 8 + len(blob) > ps or 8 + len(raw) > ps:
                raise RuntimeError(
                    f"Invalid data, Page size: {ps} is too small to save row {i} ({8 + len(blob)} blob bytes, "
                    f"{8 + len(raw)} raw bytes). Please try to use the mindrecord api 'set_page_size(value)' to "
                    f"enable larger page size, and the value range is in [{F.MIN_PAGE_SIZE} bytes, "
                    f"{F.MAX_PAGE_SIZE} bytes]."
                )
        self._compression += sum(r[3] for r in rows)
        k = len(shards)
        n = len(rows)
        base, rem = divmod(n, k)
        extra = set(sorted(range(k), key=lambda s: (shards[s].rows, s))[:rem])
        a = 0
        for s, sh in enumerate(shards):
            b = a + base + (s in extra)
            if b > a:
                self._write_shard(sh, rows[a:b])
            a = b

    def _serialize(self, i: int, row) -> tuple:
        """A row -> (raw MessagePack, blob, index values, compression saving)."""
        if not isinstance(row, dict):
            raise ParamTypeError(f"'raw_data' expect list of dict, but row {i} is {type(row).__name__}.")
        schema = self._added_schema()
        raw = {}
        for name, spec in schema.items():
            if "shape" in spec or spec["type"] == "bytes":
                continue
            if name not in row:
                raise RuntimeError(f"Invalid data, row {i} has no field '{name}' of the schema.")
            raw[name] = _scalar(i, name, spec["type"], row[name])
        pieces, plain = [], 0
        compress = F.compresses_integers(schema)
        for name in F.blob_fields(schema):
            if name not in row:
                raise RuntimeError(f"Invalid data, row {i} has no field '{name}' of the schema.")
            spec = schema[name]
            v = row[name]
            if spec["type"] == "bytes":
                if not isinstance(v, (bytes, bytearray, memoryview)):
                    raise RuntimeError(
                        f"Invalid data, row {i}: field '{name}' should be bytes, but got {type(v).__name__}."
                    )
                data = bytes(v)
                pieces.append(data)
                plain += len(data)
                continue
            arr = _array(i, name, spec, v)
            data = arr.tobytes()
            plain += len(data)
            if compress and spec["type"] in ("int32", "int64"):
                data = F.compress_ints(arr)
            pieces.append(data)
        if not pieces:
            blob = _ZERO_BLOB
            saved = 0
        elif len(pieces) == 1:
            blob = pieces[0]
            saved = plain - len(blob)
        else:
            blob = b"".join(len(p).to_bytes(8, "big") + p for p in pieces)
            saved = plain - (len(blob) - 8 * len(pieces))
        index = tuple(raw.get(f) for f in self._effective_index())
        return F.pack_map(raw) if raw else F.pack_map({"id": 0}), blob, index, saved

    def _effective_index(self) -> list[str]:
        if self._index_fields is not None:
            return self._index_fields
        return [n for n, s in self._added_schema().items() if "shape" not in s and s["type"] != "bytes"]

    def _write_shard(self, sh: _Shard, rows: list) -> None:
        """Append rows to one shard: blob data in row groups (one per blob page), the raw data of each row
        group kept together in one raw page (MindSpore's page layout)."""
        ps, hs = self._page_size, self._header_size
        bsz = [8 + len(r[1]) for r in rows]
        rsz = [8 + len(r[0]) for r in rows]
        last_blob, last_raw = sh.last(F.BLOB), sh.last(F.RAW)
        # cut the rows into groups: the first continues the last blob page (maybe empty)
        n_blob = last_blob["page_size"] if last_blob else 0
        n_raw = last_raw["page_size"] - last_raw["row_group_ids"][-1][1] if last_raw else 0
        groups, start = [], 0
        for i in range(len(rows)):
            if n_blob == 0 or n_blob + bsz[i] > ps or n_raw + rsz[i] > ps:
                groups.append((start, i))
                start, n_blob, n_raw = i, bsz[i], rsz[i]
            else:
                n_blob += bsz[i]
                n_raw += rsz[i]
        groups.append((start, len(rows)))
        f = sh.f
        # blob pages
        a, b = groups[0]
        if b > a:
            f.seek(hs + ps * last_blob["page_id"] + last_blob["page_size"])
            f.write(b"".join(_U64.pack(len(rows[j][1])) + rows[j][1] for j in range(a, b)))
            last_blob["page_size"] += sum(bsz[a:b])
            last_blob["end_row_id"] += b - a
        row = last_blob["end_row_id"] if last_blob else 0
        type_id = last_blob["page_type_id"] if last_blob else -1
        for a, b in groups[1:]:
            type_id += 1
            p = sh.new_page(F.BLOB, type_id, row, row + b - a, [], sum(bsz[a:b]))
            f.seek(hs + ps * p["page_id"])
            f.write(b"".join(_U64.pack(len(rows[j][1])) + rows[j][1] for j in range(a, b)))
            row += b - a
        # raw pages: a group continued from the last raw page moves to a new page when it no longer fits
        a, b = groups[0]
        if b > a and last_raw["page_size"] + sum(rsz[a:b]) > ps:
            gid, off = last_raw["row_group_ids"].pop()
            shift = last_raw["page_size"] - off
            f.seek(hs + ps * last_raw["page_id"] + off)
            moved = f.read(shift)
            last_raw["page_size"] = off
            p = sh.new_page(F.RAW, last_raw["page_id"] + 1, 0, 0, [(gid, 0)], shift)
            f.seek(hs + ps * p["page_id"])
            f.write(moved)
            last_raw = p
        last_gid = last_raw["row_group_ids"][-1][0] if last_raw else -1
        for c, (a, b) in enumerate(groups):
            if b == a:
                continue
            size = sum(rsz[a:b])
            if last_raw is None:
                last_raw = sh.new_page(F.RAW, 0, 0, 0, [], 0)
            elif last_raw["page_size"] + size > ps:
                last_raw = sh.new_page(F.RAW, last_raw["page_id"] + 1, 0, 0, [], 0)
            if c > 0:
                last_gid += 1
                last_raw["row_group_ids"].append((last_gid, last_raw["page_size"]))
            f.seek(hs + ps * last_raw["page_id"] + last_raw["page_size"])
            f.write(b"".join(_U64.pack(len(rows[j][0])) + rows[j][0] for j in range(a, b)))
            last_raw["page_size"] += size
        sh.index_values.extend(r[2] for r in rows)
        sh.rows += len(rows)

    # -------------------------------------------------------------- commit
    def commit(self) -> None:
        """Write the headers and the index files, and move the files into place.

        Raises:
            RuntimeError: the schema is not set, a header does not fit in the header size, or the files
                cannot be written.
        """
        shards = self._open()
        schema = self._added_schema()
        if self._index_fields is None:
            self._index_fields = self._effective_index()
        fields = self._index_fields
        names = [os.path.basename(p) for p in self._paths]
        comp = max(self._compression, 0)
        try:
            for sid, sh in enumerate(shards):
                for p in sh.pages:
                    p["shard_id"] = sid
                head = F.header_json(
                    self._header_size,
                    self._page_size,
                    comp,
                    schema,
                    self._desc,
                    fields,
                    sh.pages,
                    names,
                    sid,
                )
                if 8 + len(head) > self._header_size:
                    raise RuntimeError(
                        f"Invalid data, the header of {sh.path} needs {8 + len(head)} bytes, more than the header "
                        f"size {self._header_size}: use 'set_header_size' to make it larger."
                    )
                sh.f.seek(0)
                sh.f.write(_U64.pack(len(head)) + head)
                # a shorter header than before (append): clear the rest of the old one
                sh.f.write(b"\x00" * max(0, sh.old_header_len - len(head)))
                sh.f.flush()
                os.fsync(sh.f.fileno())
                self._write_index(sh, names[sid], schema, fields)
            if not self._append:
                self._verify_targets()
            for sh in shards:
                sh.f.close()
                if _config.enc_key() is not None:  # set_enc_key: both files are stored encrypted
                    _config.encrypt_file(sh.tmp)
                    _config.encrypt_file(sh.tmp + ".db")
                os.replace(sh.tmp, sh.path)
                os.replace(sh.tmp + ".db", sh.path + ".db")
        except BaseException:
            self._discard()
            raise
        self._committed = True
        self._shards = []

    def _write_index(self, sh: _Shard, name: str, schema: dict, fields: list[str]) -> None:
        """The shard's SQLite index: the page and offsets of every row, and its index field values."""
        hs, ps = self._header_size, self._page_size
        size = sh.f.seek(0, os.SEEK_END)
        lines = []
        if size > hs:
            with mmap.mmap(sh.f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                offs = F.row_offsets(
                    sh.tmp, {"header_size": hs, "page_size": ps, "_pages": _as_header_pages(sh)}, mm, size
                )
            pg = _row_pages(sh)
            for r in range(offs.shape[1]):
                bp, rp, gid = pg[r]
                bbase, rbase = hs + ps * bp, hs + ps * rp
                line = [r, rp, int(offs[2, r]) - 8 - rbase, int(offs[3, r]) - rbase, gid, bp]
                line += [int(offs[0, r]) - 8 - bbase, int(offs[1, r]) - bbase]
                for v in sh.index_values[r]:
                    line += [0, v]
                lines.append(line)
        db = sh.tmp + ".db"
        if os.path.exists(db):
            os.remove(db)
        cols = ", ".join(
            [
                "ROW_ID INT NOT NULL",
                "PAGE_ID_RAW INT NOT NULL",
                "PAGE_OFFSET_RAW INT NOT NULL",
                "PAGE_OFFSET_RAW_END INT NOT NULL",
                "ROW_GROUP_ID INT NOT NULL",
                "PAGE_ID_BLOB INT NOT NULL",
                "PAGE_OFFSET_BLOB INT NOT NULL",
                "PAGE_OFFSET_BLOB_END INT NOT NULL",
            ]
            + [f"INC_{k} INT, {f}_0 {_SQL_TYPES[schema[f]['type']]}" for k, f in enumerate(fields)]
            + ["PRIMARY KEY(" + ",".join(["ROW_ID"] + [f"INC_{k}" for k in range(len(fields))]) + ")"]
        )
        con = sqlite3.connect(db)
        try:
            con.execute(f"CREATE TABLE INDEXES({cols})")
            con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
            con.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (name,))
            if lines:
                marks = ",".join("?" * len(lines[0]))
                con.executemany(f"INSERT INTO INDEXES VALUES ({marks})", lines)
            con.commit()
        finally:
            con.close()
        os.chmod(db, 0o600)  # as MindSpore creates its files

    def _discard(self) -> None:
        for sh in self._shards or []:
            sh.discard()
        self._shards = None

    def __del__(self) -> None:
        try:
            if not self._committed and self._shards:
                self._discard()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


# ====================================================================== helpers
def _scalar(i: int, name: str, t: str, v):
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if t == "string":
        if isinstance(v, str):
            return str(v)
    elif t in ("int32", "int64"):
        if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            lo, hi = F.INT_RANGE[t]
            if not lo <= int(v) <= hi:
                raise RuntimeError(f"Invalid data, row {i}: field '{name}' value {int(v)} is out of the {t} range.")
            return int(v)
    elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
        return float(v)
    raise RuntimeError(f"Invalid data, row {i}: field '{name}' should be {t}, but got {type(v).__name__} ({v!r:.60}).")


def _array(i: int, name: str, spec: dict, v) -> np.ndarray:
    t = spec["type"]
    if not isinstance(v, (np.ndarray, np.generic)):
        raise RuntimeError(
            f"Invalid data, row {i}: field '{name}' should be a numpy.ndarray of {t}, but got {type(v).__name__}."
        )
    v = np.asarray(v)
    if v.dtype != F.NP_TYPES[t].newbyteorder("="):
        if v.dtype.kind != F.NP_TYPES[t].kind or v.dtype.itemsize != F.NP_TYPES[t].itemsize:
            raise RuntimeError(
                f"Invalid data, row {i}: field '{name}' should be a numpy.ndarray of {t}, but got {v.dtype}."
            )
    shape = spec["shape"]
    fixed = int(np.prod([d for d in shape if d != -1])) if shape else 1
    ok = v.size == fixed if -1 not in shape else (fixed and v.size % fixed == 0)
    if not ok:
        raise RuntimeError(
            f"Invalid data, row {i}: field '{name}' of shape {list(v.shape)} does not fit the schema's shape {shape}."
        )
    return np.ascontiguousarray(v, F.NP_TYPES[t])


def _page_from_header(p: dict) -> dict:
    q = {
        k: p[k] for k in ("page_id", "shard_id", "page_type", "page_type_id", "start_row_id", "end_row_id", "page_size")
    }
    groups = [(g["id"], g["offset"]) for g in p["row_group_ids"]]
    q["row_group_ids"] = [] if p["page_type"] == F.BLOB else groups
    return q


def _as_header_pages(sh: _Shard) -> list[dict]:
    return [F.page_json(p) for p in sh.pages]


def _row_pages(sh: _Shard) -> list[tuple]:
    """(blob page id, raw page id, row group id) of every row of a shard."""
    raw_of = {}
    for p in sh.pages:
        if p["page_type"] == F.RAW:
            for g, _ in p["row_group_ids"] or [(0, 0)]:
                raw_of[g] = p["page_id"]
    out = []
    for p in sorted((p for p in sh.pages if p["page_type"] == F.BLOB), key=lambda p: p["page_type_id"]):
        out += [(p["page_id"], raw_of[p["page_type_id"]], p["page_type_id"])] * (p["end_row_id"] - p["start_row_id"])
    return out
