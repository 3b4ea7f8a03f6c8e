"""What the Tensor mixins (``TensorMethods``, ``TensorTopMethods``) read of the Tensor they are mixed into,
declared for the type checker only: ``Tensor`` defines each of them (``tensor.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from . import dtype as mstype
    from .tensor import Tensor

__all__ = ["TensorFields"]


class TensorFields:
    """Base of the Tensor mixins: no members at run time."""

    __slots__ = ()

    if TYPE_CHECKING:
        _data: Any  # the jax array (Tensor's slot; a Parameter's property)

        @property
        def dtype(self) -> mstype.Type: ...

        @property
        def shape(self) -> tuple[int, ...]: ...

        @property
        def ndim(self) -> int: ...

        @property
        def size(self) -> int: ...

        def asnumpy(self) -> np.ndarray: ...

        def copy(self) -> Tensor: ...
