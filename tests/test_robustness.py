"""Random and mutated text never escapes the reader or the validator as an exception."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pbnkit
from pbnkit.rules import check_game

SEED = (b'% PBN 2.1\n[Event "Club"]\n[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]\n'
        b'[Deal "S:AKQ2.K3.A76.J854 J5.QJT9.KQ32.Q72 T9876.A84.J5.A63 43.7652.T984.KT9"]\n'
        b'[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n{a comment}\n'
        b'[Auction "S"]\n1C Pass 1S Pass\n2NT =1= Pass 4S AP\n[Note "1:18-19"]\n'
        b'[Play "E"]\nDT D6 DK D5\n*\n[ScoreTable "Rank\\2R;Score_NS\\5R"]\n1 420\n2 "x y"\n')

PIECES = [b"[", b"]", b'"', b"{", b"}", b";", b"%", b"\n", b"\r", b"\r\n", b" ", b"\t",
          b"\x00", b"\x85", b"\xff", b"#", b"##", b"=1=", b"$3", b"^I", b"^S", b"*", b"+",
          b"-", b"AP", b"XX", b"7NT", b"SA", b"\xc3\xa9", b"\xef\xbb\xbf"]


def check_everything(data: bytes) -> None:
    reader = pbnkit.read(io.BytesIO(data))
    for game in reader:
        for diagnostic in check_game(game):
            assert diagnostic.line >= 1 and diagnostic.column >= 1
            diagnostic.format()
    assert reader.encoding


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data):
    check_everything(data)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_mutated_pbn_never_raises(data):
    text = bytearray(SEED)
    for _ in range(data.draw(st.integers(1, 8))):
        position = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = data.draw(st.sampled_from(PIECES))
        if action == "insert":
            text[position:position] = piece
        elif action == "delete":
            del text[position:position + data.draw(st.integers(1, 20))]
        else:
            text[position:position + len(piece)] = piece
    check_everything(bytes(text))


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]"{};% \n#ABab12=$^*+-.:'), max_size=400))
def test_random_pbn_like_text_never_raises(text):
    check_everything(text.encode("utf-8"))


def test_unterminated_string_and_comment_at_end_of_file():
    check_everything(b'[Event "never closed\n')
    check_everything(b'[Event "x"]\n{never closed')
    check_everything(b'[Event "x"]\n[Auction "N"]\n1S =1')
