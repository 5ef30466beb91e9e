"""``PL`` codes about the cards. The play replay emits and registers them
(:mod:`pbnkit.replay.play`, below both rules and scoring); the rules package lists the
family here with the others."""

from pbnkit.replay.play import PLAY

__all__ = ["PLAY"]
