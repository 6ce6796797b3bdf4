"""A rule set's game (the board game's) played turn by turn, as the workbench's ``/play`` page plays it."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from . import _native


class Game:
    """A position of a rule set's game: whose turn it is (``status``), its legal turns (``turns``), the
    position after one (``play``), and the rule set's search player's choice (``advise``). Immutable; a
    notebook shows the board."""

    def __init__(self, native: _native.Game) -> None:
        self._native = native

    @classmethod
    def from_position(cls, rule_set: str, position: Any) -> "Game":
        """A game from ``position`` (as :attr:`position` gives it) of ``rule_set``'s game, checked as a start."""
        return cls(_native.Game.from_position(rule_set, json.dumps(position)))

    @property
    def rule_set(self) -> str:
        return self._native.rule_set

    @property
    def position(self) -> Any:
        """The position as the rule set writes it (JSON): what :meth:`from_position` reads back."""
        return json.loads(self._native.position_json())

    @property
    def status(self) -> Dict[str, Any]:
        """``to_move``, ``over``, ``winner`` (when over and not drawn) and ``turns_played``."""
        result: Dict[str, Any] = json.loads(self._native.status_json())
        return result

    @property
    def turns(self) -> List[Dict[str, str]]:
        """Every legal turn, each an ``id`` (what :meth:`play` takes) and a ``text``; none once the game is over."""
        result: List[Dict[str, str]] = json.loads(self._native.turns_json())
        return result

    def play(self, turn: str) -> "Game":
        """The position after the turn whose id is ``turn``; an illegal turn raises ``ValueError``."""
        return Game(self._native.apply(turn))

    def advise(self, budget: int = 300, seed: int = 1) -> Dict[str, Any]:
        """The search player's turn with ``budget`` playouts (the same for the same ``seed``): ``turn``,
        ``playout_score`` (its playouts' mean score, not a chance of winning), ``visits``, ``playouts``,
        ``line`` (the turns the search expects, each an ``id`` and a ``text``, the advised turn first) and
        ``evaluation`` (``None`` when the rule set has none, else ``win_chance``, the chance 0 to 1 that the
        side to move wins, and ``why``, what it rests on in a sentence)."""
        result: Dict[str, Any] = json.loads(self._native.advise_json(budget, seed))
        return result

    def svg(self) -> str:
        """The board as SVG."""
        return self._native.svg()

    def _repr_html_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        s = self.status
        state = f"over, {s.get('winner') or 'drawn'}" if s["over"] else f"{s['to_move']} to move"
        played = s["turns_played"]
        return f"Game({self.rule_set}, {played} turn{'' if played == 1 else 's'} played, {state})"
