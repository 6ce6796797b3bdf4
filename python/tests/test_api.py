"""The Python API against the command line: every result equals `intercept-sim ... --json` for the same
config and seed; errors are exceptions with the command line's words; the console script is the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, List

import pytest

import intercept_sim as isim

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("INTERCEPT_SIM_BIN", "intercept-sim")
CONFIGS = {
    "cavalry": "configs/cavalry/charge-on-pikes.toml",
    "naval": "configs/naval/three-level-chain.toml",
    "step_race": "configs/step-race/box-corner.toml",
    "card_game": "configs/card-game/deterrent.toml",
    "board": "configs/board/random-vs-random.toml",
}


def cli(*args: str, tmp: Path) -> Any:
    out = subprocess.run([CLI, *args], cwd=tmp, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def config(name: str) -> str:
    return str(ROOT / CONFIGS[name])


def test_rule_sets_are_the_registry() -> None:
    assert isim.rule_sets() == list(CONFIGS)


@pytest.mark.parametrize("name", [n for n in CONFIGS if n != "board"])
def test_exact_equals_the_cli(name: str, tmp_path: Path) -> None:
    result = isim.Scenario.load(config(name)).exact()
    assert result.document == cli("exact", config(name), "--json", tmp=tmp_path)
    for m in result.document["metrics"]:
        if m.get("exact_fraction") is not None:
            assert result.values[m["metric"]] == Fraction(m["exact_fraction"])


@pytest.mark.parametrize("name", list(CONFIGS))
def test_run_equals_the_cli_for_the_same_seed(name: str, tmp_path: Path) -> None:
    trials = "200" if name == "board" else "20000"
    result = isim.Scenario.load(config(name)).run(trials=int(trials), seed=7, threads=2)
    out = str(tmp_path / "out")
    expected = cli("run", config(name), "--trials", trials, "--seed", "7", "--json", "--out", out, tmp=tmp_path)
    assert result.document == expected
    assert result.answer is None or result.answer


def test_threads_do_not_change_the_numbers() -> None:
    s = isim.Scenario.load(config("naval"))
    assert s.run(trials=50000, seed=3, threads=1).document == s.run(trials=50000, seed=3, threads=2).document


def test_set_and_solve_equal_the_cli(tmp_path: Path) -> None:
    s = isim.Scenario.load(config("cavalry")).set("cavalry.target.morale", 8)
    assert s.exact().values["target.morale_failed"] == Fraction(3, 50)
    solved = isim.Scenario.load(config("cavalry")).solve("target.morale_failed<=1/3", "cavalry.target.morale=0..9")
    args: List[str] = ["solve", config("cavalry"), "--target", "target.morale_failed<=1/3"]
    args += ["--vary", "cavalry.target.morale=0..9", "--json", "--out", str(tmp_path / "solve")]
    assert solved.document == cli(*args, tmp=tmp_path)
    assert solved.answer.startswith("target.morale_failed is at most 33.3% (1/3) when cavalry.target.morale is 5..9")


def test_bad_input_is_an_exception_with_the_cli_words() -> None:
    with pytest.raises(isim.ConfigError) as bad:
        isim.Scenario.from_toml("[run]\nname = 3\n", "bad.toml")
    assert (bad.value.file, bad.value.line, bad.value.key) == ("bad.toml", 2, "run.name")
    with pytest.raises(isim.ConfigError, match="did you mean 'charge'"):
        isim.Scenario.load(config("cavalry")).set("cavalry.table.chrge", 7)
    with pytest.raises(isim.ConfigError, match="no such file|No such file|cannot be read|not found"):
        isim.Scenario.load("configs/nothing-here.toml")
    with pytest.raises(ValueError, match="is not a target"):
        isim.Scenario.load(config("cavalry")).solve("half", "cavalry.target.morale")
    with pytest.raises(RuntimeError, match="sampling"):
        isim.Scenario.load(config("board")).exact()


def test_the_console_script_is_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "pikes"
    run = subprocess.run(
        ["intercept-sim", "run", config("cavalry"), "--trials", "20000", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert (out / "summary.parquet").is_file() and (out / "report.html").is_file()
    bad = subprocess.run(["intercept-sim", "bogus"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: unrecognized subcommand 'bogus'")


def test_tables_reach_arrow_consumers_without_a_copy(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    r = isim.Scenario.load(config("cavalry")).run(trials=20000, seed=7)
    table = pa.table(r.summary)
    assert table.column_names[:4] == ["metric", "estimate", "ci_low", "ci_high"]
    assert table.column("metric").to_pylist() == [m["metric"] for m in r.metrics]
    assert table.column("estimate").to_pylist() == [m["estimate"] for m in r.metrics]
    frame = pl.DataFrame(r.distributions)
    assert frame.height == len(r.document["distributions"])
    # The same rows as the Parquet file the run folder holds.
    written = r.write(tmp_path / "run")
    assert any(p.endswith("summary.parquet") for p in written)
    assert pl.read_parquet(tmp_path / "run" / "summary.parquet").equals(pl.DataFrame(r.summary))
    pandas = table.to_pandas()
    assert list(pandas["metric"]) == [m["metric"] for m in r.metrics]


def test_an_exact_result_has_the_exact_columns_of_a_run_table(tmp_path: Path) -> None:
    """Issue 51 item 12: ``Scenario.exact()`` hands out the exact columns of a run's tables through Arrow,
    equal to those of ``summary.parquet`` and ``distributions.parquet`` of a run of the same scenario."""
    pl = pytest.importorskip("polars")
    for name in ("cavalry", "naval"):
        s = isim.Scenario.load(config(name))
        exact = s.exact()
        run = s.run(trials=2000, seed=7)
        summary = pl.DataFrame(exact.summary)
        assert summary.columns == ["metric", "exact", "exact_fraction", "kind", "median_exact", "p90_exact"]
        sampled = pl.DataFrame(run.summary)
        exact_columns = ["metric", "exact", "exact_fraction", "kind"]
        assert summary.select(exact_columns).equals(sampled.select(exact_columns))
        # The run gives an exact quantile where its trials gave an estimate of it; the exact result, always.
        for q in ("median_exact", "p90_exact"):
            for mine, theirs in zip(summary[q].to_list(), sampled[q].to_list()):
                assert theirs is None or mine == theirs, (q, mine, theirs)
        if name == "cavalry":
            # charge-on-pikes: 0, 1 or 2 interceptions with 1/5, 1/2 and 3/10.
            counted = summary.filter(pl.col("metric") == "cavalry.interceptions")
            assert counted["median_exact"].to_list() == [1] and counted["p90_exact"].to_list() == [2]
        assert summary["exact"].to_list() == [m["exact"] for m in exact.document["metrics"]]
        distributions = pl.DataFrame(exact.distributions)
        assert distributions.equals(pl.DataFrame(run.distributions).select(distributions.columns))
        assert "at_least_exact" in distributions.columns and distributions.height == len(run.document["distributions"])
    with pytest.raises(ValueError, match="allowed: summary, distributions"):
        exact._native.stream("bogus")


def test_the_answer_speaks_for_the_side_the_scenario_takes() -> None:
    """Issue 51: ``naval.side`` says whose question comes first, in the answer and the headline order."""
    s = isim.Scenario.load(config("naval"))
    assert s.exact().answer.startswith("The malta-convoy force completes its mission")
    defender = s.set("naval.side", "defender").exact()
    assert defender.answer.startswith("The defender's groups catch the malta-convoy force 99.9% of the time")
    assert defender.document["headline"][0] == "mission.intercepted"


def test_the_readme_python_section_runs_as_printed() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    printed = section.split("prints", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == printed
