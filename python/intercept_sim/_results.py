"""The result classes: each holds the command line's ``--json`` document (``.document``) and its answer
sentence (``.answer``); those with tables hand them out through the Arrow C stream interface (:class:`Table`),
show their report's answer, table and chart in a notebook (``_repr_html_``) and write the command line's
folder (``write``)."""

from __future__ import annotations

import html
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

from . import _native


def _fraction(text: Optional[str]) -> Optional[Fraction]:
    return None if text is None else Fraction(text)


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


class ExactResult:
    """Every metric's exact value (``exact --json``): ``values`` as fractions, and the exact columns of a run's
    tables as Arrow (``summary``: each metric's ``exact``, ``exact_fraction``, ``kind``, and a count's exact
    median and 90th percentile; ``distributions``: each value's exact chance and cumulative shares)."""

    def __init__(self, native: _native.Exact) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: Optional[str] = self.document.get("answer")
        self.leaves: int = self.document["leaves"]
        self.values: Dict[str, Optional[Fraction]] = {
            m["metric"]: _fraction(m.get("exact_fraction")) for m in self.document["metrics"]
        }
        self.summary = Table(lambda: native.stream("summary"), "summary")
        self.distributions = Table(lambda: native.stream("distributions"), "distributions")

    def _repr_html_(self) -> str:
        return self._native.html()

    def __repr__(self) -> str:
        return f"ExactResult({self.answer!r})"


class _Written:
    """A result with a folder to write and a report to show."""

    _native: Union[_native.Run, _native.Sweep, _native.Sensitivity, _native.Solve, _native.Where]

    def write(self, folder: Union[str, Path]) -> List[str]:
        """Writes the folder the command line writes with ``--out FOLDER``; returns the files written."""
        return self._native.write(str(folder))

    def _repr_html_(self) -> str:
        return self._native.html()


class RunResult(_Written):
    """A Monte Carlo run: its summary (``run --json``): each metric's estimate, 95% interval and exact value;
    its tables as Arrow (``summary``, ``distributions``), and ``write(folder)`` for the command line's files."""

    def __init__(self, native: _native.Run) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: Optional[str] = native.answer
        self.trials: int = self.document["trials"]
        self.seed: int = self.document["seed"]
        self.metrics: List[Dict[str, Any]] = self.document["metrics"]
        self.summary = Table(lambda: native.stream("summary"), "summary")
        self.distributions = Table(lambda: native.stream("distributions"), "distributions")

    def estimate(self, metric: str) -> float:
        """The metric's estimate."""
        return float(next(m["estimate"] for m in self.metrics if m["metric"] == metric))

    def buffer_addresses(self, table: str = "summary") -> Dict[str, int]:
        """Where each number column of ``table`` keeps its values in Rust's memory: an Arrow consumer that
        reads the table without copying it shows the same addresses."""
        return dict(self._native.buffer_addresses(table))

    def __repr__(self) -> str:
        return f"RunResult({self.trials} trials, seed {self.seed}: {self.answer!r})"


class SweepResult(_Written):
    """A sweep (``sweep --json``): every point's settings and metrics; ``table`` is ``sweep.parquet``'s."""

    def __init__(self, native: _native.Sweep) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: Optional[str] = native.answer
        self.points: List[Dict[str, Any]] = self.document["points"]
        self.table = Table(native.stream, "sweep")

    def __repr__(self) -> str:
        return f"SweepResult({len(self.points)} points)"


class SensitivityResult(_Written):
    """A sensitivity run (``sensitivity --json``): each value moved a step, ranked by how far it moves each
    metric; ``table`` is ``sensitivity.parquet``'s."""

    def __init__(self, native: _native.Sensitivity) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: Optional[str] = native.answer
        self.table = Table(native.stream, "sensitivity")

    def __repr__(self) -> str:
        return f"SensitivityResult({self.answer!r})"


class SolveResult(_Written):
    """Which values of a key give the odds asked for (``solve --json``); ``table`` is ``solve.parquet``'s."""

    def __init__(self, native: _native.Solve) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: str = self.document["answer"]
        self.table = Table(native.stream, "solve")

    def __repr__(self) -> str:
        return f"SolveResult({self.answer!r})"


class WhereResult(_Written):
    """Where to act (``where --json``): every option of the scenario's first decision (on a map, each hex of
    the route to intercept at) with its exact value and the best line below it, best first in ``ranked``."""

    def __init__(self, native: _native.Where) -> None:
        self._native = native
        self.document: Dict[str, Any] = json.loads(native.json())
        self.answer: str = self.document["answer"]
        self.best: Optional[str] = self.document["best"]
        self.options: List[Dict[str, Any]] = self.document["options"]
        self.ranked: List[Dict[str, Any]] = sorted(
            (o for o in self.options if o.get("rank") is not None), key=lambda o: int(o["rank"])
        )

    def value(self, option: str) -> Fraction:
        """The exact value at ``option`` (a hex label), as a fraction."""
        found = next(o for o in self.options if o["option"] == option)
        return Fraction(found["value_fraction"])

    def svg(self) -> Optional[str]:
        """The answer on the map, as SVG: every option by its value, the best line drawn."""
        return self._native.svg()

    def __repr__(self) -> str:
        return f"WhereResult({self.answer!r})"


class OddsResult:
    """The exact odds of one question (``odds RULE_SET --json``)."""

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.answer: Optional[str] = document.get("answer")

    def _repr_html_(self) -> str:
        return f"<p><strong>{html.escape(self.answer or '')}</strong></p>"

    def __repr__(self) -> str:
        return f"OddsResult({self.answer!r})"
