"""The compiler options each compiled program asks XLA for: a spy on the engine's ``jax.jit``."""

from sporax._engine import _jit


def spy_compiler_options(monkeypatch) -> list:
    """A list that receives the ``compiler_options`` of every ``jax.jit`` the engine builds from now on."""
    seen: list = []
    real_jit = _jit.jax.jit

    def spy(fn, *a, **kw):
        seen.append(kw.get("compiler_options"))
        return real_jit(fn, *a, **kw)

    monkeypatch.setattr(_jit.jax, "jit", spy)
    return seen
