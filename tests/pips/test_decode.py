"""Bad input never costs much and always gets its reason: not an image, too many bytes, a
picture whose header claims too many pixels (an image bomb: refused before decoding), a tiny
picture, a damaged file, a photo with no tiles."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from companion.pips import MAX_BYTES, PhotoError, PhotoProblem, count_pips
from companion.pips.decode import MAX_PIXELS, WORK_SIDE, load_photo

from .conftest import encode


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, with one tiny data chunk: a
    few hundred bytes that would need gigabytes to decode."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1024)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def problem(data: bytes) -> PhotoProblem:
    with pytest.raises(PhotoError) as caught:
        count_pips(data)
    return caught.value.problem


def test_empty_upload():
    assert problem(b"") is PhotoProblem.EMPTY


def test_text_is_not_an_image():
    assert problem(b"these are not the pips you are looking for") is PhotoProblem.NOT_AN_IMAGE


def test_too_many_bytes_refused_before_decoding():
    assert problem(b"\xff\xd8" + b"\0" * MAX_BYTES) is PhotoProblem.TOO_MANY_BYTES


def test_image_bomb_refused_from_its_header():
    bomb = png_header_only(100_000, 100_000)
    assert len(bomb) < 2000
    with pytest.raises(PhotoError) as caught:
        count_pips(bomb)
    assert caught.value.problem is PhotoProblem.TOO_MANY_PIXELS


def test_bomb_under_pillows_own_guard_is_refused_by_ours():
    with pytest.raises(PhotoError) as caught:
        count_pips(png_header_only(10_000, 9_000))  # 90 MP: over ours, under Pillow's
    assert caught.value.problem is PhotoProblem.TOO_MANY_PIXELS
    assert caught.value.details["width"] == 10_000


def test_just_over_the_pixel_limit_is_refused():
    side = int(MAX_PIXELS**0.5) + 1
    assert problem(png_header_only(side, side)) is PhotoProblem.TOO_MANY_PIXELS


def test_one_pixel_image_is_too_small():
    assert problem(encode(np.zeros((1, 1, 3), np.uint8))) is PhotoProblem.TOO_SMALL


def test_truncated_jpeg_is_damaged():
    data = encode(np.full((200, 300, 3), 128, np.uint8), "JPEG")
    assert problem(data[: len(data) // 3]) in (PhotoProblem.BROKEN_IMAGE, PhotoProblem.NOT_AN_IMAGE)


def test_header_within_limits_but_data_missing_is_damaged():
    assert problem(png_header_only(500, 400)) is PhotoProblem.BROKEN_IMAGE


def test_photo_without_tiles_reads_nothing():
    gradient = np.tile(np.linspace(40, 200, 640, dtype=np.uint8), (480, 1))
    rgb = np.dstack([gradient, gradient, gradient // 2])
    with pytest.raises(PhotoError) as caught:
        count_pips(encode(rgb))
    assert caught.value.problem is PhotoProblem.UNREADABLE  # never "0 pips"


def test_small_photo_is_scaled_up_to_the_working_size():
    """One working size for every photo: a 0.5x photo is read like the 1x one."""
    photo = load_photo(encode(np.full((240, 320, 3), 90, np.uint8)))
    assert photo.rgb.shape[:2] == (WORK_SIDE * 3 // 4, WORK_SIDE)
    assert (photo.width, photo.height) == (320, 240)


def test_large_photo_is_downscaled_to_the_working_size():
    rgb = np.full((3000, 4000, 3), 90, np.uint8)
    photo = load_photo(encode(rgb, "JPEG"))
    assert max(photo.rgb.shape[:2]) == WORK_SIDE
    assert (photo.width, photo.height) == (4000, 3000)


def test_exif_rotation_is_applied():
    rgb = np.zeros((300, 600, 3), np.uint8)
    image = Image.fromarray(rgb)
    exif = image.getexif()
    exif[0x0112] = 6  # the camera was held upright: turn 90 degrees
    import io

    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    photo = load_photo(buffer.getvalue())
    assert photo.rgb.shape[:2] == (WORK_SIDE, WORK_SIDE // 2)  # turned, then scaled
    assert (photo.width, photo.height) == (300, 600)
