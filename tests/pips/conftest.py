"""Photos for the pips tests: the real ones (tests/data/photos, copied from the shared set with
their labels) and helpers to encode generated images."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"


def real_photos() -> list[tuple[str, dict]]:
    """(file name, label) for every labelled real photo."""
    labels = json.loads((PHOTOS / "labels.json").read_text())["photos"]
    return sorted(labels.items())


def encode(rgb: np.ndarray, fmt: str = "PNG") -> bytes:
    """An RGB array as image file bytes."""
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, fmt)
    return buffer.getvalue()


def shared_photos_side_by_side() -> bytes:
    """The five shared photos, each 640 x 640, side by side in one 5:1 JPEG: a wide photo
    that a 360 px phone shows small (its labels as tall as its tiles)."""
    names = sorted(name for name, _ in real_photos())
    strip = Image.new("RGB", (640 * len(names), 640))
    for k, name in enumerate(names):
        strip.paste(Image.open(PHOTOS / name).convert("RGB").resize((640, 640)), (640 * k, 0))
    buffer = io.BytesIO()
    strip.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


@pytest.fixture()
def photo_bytes():
    """Read a real photo by file name."""
    return lambda name: (PHOTOS / name).read_bytes()
