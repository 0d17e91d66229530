"""Video decoding against real MindSpore 2.10 (``fixtures/vision_video_reference.py``): frame counts,
timestamp ranges, metadata and timestamps (exact), integer audio (exact), float audio within 1e-6 (the
AAC decoders of the two FFmpeg builds round differently), and frames within 3 levels (MindSpore's and
PyAV's FFmpeg builds convert YUV to RGB with differently rounding swscale code)."""
import importlib.util
import os

import numpy as np
import pytest

import mindspore.dataset.vision as vision

_HERE = os.path.dirname(os.path.abspath(__file__))
_SPEC = importlib.util.spec_from_file_location("vision_video_reference",
                                               os.path.join(_HERE, "fixtures", "vision_video_reference.py"))
cases = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(cases)
REF = np.load(cases.FIXTURE)
FRAME_TOLERANCE = 3


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("videos")
    paths = {}
    for name in cases.VIDEOS:
        paths[name] = str(folder / name)
        REF[f"video:{name}"].tofile(paths[name])
    return paths


@pytest.mark.parametrize("name", list(cases.VIDEOS))
@pytest.mark.parametrize("index", range(len(cases.CASES)), ids=[f"{f}{a}" for f, a in cases.CASES])
def test_same_as_mindspore(videos, name, index):
    function, args = cases.CASES[index]
    outs = cases.run(vision, videos[name], function, args)
    expected = []
    while f"out:{name}:{index}:{len(expected)}" in REF.files:
        expected.append(REF[f"out:{name}:{index}:{len(expected)}"])
    assert len(outs) == len(expected)
    for j, (got, want) in enumerate(zip(outs, expected)):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype, (j, got.shape, got.dtype, want.shape, want.dtype)
        if got.dtype == np.uint8 and got.ndim == 4:
            assert np.abs(got.astype(int) - want).max(initial=0) <= FRAME_TOLERANCE
        elif got.dtype.kind == "f" and got.ndim == 2:  # float audio: the AAC decoders' float rounding
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
        else:
            np.testing.assert_array_equal(got, want)


def test_frames_follow_the_pictures(videos):
    video, _, _ = vision.read_video(videos["silent.mov"])
    # frame i has red = 25 i and a white 6 x 9 box at (i, i)
    assert np.allclose(video[:, 15, 25, 0].astype(int), np.arange(9) * 25, atol=6)
    assert video[4, 5:9, 5:12].mean() > 200 and video[4, 15:20, 20:26, 1:].mean() < 200


def test_video_decoder_frames(videos):
    decoder = vision.VideoDecoder(videos["audio.mp4"])
    frames = decoder.get_frames_at([3, 0, 3])
    whole, _, _ = vision.read_video(videos["audio.mp4"])
    np.testing.assert_array_equal(frames, whole[[3, 0, 3]])
    assert decoder.get_frames_at([]).shape == (0,)
    with pytest.raises(ValueError):
        decoder.get_frames_at([9])
    with pytest.raises(TypeError):
        decoder.get_frames_at((1,))


def test_video_errors(videos, tmp_path):
    with pytest.raises(TypeError, match="filename"):
        vision.read_video(1)
    with pytest.raises(ValueError, match="does not exist"):
        vision.read_video(str(tmp_path / "missing.mp4"))
    with pytest.raises(ValueError, match="start_pts"):
        vision.read_video(videos["audio.mp4"], -1)
    with pytest.raises(ValueError, match="end_pts"):
        vision.read_video(videos["audio.mp4"], 3, 1)
    with pytest.raises(ValueError, match="pts_unit"):
        vision.read_video(videos["audio.mp4"], 0, None, "ms")
    with pytest.raises(TypeError, match="start_pts"):
        vision.read_video(videos["audio.mp4"], "a")
    with pytest.raises(RuntimeError):
        vision.read_video_timestamps(str(tmp_path / "missing.mp4"))
    with pytest.raises(RuntimeError):
        vision.read_video_timestamps(videos["audio.mp4"], "ms")
    with pytest.raises(TypeError):
        vision.VideoDecoder(1)
    with pytest.raises(ValueError):
        vision.VideoDecoder(str(tmp_path / "missing.mp4"))
    garbage = tmp_path / "garbage.mp4"
    np.arange(200, dtype=np.uint8).tofile(garbage)
    with pytest.raises(RuntimeError):
        vision.read_video(str(garbage))
    for bad in (np.zeros((2, 2), np.uint8), np.zeros(5, np.float32), np.zeros(0, np.uint8), np.arange(50, dtype=np.uint8)):
        with pytest.raises(RuntimeError):
            vision.DecodeVideo()(bad)
