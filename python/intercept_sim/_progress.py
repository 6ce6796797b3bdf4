"""Progress of long work: a callable given ``(done, total)``, or ``True`` for a bar (tqdm's when it is
installed, else one line on stderr that rewrites itself)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Union

Progress = Union[None, bool, Callable[[int, int], object]]
"""What ``progress=`` takes: nothing, ``True`` for a bar, or a callable ``(done, total)``."""

Report = Optional[Callable[[int, int], object]]


@contextmanager
def callback(progress: Progress, unit: str) -> Iterator[Report]:
    """The callable the Rust side calls with ``(done, total)``, closed when the work ends however it ends."""
    if progress is None or progress is False:
        yield None
    elif progress is True:
        bar = _Bar(unit)
        try:
            yield bar.update
        finally:
            bar.close()
    elif callable(progress):
        yield progress
    else:
        raise TypeError(f"progress: {progress!r} is not allowed; allowed: None, True or a callable (done, total)")


class _Bar:
    """tqdm's bar when tqdm is installed; otherwise a line on stderr."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.tqdm: Any = None
        self.shown = 0
        try:
            from tqdm.auto import tqdm

            self.tqdm = tqdm(total=0, unit=f" {unit}", unit_scale=True)
        except ImportError:
            pass

    def update(self, done: int, total: int) -> None:
        if self.tqdm is not None:
            self.tqdm.total = total
            self.tqdm.update(done - self.shown)
        else:
            share = done / total if total else 1.0
            sys.stderr.write(f"\r{done:,} of {total:,} {self.unit} ({share:.0%})")
        self.shown = done

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.shown:
            sys.stderr.write("\n")
