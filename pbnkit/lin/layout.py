"""The layout a PBN file would give a LIN board's tags, for the PBN writer.

The positions of a LIN game are those of its pairs, many on one line: the PBN writer,
which lays a game out as its source was, would write the whole board on one line.
"""

from __future__ import annotations

from dataclasses import replace

from pbnkit.records import Element, ElementKind, Game, TagPair


def pbn_layout(game: Game) -> Game:
    """A game read from LIN, with the positions of a PBN file: a tag pair a line, four
    calls or cards a line (a note reference stays with its call). The positions of a
    LIN file are those of its pairs, many on one line, which the PBN writer (which lays
    a game out as its source was) would keep on one line."""
    if game.lin is None:
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
    # its positions are a PBN file's now: it no longer points into the LIN (its claim too)
    return replace(game, tags=tuple(tags), line=1, lin=None)
