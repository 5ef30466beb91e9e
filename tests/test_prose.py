"""The prose stays for readers: a short README and benchmarks README, no timings in the
code's comments and docstrings (they go stale with the next change and the next machine;
benchmarks/ measures), and no pointer to files a reader of the repository does not have."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "pbnkit"

#: a time, or a share of one, as measurements write them. Bridge text must pass: calls
#: (``4S``, ``1s`` in LIN), scores (``NS 620``), percentages of a board's top (``60 %``).
TIMING = re.compile(
    r"""
    \b\d+(?:[.,]\d+)?\s*(?:ms|µs|us|ns)\b                                 # 50 ms, 3 µs
    | \b\d+(?:[.,]\d+)?\s+s\b                                             # 0.33 s
    | \b\d+(?:[.,]\d+)?\s*(?:(?:milli|micro|nano)?seconds?|minutes?|hours?)\b  # 2 minutes
    | \b(?:tens|hundreds|few)\s+(?:of\s+)?(?:milli|micro)seconds\b      # tens of milliseconds
    | \b(?:a|one|two)\s+(?:milli|micro)second\b
    | \bhalf\s+(?:of\s+)?the\s+(?:time|cost)\b
    | \b\d+(?:\.\d+)?\s*%\s+of\s+(?:the\s+|its\s+|all\s+)?(?:[\w-]+(?:'s)?\s+){0,3}?
      (?:samples|time|instructions|CPU|run|read|reader|start-up)\b        # 8% of the samples
    | \b(?:half|thirds?|quarters?|fifths?|sixths?|tenths?|twentieths?)\s+of\s+
      (?:the\s+|a\s+|an\s+|its\s+|this\s+)?(?:[\w-]+(?:'s)?\s+){0,3}?
      (?:time|second|cost|CPU|run|samples|instructions|start-up|work|conversion|rescore)\b
    | \b(?:twice|(?:three|four|five|several|\d+)\s+times)\s+(?:as\s+long|faster|slower)\b
    | \b\d+(?:\.\d+)?\s*[×x]\s+(?:faster|slower)\b
    """,
    re.VERBOSE,
)

#: names of files kept beside the repository, which its readers do not have
OUTSIDE = re.compile(r"\.\./shared|\bRULES\.md|\bPBN\.md|\bSTYLE\.md|pbn_v21\.txt|MANIFEST\.tsv")


def comments_and_docstrings(source: str) -> Iterator[tuple[int, str]]:
    """Each comment and each string that stands as a statement (a docstring), with its
    first line."""
    before = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
        elif token.type == tokenize.STRING and before in (
                tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            yield token.start[0], token.string
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            before = token.type


def timings(text: str) -> list[str]:
    # a docstring's or comment's lines joined, so that a phrase broken over two lines
    # is still found
    flat = re.sub(r"\s*\n\s*(?:#:?\s*)?", " ", text)
    return [match.group(0) for match in TIMING.finditer(flat)]


def test_the_readme_is_short():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 260, "move detail to docs/, history to CHANGELOG.md"


def test_the_benchmarks_readme_is_short():
    lines = (REPO / "benchmarks" / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 160, "keep how to run and the latest results; history is in git"


def test_the_readme_has_no_dated_benchmark_rounds():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert not re.findall(r"\b\d{1,2} (?:November|December) 20\d\d\b", text)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda path: str(path.relative_to(REPO)))
def test_no_timings_in_comments_or_docstrings(path):
    found = [(line, timing) for line, text in
             comments_and_docstrings(path.read_text(encoding="utf-8"))
             for timing in timings(text)]
    assert not found, "say why without the measurement (benchmarks/ measures)"


def prose_files() -> list[Path]:
    files = [REPO / "README.md", REPO / "CHANGELOG.md", REPO / "benchmarks" / "README.md",
             REPO / "sample_data" / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    files += sorted(path for path in PACKAGE.rglob("*")
                    if path.is_file() and path.suffix in {".py", ".lark", ".md", ".html",
                                                          ".j2", ".jinja", ".txt", ".json"})
    return [path for path in files if path.is_file()]


@pytest.mark.parametrize("path", prose_files(), ids=lambda path: str(path.relative_to(REPO)))
def test_no_references_to_files_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    found = [(text.count("\n", 0, match.start()) + 1, match.group(0))
             for match in OUTSIDE.finditer(text)]
    assert not found, "cite the source by name (the Laws, PBN 2.1 section x) or docs/"


# -- the patterns themselves -----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "(0.33 s on average over five runs)",
    "3 µs of the 4.5 µs that unpickling takes",
    "about 50 ms of work",
    "the compiled install takes 2 minutes",
    "Lark loads in tens of milliseconds",
    "costs about a millisecond of system time",
    "some 8% of the compiled reader's samples",
    "its passes took 35% to 40% of a read",
    "a fifth of the time a frozen dataclass takes",
    "two fifths of this list's time",
    "a tenth of a CPU second",
    "a fifth of a conversion; a quarter of a conversion and of a rescore",
    "which takes half the time; half the cost of a row",
    "Lark costs a few microseconds per token",
    "a third of the start-up of pbnkit score",
    "it took twice as long, pure or compiled",
    "which makes it three times faster",
    "# the first line of a comment that a\n# fifth of the time is spent in",
])
def test_the_timing_pattern_finds_measurements(text):
    assert timings(text)


@pytest.mark.parametrize("text", [
    "Read a Contract tag value: ``Pass``, ``4S``, ``3NTX``, ``6HXX`` (any case).",
    "A LIN call (``p``, ``d``, ``1s``, ``2S``) as PBN writes it",
    "average plus 60 %, average 50 %, average minus 40 %",
    "``60%``, ``^60``, ``40%/60%``; nobody gets 0% or 100%",
    "``9``, ``NS 9``, ``EW 4 NS 9``, each optionally after ``^``",
    "a rank named twice; a card given twice",
    "a CR at the very end may be the first half of a CRLF",
    "half a point for MP2; a tie is half",
    "100 for the first, 200 each for the second and third",
    "draws at most ten times a second",
    "the third value says so",
    "each key's first characters at every third place",
])
def test_the_timing_pattern_passes_bridge_text(text):
    assert not timings(text)


def test_the_docstring_scan_finds_comments_and_docstrings_only():
    source = ('"""Module: 3 µs."""\n'
              'x = "a call of 3 µs is data"  # comment: 50 ms\n'
              'def f():\n'
              '    """Docstring: 2 minutes."""\n')
    found = [timing for _, text in comments_and_docstrings(source) for timing in timings(text)]
    assert found == ["3 µs", "50 ms", "2 minutes"]


@pytest.mark.parametrize("text", ["see ../shared/corpus", "RULES.md 3.4", "PBN.md section 9",
                                  "STYLE.md", "pbn_v21.txt", "corpus/MANIFEST.tsv"])
def test_the_outside_pattern_finds_outside_files(text):
    assert OUTSIDE.search(text)


def test_the_outside_pattern_passes_the_repositorys_own_docs():
    assert not OUTSIDE.search("[docs/pbn.md](docs/pbn.md) and sample_data/README.md")
