"""The report of sample_data/ drawn by headless Chromium: a page with ink on it, the red
of hearts and diamonds among it. Skips where Chromium is not installed (Debian's
``chromium`` package; .ci/run installs it)."""

from __future__ import annotations

import importlib.util

import pytest

from tests.conftest import REPO

spec = importlib.util.spec_from_file_location("report_screenshot",
                                              REPO / "scripts" / "report_screenshot.py")
assert spec is not None and spec.loader is not None
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(script.browser() is None,
                                 reason="headless Chromium is not installed "
                                 "(apt-get install -y chromium)")]


def test_the_sample_report_renders_to_a_picture_with_ink(tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    out = tmp_path / "report.png"
    script.main([str(path) for path in sorted((REPO / "sample_data").glob("*.pbn"))]
                + ["-o", str(out), "--height", "1200"])
    with image_module.open(out) as image:
        assert image.size == (1100, 1200)
        data = image.convert("RGB").tobytes()
    pixels = [tuple(data[at:at + 3]) for at in range(0, len(data), 3)]
    ink = sum(1 for r, g, b in pixels if r + g + b < 600)
    red = sum(1 for r, g, b in pixels if r > 150 and g < 80 and b < 90)
    assert ink > len(pixels) // 100  # text, lines and tables: not a blank page
    assert red > 50  # hearts and diamonds in their colour
