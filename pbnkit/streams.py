"""Standard input and output as ``-``: a PBN input read from stdin, an ``-o`` written to
stdout.

Standard input is copied to a private temporary file before the work starts, so that the
units of any ``-j`` (chunks of a large input included) read it as they read any file.
The units carry the ``--stdin-filename`` as their path and the spool file as their
source: the reader, the diagnostics, the reports and the archive's ``path`` column only
ever see the name, so the output is the one a file of that name gives. The spool file
goes when the command ends, also on an error, Ctrl-C or SIGTERM.

An output to stdout (convert, export) is made by the usual writer in a private temporary
directory and copied to stdout once the command has succeeded: stdout gets the whole
output or nothing, as a named output appears whole or not at all. Parquet never goes
there: its readers start from the footer at the end of the file, which a pipe cannot
give them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbnkit.interrupts import interruptible

if TYPE_CHECKING:  # the reader's modules stay unloaded at start (pbnkit --version)
    from pbnkit.jobs.units import Unit

#: the name of standard input among the PATHS, and of standard output as ``-o``
STDIN = STDOUT = "-"
#: what standard input is called without ``--stdin-filename``
STDIN_NAME = "<stdin>"

EXIT_TROUBLE = 2
_BLOCK = 1 << 20


@contextlib.contextmanager
def spooled_stdin() -> Iterator[Path]:
    """Standard input copied to a private temporary file, removed when the block ends."""
    with interruptible():
        fd, name = tempfile.mkstemp(prefix="pbnkit-stdin-", suffix=".pbn")
        try:
            with os.fdopen(fd, "wb") as spool:
                if sys.stdin is None:  # started with stdin closed
                    raise OSError("standard input is closed")
                if sys.stdin.isatty():
                    click.echo("pbnkit: reading PBN from standard input (end it with Ctrl-D)",
                               err=True)
                shutil.copyfileobj(sys.stdin.buffer, spool, _BLOCK)
            yield Path(name)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)


def shown_as(units: Iterable[Unit], names: Mapping[str, str]) -> Iterator[Unit]:
    """The units, those of a file in ``names`` (a spool file → the name to show) reading
    that file under that name."""
    for unit in units:
        if unit.path in names:
            unit = replace(unit, path=names[unit.path], source=unit.path)
        yield unit


def _device(out: str) -> bool:
    """Whether ``out`` names a standard stream (/dev/stdout, /dev/fd/N, /proc/...: they
    resolve to a regular file when the stream is redirected to one), or an existing file
    that is neither a regular file nor a directory: a terminal, a pipe, a device."""
    name = os.path.abspath(out)
    if name in ("/dev/stdin", "/dev/stdout", "/dev/stderr") or name.startswith(
            ("/dev/fd/", "/proc/")):
        return True
    try:
        mode = os.stat(out).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def check_output(out: str | None, parquet: bool, dash: str) -> None:
    """Refuse an ``-o`` that is stdout, a pipe or a device by any name but ``-``
    (/dev/stdout, /dev/fd/1, /dev/null): outputs are renamed into place, which such a
    file must never undergo. ``parquet``: what ``out`` names would be written as
    Parquet; ``dash``: what ``-o -`` writes instead."""
    if out is None or out == STDOUT or not _device(out):
        return
    if parquet:
        raise click.BadParameter(
            f"{out}: Parquet cannot be written to standard output, a pipe or a device "
            "(its readers need the whole file, from its end); name a file or a directory, "
            f"or use -o - for {dash} on standard output", param_hint="-o")
    raise click.BadParameter(f"{out} is not a regular file or a directory; use -o - to "
                             "write to standard output", param_hint="-o")


@contextlib.contextmanager
def to_stdout() -> Iterator[None]:
    """Writing to stdout: a reader that stops early (``| head``) ends the command with
    status 2 and one line on stderr, not a traceback."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        # The interpreter flushes stdout again at exit: point it where that cannot fail.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        click.echo("pbnkit: standard output closed before the output was written", err=True)
        sys.exit(EXIT_TROUBLE)


@contextlib.contextmanager
def output_path(out: str, suffix: str) -> Iterator[str]:
    """Where a writer writes ``-o out``: ``out`` itself, or for ``-``, a file named
    ``*suffix`` in a private temporary directory, copied to stdout when the block ends
    normally and removed in any case."""
    if out != STDOUT:
        yield out
        return
    directory = tempfile.mkdtemp(prefix="pbnkit-stdout-")
    try:
        with interruptible():
            path = os.path.join(directory, f"stdout{suffix}")
            yield path
            with open(path, "rb") as written, to_stdout():
                stdout = sys.stdout.buffer
                shutil.copyfileobj(written, stdout, _BLOCK)
                stdout.flush()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def shown(out: str) -> str:
    """``-o out`` in messages."""
    return "standard output" if out == STDOUT else out
