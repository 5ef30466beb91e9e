"""A project's pbnkit settings: a ``pbnkit.toml``, or the ``[tool.pbnkit]`` table of a
``pyproject.toml``, found as ruff finds its own: in the current directory or the nearest
directory above it that has one (a ``pbnkit.toml`` first; a ``pyproject.toml`` without
the table is passed over).

.. code-block:: toml

    [tool.pbnkit]
    select = ["SY", "TG", "DL"]
    ignore = ["TG003"]
    strict = false
    profile = "duplicate"          # pbnkit score's and rescore's --profile

    [tool.pbnkit.per-file-ignores]
    "robots/*" = ["TG014", "TG015"]  # relative to the settings file's directory
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbnkit.errors import PbnError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover -- the package requires tomli there
    import tomli as tomllib

SETTINGS_FILE = "pbnkit.toml"
_KEYS = ("select", "ignore", "per-file-ignores", "profile", "strict")


class ConfigError(PbnError):
    """A settings file that cannot be read, or holds a key or value pbnkit does not know."""


@dataclass(frozen=True, slots=True)
class Config:
    """The settings in force; all defaults when no file was found (``path`` None)."""

    path: Path | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: (glob, code prefixes) in file order; globs are relative to ``root``
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    profile: str | None = None
    strict: bool = False

    @property
    def root(self) -> Path:
        """The directory the per-file globs are relative to: the settings file's."""
        return self.path.parent if self.path is not None else Path.cwd()


def find(start: Path) -> Path | None:
    """The settings file for ``start`` (a directory): its own, or its nearest parent's."""
    for directory in (start, *start.parents):
        own = directory / SETTINGS_FILE
        if own.is_file():
            return own
        project = directory / "pyproject.toml"
        if project.is_file() and "pbnkit" in _read(project).get("tool", {}):
            return project
    return None


def load(path: Path | None) -> Config:
    """The settings of ``path`` (a ``pbnkit.toml`` or ``pyproject.toml``); None: defaults."""
    if path is None:
        return Config()
    table = _read(path)
    if path.name != SETTINGS_FILE:
        table = table.get("tool", {}).get("pbnkit", {})
    where = os.fspath(path)
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r}; pbnkit knows "
                          + ", ".join(_KEYS))
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{where}: per-file-ignores must be a table of glob = [codes]")
    profile = table.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise ConfigError(f"{where}: profile must be a string, e.g. \"duplicate\"")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{where}: strict must be true or false")
    # Imported here: the check of the codes (and difflib, for the nearest one) is for a
    # settings file, which a run of score or rescore seldom has.
    from pbnkit.codes import UnknownCodeError, checked_prefixes

    try:
        return Config(
            path,
            checked_prefixes(_codes(table, "select", where), f"{where}: select"),
            checked_prefixes(_codes(table, "ignore", where), f"{where}: ignore"),
            tuple((glob, checked_prefixes(_codes(per_file, glob, where),
                                          f"{where}: per-file-ignores {glob!r}"))
                  for glob in per_file),
            profile, strict)
    except UnknownCodeError as error:
        raise ConfigError(str(error)) from None


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as stream:
            return tomllib.load(stream)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None


def _codes(table: dict[str, Any], key: str, where: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key} must be a list of codes, e.g. [\"TG003\"]")
    return value
