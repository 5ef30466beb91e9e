"""Pickling by fields: what workers send the parent comes back equal, frozen, and, for a
frozen dataclass of plain slots, through the function made for it rather than __init__."""

from __future__ import annotations

import copyreg
import dataclasses
import pickle
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from pbnkit.pickling import by_fields
from pbnkit.scoring.base import BoardResult, Hands, MatchKey, Pairs


@by_fields
@dataclass(frozen=True, slots=True)
class Stored:
    """Fields named as the made function's own names are."""

    made: int
    new_: str
    cls_: tuple[int, ...] = ()
    field0: str | None = None
    set0: float = 0.0


@by_fields
@dataclass(frozen=True, slots=True)
class Checked:
    level: int

    def __post_init__(self) -> None:
        if self.level < 1:
            raise ValueError("level below 1")


@by_fields
@dataclass(slots=True)
class Mutable:
    count: int


@by_fields
@dataclass(frozen=True, slots=True)
class Derived:
    text: str
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.text))


def maker(value: object) -> object:
    """What unpickling calls to rebuild ``value``."""
    return copyreg.dispatch_table[type(value)](value)[0]


def test_a_frozen_slots_dataclass_comes_back_through_its_made_function() -> None:
    value = Stored(1, "two", (3, 4), "five", 6.5)
    assert getattr(maker(value), "__name__", "") == "_unpickled_Stored"
    again = pickle.loads(pickle.dumps(value))
    assert again == value and type(again) is Stored
    assert [getattr(again, f.name) for f in dataclasses.fields(Stored)] == \
        [1, "two", (3, 4), "five", 6.5]
    with pytest.raises(dataclasses.FrozenInstanceError):
        again.made = 2  # type: ignore[misc]


@pytest.mark.parametrize("value", [Checked(2), Mutable(3), Derived("abc")],
                         ids=lambda value: type(value).__name__)
def test_a_class_whose_init_does_more_than_store_comes_back_through_it(value: object) -> None:
    assert maker(value) is type(value)
    assert pickle.loads(pickle.dumps(value)) == value


def test_board_results_come_back_through_made_functions() -> None:
    result = BoardResult(7, "8", hands=Hands(1 << 60, 15), match_key=MatchKey("Cup", "A"),
                         pairs=Pairs("1", "2", "Ann", None, ("a", "b", "c", "d")), weight=2)
    for value in (result, result.hands, result.match_key, result.pairs):
        assert getattr(maker(value), "__name__", "").startswith("_unpickled_")
    assert pickle.loads(pickle.dumps(result)) == result


def test_a_new_process_unpickles_a_board_result_by_importing_its_module() -> None:
    """A Dask worker starts with nothing of pbnkit imported: the made function is found
    by importing the class's module, which makes it."""
    result = BoardResult(7, "8", hands=Hands(1 << 60, 15), match_key=MatchKey("Cup"))
    script = ("import pickle, sys; value = pickle.loads(sys.stdin.buffer.read()); "
              "print(repr(value))")
    shown = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(result),
                           capture_output=True, check=True).stdout.decode()
    assert shown.strip() == repr(result)
