"""The report of sample_data/ drawn by headless Chromium: a page with ink on it, the red
of hearts and diamonds among it; each layout drawn; a 24-board session printed to PDF,
its pages counted. Skips where Chromium is not installed (Debian's
``chromium`` package; .ci/run installs it)."""

from __future__ import annotations

import importlib.util
import re

import pytest

import pbnkit
from pbnkit.report import report_html
from tests.conftest import REPO
from tests.session24 import session

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


def pages_of(pdf) -> int:
    """The pages of a PDF file: by pypdf when it is installed, else by its page objects
    (``/Type /Page``, not ``/Pages``)."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf.read_bytes()))
    return len(PdfReader(pdf).pages)


@pytest.mark.parametrize("solve", [False, True], ids=["stated", "dd"])
def test_a_24_board_session_prints_on_the_pages_a_club_expects(tmp_path, solve):
    if solve:
        pytest.importorskip("endplay.dds", reason="the solver comes with the dd extra")
    games = pbnkit.read_text(session(boards=24, tables=4))
    printed = {}
    for layout in ("hand-records", "full", "results"):
        out = tmp_path / f"{layout}.pdf"
        script.print_pdf(report_html(games, layout=layout, solve=solve), out)
        printed[layout] = pages_of(out)
    # hand records: four boards to an A4 page, 24 / 4 = 6 pages, the heading on the first
    assert printed["hand-records"] == 6
    # full: two boards with their travellers to a page (24 / 2 = 12), then the rankings
    # of the eight pairs on a page of their own
    assert printed["full"] == 12 + 1
    # results: the rankings, then 24 travellers of 4 rows, more than five to a page
    assert printed["results"] <= 1 + 24 // 5


@pytest.mark.parametrize("layout", ["full", "hand-records", "results"])
def test_each_layout_draws_with_ink(tmp_path, layout):
    image_module = pytest.importorskip("PIL.Image")
    out = tmp_path / f"{layout}.png"
    script.main([str(REPO / "sample_data" / "pairs_matchpoints.pbn"), "--layout", layout,
                 "-o", str(out), "--height", "900"])
    with image_module.open(out) as image:
        data = image.convert("RGB").tobytes()
    pixels = [tuple(data[at:at + 3]) for at in range(0, len(data), 3)]
    assert sum(1 for r, g, b in pixels if r + g + b < 600) > len(pixels) // 100
