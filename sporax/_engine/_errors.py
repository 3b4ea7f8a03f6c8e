"""What a failed trace means: the errors JAX raises when Python needs a traced value as a Python one."""

from __future__ import annotations

import jax

# Errors that mean "this Python cannot be traced" (control flow on a tensor's value and the like).
TRACE_ERRORS: tuple[type[BaseException], ...] = (
    jax.errors.ConcretizationTypeError,
    jax.errors.TracerBoolConversionError,
    jax.errors.TracerIntegerConversionError,
    jax.errors.TracerArrayConversionError,
)


def is_trace_error(err: BaseException) -> bool:
    """Whether ``err`` says the Python being traced needs a traced value as a Python one (``if x > 0`` on a
    tensor, ``int(x)``...): the function can run eagerly, or be rewritten, but not be traced as it is."""
    return isinstance(err, TRACE_ERRORS)
