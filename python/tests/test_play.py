"""The board game from Python (`isim.play`): positions, legal turns, the search player's advice, the board
as SVG; illegal turns and positions are refused with the rule set's line."""

from __future__ import annotations

import pytest

import intercept_sim as isim
from test_api import config


def test_a_game_is_played_to_its_end() -> None:
    game = isim.play(config("board"))
    assert game.status == {"to_move": "white", "over": False, "winner": None, "turns_played": 0}
    assert repr(game) == "Game(board, 0 turns played, white to move)"
    played = 0
    while not game.status["over"] and played < 300:
        game = game.play(game.advise(budget=20, seed=played)["turn"]["id"])
        played += 1
    assert game.status["turns_played"] == played
    assert game.status["over"] and not game.turns, "the search players end a game within 300 turns"


def test_advice_is_seeded_and_bounded() -> None:
    game = isim.play(isim.Scenario.load(config("board")))
    first = game.advise(budget=100, seed=5)
    assert first == game.advise(budget=100, seed=5)
    assert first["playouts"] == 100 and first["turn"] in game.turns
    with pytest.raises(ValueError, match="budget 0: allowed: 1 to 100000 playouts"):
        game.advise(budget=0)


def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    game = isim.play(config("board"))
    after = game.play(game.turns[0]["id"])
    again = isim.Game.from_position("board", after.position)
    assert again.turns == after.turns and again.status["to_move"] == "black"
    assert game.svg().startswith("<svg") and game._repr_html_() == game.svg()
    with pytest.raises(ValueError, match="illegal turn"):
        game.play("z9-z9")
    with pytest.raises(ValueError, match="not a position"):
        isim.Game.from_position("board", {"squares": 3})
    with pytest.raises(ValueError, match=r"\[cavalry\] has no game to play; games: board"):
        isim.play(config("cavalry"))
