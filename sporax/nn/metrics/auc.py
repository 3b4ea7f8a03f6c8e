"""auc"""

from __future__ import annotations

import numpy as np


def auc(x, y, reorder=False):
    """
    Computes the AUC (Area Under the Curve) using the trapezoidal rule, e.g. of a ROC curve.

    Args:
        x (np.ndarray): From the ROC curve (fpr), false positive rates, shape :math:`(N)`.
        y (np.ndarray): From the ROC curve (tpr), true positive rates, shape :math:`(N)`.
        reorder (bool, optional): If ``False``, x must rise or fall monotonously. If True, x will be sorted in
            ascending order. Default: ``False`` .

    Returns:
        float, the area under the curve.

    Examples:
        >>> import numpy as np
        >>> from sporax.train import auc
        >>> print(auc(np.array([0., 0.5, 1.]), np.array([0., 1., 1.])))
        0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    _verify_consistent_length(x, y)
    x = _column_or_1d(x)
    y = _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(
            f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got {x.shape[0]}."
        )
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError(
                    "For 'auc', if the argument is False, the argument 'x' array must be increasing "
                    f"or decreasing, but got 'x': {x}"
                )
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    area = direction * trapezoid(y, x)
    if isinstance(area, np.memmap):
        area = area.dtype.type(area)
    return area


def _column_or_1d(y):
    """Ravel a column or 1D numpy array, otherwise raise a ValueError."""
    shape = np.shape(y)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(y)
    raise ValueError(
        "For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the second "
        f"dimension of 1, but got shape {shape}."
    )


def _num_samples(x):
    """Return the number of samples in array-like x."""
    if not hasattr(x, "__len__") and not hasattr(x, "shape"):
        if hasattr(x, "__array__"):
            x = np.asarray(x)
        else:
            raise TypeError(f"Expected sequence or array-like, got {type(x)}.")
    if hasattr(x, "shape"):
        if x.ndim == 0:
            raise TypeError(f"Singleton array {x} cannot be considered as a valid collection.")
        return x.shape[0]
    return len(x)


def _verify_consistent_length(*arrays):
    """Check that all arrays have consistent first dimensions."""
    lengths = [_num_samples(array) for array in arrays if array is not None]
    if len(np.unique(lengths)) > 1:
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: {[int(length) for length in lengths]}."
        )
