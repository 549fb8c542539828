"""Bounded cost of a photo: the 7745 x 7745 PNG of the attack (191 KB that decode to 180 MB of
pixels) is refused from its header, and no photo grows a worker's memory by more than 250 MB.

Memory is measured in a child process (its peak resident size before and after the reading,
Linux's /proc/self/status):
Pillow allocates its pixels outside Python's allocator, where tracemalloc does not see them.
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.pips import PhotoError, PhotoProblem, count_pips
from companion.pips.decode import MAX_DECODED_PIXELS, WORK_SIDE, load_photo

#: The most a worker's peak memory may grow while one photo is read, in bytes.
MAX_GROWTH = 250 * 2**20
ROOT = Path(__file__).resolve().parents[2]

# VmHWM (the peak resident size of this process's memory, fresh at exec), not getrusage's
# ru_maxrss, which a child inherits from its parent across exec: pytest's own peak would hide it.
MEASURE = """
import sys, json
sys.path.insert(0, sys.argv[2])
from companion.pips import PhotoError, count_pips

def peak_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

data = open(sys.argv[1], "rb").read()
before = peak_kb()
try:
    answer = {"pips": count_pips(data).total}
except PhotoError as error:
    answer = {"problem": error.problem.value}
answer["growth_kb"] = peak_kb() - before
print(json.dumps(answer))
"""


def big_png(side: int) -> bytes:
    """A real, complete PNG of ``side`` x ``side`` RGB pixels (a light table with dark bars),
    compressed row by row so that making it never holds the whole picture."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    plain = b"\0" + b"\xd0\xc8\xb0" * side
    barred = (
        b"\0"
        + (b"\xd0\xc8\xb0" * 40 + b"\x10\x10\x10" * 10) * (side // 50)
        + (b"\xd0\xc8\xb0" * (side % 50))
    )
    squeeze = zlib.compressobj(9)
    body = b"".join(squeeze.compress(barred if (y // 40) % 5 == 0 else plain) for y in range(side))
    body += squeeze.flush()
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def huge_png(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("huge") / "huge.png"
    path.write_bytes(big_png(7745))
    return path


def measure(path: Path) -> dict:
    """Read ``path`` in a fresh interpreter: its answer and its peak memory growth (KB)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def assert_refused_from_the_header(data: bytes) -> None:
    """``data`` is refused as TOO_MANY_PIXELS against the decoded-size limit."""
    with pytest.raises(PhotoError) as caught:
        count_pips(data)
    assert caught.value.problem is PhotoProblem.TOO_MANY_PIXELS
    assert caught.value.details["limit"] == MAX_DECODED_PIXELS


def test_the_attack_png_is_small_in_bytes_and_refused_from_its_header(huge_png):
    data = huge_png.read_bytes()
    assert len(data) < 1_000_000  # the attack: under a megabyte on the wire
    with Image.open(io.BytesIO(data)) as image:
        assert image.size == (7745, 7745)
    assert_refused_from_the_header(data)


def test_a_png_over_every_limit_is_told_the_png_limit():
    """A 64-megapixel PNG was told "at most 60 megapixels" (the JPEG limit): cut to 50 it was
    refused again. It is told the limit that applies to it, 12."""
    assert_refused_from_the_header(big_png(8000))


def test_the_attack_png_grows_memory_by_less_than_250_mb(huge_png):
    answer = measure(huge_png)
    assert answer.get("problem") == PhotoProblem.TOO_MANY_PIXELS.value
    assert answer["growth_kb"] * 1024 < MAX_GROWTH, answer


def test_a_50_megapixel_jpeg_is_decoded_small(tmp_path):
    """A JPEG may claim up to 60 MP: libjpeg decodes it at 1/8 scale, never at full size."""
    rgb = np.full((6000, 8000, 3), 180, np.uint8)
    rgb[::400, :, :] = 20
    path = tmp_path / "big.jpg"
    Image.fromarray(rgb).save(path, "JPEG", quality=70)
    del rgb
    photo = load_photo(path.read_bytes())
    assert max(photo.rgb.shape[:2]) == WORK_SIDE and (photo.width, photo.height) == (8000, 6000)
    answer = measure(path)
    assert answer["growth_kb"] * 1024 < MAX_GROWTH, answer


def test_a_png_just_under_the_decoded_limit_is_read(tmp_path):
    side = int(MAX_DECODED_PIXELS**0.5) - 1
    path = tmp_path / "under.png"
    path.write_bytes(big_png(side))
    answer = measure(path)
    assert "problem" not in answer or answer["problem"] != PhotoProblem.TOO_MANY_PIXELS.value
    assert answer["growth_kb"] * 1024 < MAX_GROWTH, answer


@pytest.fixture(scope="module")
def huge_progressive_jpeg(tmp_path_factory) -> Path:
    """The second attack: a flat 7745 x 7745 progressive 4:4:4 JPEG (small on the wire), which
    libjpeg cannot read scaled without buffering the whole picture's coefficients."""
    path = tmp_path_factory.mktemp("huge") / "huge.jpg"
    Image.new("RGB", (7745, 7745), (208, 200, 176)).save(
        path, "JPEG", progressive=True, subsampling=0, quality=70
    )
    return path


def test_the_attack_progressive_jpeg_is_refused_from_its_header(huge_progressive_jpeg):
    data = huge_progressive_jpeg.read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        assert image.size == (7745, 7745) and image.info.get("progressive")
    assert_refused_from_the_header(data)


def test_the_attack_progressive_jpeg_grows_memory_by_less_than_250_mb(huge_progressive_jpeg):
    answer = measure(huge_progressive_jpeg)
    assert answer.get("problem") == PhotoProblem.TOO_MANY_PIXELS.value, answer
    assert answer["growth_kb"] * 1024 < MAX_GROWTH, answer


def test_a_small_progressive_jpeg_is_still_read(tmp_path):
    rgb = np.full((1500, 2000, 3), 180, np.uint8)
    rgb[::100, :, :] = 20
    path = tmp_path / "small.jpg"
    Image.fromarray(rgb).save(path, "JPEG", progressive=True, quality=80)
    photo = load_photo(path.read_bytes())
    assert (photo.width, photo.height) == (2000, 1500)
