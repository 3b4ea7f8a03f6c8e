"""Image file helpers (``mindspore.dataset.vision``): read_file/read_image, write_file/write_jpeg/write_png,
encode_jpeg/encode_png (OpenCV's codecs, as MindSpore), get_image_size/get_image_num_channels."""

from __future__ import annotations

import os

import cv2
import numpy as np

from ..._checkparam import check_image_file, check_pipeline_int
from .utils import ImageReadMode

__all__ = [
    "read_file",
    "read_image",
    "write_file",
    "write_jpeg",
    "write_png",
    "encode_jpeg",
    "encode_png",
    "get_image_size",
    "get_image_num_channels",
    "not_random",
]


def not_random(func):
    """Mark a Python function given to ``map`` as deterministic (``transforms.not_random``); returns ``func``."""
    from ..transforms.transforms import not_random as _mark

    return _mark(func)


def _np(image):
    asnumpy = getattr(image, "asnumpy", None)
    return asnumpy() if asnumpy is not None else np.asarray(image)


def read_file(filename) -> np.ndarray:
    """The bytes of a file as a 1-D uint8 array."""
    with open(check_image_file(filename), "rb") as f:
        return np.frombuffer(f.read(), np.uint8).copy()


def read_image(filename, mode=ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode an image file to HWC uint8: ``UNCHANGED`` (as stored), ``GRAYSCALE`` (1 channel), ``COLOR`` (RGB)."""
    f = check_image_file(filename)
    mode = ImageReadMode(mode)
    flag = {ImageReadMode.UNCHANGED: cv2.IMREAD_UNCHANGED, ImageReadMode.GRAYSCALE: cv2.IMREAD_GRAYSCALE,
            ImageReadMode.COLOR: cv2.IMREAD_COLOR}[mode]  # fmt: skip
    img = cv2.imdecode(read_file(f), flag)
    if img is None:
        raise RuntimeError(f"Invalid file, failed to decode the image {f}.")
    if img.ndim == 2:
        return img[..., None]
    if img.shape[2] == 3:
        return np.ascontiguousarray(img[..., ::-1])
    if img.shape[2] == 4:
        return np.ascontiguousarray(img[..., [2, 1, 0, 3]])
    return img


def write_file(filename, data) -> None:
    """Write a 1-D uint8 array's bytes to ``filename``."""
    arr = _np(data)
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"write_file: the data should be a 1-D uint8 array, but got {arr.dtype} of rank {arr.ndim}.")
    with open(os.fspath(filename), "wb") as f:
        f.write(arr.tobytes())


def _encode(image, ext, params, name):
    img = _np(image)
    if img.dtype != np.uint8 or img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (1, 3)):
        raise RuntimeError(f"{name}: The image should be uint8 <H, W> or <H, W, 1|3>, but got {img.dtype} "
                           f"{list(img.shape)}.")  # fmt: skip
    if img.ndim == 3 and img.shape[2] == 3:
        img = img[..., ::-1]
    ok, buf = cv2.imencode(ext, np.ascontiguousarray(img), params)
    if not ok:
        raise RuntimeError(f"{name}: failed to encode the image.")
    return buf.ravel()


def encode_jpeg(image, quality=75) -> np.ndarray:
    """JPEG bytes (1-D uint8) of an RGB or gray uint8 image; ``quality`` in [1, 100]."""
    check_pipeline_int(quality, "quality", 1, 100)
    return _encode(image, ".jpg", [cv2.IMWRITE_JPEG_QUALITY, int(quality)], "encode_jpeg")


def encode_png(image, compression_level=6) -> np.ndarray:
    """PNG bytes (1-D uint8) of an RGB or gray uint8 image; ``compression_level`` in [0, 9]."""
    check_pipeline_int(compression_level, "compression_level", 0, 9)
    return _encode(image, ".png", [cv2.IMWRITE_PNG_COMPRESSION, int(compression_level)], "encode_png")


def write_jpeg(filename, image, quality=75) -> None:
    """Write ``encode_jpeg(image, quality)`` to ``filename``."""
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6) -> None:
    """Write ``encode_png(image, compression_level)`` to ``filename``."""
    write_file(filename, encode_png(image, compression_level))


def get_image_size(image) -> list:
    """``[height, width]`` of an HWC NumPy image or a PIL image."""
    if type(image).__module__.startswith("PIL."):
        return [image.size[1], image.size[0]]
    img = _np(image)
    if img.ndim < 2:
        raise RuntimeError(f"get_image_size: the image should have at least 2 dimensions, but got {img.ndim}.")
    return [int(img.shape[0]), int(img.shape[1])]


def get_image_num_channels(image) -> int:
    """Channels of an HWC NumPy image (1 for HW) or a PIL image."""
    if type(image).__module__.startswith("PIL."):
        return len(image.getbands())
    img = _np(image)
    if img.ndim == 2:
        return 1
    if img.ndim != 3:
        raise RuntimeError(f"get_image_num_channels: the image should be <H, W> or <H, W, C>, but got rank {img.ndim}.")
    return int(img.shape[2])
