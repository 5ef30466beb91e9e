"""``pbnkit validate --fix`` and ``--diff``: the safe fixes of :mod:`pbnkit.rules.fixes`,
written over each file atomically, or shown as a unified diff."""

from __future__ import annotations

import difflib
import sys
from collections import Counter
from pathlib import Path

import click

from pbnkit.export.atomic import OutputError, atomic_file
from pbnkit.streams import EXIT_TROUBLE
from pbnkit.rules.fixes import Fix, fix_bytes


def fix_files(files: list[Path], names: dict[str, str], select: tuple[str, ...],
              ignore: tuple[str, ...], diff: bool) -> int:
    """Fix each file (``diff``: print what would change instead); the number of fixes.
    What was fixed is said on stderr, file by file; standard input is never rewritten."""
    total = changed = 0
    for path in files:
        if str(path) in names:
            raise click.UsageError("--fix and --diff rewrite files: give file names, not -")
        data = path.read_bytes()
        fixed, fixes = fix_bytes(data, str(path), select, ignore)
        if not fixes:
            continue
        total += len(fixes)
        if diff:
            click.echo(_diff(path, data, fixed), nl=False)
            continue
        mode = path.stat().st_mode
        try:
            with atomic_file(path, force=True) as stream:
                stream.write(fixed)
            path.chmod(mode)  # the fixed file replaces the file: keep who may read it
        except (OutputError, OSError) as error:
            click.echo(f"pbnkit: {error}", err=True)
            sys.exit(EXIT_TROUBLE)
        changed += 1
        click.echo(f"pbnkit: {path}: fixed {_counted(fixes)}", err=True)
    if not diff:
        fixes_made = "1 fix" if total == 1 else f"{total} fixes"
        click.echo(f"pbnkit: {fixes_made} made in {changed} of {len(files)} files; what is "
                   "listed next remains", err=True)
    return total


def _counted(fixes: list[Fix]) -> str:
    counts = Counter(fix.code for fix in fixes)
    return ", ".join(f"{count} {code}" for code, count in sorted(counts.items()))


def _diff(path: Path, before: bytes, after: bytes) -> str:
    """A unified diff of the lines that change, decoded as Latin-1 so that any byte shows
    (the fixes themselves are ASCII)."""
    lines = difflib.unified_diff(before.decode("latin-1").splitlines(keepends=True),
                                 after.decode("latin-1").splitlines(keepends=True),
                                 str(path), str(path))
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
