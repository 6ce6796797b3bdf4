"""intercept-sim: the odds of wargame interception rules, exactly and by seeded Monte Carlo.

A :class:`Scenario` is a config resolved by the Rust core, every default filled in. Its answers are the same
documents the command line prints with ``--json`` (``exact``, ``run``, ``sweep``, ``sensitivity``,
``solve``, ``odds``), wrapped in result classes: an answer sentence, exact values as
:class:`fractions.Fraction`, the whole document as ``.document``, tables through the Arrow C stream
interface, and in a notebook the report's answer, table and chart. :func:`play` plays a rule set's game.
Same config and seed, same numbers as the command line, whatever the threads. Ctrl-C stops long work
between chunks with ``KeyboardInterrupt``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _native
from ._native import ConfigError, __version__, rule_sets
from ._progress import Progress, callback
from ._game import Game
from ._results import (
    ExactResult,
    OddsResult,
    RunResult,
    SensitivityResult,
    SolveResult,
    SweepResult,
    Table,
    WhereResult,
)

__all__ = [
    "ConfigError",
    "ExactResult",
    "Game",
    "OddsResult",
    "Progress",
    "RunResult",
    "Scenario",
    "SensitivityResult",
    "SolveResult",
    "SweepResult",
    "Table",
    "WhereResult",
    "__version__",
    "odds",
    "play",
    "rule_sets",
]

Setting = Union[str, int, float, bool]


def _setting(value: Setting) -> str:
    """A value written as ``--set`` takes it: ``true``/``false`` for a bool."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _values(given: Union[Setting, Sequence[Setting]]) -> list[str]:
    """One value or several, each written as ``--set`` takes it; a string is one value, not its characters."""
    if isinstance(given, (str, int, float, bool)):
        return [_setting(given)]
    return [_setting(v) for v in given]


def _names(given: Union[str, Iterable[str]]) -> list[str]:
    return [given] if isinstance(given, str) else list(given)


class Scenario:
    """A scenario, resolved: every default filled in, ready to solve or sample. ``set`` gives a new one."""

    def __init__(self, native: _native.Scenario) -> None:
        self._native = native

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "Scenario":
        """Reads and resolves the config at ``path``; a bad config raises :class:`ConfigError`."""
        return cls(_native.Scenario.load(str(path)))

    @classmethod
    def from_toml(cls, text: str, name: str = "<text>") -> "Scenario":
        """Resolves a config given as TOML text; ``name`` stands for its file in messages."""
        return cls(_native.Scenario.from_toml(text, name))

    @classmethod
    def from_dict(cls, config: Mapping[str, Any], name: str = "<dict>") -> "Scenario":
        """Resolves a config given as a dict of the TOML's tables and keys, such as
        ``{"cavalry": {"rules": {...}}, "run": {"seed": 7}}``."""
        try:
            text = json.dumps(config)
        except (TypeError, ValueError) as e:
            error = ConfigError(f"{name}: not a config: {e}")
            error.file, error.line, error.key, error.reason = name, None, None, f"not a config: {e}"
            raise error from None
        return cls(_native.Scenario.from_json(text, name))

    @property
    def name(self) -> str:
        """The run's name (``[run] name``)."""
        return self._native.name

    @property
    def file(self) -> str:
        """The config file, or the name given to ``from_toml``/``from_dict``."""
        return self._native.file

    @property
    def rule_set(self) -> str:
        """The rule set: the config's top table."""
        return self._native.rule_set

    def set(self, key: str, value: Setting) -> "Scenario":
        """The scenario with ``key`` set to ``value``, with the same key spellings and errors as ``--set``."""
        return Scenario(self._native.set(key, _setting(value)))

    def to_toml(self) -> str:
        """The resolved config as TOML, every default filled in."""
        return self._native.to_toml()

    def exact(self) -> ExactResult:
        """Every metric exactly, by walking or merging the chance tree (``exact``)."""
        return ExactResult(self._native.exact())

    def run(
        self,
        trials: Optional[int] = None,
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        progress: Progress = None,
    ) -> RunResult:
        """A seeded Monte Carlo run (``run``), without writing files; the config's trials and seed by default.
        ``progress``: a callable ``(done, total)``, or ``True`` for a bar (tqdm when installed)."""
        with callback(progress, "trials") as report:
            return RunResult(self._native.run(trials, seed, threads, report))

    def sweep(
        self,
        axes: Mapping[str, Union[Setting, Sequence[Setting]]],
        metrics: Union[str, Iterable[str]] = (),
        trials: Optional[int] = None,
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        allow_large: bool = False,
        progress: Progress = None,
    ) -> SweepResult:
        """The scenario at every point of the grid ``axes`` ({key: values}), every point on the same seed
        (``sweep``); ``metrics`` are those the document shows (the headline ones by default)."""
        pairs = [(key, _values(values)) for key, values in axes.items()]
        with callback(progress, "trials") as report:
            native = self._native.sweep(pairs, _names(metrics), trials, seed, threads, allow_large, report)
        return SweepResult(native)

    def sensitivity(
        self,
        only: Union[str, Iterable[str]] = (),
        metrics: Union[str, Iterable[str]] = (),
        float_step: Optional[float] = None,
        trials: Optional[int] = None,
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        allow_large: bool = False,
        progress: Progress = None,
    ) -> SensitivityResult:
        """Every number of the rules under the ``only`` prefixes (all by default) moved one step down and up
        (whole numbers by one, decimals by ``float_step``: 0.05 unless given), ranked by how far each moves
        the odds (``sensitivity``)."""
        with callback(progress, "trials") as report:
            native = self._native.sensitivity(
                _names(only), _names(metrics), float_step, trials, seed, threads, allow_large, report
            )
        return SensitivityResult(native)

    def solve(self, target: str, vary: Union[str, Sequence[str]], digits: int = 6) -> SolveResult:
        """The values of ``vary`` (a key, or two) that give the metric ``target`` asks for (``solve``), such as
        ``solve("cavalry.intercepted>=3/4", "cavalry.table.charge")``."""
        return SolveResult(self._native.solve(target, _names(vary), digits))

    def where(self, metric: Optional[str] = None) -> WhereResult:
        """Where to act (``where``): every option of the scenario's first decision (on a map, the hex of the
        route to intercept at), solved exactly with each side answering best below, judged by ``metric`` (the
        headline metric by default). A scenario with no choice to make raises ``ValueError``."""
        return WhereResult(self._native.where_(metric))

    def odds(self, **params: Union[Setting, Sequence[Setting]]) -> OddsResult:
        """The exact odds of one question of this scenario's rule set (``odds RULE_SET``), from a few numbers:
        see :func:`odds`."""
        return odds(self.rule_set, **params)

    def play(self) -> Game:
        """The opening position of this scenario's game (the board game's): see :func:`play`."""
        return Game(_native.Game.opening(self._native))

    def __repr__(self) -> str:
        return f"Scenario({self.name!r} from {self.file!r})"


def odds(rule_set: str, **params: Union[Setting, Sequence[Setting]]) -> OddsResult:
    """The exact odds of one question, no config needed (``intercept-sim odds RULE_SET``): the parameters are
    the command's flags as keywords, such as ``odds("naval", dice=4, distance=7, pacific=True)``."""
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        pairs.extend((name, v) for v in _values(value))
    return OddsResult(json.loads(_native.odds_json(rule_set, pairs)))


def play(scenario: Union[Scenario, str, "os.PathLike[str]"]) -> Game:
    """A game to play turn by turn from the opening of ``scenario`` (a :class:`Scenario`, or a config's path):
    ``play("configs/board/random-vs-random.toml")``. :meth:`Game.from_position` starts from any position."""
    if isinstance(scenario, Scenario):
        return scenario.play()
    return Scenario.load(scenario).play()
