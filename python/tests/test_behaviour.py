"""How the package behaves as a Python library: Ctrl-C stops long work between chunks with
KeyboardInterrupt, progress reaches a callback or a bar, tables reach polars and pyarrow in Rust's own
memory, and results show their report's answer, table and chart in a notebook."""

from __future__ import annotations

import _thread
import sys
import threading
import time
from typing import List, Tuple

import polars as pl
import pyarrow as pa
import pytest

import intercept_sim as isim
from test_api import config


def test_ctrl_c_stops_a_run_between_chunks() -> None:
    s = isim.Scenario.load(config("cavalry"))
    threading.Timer(0.3, _thread.interrupt_main).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        s.run(trials=10**10, seed=1)  # about ten minutes, were it not stopped
    assert time.monotonic() - started < 5
    threading.Timer(0.3, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        s.sweep({"cavalry.table.charge": [5, 6]}, trials=10**10)
    # Nothing is left behind: the next run is the same as ever.
    assert s.run(trials=10000, seed=1).document == s.run(trials=10000, seed=1).document


def test_progress_reaches_a_callback_and_a_failing_one_stops_the_run() -> None:
    seen: List[Tuple[int, int]] = []
    s = isim.Scenario.load(config("cavalry"))
    s.run(trials=2_000_000, seed=1, threads=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2_000_000, 2_000_000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    def impatient(done: int, total: int) -> None:
        raise RuntimeError("enough")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        s.run(trials=10**10, progress=impatient)
    assert time.monotonic() - started < 5
    with pytest.raises(TypeError, match="progress: 'yes' is not allowed"):
        s.run(trials=1000, progress="yes")  # type: ignore[arg-type]


def test_progress_true_is_a_bar_with_or_without_tqdm(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    s = isim.Scenario.load(config("cavalry"))
    s.run(trials=200_000, seed=1, progress=True)
    assert "trials" in capsys.readouterr().err  # tqdm's bar
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    s.run(trials=200_000, seed=1, progress=True)
    assert capsys.readouterr().err.endswith("200,000 of 200,000 trials (100%)\n")


def test_tables_are_read_in_place_by_pyarrow_and_polars() -> None:
    r = isim.Scenario.load(config("cavalry")).run(trials=20000, seed=7)
    rust = r.buffer_addresses("summary")
    with pytest.raises(ValueError, match='table "nothing": allowed: summary, distributions'):
        r.buffer_addresses("nothing")
    assert {"estimate", "ci_low", "ci_high", "exact", "trials"} <= set(rust)
    table = pa.table(r.summary)
    frame = pl.DataFrame(r.summary)
    for column, address in rust.items():
        assert table.column(column).chunks[0].buffers()[1].address == address, column
        assert frame[column].to_arrow().buffers()[1].address == address, column


def test_results_show_their_report_in_a_notebook() -> None:
    s = isim.Scenario.load(config("cavalry"))
    run = s.run(trials=20000, seed=7)
    shown = run._repr_html_()
    assert run.answer and run.answer in shown.replace("&#39;", "'")
    assert "<details>\n<summary>Headline odds</summary>" in shown and shown.count("<svg") == 1
    sweep = s.sweep({"cavalry.table.charge": [5, 6, 7]}, trials=20000)._repr_html_()
    assert "<summary>cavalry.interceptions</summary>" in sweep and sweep.count("<svg") == 1
    solved = s.solve("cavalry.intercepted>=3/4", "cavalry.table.charge")._repr_html_()
    assert "<summary>Results</summary>" in solved and solved.count("<svg") == 1
    exact = s.exact()._repr_html_()
    assert "<summary>Every metric, exactly</summary>" in exact and exact.count("<svg") == 1
    assert 'data-metric="cavalry.intercepted"' in exact and ">3/5</td>" in exact
