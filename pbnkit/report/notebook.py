"""The notebook views of deals, auctions, plays and records, drawn with the report's
templates; importing this module offers them to :mod:`pbnkit.views` (the package's
``pbnkit.views`` entry point names it)."""

from __future__ import annotations

from pbnkit.model.auction import Auction
from pbnkit.model.deal import Deal
from pbnkit.model.play import Play
from pbnkit.pbn.records import Game
from pbnkit.report.render import render_fragment
from pbnkit.report.views import auction_of, board_view, deal_hands, play_of
from pbnkit.views import register


def deal_html(deal: Deal) -> str:
    return render_fragment("deal", deal_hands(deal))


def auction_html(auction: Auction) -> str:
    return render_fragment("auction", auction_of(auction))


def play_html(play: Play) -> str:
    return render_fragment("play", play_of(play))


def game_html(game: Game) -> str:
    return render_fragment("board", board_view(game))


register("deal", deal_html)
register("auction", auction_html)
register("play", play_html)
register("game", game_html)
