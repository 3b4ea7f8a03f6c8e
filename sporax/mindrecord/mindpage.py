"""``MindPage``: read the rows of MindRecord files by category (the value of an index field), page by page."""

from __future__ import annotations

import json
import pathlib
import sqlite3

from .._checkparam import check_mr_int, check_mr_page, check_num_consumer
from .common.exceptions import MRMDefineCategoryError, ParamTypeError, ParamValueError
from .filereader import ShardSet, open_shard_set

__all__ = ["MindPage"]


class MindPage:
    """Read the rows of MindRecord files grouped by the value of an index field (a category).

    Args:
        file_name (Union[str, list[str]]): a MindRecord file (every shard of its set is read) or a list of files.
        num_consumer (int, optional): accepted for compatibility. Default: ``4``.

    Raises:
        ParamValueError: ``num_consumer`` is invalid.
        RuntimeError: the files cannot be read.

    Examples:
        >>> from mindspore.mindrecord import MindPage
        >>> reader = MindPage("test.mindrecord")
        >>> reader.category_field = "label"
        >>> info = reader.read_category_info()
        >>> rows = reader.read_at_page_by_id(0, 0, 1)
    """

    def __init__(self, file_name, num_consumer=4) -> None:
        check_num_consumer(num_consumer, ParamValueError)
        shard_set = open_shard_set(file_name)
        self._set: ShardSet | None = shard_set
        first = shard_set.shards[0].header
        self._candidate_fields = list(first["_index_fields"])
        self._category_field: str | None = None
        self._categories: list[tuple] | None = None

    @property
    def candidate_fields(self) -> list[str]:
        """The fields that can be category fields (the index fields)."""
        return list(self._candidate_fields)

    @property
    def category_field(self):
        """The category field (``None`` until set)."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field) -> None:
        if not isinstance(category_field, str):
            raise ParamTypeError("category_field should be a str.")
        if category_field not in self._candidate_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate category field.")
        self._category_field = category_field
        self._categories = None

    def _query(self, sql: str, args=()) -> list[list]:
        out = []
        for s in self._shards():
            con = sqlite3.connect(pathlib.Path(s.path + ".db").absolute().as_uri() + "?mode=ro", uri=True)
            try:
                out.append(con.execute(sql, args).fetchall())
            except sqlite3.Error as e:
                raise RuntimeError(f"Invalid file, failed to read the index file {s.path}.db: {e}.") from None
            finally:
                con.close()
        return out

    def _category_list(self) -> list[tuple]:
        if self._category_field is None:
            raise MRMDefineCategoryError("Set category_field before reading categories.")
        if self._categories is None:
            col = f"{self._category_field}_0"
            counts: dict = {}
            for rows in self._query(f"SELECT {col}, COUNT(*) FROM INDEXES GROUP BY {col}"):
                for v, c in rows:
                    counts[v] = counts.get(v, 0) + c
            self._categories = categories = sorted(counts.items(), key=lambda kv: (isinstance(kv[0], str), kv[0]))
            return categories
        return self._categories

    def read_category_info(self) -> str:
        """The categories of the category field, as JSON:
        ``{"categories": [{"count": n, "id": i, "name": value}, ...], "key": field}``.

        Returns:
            str.
        """
        cats = self._category_list()
        info = {
            "categories": [{"count": c, "id": i, "name": str(v)} for i, (v, c) in enumerate(cats)],
            "key": f"{self._category_field}_0",
        }
        return json.dumps(info, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def read_at_page_by_id(self, category_id, page, num_row) -> list[dict]:
        """The rows of page ``page`` (``num_row`` rows a page) of the category with id ``category_id``.

        Args:
            category_id (int): the category id (see :meth:`read_category_info`).
            page (int): the page, from 0.
            num_row (int): rows in a page.

        Returns:
            list[dict], the rows.

        Raises:
            ParamValueError: an argument is invalid.
            RuntimeError: the category or the page does not exist.
        """
        check_mr_int(category_id, 0, ParamValueError, "Category id should be int and greater than or equal to 0.")
        check_mr_page(page, num_row, ParamValueError)
        cats = self._category_list()
        if category_id >= len(cats):
            raise RuntimeError(f"Invalid data, category id {category_id} does not exist ({len(cats)} categories).")
        return self._page(cats[category_id][0], page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row) -> list[dict]:
        """The rows of page ``page`` (``num_row`` rows a page) of the category named ``category_name``.

        Args:
            category_name (str): the category (see :meth:`read_category_info`).
            page (int): the page, from 0.
            num_row (int): rows in a page.

        Returns:
            list[dict], the rows.

        Raises:
            ParamValueError: an argument is invalid.
            RuntimeError: the category or the page does not exist.
        """
        if not isinstance(category_name, str):
            raise ParamValueError("Category name should be str.")
        check_mr_page(page, num_row, ParamValueError)
        for v, _ in self._category_list():
            if str(v) == category_name:
                return self._page(v, page, num_row)
        raise RuntimeError(f"Invalid data, category name {category_name!r} does not exist.")

    def _page(self, value, page: int, num_row: int) -> list[dict]:
        col = f"{self._category_field}_0"
        hits = []
        for k, rows in enumerate(self._query(f"SELECT ROW_ID FROM INDEXES WHERE {col} = ? ORDER BY ROW_ID", (value,))):
            hits += [(k, r[0]) for r in rows]
        chunk = hits[page * num_row : (page + 1) * num_row]
        if not chunk:
            raise RuntimeError(f"Invalid data, page {page} is out of range: the category has {len(hits)} rows.")
        out = []
        for k, r in chunk:
            s = self._shards()[k]
            if not 0 <= r < s.num_rows:
                raise RuntimeError(f"Invalid file, the index file {s.path}.db points at row {r} of {s.num_rows}.")
            row = dict(s.raw_row(r))
            row.update(s.blob_row(r))
            out.append(row)
        return out

    def _shards(self) -> list:
        if self._set is None:
            raise RuntimeError("The MindPage is closed.")
        return self._set.shards

    def close(self) -> None:
        """Close the files."""
        s, self._set = getattr(self, "_set", None), None
        if s is not None:
            s.close()
