"""intercept-sim: the odds of wargame interception rules, exactly and by seeded Monte Carlo.

A :class:`Scenario` is a config resolved by the Rust core, every default filled in. Its answers are the same
documents the command line prints with ``--json`` (``exact``, ``run``, ``solve``), wrapped in result classes:
an answer sentence, exact values as :class:`fractions.Fraction`, and the whole document as ``.document``.
Same config and seed, same numbers as the command line, whatever the threads.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _native
from ._native import ConfigError, __version__, rule_sets

__all__ = ["ConfigError", "ExactResult", "RunResult", "Scenario", "SolveResult", "Table", "__version__", "rule_sets"]


def _fraction(text: Optional[str]) -> Optional[Fraction]:
    return None if text is None else Fraction(text)


class ExactResult:
    """Every metric's exact value (``exact --json``)."""

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.answer: Optional[str] = document.get("answer")
        self.leaves: int = document["leaves"]
        self.values: Dict[str, Optional[Fraction]] = {
            m["metric"]: _fraction(m.get("exact_fraction")) for m in document["metrics"]
        }

    def __repr__(self) -> str:
        return f"ExactResult({self.answer!r})"


class Table:
    """A result table, handed to any Arrow consumer through the Arrow C stream interface without a copy:
    ``polars.DataFrame(t)``, ``pyarrow.table(t)``, ``pandas.DataFrame(pyarrow.table(t))``."""

    def __init__(self, stream: Callable[[], object], name: str) -> None:
        self._stream = stream
        self.name = name

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        return self._stream()

    def __repr__(self) -> str:
        return f"Table({self.name!r})"


class RunResult:
    """A Monte Carlo run: its summary (``run --json``): each metric's estimate, 95% interval and exact value;
    its tables as Arrow (``summary``, ``distributions``), and ``write(folder)`` for the command line's files."""

    def __init__(self, native: _native.Run) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: Optional[str] = native.answer
        self.trials: int = self.document["trials"]
        self.seed: int = self.document["seed"]
        self.metrics: List[Dict[str, Any]] = self.document["metrics"]
        self.summary = Table(native.summary_stream, "summary")
        self.distributions = Table(native.distributions_stream, "distributions")

    def estimate(self, metric: str) -> float:
        """The metric's estimate."""
        return float(next(m["estimate"] for m in self.metrics if m["metric"] == metric))

    def write(self, folder: Union[str, Path]) -> List[str]:
        """Writes the run folder ``run --out FOLDER`` writes; returns the files written."""
        return self._native.write(str(folder))

    def __repr__(self) -> str:
        return f"RunResult({self.trials} trials, seed {self.seed}: {self.answer!r})"


class SolveResult:
    """Which values of a key give the odds asked for (``solve --json``)."""

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.answer: str = document["answer"]

    def __repr__(self) -> str:
        return f"SolveResult({self.answer!r})"


def _setting(value: Union[str, int, float, bool]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Scenario:
    """A scenario, resolved: every default filled in, ready to solve or sample. ``set`` gives a new one."""

    def __init__(self, native: _native.Scenario) -> None:
        self._native = native

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Scenario":
        """Reads and resolves the config at ``path``; a bad config raises :class:`ConfigError`."""
        return cls(_native.Scenario.load(str(path)))

    @classmethod
    def from_toml(cls, text: str, name: str = "<text>") -> "Scenario":
        """Resolves a config given as TOML text; ``name`` stands for its file in messages."""
        return cls(_native.Scenario.from_toml(text, name))

    @property
    def name(self) -> str:
        return self._native.name

    @property
    def file(self) -> str:
        return self._native.file

    def set(self, key: str, value: Union[str, int, float, bool]) -> "Scenario":
        """The scenario with ``key`` set to ``value``, with the same key spellings and errors as ``--set``."""
        return Scenario(self._native.set(key, _setting(value)))

    def to_toml(self) -> str:
        """The resolved config as TOML, every default filled in."""
        return self._native.to_toml()

    def exact(self) -> ExactResult:
        """Every metric exactly, by walking or merging the chance tree (``exact``)."""
        return ExactResult(json.loads(self._native.exact_json()))

    def run(self, trials: Optional[int] = None, seed: Optional[int] = None, threads: Optional[int] = None) -> RunResult:
        """A seeded Monte Carlo run (``run``), without writing files; the config's trials and seed by default."""
        return RunResult(self._native.run(trials, seed, threads))

    def solve(self, target: str, vary: Union[str, Sequence[str]], digits: int = 6) -> SolveResult:
        """The values of ``vary`` (a key, or two) that give the metric ``target`` asks for (``solve``)."""
        keys = [vary] if isinstance(vary, str) else list(vary)
        return SolveResult(json.loads(self._native.solve_json(target, keys, digits)))

    def __repr__(self) -> str:
        return f"Scenario({self.name!r} from {self.file!r})"
