"""audio.Vad: equal (1e-4) to MindSpore 2.10 where its detector does not trigger (tools/make_ms_dataset_audio_reference.py
cases vad*), and SoX's trigger and search-back behaviour on a tone burst after silence."""

import os

import numpy as np
import pytest

import sporax.dataset.audio as A

REF = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "ms_audio_reference.npz"))


@pytest.mark.parametrize(
    "name, op, channels",
    [
        ("vad", A.Vad(8000), slice(None)),
        ("vad_pre", A.Vad(8000, pre_trigger_time=0.1, search_time=0.5), slice(None)),
        ("vad_wrap", A.Vad(8000, trigger_level=5.0, pre_trigger_time=0.3), 0),
        (
            "vad_freq",
            A.Vad(8000, search_time=0.5, allowed_gap=0.1, measure_freq=25.0, measure_duration=0.05),
            slice(None),
        ),
    ],
)
def test_vad_equal_to_mindspore(name, op, channels):
    out = op(REF["VAD_WAV"][channels])
    assert out.dtype == np.float32 and out.shape == REF[name].shape
    np.testing.assert_allclose(out, REF[name], atol=1e-4)


def test_vad_trims_leading_silence():
    sr = 8000
    t = np.arange(int(sr * 1.6)) / sr
    rng = np.random.default_rng(3)
    tone = np.where(t > 0.7, 0.6 * np.sin(2 * np.pi * 440 * t), 0.0)
    wav = (tone + 0.01 * rng.standard_normal(t.size)).astype(np.float32)
    out = A.Vad(sr)(wav)
    cut = wav.size - out.size
    np.testing.assert_array_equal(out, wav[cut:])
    # triggers on the burst (0.7 s) and keeps up to search_time before the trigger point
    assert 0.0 < cut / sr < 0.7
    assert A.Vad(sr, pre_trigger_time=0.1)(wav).size == out.size + 800
    stacked = A.Vad(sr)(np.stack([wav, wav])[None])
    assert stacked.shape == (1, 2, out.size)


def test_vad_checks():
    with pytest.raises(TypeError, match="Argument sample_rate with value 8000.0 is not of type"):
        A.Vad(8000.0)
    with pytest.raises(ValueError, match=r"Input sample_rate is not within the required interval of \[1, 2147483647\]"):
        A.Vad(0)
    with pytest.raises(ValueError, match=r"Input trigger_time is not within the required interval of \[0, 16777216\]"):
        A.Vad(8000, trigger_time=-1.0)
    with pytest.raises(ValueError, match=r"Input measure_freq is not within the required interval of \(0, 16777216\]"):
        A.Vad(8000, measure_freq=0.0)
    with pytest.raises(ValueError, match="Input noise_up_time should be greater than noise_down_time"):
        A.Vad(8000, noise_up_time=0.001)
    with pytest.raises(TypeError, match="Argument trigger_time with value a is not of type"):
        A.Vad(8000, trigger_time="a")
