"""``Schema``: column names, types and shapes of a dataset."""

from __future__ import annotations

import json

__all__ = ["Schema"]


class Schema:
    """Column names, types and shapes.

    Args:
        schema_file (str, optional): a JSON schema file (``{"columns": {name: {"type": ..., "shape": [...]}}}``).
    """

    def __init__(self, schema_file=None) -> None:
        self.columns: list[dict] = []
        self.num_rows = 0
        if schema_file is not None:
            with open(schema_file, encoding="utf-8") as f:
                spec = json.load(f)
            cols = spec.get("columns", {})
            items = cols.items() if isinstance(cols, dict) else ((c["name"], c) for c in cols)
            for name, c in items:
                self.add_column(name, c.get("type"), c.get("shape"))
            self.num_rows = int(spec.get("numRows", 0))

    def add_column(self, name, de_type, shape=None) -> None:
        """Add a column of type ``de_type`` (a sporax dtype or a type name such as ``'int32'``)."""
        from ...common import dtype as mstype

        if isinstance(de_type, str):
            de_type = mstype.from_np(de_type)
        self.columns.append({"name": name, "type": de_type, "shape": None if shape is None else list(shape)})

    def to_json(self) -> str:
        from ...common import dtype as mstype

        return json.dumps(
            {
                "columns": {
                    c["name"]: {"type": str(mstype.to_np(c["type"])), **({"shape": c["shape"]} if c["shape"] else {})}
                    for c in self.columns
                }
            }
        )

    def __repr__(self) -> str:
        return self.to_json()
