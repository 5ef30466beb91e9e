"""``AU`` and ``PL`` codes about note references. The replay emits and registers them
(:mod:`pbnkit.replay.notes`); the rules package lists them here with the others."""

from pbnkit.replay.notes import NOTES

__all__ = ["NOTES"]
