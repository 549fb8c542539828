"""Reading an uploaded photo safely: limits checked from the header, then a small decode.

A phone photo is a 2-8 MB JPEG of up to 12-50 megapixels; the counter works on a copy whose
long side is :data:`WORK_SIDE` pixels. The width and height are read from the file's header
(Pillow reads only the header on ``Image.open``) and checked against :data:`MAX_PIXELS` before
any pixel is decoded, so an image bomb (a tiny file that claims a huge picture) costs nothing.
JPEGs are decoded straight at 1/2, 1/4 or 1/8 scale (libjpeg's DCT scaling, Pillow's
``draft``), which is what keeps a 12-megapixel photo well under a second of CPU. A progressive
JPEG cannot be read that cheaply (libjpeg buffers the whole picture's coefficients first), so
over :data:`MAX_DECODED_PIXELS` it is refused from the header like a PNG.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

#: The largest upload accepted, in bytes (a 50-megapixel phone JPEG is about 15 MB).
MAX_BYTES = 20 * 1024 * 1024
#: The most pixels a photo may claim in its header (width x height); 8K x 6K is about 50 MP.
MAX_PIXELS = 60_000_000
#: The most pixels ever decoded at full size (about 36 MB as RGB). A JPEG is decoded straight
#: at 1/2-1/8 scale (libjpeg's DCT scaling), so it may claim up to :data:`MAX_PIXELS`; other
#: formats (PNG, WebP...) have no scaled decode, so over this they are refused from the header.
MAX_DECODED_PIXELS = 12_000_000
#: The smallest side, in pixels, in which tiles could still show their pips.
MIN_SIDE = 64
#: The long side, in pixels, of the copy the counter works on.
WORK_SIDE = 1000
#: The EXIF tag holding the camera's orientation, and its values that swap width and height.
EXIF_ORIENTATION = 0x0112
TURNED_ORIENTATIONS = frozenset({5, 6, 7, 8})
#: Formats a phone browser sends (iPhones convert HEIC to JPEG on upload).
FORMATS = frozenset({"JPEG", "PNG", "WEBP", "BMP", "GIF", "TIFF", "MPO"})
#: Formats Pillow can decode at a reduced scale (``Image.draft``).
SCALED_FORMATS = frozenset({"JPEG", "MPO"})


class PhotoProblem(StrEnum):
    """Why a photo cannot be counted (the API's error codes)."""

    #: The upload holds no file at all (nothing chosen): the API's ``NO_PHOTO``.
    NO_PHOTO = "NO_PHOTO"
    #: A file was chosen but it holds 0 bytes (a photo not finished saving, a broken share).
    EMPTY = "EMPTY"
    TOO_MANY_BYTES = "TOO_MANY_BYTES"
    NOT_AN_IMAGE = "NOT_AN_IMAGE"
    TOO_MANY_PIXELS = "TOO_MANY_PIXELS"
    TOO_SMALL = "TOO_SMALL"
    BROKEN_IMAGE = "BROKEN_IMAGE"
    #: A picture, but no tile on it could be read (blurred, no tiles, only face-down tiles,
    #: a plain texture): never a reading of 0 pips, which would be the best score of a round.
    UNREADABLE = "PHOTO_UNREADABLE"


class PhotoError(ValueError):
    """A photo the counter refuses, with a :class:`PhotoProblem` and the numbers involved."""

    def __init__(self, problem: PhotoProblem, **details: int | str) -> None:
        super().__init__(f"{problem.value}: {details}")
        self.problem = problem
        self.details = details


@dataclass(frozen=True)
class Photo:
    """A decoded photo: ``rgb`` is the working copy (H x W x 3, uint8), ``width`` and
    ``height`` the original size in pixels (after the EXIF rotation)."""

    rgb: np.ndarray
    width: int
    height: int


def load_photo(data: bytes, work_side: int = WORK_SIDE) -> Photo:
    """Decode ``data`` into a working copy whose long side is at most ``work_side`` pixels.

    Raises :class:`PhotoError` for an empty or over-large upload, something that is not an
    image, a picture over :data:`MAX_PIXELS` or under :data:`MIN_SIDE`, or a broken file.
    """
    if not data:
        raise PhotoError(PhotoProblem.EMPTY)
    if len(data) > MAX_BYTES:
        raise PhotoError(PhotoProblem.TOO_MANY_BYTES, size=len(data), limit=MAX_BYTES)
    try:
        with warnings.catch_warnings():
            # Our own pixel limit is checked below; Pillow's bomb warning would be noise.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        # Pillow's own guard (twice its default limit) fired while reading the header.
        raise PhotoError(PhotoProblem.TOO_MANY_PIXELS, limit=MAX_PIXELS) from None
    except (UnidentifiedImageError, OSError, ValueError):
        raise PhotoError(PhotoProblem.NOT_AN_IMAGE) from None
    with image:
        if image.format not in FORMATS:
            raise PhotoError(PhotoProblem.NOT_AN_IMAGE)
        width, height = image.size
        # the limit of this format, so that the words name the one that applies (a 64 MP PNG
        # told "at most 60" would be refused again at 50)
        limit = MAX_PIXELS if _decodes_scaled(image) else MAX_DECODED_PIXELS
        if width * height > limit:
            raise PhotoError(PhotoProblem.TOO_MANY_PIXELS, width=width, height=height, limit=limit)
        if min(width, height) < MIN_SIDE:
            raise PhotoError(PhotoProblem.TOO_SMALL, width=width, height=height, limit=MIN_SIDE)
        try:
            return _decode(image, work_side)
        except PhotoError:
            raise  # a ValueError too, but already the right answer
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            raise PhotoError(PhotoProblem.BROKEN_IMAGE) from None


def _decodes_scaled(image: Image.Image) -> bool:
    """Whether Pillow can decode ``image`` at a reduced scale without holding it at full size.

    A progressive JPEG is scaled by libjpeg too, but only after it has buffered every DCT
    coefficient of the whole picture (about 6 bytes a pixel: 360 MB for 7745 x 7745, 20 s
    of CPU), so for the memory and time it costs it counts as unscaled.
    """
    progressive = image.info.get("progressive") or image.info.get("progression")
    return image.format in SCALED_FORMATS and not progressive


def _decode(image: Image.Image, work_side: int) -> Photo:
    """The working copy: JPEG DCT-scaled decode, EXIF rotation, RGB, downscaled."""
    width, height = image.size
    if image.getexif().get(EXIF_ORIENTATION, 1) in TURNED_ORIENTATIONS:
        width, height = height, width
    if image.format in SCALED_FORMATS:
        # Ask for at least work_side on the long side; libjpeg picks the 1/n scale.
        scale = max(image.size) / work_side
        if scale > 1:
            image.draft("RGB", (int(image.size[0] / scale), int(image.size[1] / scale)))
        if image.size[0] * image.size[1] > MAX_DECODED_PIXELS:
            # The draft did not shrink it (an unusual JPEG): never decode it at full size.
            raise PhotoError(
                PhotoProblem.TOO_MANY_PIXELS,
                width=width,
                height=height,
                limit=MAX_DECODED_PIXELS,
            )
    image.seek(0)  # an animated GIF counts its first frame
    rgb = ImageOps.exif_transpose(image).convert("RGB")
    if max(rgb.size) != work_side:
        # One working size for every photo, smaller or larger: the reader's neighbourhoods
        # and thresholds then see the same picture at 0.5x as at 3x.
        factor = work_side / max(rgb.size)
        size = (max(1, round(rgb.size[0] * factor)), max(1, round(rgb.size[1] * factor)))
        method = Image.Resampling.BILINEAR if factor < 1 else Image.Resampling.BICUBIC
        rgb = rgb.resize(size, method, reducing_gap=2.0 if factor < 1 else None)
    return Photo(rgb=np.asarray(rgb), width=width, height=height)
