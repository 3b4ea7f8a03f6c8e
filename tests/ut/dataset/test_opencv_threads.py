"""OpenCV as the vision transforms use it (sporax/dataset/vision/_opencv.py): its parallel_for pool set to
one thread when they load (the pipeline's workers are the parallelism), and the limits of its kernels."""

import cv2
import numpy as np

from sporax.dataset.vision import _opencv


def test_opencv_pool_single_threaded():
    assert cv2.getNumThreads() == 1


def test_kernel_limits():
    assert _opencv.MAX_CHANNELS in (4, 128, 512)
    with np.testing.assert_raises(cv2.error):
        cv2.resize(np.zeros((2, 2, _opencv.MAX_CHANNELS + 1), np.uint8), (1, 1))
    assert np.dtype(np.uint8) in _opencv.COPY_DTYPES and np.dtype(np.int64) not in _opencv.COPY_DTYPES
