"""``AU`` codes about the calls. The auction replay emits and registers them
(:mod:`pbnkit.replay.auction`, below both rules and scoring); the rules package lists the
family here with the others."""

from pbnkit.replay.auction import AUCTION

__all__ = ["AUCTION"]
