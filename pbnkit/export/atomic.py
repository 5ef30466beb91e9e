"""Outputs that appear whole or not at all.

Everything is written to a hidden temporary file (or directory) beside the target, synced
to disk, then renamed over it. A run that fails or is interrupted removes its temporary
file and leaves the target as it was; an existing target is replaced only when asked.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pbnkit.errors import PbnError


class OutputError(PbnError):
    """The output cannot be written where asked."""


class OutputExistsError(OutputError):
    """The output exists and replacing it was not asked for."""


def check_target(path: Path, force: bool) -> None:
    """Fail early, before any work, when the output may not be written."""
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputExistsError(f"{path} exists (use --force to replace it)")
    _check_parent(path)


def _check_parent(path: Path) -> None:
    """The output's directory exists; else which part of its path is wrong."""
    if path.parent.is_dir():
        return
    for above in path.parents:
        if above.exists():
            if not above.is_dir():
                raise OutputError(f"cannot write {path}: {above} is a file, not a directory")
            break
    raise OutputError(f"directory {path.parent} does not exist")


@contextlib.contextmanager
def _named(target: Path) -> Iterator[None]:
    """An OSError while making the hidden temporary output names the output asked for
    (the temporary name means nothing to the user)."""
    try:
        yield
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None


def _permissions(path: str, directory: bool = False) -> None:
    """Temporary files are private; the output gets the usual permissions."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, (0o777 if directory else 0o666) & ~mask)


def _sync_directory(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _hidden_prefix(target: Path) -> str:
    """The start of the name of a hidden file or directory beside ``target``: with the
    pid of the process that writes it, so that a later run can tell it from another
    run's work in progress (:func:`remove_leftovers`)."""
    return f".{target.name}.{os.getpid()}-"


def remove_leftovers(target: Path) -> None:
    """Remove the hidden files and directories beside ``target`` (``.tmp`` work in
    progress, an ``.old`` version being replaced) whose process has ended: a run killed
    by SIGKILL, or a machine that stopped, removes nothing itself. Those of a live
    process, or of a pid this process cannot tell (another user's), stay (the pid is
    looked up on this machine). An ``.old`` stays too while ``target`` is missing: the
    run was killed between moving it aside and putting the new one in place, and it
    holds the only complete version."""
    # the pid, then mkstemp's random letters, which hold no "." or "-": the hidden
    # files of a target whose name goes on from this one's (out.jsonl.1-a) do not match
    leftover = re.compile(re.escape(f".{target.name}.") + r"(\d+)-\w+\.(tmp|old)")
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            match = leftover.fullmatch(entry.name)
            if match is None or (match[2] == "old" and not target.exists()):
                continue
            if not _alive(int(match[1])):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's process
        return True
    return True


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], force: bool = False) -> Iterator[BinaryIO]:
    """A binary stream whose content becomes ``path`` when the block ends normally."""
    target = Path(path)
    check_target(target, force)
    remove_leftovers(target)
    with _named(target):
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=_hidden_prefix(target),
                                         suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        _permissions(temporary)
        _publish(temporary, target, force)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _sync_directory(target.parent)


def _publish(temporary: str, target: Path, force: bool) -> None:
    if force:
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target)  # fails if the target appeared meanwhile: never clobber
    except FileExistsError:
        raise OutputExistsError(f"{target} exists (use --force to replace it)") from None
    except OSError:  # no hard links on this file system
        if target.exists():
            raise OutputExistsError(f"{target} exists (use --force to replace it)") from None
        os.replace(temporary, target)
    else:
        os.unlink(temporary)


@contextlib.contextmanager
def atomic_directory(path: str | os.PathLike[str], force: bool = False) -> Iterator[Path]:
    """A fresh directory whose content becomes ``path`` when the block ends normally.

    Replacing an existing directory (``force``) moves it aside first and deletes it
    after the new one is in place, so some complete version is always there.
    """
    target = Path(path)
    check_target(target, force)
    remove_leftovers(target)
    with _named(target):
        temporary = Path(tempfile.mkdtemp(dir=target.parent, prefix=_hidden_prefix(target),
                                          suffix=".tmp"))
    try:
        yield temporary
        _publish_directory(temporary, target, force)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def partial_of(path: str | os.PathLike[str]) -> Path:
    """Where the work in progress towards the directory ``path`` is kept."""
    target = Path(path)
    return target.parent / f".{target.name}.partial"


@contextlib.contextmanager
def resumable_directory(path: str | os.PathLike[str], force: bool = False,
                        resume: bool = False) -> Iterator[Path]:
    """Like :func:`atomic_directory`, but the work in progress is the hidden directory
    :func:`partial_of` ``path``, kept when the block fails or is interrupted so that a
    later run can go on with it (``resume``) rather than start again."""
    target = Path(path)
    partial = partial_of(target)
    if not resume:
        check_target(target, force)
        if partial.exists():
            if not force:
                raise OutputExistsError(
                    f"an interrupted run left its work in {partial}: use --resume to finish "
                    "it, or --force to start again")
            shutil.rmtree(partial)
    elif target.exists() and not partial.exists():
        raise OutputExistsError(f"{target} is complete: there is nothing to resume")
    _check_parent(target)
    with _named(target):
        partial.mkdir(exist_ok=True)
    yield partial
    _publish_directory(partial, target, force or resume)


def _publish_directory(temporary: Path, target: Path, force: bool) -> None:
    for part in temporary.rglob("*"):
        if part.is_file():
            with open(part, "rb") as stream:
                os.fsync(stream.fileno())
    for directory in [temporary, *(p for p in temporary.rglob("*") if p.is_dir())]:
        _permissions(str(directory), directory=True)
    old = None
    if target.exists() or target.is_symlink():
        if not force:
            raise OutputExistsError(f"{target} exists (use --force to replace it)")
        if target.is_dir() and not target.is_symlink():
            old = Path(tempfile.mkdtemp(dir=target.parent, prefix=_hidden_prefix(target),
                                        suffix=".old"))
            os.replace(target, old / "previous")
        else:
            os.unlink(target)
    try:
        os.rename(temporary, target)
    except OSError:
        if old is not None:  # put the previous version back
            os.replace(old / "previous", target)
            shutil.rmtree(old, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    _sync_directory(target.parent)
