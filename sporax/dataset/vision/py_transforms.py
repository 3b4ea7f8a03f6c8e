"""MindSpore 1.x path ``mindspore.dataset.vision.py_transforms``: the 2.x vision transforms; ``Decode``
returns a PIL image here, as it did in 1.x."""

from .transforms import *  # noqa: F403
from .transforms import Decode as _Decode
from .utils import Border, ConvertMode, ImageBatchFormat, Inter, SliceMode  # noqa: F401


# replaces the 2.x Decode that the star import brought
class Decode(_Decode):  # type: ignore[no-redef]
    """Decode encoded image bytes into a PIL RGB image."""

    def __init__(self) -> None:
        super().__init__(to_pil=True)
