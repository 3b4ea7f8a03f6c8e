"""``JitConfig``: the compile options a Cell or ``Model`` takes (MindSpore's ``mindspore.JitConfig``).

The options are validated as MindSpore validates them and kept in ``jit_config_dict``. On XLA they mean:
``jit_level`` O0/O1/O2 all compile the whole step with XLA (XLA chooses fusions itself); ``exc_mode``
"sink"/"no_sink"/"auto" are accepted (sink mode is chosen by ``Model.train(dataset_sink_mode=...)``);
``jit_syntax_level`` STRICT/COMPATIBLE/LAX: sporax compiles what it can and falls back to eager for code it
cannot convert, which is LAX's meaning; ``debug_level`` and ``infer_boost`` have no effect.
"""

from __future__ import annotations

from typing import Any

__all__ = ["JitConfig"]


class JitConfig:
    """Compile options for a Cell (``net.set_jit_config(JitConfig(jit_level="O1"))``) or a ``Model``."""

    def __init__(
        self,
        jit_level: str = "",
        exc_mode: str = "auto",
        jit_syntax_level: str = "",
        debug_level: str = "RELEASE",
        infer_boost: str = "off",
        **kwargs: Any,
    ) -> None:
        kwargs.pop("suppress_infer_boost_warning", None)
        if jit_level not in ["", "O0", "O1", "O2"]:
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ["auto", "sink", "no_sink"]:
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if jit_syntax_level != "" and jit_syntax_level not in ["STRICT", "COMPATIBLE", "LAX"]:
            raise ValueError("For 'jit_syntax_level' must be one of '['STRICT', 'LAX']'.")
        if debug_level not in ["RELEASE", "DEBUG"]:
            raise ValueError("For 'debug_level' must be one of '['RELEASE', 'DEBUG']'.")
        if infer_boost != "" and infer_boost not in ["on", "off"]:
            raise ValueError("For 'infer_boost' must be one of '['on', 'off']'.")
        self.jit_config_dict: dict[str, Any] = kwargs
        self.jit_config_dict["jit_level"] = jit_level
        self.jit_config_dict["exc_mode"] = exc_mode
        self.jit_config_dict["jit_syntax_level"] = jit_syntax_level
        self.jit_config_dict["debug_level"] = debug_level
        self.jit_config_dict["infer_boost"] = infer_boost
        if "backend" not in self.jit_config_dict:
            if jit_level in ["O0", "O1"]:
                self.jit_config_dict["backend"] = "ms_backend"
            elif jit_level == "O2":
                self.jit_config_dict["backend"] = "GE"

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"
