"""The MindRecord shard format (version 3.0), as MindSpore writes it.

A shard is one ``.mindrecord`` file and its SQLite index ``.mindrecord.db``::

    [0, header_size)                 uint64 LE length + the JSON header, then zeros
    header_size + k * page_size      page k (the last page is not padded)

The JSON header (keys in MindSpore's order) lists the pages of the shard and the schema. Pages are
``BLOB_DATA`` or ``RAW_DATA``:

* a blob page holds one *row group*: rows ``[start_row_id, end_row_id)``, each ``uint64 LE length +
  blob``. The blob of a row is its blob fields (fields with a ``shape``, and ``bytes`` fields) in
  ``blob_fields`` order, each ``uint64 BE length + data``, or the bare data when there is only one blob
  field, or 4 zero bytes when there are none. ``int32``/``int64`` arrays are stored compressed when the
  schema has an integer array field (version >= 3.0): ``uint32 BE count``, a bitmap of 2-bit width codes
  (4 per byte, first element in the high bits; 0/1/2/3: 1/2/4/8 bytes), then each value little-endian
  in its narrowest signed width. Other arrays are stored little-endian, C order.
* a raw page holds the scalar fields of the rows of the row groups listed in ``row_group_ids``
  (``{"id": group, "offset": byte offset}``): each row ``uint64 LE length + MessagePack map`` (keys
  sorted; ``{"id": 0}`` when the schema has no scalar field).

The ``.db`` file has a table ``INDEXES`` with one line per row (page ids and byte offsets of its raw and
blob data, and the values of the index fields) and a table ``SHARD_NAME`` with the shard's file name.

Everything here is plain data: reading a file never runs code from it.
"""

from __future__ import annotations

import json
import re
import struct

import numpy as np

from .common.exceptions import MRMInvalidSchemaError

VERSION = "3.0"
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MAX_SHARDS = 1000
BLOB, RAW = "BLOB_DATA", "RAW_DATA"

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
NP_TYPES: dict[str, np.dtype] = {
    "int32": np.dtype("<i4"),
    "int64": np.dtype("<i8"),
    "float32": np.dtype("<f4"),
    "float64": np.dtype("<f8"),
}
INT_RANGE = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_NAME = re.compile(r"^[0-9a-zA-Z_]+$")

_U64 = struct.Struct("<Q")


class FormatError(ValueError):
    """A file is not a readable MindRecord shard (corrupt, truncated, not MindRecord)."""


# ====================================================================== schema
def validate_schema(content) -> dict:
    """Check a user schema (``{name: {"type": t[, "shape": [...]]}}``) and return a normalised copy."""
    if not content:
        raise MRMInvalidSchemaError("Schema content is empty.")
    if not isinstance(content, dict):
        raise MRMInvalidSchemaError("Schema content should be dict.")
    out = {}
    for name, spec in content.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise MRMInvalidSchemaError(f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'.")
        if name[0].isdigit():
            raise MRMInvalidSchemaError(f"Field '{name}' can not start with a number.")
        if not isinstance(spec, dict) or not spec:
            raise MRMInvalidSchemaError(f"Field '{name}' should be dict.")
        if "type" not in spec or set(spec) - {"type", "shape"}:
            raise MRMInvalidSchemaError(f"Field '{spec}' contains illegal attributes.")
        t = spec["type"]
        if "shape" not in spec:
            if t not in SCALAR_TYPES:
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{t}'.")
            out[name] = {"type": t}
            continue
        if t not in ARRAY_TYPES:
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{t}'.")
        shape = spec["shape"]
        if not isinstance(shape, list):
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{shape}'.")
        for d in shape:
            if isinstance(d, bool) or not isinstance(d, int) or (d != -1 and d <= 0):
                raise MRMInvalidSchemaError(
                    f"Field '{name}' has an invalid shape {shape}: every dimension must be a positive integer or -1."
                )
        if shape.count(-1) > 1:
            raise MRMInvalidSchemaError(
                f"Field '{name}' has an invalid shape {shape}: at most one dimension can be -1."
            )
        out[name] = {"shape": [int(d) for d in shape], "type": t}
    return {k: out[k] for k in sorted(out)}


def blob_fields(schema: dict) -> list[str]:
    """Fields stored in blob pages: arrays and bytes, by name."""
    return sorted(n for n, s in schema.items() if "shape" in s or s["type"] == "bytes")


def compresses_integers(schema: dict, version: str = VERSION) -> bool:
    """Whether the int32/int64 blob fields of this schema are stored compressed."""
    if _version_tuple(version) < (3, 0):
        return False
    return any("shape" in s and s["type"] in ("int32", "int64") for s in schema.values())


def _version_tuple(v) -> tuple:
    try:
        return tuple(int(p) for p in str(v).split("."))
    except ValueError:
        return (0,)


# ====================================================================== MessagePack
def _pack_int(v: int, out: bytearray) -> None:
    if v >= 0:
        if v < 0x80:
            out.append(v)
        elif v <= 0xFF:
            out += b"\xcc" + v.to_bytes(1, "big")
        elif v <= 0xFFFF:
            out += b"\xcd" + v.to_bytes(2, "big")
        elif v <= 0xFFFFFFFF:
            out += b"\xce" + v.to_bytes(4, "big")
        else:
            out += b"\xcf" + v.to_bytes(8, "big")
    elif v >= -32:
        out.append(v & 0xFF)
    elif v >= -128:
        out += b"\xd0" + v.to_bytes(1, "big", signed=True)
    elif v >= -32768:
        out += b"\xd1" + v.to_bytes(2, "big", signed=True)
    elif v >= -(2**31):
        out += b"\xd2" + v.to_bytes(4, "big", signed=True)
    else:
        out += b"\xd3" + v.to_bytes(8, "big", signed=True)


_F32_MAX = float(np.finfo(np.float32).max)


def _pack_float(v: float, out: bytearray) -> None:
    # a float32 when that is exact (as MindSpore's JSON library writes numbers), else a float64
    if -_F32_MAX <= v <= _F32_MAX and float(np.float32(v)) == v:
        out += b"\xca" + struct.pack(">f", v)
    else:
        out += b"\xcb" + struct.pack(">d", v)


def _pack_str(s: str, out: bytearray) -> None:
    b = s.encode("utf-8")
    n = len(b)
    if n < 32:
        out.append(0xA0 | n)
    elif n <= 0xFF:
        out += b"\xd9" + n.to_bytes(1, "big")
    elif n <= 0xFFFF:
        out += b"\xda" + n.to_bytes(2, "big")
    else:
        out += b"\xdb" + n.to_bytes(4, "big")
    out += b


def pack_map(d: dict) -> bytes:
    """A flat map of str keys to int/float/str values as MessagePack, keys sorted."""
    out = bytearray()
    n = len(d)
    if n < 16:
        out.append(0x80 | n)
    elif n <= 0xFFFF:
        out += b"\xde" + n.to_bytes(2, "big")
    else:
        out += b"\xdf" + n.to_bytes(4, "big")
    for k in sorted(d):
        _pack_str(k, out)
        v = d[k]
        if isinstance(v, str):
            _pack_str(v, out)
        elif isinstance(v, int):
            _pack_int(v, out)
        else:
            _pack_float(float(v), out)
    return bytes(out)


class _Unpacker:
    __slots__ = ("b", "i", "end")

    def __init__(self, b, start: int, end: int) -> None:
        self.b, self.i, self.end = b, start, end

    def take(self, n: int):
        j = self.i + n
        if j > self.end:
            raise FormatError("truncated MessagePack data")
        v = self.b[self.i : j]
        self.i = j
        return v

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def sint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big", signed=True)

    def value(self, depth: int = 0):
        if depth > 32:
            raise FormatError("MessagePack data nested too deeply")
        c = self.uint(1)
        if c < 0x80:
            return c
        if c >= 0xE0:
            return c - 0x100
        if 0xA0 <= c <= 0xBF:
            return self.str(c & 0x1F)
        if 0x80 <= c <= 0x8F:
            return self.map(c & 0x0F, depth)
        if 0x90 <= c <= 0x9F:
            return [self.value(depth + 1) for _ in range(c & 0x0F)]
        if c == 0xC0:
            return None
        if c in (0xC2, 0xC3):
            return c == 0xC3
        if c in (0xC4, 0xC5, 0xC6):
            return bytes(self.take(self.uint(1 << (c - 0xC4))))
        if c == 0xCA:
            return struct.unpack(">f", self.take(4))[0]
        if c == 0xCB:
            return struct.unpack(">d", self.take(8))[0]
        if 0xCC <= c <= 0xCF:
            return self.uint(1 << (c - 0xCC))
        if 0xD0 <= c <= 0xD3:
            return self.sint(1 << (c - 0xD0))
        if 0xD9 <= c <= 0xDB:
            return self.str(self.uint(1 << (c - 0xD9)))
        if c in (0xDC, 0xDD):
            n = self.uint(2 if c == 0xDC else 4)
            return [self.value(depth + 1) for _ in range(n)]
        if c in (0xDE, 0xDF):
            return self.map(self.uint(2 if c == 0xDE else 4), depth)
        raise FormatError(f"unsupported MessagePack type 0x{c:02x}")

    def str(self, n: int) -> str:
        try:
            return bytes(self.take(n)).decode("utf-8")
        except UnicodeDecodeError:
            raise FormatError("invalid UTF-8 in MessagePack string") from None

    def map(self, n: int, depth: int) -> dict:
        out = {}
        for _ in range(n):
            k = self.value(depth + 1)
            if not isinstance(k, str):
                raise FormatError("MessagePack map key is not a string")
            out[k] = self.value(depth + 1)
        return out


def unpack_map(b, start: int = 0, end: int | None = None) -> dict:
    """Decode one MessagePack map from ``b[start:end]``."""
    u = _Unpacker(b, start, len(b) if end is None else end)
    v = u.value()
    if not isinstance(v, dict):
        raise FormatError("a raw row is not a MessagePack map")
    return v


# ====================================================================== integer arrays
_LIMITS = np.array([127, 32767, 2**31 - 1], np.int64)


def compress_ints(a: np.ndarray) -> bytes:
    """An int32/int64 array in MindRecord's compressed integer layout."""
    v = np.ascontiguousarray(a, np.int64).reshape(-1)
    n = v.size
    mag = np.where(v < 0, -(v + 1), v)  # the narrowest signed width holding v
    codes = (mag[:, None] > _LIMITS[None, :]).sum(1).astype(np.uint8)
    pad = (-n) % 4
    c = np.concatenate([codes, np.zeros(pad, np.uint8)]).reshape(-1, 4)
    bitmap = (c[:, 0] << 6) | (c[:, 1] << 4) | (c[:, 2] << 2) | c[:, 3]
    le = v.astype("<i8").view(np.uint8).reshape(n, 8)
    keep = np.arange(8)[None, :] < (1 << codes.astype(np.int64))[:, None]
    return struct.pack(">I", n) + bitmap.astype(np.uint8).tobytes() + le[keep].tobytes()


def uncompress_ints(b, dtype: np.dtype) -> np.ndarray:
    """The inverse of :func:`compress_ints`."""
    if len(b) < 4:
        raise FormatError("truncated compressed integer array")
    n = struct.unpack_from(">I", b, 0)[0]
    nb = (n + 3) // 4
    if 4 + nb > len(b):
        raise FormatError("truncated compressed integer array")
    bm = np.frombuffer(b, np.uint8, nb, 4)
    codes = np.stack([(bm >> 6) & 3, (bm >> 4) & 3, (bm >> 2) & 3, bm & 3], 1).reshape(-1)[:n]
    widths = (1 << codes.astype(np.int64)).astype(np.int64)
    ends = np.cumsum(widths)
    total = int(ends[-1]) if n else 0
    data = np.frombuffer(b, np.uint8, len(b) - 4 - nb, 4 + nb)
    if total != data.size:
        raise FormatError(f"compressed integer array holds {data.size} value bytes, expected {total}")
    if not n:
        return np.zeros(0, dtype)
    starts = ends - widths
    j = np.arange(8)[None, :]
    idx = np.minimum(starts[:, None] + j, total - 1)
    top = data[ends - 1]
    fill = np.where(top >= 0x80, 0xFF, 0).astype(np.uint8)[:, None]
    full = np.where(j < widths[:, None], data[idx], fill).astype(np.uint8)
    return np.ascontiguousarray(full).view("<i8").reshape(-1).astype(dtype)


# ====================================================================== header
def header_json(
    header_size, page_size, compression_size, schema, desc, index_fields, pages, addresses, shard_id
) -> bytes:
    """The JSON header of one shard, with MindSpore's key order and separators."""

    def dump(v) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    sch = {"blob_fields": blob_fields(schema), "desc": desc, "schema": schema}
    idx = [{"index_field": f, "schema_id": 0} for f in index_fields] if index_fields else None
    plist = [page_json(p) for p in pages] if pages else None
    parts = [
        f'"header_size":{int(header_size)}',
        f'"index_fields":{dump(idx)}',
        f'"page":{dump(plist)}',
        f'"page_size":{int(page_size)}',
        f'"compression_size":{int(compression_size)}',
        f'"schema":{dump([sch])}',
        f'"shard_addresses":{dump(list(addresses))}',
        f'"shard_id":{int(shard_id)}',
        '"statistics":null',
        f'"version":{dump(VERSION)}',
    ]
    return ("{" + ",".join(parts) + "}").encode("utf-8")


def page_json(p: dict) -> dict:
    groups = p["row_group_ids"] or [(0, 0)]
    return {
        "end_row_id": p["end_row_id"],
        "page_id": p["page_id"],
        "page_size": p["page_size"],
        "page_type": p["page_type"],
        "page_type_id": p["page_type_id"],
        "row_group_ids": [{"id": g, "offset": o} for g, o in groups],
        "shard_id": p["shard_id"],
        "start_row_id": p["start_row_id"],
    }


def read_header(path: str, data=None) -> dict:
    """The JSON header of a shard file, checked: raises :class:`FormatError` for anything else."""
    if data is None:
        with open(path, "rb") as f:
            data = f.read(8)
            if len(data) == 8:
                data += f.read(min(_U64.unpack_from(data, 0)[0], MAX_HEADER_SIZE))
    if len(data) < 8:
        raise FormatError(f"{path} is not a MindRecord file: it is shorter than a header ({len(data)} bytes).")
    n = _U64.unpack_from(data, 0)[0]
    if n == 0 or n > MAX_HEADER_SIZE - 8:
        raise FormatError(f"{path} is not a MindRecord file: invalid header length {n}.")
    if 8 + n > len(data):
        raise FormatError(f"{path} is truncated: its header needs {8 + n} bytes, the file has fewer.")
    try:
        h = json.loads(bytes(data[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FormatError(f"{path} is not a MindRecord file: its header is not valid JSON.") from None
    if not isinstance(h, dict):
        raise FormatError(f"{path} is not a MindRecord file: its header is not a JSON object.")
    for key in ("header_size", "page_size", "schema", "shard_addresses", "version"):
        if key not in h:
            raise FormatError(f"{path} is not a MindRecord file: its header has no '{key}'.")
    hs, ps = h["header_size"], h["page_size"]
    if not _is_int(hs) or not _is_int(ps) or not 8 + n <= hs <= MAX_HEADER_SIZE or not 0 < ps <= MAX_PAGE_SIZE:
        raise FormatError(f"{path}: invalid header_size {hs!r} or page_size {ps!r}.")
    sch = h["schema"]
    if not isinstance(sch, list) or len(sch) != 1 or not isinstance(sch[0], dict) or "schema" not in sch[0]:
        raise FormatError(f"{path}: the header must hold exactly one schema.")
    try:
        schema = validate_schema(sch[0]["schema"])
    except MRMInvalidSchemaError as e:
        raise FormatError(f"{path}: invalid schema in the header: {e}") from None
    bf = sch[0].get("blob_fields")
    if bf is not None and list(bf) != blob_fields(schema):
        raise FormatError(f"{path}: the header's blob_fields {bf} do not match its schema.")
    pages = h.get("page") or []
    if not isinstance(pages, list):
        raise FormatError(f"{path}: the header's page list is invalid.")
    for p in pages:
        if not isinstance(p, dict) or p.get("page_type") not in (BLOB, RAW):
            raise FormatError(f"{path}: invalid page entry in the header: {p!r}.")
        for k in ("page_id", "page_type_id", "start_row_id", "end_row_id", "page_size"):
            if not _is_int(p.get(k)) or p[k] < 0:
                raise FormatError(f"{path}: invalid '{k}' in page entry {p!r}.")
        rg = p.get("row_group_ids")
        if not isinstance(rg, list) or any(
            not isinstance(g, dict) or not _is_int(g.get("id")) or not _is_int(g.get("offset")) for g in rg
        ):
            raise FormatError(f"{path}: invalid row_group_ids in page entry {p!r}.")
        if p["page_size"] > ps or p["end_row_id"] < p["start_row_id"]:
            raise FormatError(f"{path}: inconsistent page entry {p!r}.")
    ifl = h.get("index_fields") or []
    if not isinstance(ifl, list) or any(not isinstance(f, dict) or f.get("index_field") not in schema for f in ifl):
        raise FormatError(f"{path}: the header's index_fields {ifl!r} are not fields of its schema.")
    h["_schema"] = schema
    h["_desc"] = sch[0].get("desc", "")
    h["_index_fields"] = [f["index_field"] for f in ifl]
    h["_pages"] = pages
    h["_header_len"] = n
    return h


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _record_spans(mm, path: str, page: dict, offset: int, k: int, row: int, hs: int, ps: int, file_size: int):
    """Start and end offsets (``[2, k]``, each record's data without its 8-byte length) of the ``k``
    length-prefixed records at ``offset`` in ``page``, rows ``row``.. of the shard, none past the page's end."""
    base = hs + page["page_id"] * ps
    end = base + page["page_size"]
    if end > file_size:
        raise FormatError(
            f"{path} is truncated: page {page['page_id']} ends at byte {end}, the file has {file_size} bytes."
        )
    kind = "blob" if page["page_type"] == BLOB else "raw"
    starts, ends = [], []
    pos = base + offset
    unpack = _U64.unpack_from
    for j in range(k):
        length = unpack(mm, pos)[0] if pos + 8 <= end else end
        if pos + 8 + length > end:
            raise FormatError(f"{path}: {kind} page {page['page_id']} is corrupt (row {row + j} overruns it).")
        starts.append(pos + 8)
        pos += 8 + length
        ends.append(pos)
    return np.array([starts, ends], np.int64).reshape(2, k)


def row_offsets(path: str, h: dict, mm, file_size: int):
    """Byte offsets of every row of a shard: ``(blob_start, blob_end, raw_start, raw_end)`` arrays, each row's
    data without its length prefix."""
    hs, ps = h["header_size"], h["page_size"]
    pages = h["_pages"]
    blobs = sorted((p for p in pages if p["page_type"] == BLOB), key=lambda p: p["page_type_id"])
    groups: dict = {}
    for p in pages:
        if p["page_type"] != RAW:
            continue
        for g in p["row_group_ids"]:
            groups[g["id"]] = (p, g["offset"])
    for p in blobs:
        if (p["end_row_id"] - p["start_row_id"]) * 8 > p["page_size"]:
            raise FormatError(f"{path}: blob page {p['page_id']} claims more rows than it can hold.")
    n = sum(p["end_row_id"] - p["start_row_id"] for p in blobs)
    out = np.zeros((4, n), np.int64)
    r = 0
    expect = 0
    for p in blobs:
        if p["start_row_id"] != expect:
            raise FormatError(f"{path}: blob pages do not hold consecutive rows (page {p['page_id']}).")
        expect = p["end_row_id"]
        k = p["end_row_id"] - p["start_row_id"]
        out[0:2, r : r + k] = _record_spans(mm, path, p, 0, k, r, hs, ps, file_size)
        if not k:
            continue
        if p["page_type_id"] not in groups:
            raise FormatError(f"{path}: no raw page holds row group {p['page_type_id']}.")
        rp, off = groups[p["page_type_id"]]
        out[2:4, r : r + k] = _record_spans(mm, path, rp, off, k, r, hs, ps, file_size)
        r += k
    return out


# ====================================================================== row values
def split_blob(blob, nfields: int) -> list:
    """The pieces of a row's blob, one per blob field."""
    if nfields == 0:
        return []
    if nfields == 1:
        return [blob]
    out = []
    i, n = 0, len(blob)
    for _ in range(nfields):
        if i + 8 > n:
            raise FormatError("a blob is truncated")
        L = int.from_bytes(blob[i : i + 8], "big")
        if i + 8 + L > n:
            raise FormatError("a blob is truncated")
        out.append(blob[i + 8 : i + 8 + L])
        i += 8 + L
    return out


def decode_blob_field(piece, spec: dict, compressed: bool):
    """One blob field's stored bytes -> ``bytes`` (bytes fields) or a NumPy array of the schema's shape."""
    t = spec["type"]
    if t == "bytes":
        return bytes(piece)
    dt = NP_TYPES[t]
    if compressed and t in ("int32", "int64"):
        arr = uncompress_ints(piece, dt)
    else:
        if len(piece) % dt.itemsize:
            raise FormatError(f"a {t} array of {len(piece)} bytes is not a whole number of elements")
        arr = np.frombuffer(bytes(piece), dt)
    shape = spec["shape"]
    if shape:
        try:
            arr = arr.reshape(shape)
        except ValueError:
            raise FormatError(f"an array of {arr.size} elements does not fit the schema's shape {shape}") from None
    else:
        if arr.size != 1:
            raise FormatError(f"an array of {arr.size} elements does not fit the schema's shape []")
        arr = arr.reshape(())
    return arr.astype(dt.newbyteorder("="), copy=False)


def verified_raw_value(name: str, spec: dict, v):
    """A raw field's decoded value, checked against its type (Python int, float or str)."""
    t = spec["type"]
    if t == "string":
        if isinstance(v, str):
            return v
    elif t in ("int32", "int64"):
        if isinstance(v, int) and not isinstance(v, bool):
            lo, hi = INT_RANGE[t]
            if lo <= v <= hi:
                return v
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise FormatError(f"field '{name}' holds {v!r}, which is not a valid {t}")
