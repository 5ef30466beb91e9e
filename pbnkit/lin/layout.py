"""Where a LIN board's tags stand: the claim among them, and the layout a PBN file
would give them, for the PBN writer.

The positions of a LIN game are those of its pairs, many on one line: the PBN writer,
which lays a game out as its source was, would write the whole board on one line.
"""

from __future__ import annotations

from dataclasses import replace

from pbnkit.records import Element, ElementKind, Game, TagPair


#: Tags a LIN board makes from its own pairs (others may come from the file's header,
#: which stands before the board)
_OWN_TAGS = frozenset(("Dealer", "Deal", "Vulnerable", "Auction", "Play"))


def read_from_lin(game: Game) -> bool:
    """Whether the game's positions are those of a LIN file: its ``Lin`` tag stands at
    the board's first pair, before (or at) the tags made from the board's pairs. Written
    into PBN, the ``Lin`` tag comes after them."""
    lin = game.tag("Lin")
    if lin is None:
        return False
    start = (lin.line, lin.column)
    return all((tag.line, tag.column) >= start for tag in game.tags if tag.name in _OWN_TAGS)


def claim_of(game: Game) -> TagPair | None:
    """The Result tag a LIN board's claim (``mc``) made, if it has one. The reader puts
    it just before the ``Lin`` tag (after the Play it ends); a Result from a vugraph
    ``rs`` stands with the other tags, before the board's sections."""
    if not read_from_lin(game):
        return None
    names = [tag.name for tag in game.tags]
    at = names.index("Lin")
    return game.tags[at - 1] if at > 0 and names[at - 1] == "Result" else None


def pbn_layout(game: Game) -> Game:
    """A game read from LIN, with the positions of a PBN file: a tag pair a line, four
    calls or cards a line (a note reference stays with its call). The positions of a
    LIN file are those of its pairs, many on one line, which the PBN writer (which lays
    a game out as its source was) would keep on one line."""
    if not read_from_lin(game):
        return game
    tags: list[TagPair] = []
    line = 1
    for tag in game.tags:
        body: list[Element] = []
        line += 1 if tags else 0
        placed = tag._replace(line=line, column=1, value_column=len(tag.name) + 4)
        items, column = 0, 1
        for element in tag.body:
            for token in element.split():  # the reader keeps calls and cards in runs
                note = token.text.startswith("=")
                if not note and items % 4 == 0:
                    line, column = line + 1, 1
                body.append(Element(ElementKind.TOKENS, token.text, line, column))
                column += len(token.text) + 1
                items += not note
        tags.append(placed._replace(body=tuple(body)))
    return replace(game, tags=tuple(tags), line=1)
