"""``mindspore.ops._primitive_cache._get_cache_prim``: one primitive instance per (class, arguments)."""

from __future__ import annotations

from typing import Any

__all__ = ["_get_cache_prim"]

_PRIM_CACHE: dict[str, Any] = {}


def _get_cache_prim(cls: Any) -> Any:
    """``_get_cache_prim(ops.ReduceSum)(keep_dims=True)`` returns the same ``ReduceSum(keep_dims=True)`` each
    time (keyed, as in MindSpore, by the class and the str of each argument)."""

    def get(*args: Any, **kwargs: Any) -> Any:
        key = str((str(cls), *(str(a) for a in args), *(f"{k}:{v}" for k, v in kwargs.items())))
        prim = _PRIM_CACHE.get(key)
        if prim is None:
            prim = _PRIM_CACHE[key] = cls(*args, **kwargs)
        return prim

    return get
