"""Pips-from-a-photo benchmark: prints figures, asserts nothing (never a timed test).

For generated photos of tiles (companion/pips/synth.py) at 1, 4 and 12 megapixels, saved as
phone-like JPEGs: the CPU time (median of N runs) and the peak extra memory of counting the
pips of one photo, next to the same figures for a plain full decode of that JPEG with Pillow
(``Image.open(...).convert("RGB")``) measured in the same run; the ratio is counting / decode.

Memory is measured in a fresh child process per task: the peak resident size (VmHWM) minus
the resident size once everything is imported and the photo is in memory.

Run: ``.venv/bin/python benchmarks/pips_bench.py`` (``--runs N``; the goal is < 1 s of CPU for
12 megapixels).
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from companion.pips import count_pips  # noqa: E402
from companion.pips.synth import make_photo  # noqa: E402

#: megapixels -> (width, height), 4:3 like a phone camera
SIZES = {1: (1155, 866), 4: (2309, 1732), 12: (4000, 3000)}

CHILD = """
import sys
sys.path.insert(0, {root!r})
from PIL import Image
import io
from companion.pips import count_pips
data = open({path!r}, "rb").read()

def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])

base = rss("VmRSS:")
if {task!r} == "count":
    count_pips(data)
else:
    Image.open(io.BytesIO(data)).convert("RGB")
print(rss("VmHWM:") - base)
"""


def decode(data: bytes) -> None:
    """The reference: a plain full decode of the photo."""
    Image.open(io.BytesIO(data)).convert("RGB")


def cpu(task, data: bytes, runs: int) -> float:
    """Median CPU seconds of ``task(data)``."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        task(data)
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def peak_kib(path: Path, task: str) -> int:
    """Peak extra resident memory (KiB) of one task in a fresh process."""
    code = CHILD.format(root=str(ROOT), path=str(path), task=task)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.runs} runs each")
    print(
        f"{'photo':>9} {'JPEG':>8} | {'count CPU':>10} {'decode CPU':>11} {'ratio':>6} | "
        f"{'count peak':>11} {'decode peak':>12} {'ratio':>6} | tiles"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for mp, (width, height) in SIZES.items():
            photo = make_photo(seed=mp, width=width, height=height)
            path = Path(tmp) / f"{mp}mp.jpg"
            path.write_bytes(photo.data)
            count_cpu = cpu(count_pips, photo.data, args.runs)
            decode_cpu = cpu(decode, photo.data, args.runs)
            count_mem = peak_kib(path, "count")
            decode_mem = peak_kib(path, "decode")
            reading = count_pips(photo.data)
            print(
                f"{mp:>6} MP {len(photo.data) / 2**20:>6.1f}MB | {count_cpu * 1000:>8.0f}ms "
                f"{decode_cpu * 1000:>9.0f}ms {count_cpu / decode_cpu:>6.2f} | "
                f"{count_mem / 1024:>9.0f}MB {decode_mem / 1024:>10.0f}MB "
                f"{count_mem / max(decode_mem, 1):>6.2f} | "
                f"{len(reading.read_tiles)}/{len(photo.tiles)} read"
            )


if __name__ == "__main__":
    main()
