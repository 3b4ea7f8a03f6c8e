"""Reference outputs of MindSpore 2.10's deterministic dataset.vision transforms (issue 16).

Run under the MindSpore venv, from /tmp (MindSpore leaves files in its working directory):
    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_ms_dataset_vision_reference.py
Writes tests/ut/dataset/fixtures/ms_vision_reference.npz: the input images and, for each case name, the output.
The cases (name -> (transform, input)) are listed in CASES; the test builds the same transforms in sporax.
"""

import os

import mindspore.dataset.vision as V
import numpy as np
from mindspore.dataset.vision import Inter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "dataset", "fixtures", "ms_vision_reference.npz")

rng = np.random.default_rng(20261126)
IMG = rng.integers(0, 256, (12, 10, 3), dtype=np.uint8)  # HWC uint8
GRAY = rng.integers(0, 256, (12, 10), dtype=np.uint8)
FLT = rng.random((12, 10, 3), dtype=np.float32)
CHW = rng.random((3, 6, 5), dtype=np.float32)


def cases():
    c = {
        "adjust_brightness": (V.AdjustBrightness(1.37), IMG),
        "adjust_brightness_dark": (V.AdjustBrightness(0.4), IMG),
        "adjust_contrast": (V.AdjustContrast(1.6), IMG),
        "adjust_contrast_low": (V.AdjustContrast(0.3), IMG),
        "adjust_saturation": (V.AdjustSaturation(1.8), IMG),
        "adjust_saturation_low": (V.AdjustSaturation(0.2), IMG),
        "adjust_hue": (V.AdjustHue(0.2), IMG),
        "adjust_hue_neg": (V.AdjustHue(-0.35), IMG),
        "adjust_gamma": (V.AdjustGamma(2.2, 1.0), IMG),
        "adjust_gamma_gain": (V.AdjustGamma(0.5, 0.8), IMG),
        "adjust_sharpness": (V.AdjustSharpness(2.5), IMG),
        "adjust_sharpness_blur": (V.AdjustSharpness(0.2), IMG),
        "auto_contrast": (V.AutoContrast(), IMG),
        "auto_contrast_cut": (V.AutoContrast(cutoff=10.0, ignore=[3, 4]), IMG),
        "equalize": (V.Equalize(), IMG),
        "equalize_gray": (V.Equalize(), GRAY),
        "posterize": (V.Posterize(3), IMG),
        "solarize": (V.Solarize(100.0), IMG),
        "solarize_range": (V.Solarize((50.0, 150.0)), IMG),
        "invert": (V.Invert(), IMG),
        "gaussian_blur": (V.GaussianBlur(3, 1.2), IMG),
        "gaussian_blur_rect": (V.GaussianBlur((5, 3), (1.5, 0.7)), IMG),
        "gaussian_blur_nosigma": (V.GaussianBlur(5), IMG),
        "affine": (
            V.Affine(degrees=15.0, translate=[0.1, -0.2], scale=1.1, shear=[5.0, 3.0], resample=Inter.BILINEAR),
            IMG,
        ),
        "affine_nearest": (
            V.Affine(degrees=-30.0, translate=[0, 0], scale=0.9, shear=0.0, fill_value=(10, 20, 30)),
            IMG,
        ),
        "perspective": (
            V.Perspective([[0, 0], [9, 0], [9, 11], [0, 11]], [[1, 2], [8, 0], [9, 10], [0, 9]], Inter.BILINEAR),
            IMG,
        ),
        "perspective_nearest": (
            V.Perspective([[0, 0], [9, 0], [9, 11], [0, 11]], [[2, 1], [7, 1], [9, 11], [1, 10]], Inter.NEAREST),
            IMG,
        ),
        "resized_crop": (V.ResizedCrop(2, 1, 7, 6, (5, 4), Inter.BILINEAR), IMG),
        "resized_crop_nearest": (V.ResizedCrop(0, 0, 12, 10, 6, Inter.NEAREST), IMG),
        "pad_to_size": (V.PadToSize([15, 14], offset=[1, 2], fill_value=7), IMG),
        "pad_to_size_center": (V.PadToSize(16, padding_mode=V.Border.REFLECT), IMG),
        "pad_to_size_edge": (V.PadToSize([14, 13], offset=2, padding_mode=V.Border.EDGE), IMG),
        "erase": (V.Erase(2, 3, 4, 5, (10, 20, 30)), IMG),
        "erase_float": (V.Erase(1, 1, 3, 3, 0.5), FLT),
        "normalize_pad": (V.NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0]), IMG),
        "normalize_pad_f16": (V.NormalizePad([0.5, 0.4, 0.3], [0.2, 0.3, 0.25], "float16"), FLT),
        "rgb_to_hsv": (V.RgbToHsv(is_hwc=False), CHW),
        "rgb_to_hsv_hwc": (V.RgbToHsv(is_hwc=True), FLT),
        "hsv_to_rgb": (V.HsvToRgb(is_hwc=True), FLT),
        "vertical_flip": (V.VerticalFlip(), IMG),
        "linear_transformation": (
            V.LinearTransformation(np.eye(18, dtype=np.float32)[::-1] * 0.5, np.full(18, 0.1, np.float32)),
            CHW[:, :2, :3],
        ),
    }
    return c


def main():
    out = {"IMG": IMG, "GRAY": GRAY, "FLT": FLT, "CHW": CHW}
    for name, (op, x) in cases().items():
        out[name] = np.asarray(op(x))
    five = V.FiveCrop(4)
    from PIL import Image

    pil = Image.fromarray(IMG)
    out["five_crop"] = np.stack([np.asarray(p) for p in five(pil)])
    out["ten_crop"] = np.stack([np.asarray(p) for p in V.TenCrop((4, 3), use_vertical_flip=True)(pil)])
    patches = V.SlicePatches(2, 3, V.SliceMode.PAD, 9)(IMG)
    out["slice_patches_pad"] = np.stack(patches)
    out["slice_patches_drop"] = np.stack(V.SlicePatches(5, 3, V.SliceMode.DROP)(IMG))
    out["encode_png"] = np.asarray(V.encode_png(IMG))
    out["encode_jpeg"] = np.asarray(V.encode_jpeg(IMG, 90))
    np.savez_compressed(OUT, **out)
    print("wrote", OUT, len(out), "arrays")


if __name__ == "__main__":
    main()
