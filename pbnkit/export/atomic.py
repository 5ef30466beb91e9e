"""Outputs that appear whole or not at all.

Everything is written to a hidden temporary file (or directory) beside the target, synced
to disk, then renamed over it. A run that fails or is interrupted removes its temporary
file and leaves the target as it was; an existing target is replaced only when asked.

Two runs never write one output at once: each holds a lock on it (:func:`output_lock`)
while it writes, and a second run refuses at once rather than waiting behind the first.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pbnkit.errors import PbnError


class OutputError(PbnError):
    """The output cannot be written where asked."""


class OutputExistsError(OutputError):
    """The output exists and replacing it was not asked for."""


class OutputBusyError(OutputError):
    """Another run is writing the output."""


try:
    import fcntl
except ImportError:  # Windows: no advisory locks; outputs are still atomic
    fcntl = None  # type: ignore[assignment]


def lock_of(path: str | os.PathLike[str]) -> Path:
    """The lock file of an output: hidden, beside it."""
    target = Path(path)
    return target.parent / f".{target.name}.lock"


@contextlib.contextmanager
def output_lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of the output ``path`` for the block; :class:`OutputBusyError` at once
    when another run holds it.

    Why refuse rather than wait: the run that waited would then replace (``--force``) or
    refuse (without) what the first one wrote, neither of which its user could foresee;
    a refusal says what is going on, and the command can be run again. The lock is an
    ``flock`` on :func:`lock_of` ``path``, which the kernel releases when its process ends,
    however it ends: a crashed run never leaves an output locked. The file is removed on
    release; a run that opened it just before checks, once it holds the lock, that it
    still has the file of that name, and otherwise locks the new one."""
    target = Path(path)
    if fcntl is None:
        yield
        return
    lock = lock_of(target)
    while True:
        with _named(target):
            fd = os.open(lock, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputBusyError(f"{target} is being written by another run (it holds "
                                  f"{lock}): run this again once that one has ended") from None
        except OSError:  # a file system without locks: write unlocked, as before
            os.close(fd)
            fd = -1
            break
        try:
            current = os.path.samestat(os.fstat(fd), os.stat(lock, follow_symlinks=False))
        except FileNotFoundError:
            current = False
        if current:
            break
        os.close(fd)
    try:
        yield
    finally:
        if fd >= 0:
            _release(fd, lock)


def _release(fd: int, lock: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(lock)  # first: a run that opens the name now gets a new file
    # workers forked meanwhile share the lock: release it for them too
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def is_locked(path: str | os.PathLike[str]) -> bool:
    """Whether another run holds the lock of the output ``path`` now."""
    if fcntl is None:
        return False
    try:
        fd = os.open(lock_of(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


def check_target(path: Path, force: bool) -> None:
    """Fail early, before any work, when the output may not be written."""
    _check_kind(path)
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputExistsError(f"{path} exists (use --force to replace it)")
    _check_parent(path)


def _check_kind(path: Path) -> None:
    """Refuse a device, a FIFO or a socket as the output (or a link to one): replacing it
    by a file (``--force``) would break whatever uses it, and it is not a file that can
    appear whole. Standard output is ``-``."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else None)
    if kind is not None:
        raise OutputError(f"cannot write {path}: it is {kind}, not a regular file or "
                          "directory (use -o - for standard output)")


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
    with output_lock(target):
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
    with output_lock(target):
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
    if resume:
        _check_kind(target)
        _check_parent(target)
    else:
        check_target(target, force)
    with output_lock(target):  # before the partial work is looked at: it may be another run's
        if not resume:
            if partial.exists():
                if not force:
                    raise OutputExistsError(
                        f"an interrupted run left its work in {partial}: use --resume to "
                        "finish it, or --force to start again")
                shutil.rmtree(partial)
        elif target.exists() and not partial.exists():
            raise OutputExistsError(f"{target} is complete: there is nothing to resume")
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
