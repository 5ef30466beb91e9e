"""The facts of a record, established once: the replay of its Auction and Play sections
and the lenient reading of the tags that state the outcome.

This layer sits between the bridge model (:mod:`pbnkit.model`) and its two users, the
rules (:mod:`pbnkit.rules`, which turn findings into a report) and scoring
(:mod:`pbnkit.scoring`), so that neither of those imports the other to learn what a record
says happened. The replay reports what breaks the rules of play as it goes (the ``AU``
and ``PL`` codes).
"""

from pbnkit.replay.facts import RecordFacts, record_facts
from pbnkit.replay.game import replay
from pbnkit.replay.outcome import Replayed
from pbnkit.replay.tags import parse_deal

__all__ = ["RecordFacts", "Replayed", "parse_deal", "record_facts", "replay"]
