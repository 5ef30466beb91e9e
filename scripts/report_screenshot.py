"""Take a picture of a report page with headless Chromium (Debian's ``chromium``).

    python scripts/report_screenshot.py [PBN...] -o docs/images/report.png [--dd]
        [--layout full|hand-records|results] [--width 1100] [--height 1500]

Without PBN files it draws the report of ``sample_data/team_match.pbn``; the README's
picture is made so, with ``--dd`` (the makeable contracts and par solved, which needs
the dd extra). The pictures of docs/images/ are made so:

    python scripts/report_screenshot.py sample_data/team_match.pbn --dd \
        -o docs/images/report-full.png --height 1400
    python scripts/report_screenshot.py sample_data/pairs_matchpoints.pbn --dd \
        --layout hand-records -o docs/images/report-hand-records.png --height 1300
    python scripts/report_screenshot.py sample_data/pairs_matchpoints.pbn \
        --layout results -o docs/images/report-results.png --height 1300
    python scripts/report_screenshot.py sample_data/pairs_matchpoints.pbn \
        --layout results -o docs/images/report-phone.png --width 400 --height 900

The page is rendered at ``--width`` pixels wide; ``--height`` sets how much of it the
picture holds. ``print_pdf`` prints a page as Chromium prints it to A4.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pbnkit.pbn.reader import PbnReader
from pbnkit.report import LAYOUTS, report_html

REPO = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str | None:
    """The first headless-capable browser on the PATH."""
    return next(filter(None, map(shutil.which, BROWSERS)), None)


def screenshot(html: str, out: Path, width: int = 1100, height: int = 1500) -> None:
    """Render ``html`` and save the top ``height`` pixels as a PNG."""
    _chromium(html, ["--hide-scrollbars", f"--window-size={width},{height}",
                     f"--screenshot={out}"])


def print_pdf(html: str, out: Path) -> None:
    """Print ``html`` to a PDF file as Chromium prints it (the page's print styles)."""
    _chromium(html, ["--no-pdf-header-footer", f"--print-to-pdf={out}"])


def _chromium(html: str, options: list[str]) -> None:
    """Headless Chromium on ``html``, written to a page of its own, with ``options``."""
    chrome = browser()
    if chrome is None:
        raise SystemExit("no Chromium on the PATH: apt-get install -y chromium")
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"
        page.write_text(html, encoding="utf-8")
        # --no-sandbox: CI and containers run as root, where the sandbox cannot start.
        subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--user-data-dir={folder}/profile", *options, page.as_uri()],
                       check=True, capture_output=True, timeout=180)


def _shown(path: Path) -> str:
    """A file of the repository by its path in it: the picture names no machine's folders."""
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path,
                        default=[REPO / "sample_data" / "team_match.pbn"])
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--height", type=int, default=1500)
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--layout", choices=LAYOUTS, default="full")
    parser.add_argument("--dd", action="store_true", help="solve the deals double dummy")
    args = parser.parse_args(argv)
    games = [game for path in args.paths for game in PbnReader(path, _shown(path))]
    screenshot(report_html(games, "Hand records and results", solve=args.dd,
                           layout=args.layout),
               args.output.resolve(), width=args.width, height=args.height)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
