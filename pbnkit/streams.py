"""Standard input and output as ``-``: a PBN input read from stdin, an ``-o`` written to
stdout.

Standard input is copied to a private temporary file before the work starts, so that the
units of any ``-j`` (chunks of a large input included) read it as they read any file.
The units carry the ``--stdin-filename`` as their path and the spool file as their
source: the reader, the diagnostics, the reports and the archive's ``path`` column only
ever see the name, so the output is the one a file of that name gives. The spool file
goes when the command ends, also on an error, Ctrl-C or SIGTERM.

``validate``, when it prints the findings as it goes, reads standard input instead as
its games come (:class:`LiveStdin`), in this process and in the order of the inputs,
writing it to the spool file as it reads it.

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
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

import click

from pbnkit.interrupts import held, interruptible

if TYPE_CHECKING:  # the reader's modules stay unloaded at start (pbnkit --version)
    from pbnkit.formats.reader import Reader

#: the name of standard input among the PATHS, and of standard output as ``-o``
STDIN = STDOUT = "-"
#: what standard input is called without ``--stdin-filename``
STDIN_NAME = "<stdin>"

EXIT_TROUBLE = 2
_BLOCK = 1 << 20


@contextlib.contextmanager
def spooled_stdin() -> Iterator[Path]:
    """Standard input copied to a private temporary file, removed when the block ends."""
    with _spool() as (name, spool, stdin):
        shutil.copyfileobj(stdin, spool, _BLOCK)
        spool.close()
        yield name


@contextlib.contextmanager
def live_stdin() -> Iterator[LiveStdin]:
    """Standard input to be read as it comes (:class:`LiveStdin`), into a private
    temporary file removed when the block ends."""
    with _spool() as (name, spool, stdin):
        yield LiveStdin(name, spool, stdin)


@contextlib.contextmanager
def _spool() -> Iterator[tuple[Path, BinaryIO, BinaryIO]]:
    """A new spool file, open for writing, and standard input's bytes; SIGTERM is Ctrl-C
    until the block ends, which removes the file."""
    with interruptible(), contextlib.ExitStack() as cleanup:
        with held():
            fd, name = tempfile.mkstemp(prefix="pbnkit-stdin-", suffix=".pbn")
            cleanup.callback(_remove, name)
        with os.fdopen(fd, "wb") as spool:
            if sys.stdin is None:  # started with stdin closed
                raise OSError("standard input is closed")
            if sys.stdin.isatty():
                click.echo("pbnkit: reading PBN from standard input (end it with Ctrl-D)",
                           err=True)
            yield Path(name), spool, sys.stdin.buffer


def _remove(name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name)


class LiveStdin:
    """Standard input read while its games are checked: each block read is written to
    the spool file too, which holds all of it once the reader has reached the end (or
    :meth:`drain` has), for what reads the file again (``--dd``).

    Its reader is the one the spool file would get: the format is told from as much of
    the first bytes as :func:`pbnkit.formats.sniff.sniff` needs to be sure, and the
    reader's first read (where it looks for a byte-order mark and a charset) gets at
    least the bytes before the first ``[``. A LIN file, or one that is neither format,
    is read whole first: their readers need all of it.
    """

    def __init__(self, path: Path, spool: BinaryIO, stdin: BinaryIO):
        self.path = path
        self._spool = spool
        # read1 gives what the pipe holds, as soon as it holds anything
        self._read = getattr(stdin, "read1", stdin.read)
        self._pending = bytearray()  # read, and not given to the reader yet
        self._first = True
        self._ended = False

    def _more(self, keep: bool = True) -> bool:
        """Read the next block of standard input; False at its end."""
        if self._ended:
            return False
        data = self._read(_BLOCK)
        if not data:
            self._ended = True
            self._spool.close()
            return False
        self._spool.write(data)
        self._spool.flush()
        if keep:
            self._pending += data
        return True

    def read(self, size: int, /) -> bytes:
        if self._first:
            self._first = False
            while b"[" not in self._pending and len(self._pending) < size and self._more():
                pass
        if not self._pending:
            self._more()
        data = bytes(self._pending[:size])
        del self._pending[:size]
        return data

    def drain(self) -> None:
        """Read the rest of standard input into the spool file."""
        self._pending.clear()
        while self._more(keep=False):
            pass

    def reader(self, name: str, strict: bool) -> Reader:
        """The reader of standard input, shown as ``name``."""
        from pbnkit.formats.sniff import open_reader
        from pbnkit.pbn.reader import PbnReader

        if self._format(name) == "pbn":
            return PbnReader(cast(BinaryIO, self), name, strict)
        self.drain()
        return open_reader(os.fspath(self.path), name, strict)

    def _format(self, name: str) -> str | None:
        """:func:`~pbnkit.formats.sniff.sniff_file` of the whole input, from its first
        bytes: PBN as soon as they look like it (more of them would not change that)."""
        from pbnkit.formats.reader import HEAD_SIZE
        from pbnkit.formats.sniff import sniff, sniff_file

        while True:
            head = bytes(self._pending[:HEAD_SIZE])
            if b"\0" not in head and head.strip() and sniff(head) == "pbn":
                return sniff(head, name)
            if len(self._pending) >= HEAD_SIZE or not self._more():
                return sniff_file(os.fspath(self.path), name)


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
    with interruptible(), contextlib.ExitStack() as cleanup:
        with held():
            directory = tempfile.mkdtemp(prefix="pbnkit-stdout-")
            cleanup.callback(shutil.rmtree, directory, ignore_errors=True)
        path = os.path.join(directory, f"stdout{suffix}")
        yield path
        with open(path, "rb") as written, to_stdout():
            stdout = sys.stdout.buffer
            shutil.copyfileobj(written, stdout, _BLOCK)
            stdout.flush()


def shown(out: str) -> str:
    """``-o out`` in messages."""
    return "standard output" if out == STDOUT else out
