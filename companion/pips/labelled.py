"""The labelled set the reader is measured on (benchmarks/pips_bench.py, tests/pips): every
item is a photo and the face-up tiles on it, made from what the project may ship.

* ``real:<name>:<variation>``: the shared photos (tests/data/photos, public domain) and their
  variations (:data:`VARIATIONS`: 0.5x-3x, turned, +-30 % brightness, JPEG quality 30, cropped
  to its tiles, blurred: the blurred one has no readable tile);
* ``scene:<seed>:<long side>``: a generated photo (:func:`companion.pips.synth.make_photo`:
  light, angle, background, pip colour, scale, blur, noise, distractors, face-down tiles);
* ``texture:<seed>``: a photo with no face-up tile (:func:`companion.pips.synth.make_texture`).

Which items are for development and which are held out is fixed in tests/data/pips_split.json
(written once by ``benchmarks/pips_split.py`` with a fixed seed, before any tuning on it).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageEnhance, ImageFilter

from .synth import make_photo, make_texture

#: The variations of a real photo, each with its expected answer: the photo's own tiles, except
#: "blur8" (Gaussian blur of radius 8), which must be unreadable.
VARIATIONS = ("x1", "x0.5", "x2", "x3", "r90", "r180", "b+30", "b-30", "q30", "crop", "blur8")
#: Variations that keep the photo's tiles readable.
KEEPING = tuple(v for v in VARIATIONS if v != "blur8")


@dataclass(frozen=True)
class Item:
    """One labelled photo: ``tiles`` face up ("6-5"); none for a texture or a blurred photo,
    whose right answer is "unreadable"."""

    id: str
    data: bytes
    tiles: tuple[str, ...]

    @property
    def pips(self) -> int:
        return sum(int(a) + int(b) for a, b in (t.split("-") for t in self.tiles))


def normal(tile: str) -> str:
    """A tile as the reader writes it, high half first."""
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def _jpeg(image: Image.Image, quality: int = 92) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


def vary(data: bytes, how: str, crop: tuple[int, int, int, int] | None = None) -> bytes:
    """The photo ``data`` varied as ``how`` says (one of :data:`VARIATIONS`); ``crop``: the
    box (left, top, right, bottom, pixels) of its tiles, for "crop"."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    width, height = image.size
    if how.startswith("x"):
        factor = float(how[1:])
        if factor == 1:
            return data
        size = (round(width * factor), round(height * factor))
        return _jpeg(image.resize(size, Image.Resampling.LANCZOS))
    if how in ("r90", "r180"):
        turn = Image.Transpose.ROTATE_90 if how == "r90" else Image.Transpose.ROTATE_180
        return _jpeg(image.transpose(turn))
    if how.startswith(("b+", "b-")):
        return _jpeg(ImageEnhance.Brightness(image).enhance(1 + int(how[1:]) / 100))
    if how == "q30":
        return _jpeg(image, 30)
    if how == "crop":
        return _jpeg(image.crop(crop or (0, 0, width, height)))
    if how == "blur8":
        return _jpeg(image.filter(ImageFilter.GaussianBlur(8)))
    raise ValueError(how)


def real_item(folder: Path, name: str, how: str) -> Item:
    """The shared photo ``name`` varied as ``how`` (labels.json beside it)."""
    label = json.loads((folder / "labels.json").read_text())["photos"][name]
    data = (folder / name).read_bytes()
    tiles = () if how == "blur8" else tuple(normal(t) for t in label["tiles"])
    box = label.get("crop")
    crop = (int(box[0]), int(box[1]), int(box[2]), int(box[3])) if box else None
    return Item(f"real:{name}:{how}", vary(data, how, crop), tiles)


def item(spec: str, folder: Path) -> Item:
    """The item named ``spec`` (see the module's docstring)."""
    kind, *rest = spec.split(":")
    if kind == "real":
        return real_item(folder, rest[0], rest[1])
    if kind == "scene":
        seed, side = int(rest[0]), int(rest[1])
        photo = make_photo(seed, width=side, height=side * 3 // 4)
        return Item(spec, photo.data, photo.tiles)
    if kind == "texture":
        return Item(spec, make_texture(int(rest[0])).data, ())
    raise ValueError(spec)


def split(path: Path) -> dict[str, list[str]]:
    """The parts of the set ("dev", "held_out") as item names, from the split file."""
    parts: dict[str, list[str]] = json.loads(path.read_text())["parts"]
    return parts


def items(names: list[str], folder: Path) -> Iterator[Item]:
    """The items named, made one at a time (a 12 MP scene is large)."""
    for name in names:
        yield item(name, folder)
