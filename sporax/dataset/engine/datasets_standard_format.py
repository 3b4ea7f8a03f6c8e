"""Sources in standard file formats: :class:`CSVDataset` and :class:`TFRecordDataset`."""

from __future__ import annotations

import csv
import io

import numpy as np

from ..._checkparam import check_dataset_files
from ._file_source import FileRowSource, read_text
from .errors import pipeline_error
from .schema import Schema

__all__ = ["CSVDataset", "TFRecordDataset"]


class CSVDataset(FileRowSource):
    """Rows of CSV files (RFC 4180 quoting). Without ``column_names`` the first line of the first file names the
    columns (and each file's first line is skipped); with them, every line is data. A column is a string
    (``str``), or int32 / float32 when its ``column_defaults`` entry is an int / a float (an empty field takes
    the default).

    Args:
        dataset_files (Union[str, list[str]]): files or a glob pattern.
        field_delim (str, optional): one-character delimiter (not ``"``, ``\\r``, ``\\n``). Default: ``','``.
        column_defaults (list, optional): per-column default and type (int, float or str). Default: ``None``.
        column_names (list[str], optional): the column names. Default: ``None``, the header line.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for every file source.

    Raises:
        ValueError: ``field_delim`` is invalid or no file matches.
        TypeError: a ``column_defaults`` entry is not int, float or str.
        RuntimeError: a field does not parse as its column's type (when read).
    """

    def __init__(
        self,
        dataset_files,
        field_delim=",",
        column_defaults=None,
        column_names=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle="global",
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        files = check_dataset_files(dataset_files)
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError("field_delim is invalid.")
        if column_defaults is not None:
            if not isinstance(column_defaults, list):
                raise TypeError("column_defaults should be type of list.")
            for v in column_defaults:
                if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                    raise TypeError("column type in column_defaults is invalid.")
        if column_names is not None:
            if not isinstance(column_names, list) or not all(isinstance(c, str) for c in column_names):
                raise TypeError("column_names should be type of list of str.")
            if len(set(column_names)) != len(column_names):
                raise ValueError("column_names should not have duplicate values.")
        self.dataset_files = files
        self.field_delim = field_delim
        self.column_defaults = column_defaults
        self.column_names = column_names
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        if self.column_names is not None:
            return list(self.column_names)
        lines = list(csv.reader(io.StringIO(read_text(self._files[0])), delimiter=self.field_delim))
        if not lines:
            raise pipeline_error(f"Invalid file, the CSV file {self._files[0]} is empty.")
        return lines[0]

    def _read_file(self, path):
        lines = list(csv.reader(io.StringIO(read_text(path)), delimiter=self.field_delim))
        if self.column_names is None:
            lines = lines[1:]
        ncols = len(self._columns())
        defaults = self.column_defaults or []
        rows = []
        for ln, fields in enumerate(lines, 2 if self.column_names is None else 1):
            if not fields:
                continue
            if len(fields) != ncols:
                raise pipeline_error(
                    f"Invalid csv, csv file: {path} parse failed at line {ln}, the number of columns does not match."
                )
            row = []
            for k, s in enumerate(fields):
                d = defaults[k] if k < len(defaults) else ""
                try:
                    if isinstance(d, int):
                        row.append(np.asarray(int(s) if s else d, np.int32))
                    elif isinstance(d, float):
                        row.append(np.asarray(float(s) if s else d, np.float32))
                    else:
                        row.append(np.asarray(s if s else d))
                except ValueError:
                    raise pipeline_error(
                        f"Invalid csv, csv file: {path} parse failed at line {ln}, type does not match."
                    ) from None
            rows.append(row)
        return rows


_TYPES = {"int64": np.int64, "float": np.float32, "bytes": np.uint8}


class TFRecordDataset(FileRowSource):
    """Rows of TFRecord files of ``tf.train.Example`` messages (no TensorFlow needed; record CRCs are checked).

    Without a schema the columns are the features of the first example, sorted by name: an int64 list is an
    int64 array, a float list a float32 array, one bytes value a uint8 array of its bytes. A schema (a
    :class:`Schema` or its JSON file) names the columns and gives their types and shapes.

    Args:
        dataset_files (Union[str, list[str]]): files or a glob pattern.
        schema (Union[str, Schema], optional): the schema. Default: ``None``.
        columns_list (list[str], optional): the columns to read, in this order. Default: ``None``, all.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for every file source.
        shard_equal_rows (bool, optional): kept for compatibility (shards always get equal rows). Default: ``False``.
        compression_type (str, optional): ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``. Default: ``None``.

    Raises:
        ValueError: no file matches, or an invalid ``compression_type``.
        RuntimeError: a record is corrupt or a column is missing (when read).
    """

    def __init__(
        self,
        dataset_files,
        schema=None,
        columns_list=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle="global",
        num_shards=None,
        shard_id=None,
        shard_equal_rows=False,
        cache=None,
        compression_type=None,
    ) -> None:
        files = check_dataset_files(dataset_files)
        if compression_type not in (None, "", "GZIP", "ZLIB"):
            raise ValueError("Input compression_type can only be either '' (no compression), 'ZLIB', or 'GZIP'.")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError("schema should be a path to a schema file or a Schema object.")
        if columns_list is not None and (
            not isinstance(columns_list, list) or not all(isinstance(c, str) for c in columns_list)
        ):
            raise TypeError("columns_list should be type of list of str.")
        if not isinstance(shard_equal_rows, bool):
            raise TypeError("shard_equal_rows should be a bool.")
        self.dataset_files = files
        self.schema = schema
        self.columns_list = columns_list
        self.shard_equal_rows = shard_equal_rows
        self.compression_type = compression_type or None
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _schema_cols(self):
        if self.schema is None:
            return None
        return {c["name"]: c for c in self.schema.columns}

    def _columns(self):
        if self.columns_list is not None:
            return list(self.columns_list)
        sc = self._schema_cols()
        if sc is not None:
            return list(sc)
        from ...mindrecord._tfrecord import parse_example, read_records

        for f in self._files:
            recs = read_records(f, self.compression_type)
            if recs:
                return sorted(parse_example(recs[0]))
        raise pipeline_error("Invalid data, the TFRecord files hold no record.")

    def _read_file(self, path):
        from ...mindrecord._tfrecord import parse_example, read_records

        try:
            recs = read_records(path, self.compression_type)
        except RuntimeError as e:
            raise pipeline_error(str(e)) from None
        names = self._columns()
        sc = self._schema_cols() or {}
        rows = []
        for r in recs:
            ex = parse_example(r)
            row = []
            for n in names:
                if n not in ex:
                    raise pipeline_error(f"Invalid data, column name: {n} does not exist in the TFRecord file {path}.")
                kind, vals = ex[n]
                if kind == "bytes":
                    arr = np.frombuffer(vals[0], np.uint8).copy() if len(vals) == 1 else np.asarray(vals)
                else:
                    arr = np.asarray(vals, _TYPES[kind])
                c = sc.get(n)
                if c is not None:
                    if c.get("type") is not None and kind != "bytes":
                        from ...common import dtype as mstype

                        arr = arr.astype(mstype.to_np(c["type"]))
                    if c.get("shape"):
                        arr = arr.reshape(c["shape"])
                row.append(arr)
            rows.append(row)
        return rows
