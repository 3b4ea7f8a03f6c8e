"""``ops.SampleDistortedBoundingBoxV2``: a random crop of an image that keeps enough of at least one of its
bounding boxes (TensorFlow's sampling: up to ``max_attempts`` tries of a random aspect ratio and area; the
whole image when none fits). It runs on the host: the crop's size is data-dependent."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax
from ...common.tensor import Tensor
from .random_ops import _Random

__all__ = ["SampleDistortedBoundingBoxV2"]


def _rng(seed: int | None) -> np.random.Generator:
    """A host generator drawn from sporax's random state (the op's own seed when it has one)."""
    from ...common.seed import next_key

    key = next_key(seed)
    data = jax.random.key_data(key) if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key) else key
    return np.random.default_rng(np.asarray(data).astype(np.uint64))


def _random_crop(rng: Any, h: int, w: int, aspect: float, min_area: float, max_area: float) -> Any:
    """A crop (y, x, height, width) of ``aspect`` (width / height) and area in [min_area, max_area] pixels,
    or None when that aspect cannot give such an area."""
    height = int(round(math.sqrt(min_area / aspect)))
    max_height = int(round(math.sqrt(max_area / aspect)))
    if round(max_height * aspect) > w:
        max_height = int((w + 0.5 - 1e-7) / aspect)
    max_height = min(max_height, h)
    height = min(height, max_height)
    if height < max_height:
        height += int(rng.integers(0, max_height - height + 1))
    width = int(round(height * aspect))
    if width * height < min_area:
        height += 1
        width = int(round(height * aspect))
    if width * height > max_area:
        height -= 1
        width = int(round(height * aspect))
    area = width * height
    if not (min_area <= area <= max_area) or width > w or height > h or width <= 0 or height <= 0:
        return None
    y = int(rng.integers(0, h - height)) if height < h else 0
    x = int(rng.integers(0, w - width)) if width < w else 0
    return y, x, height, width


def _covers(crop: tuple[int, int, int, int], boxes: np.ndarray, min_covered: float) -> bool:
    """Whether the crop holds at least ``min_covered`` of one box's area (boxes in pixels: y0, x0, y1, x1)."""
    y, x, ch, cw = crop
    for y0, x0, y1, x1 in boxes:
        area = (y1 - y0) * (x1 - x0)
        if area <= 0:
            continue
        inter = max(0.0, min(y + ch, y1) - max(y, y0)) * max(0.0, min(x + cw, x1) - max(x, x0))
        if inter / area >= min_covered:
            return True
    return False


class SampleDistortedBoundingBoxV2(_Random):
    """``SampleDistortedBoundingBoxV2(seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
    max_attempts=100, use_image_if_no_bounding_boxes=False)(image_size, bounding_boxes, min_object_covered)``
    -> ``(begin, size, bboxes)``: the crop's ``[y, x, 0]`` and ``[height, width, -1]`` (``image_size``'s dtype)
    and the crop as a normalised ``[[[y_min, x_min, y_max, x_max]]]`` (Float32)."""

    def __init__(
        self,
        seed: int = 0,
        seed2: int = 0,
        aspect_ratio_range: tuple[float, float] = (0.75, 1.33),
        area_range: tuple[float, float] = (0.05, 1.0),
        max_attempts: int = 100,
        use_image_if_no_bounding_boxes: bool = False,
    ) -> None:
        super().__init__(seed, seed2)
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts <= 0:
            raise ValueError(
                f"For '{self.name}', the 'max_attempts' must be int and must > 0, but got '{max_attempts}' with type "
                f"'{type(max_attempts).__name__}'."
            )
        validator.check_value_type("use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes, [bool], self.name)
        for name, (lo, hi) in (("aspect_ratio_range", aspect_ratio_range), ("area_range", area_range)):
            if lo <= 0 or hi < lo or (name == "area_range" and hi > 1.0):
                raise ValueError(
                    f"For '{self.name}', the '{name}' must be an increasing positive pair, but got {(lo, hi)}."
                )
        self.aspect_ratio_range = (float(aspect_ratio_range[0]), float(aspect_ratio_range[1]))
        self.area_range = (float(area_range[0]), float(area_range[1]))
        self.max_attempts, self.use_image_if_no_bounding_boxes = max_attempts, use_image_if_no_bounding_boxes
        for name in ("aspect_ratio_range", "area_range", "max_attempts", "use_image_if_no_bounding_boxes"):
            self.add_prim_attr(name, getattr(self, name))

    def __call__(self, image_size: Any, bounding_boxes: Any, min_object_covered: Any) -> Any:
        size_np = image_size.asnumpy()
        h, w = int(size_np[0]), int(size_np[1])
        boxes = np.asarray(bounding_boxes.asnumpy(), np.float64).reshape(-1, 4)
        if boxes.shape[0] == 0:
            if not self.use_image_if_no_bounding_boxes:
                raise ValueError(
                    f"For '{self.name}', batch or N in bounding_boxes whose shape is [batch, N, 4] equals 0, which "
                    "means no bounding boxes provided as input. Set use_image_if_no_bounding_boxes=True if you wish "
                    "to not provide any bounding boxes."
                )
            boxes = np.array([[0.0, 0.0, 1.0, 1.0]])
        pixels = boxes * np.array([h, w, h, w], np.float64)
        covered = float(np.asarray(min_object_covered.asnumpy()).reshape(-1)[0])
        rng = _rng(self._seed)
        crop = (0, 0, h, w)
        for _ in range(self.max_attempts):
            aspect = float(rng.uniform(*self.aspect_ratio_range))
            found = _random_crop(rng, h, w, aspect, self.area_range[0] * h * w, self.area_range[1] * h * w)
            if found is not None and _covers(found, pixels, covered):
                crop = found
                break
        y, x, ch, cw = crop
        dt = size_np.dtype
        begin = Tensor(np.array([y, x, 0]).astype(dt))
        size = Tensor(np.array([ch, cw, -1]).astype(dt))
        bbox = Tensor(np.array([[[y / h, x / w, (y + ch) / h, (x + cw) / w]]], np.float32))
        return begin, size, bbox
