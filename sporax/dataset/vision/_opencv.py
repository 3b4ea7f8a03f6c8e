"""OpenCV as the vision transforms use it: its process-wide settings for the data pipeline (applied once, when
the transforms load) and the limits of its kernels."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["MAX_CHANNELS", "COPY_DTYPES"]


# the pipeline runs images in parallel across its workers: OpenCV's own pool would only contend with them
cv2.setNumThreads(1)


def _max_channels() -> int:
    """The most channels one ``cv2.resize`` call takes (512 in OpenCV 4, 128 in OpenCV 5)."""
    for k in (512, 128, 4):
        try:
            cv2.resize(np.zeros((2, 2, k), np.uint8), (1, 1))
            return k
        except cv2.error:
            continue
    return 4


MAX_CHANNELS = _max_channels()
# the dtypes OpenCV's copying kernels (flip, split) take
COPY_DTYPES = frozenset(np.dtype(t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.int32, np.float32, np.float64))
