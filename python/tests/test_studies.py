"""Sweeps, sensitivity runs, solves and quick odds from Python against the command line: each document
equals `intercept-sim ... --json` for the same config and seed, each table reaches Arrow consumers, and each
result writes the command line's folder."""

from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import intercept_sim as isim
from test_api import CLI, cli, config


def test_sweep_equals_the_cli(tmp_path: Path) -> None:
    s = isim.Scenario.load(config("cavalry"))
    swept = s.sweep({"cavalry.table.charge": [5, 6, 7]}, trials=20000, seed=7, threads=2)
    args = ["sweep", config("cavalry"), "--set", "cavalry.table.charge=5,6,7", "--trials", "20000", "--seed", "7"]
    assert swept.document == cli(*args, "--json", "--out", str(tmp_path / "sweep"), tmp=tmp_path)
    assert swept.answer and swept.answer.startswith("At charge=5: An interceptor charges home")
    frame = pl.DataFrame(swept.table)
    assert frame.equals(pl.read_parquet(tmp_path / "sweep" / "sweep.parquet"))
    assert len(s.sweep({"cavalry.table.charge": 7}, trials=1000).points) == 1  # one value, not a sequence
    written = swept.write(tmp_path / "again")
    shown = sorted(p.name for p in (tmp_path / "sweep").iterdir() if not p.name.startswith("."))
    assert sorted(Path(p).name for p in written) == shown


def test_sensitivity_equals_the_cli(tmp_path: Path) -> None:
    s = isim.Scenario.load(config("cavalry"))
    ranked = s.sensitivity(only="cavalry.table", trials=20000, seed=7)
    args = ["sensitivity", config("cavalry"), "--only", "cavalry.table", "--trials", "20000", "--seed", "7"]
    assert ranked.document == cli(*args, "--json", "--out", str(tmp_path / "sens"), tmp=tmp_path)
    assert ranked.answer
    assert pl.DataFrame(ranked.table).equals(pl.read_parquet(tmp_path / "sens" / "sensitivity.parquet"))
    with pytest.raises(ValueError, match="float_step"):
        s.sensitivity(float_step=-1)
    with pytest.raises(ValueError, match="--only cavalry.nothing"):
        s.sensitivity(only="cavalry.nothing")


def test_solve_table_and_folder(tmp_path: Path) -> None:
    solved = isim.Scenario.load(config("cavalry")).solve("cavalry.intercepted>=3/4", "cavalry.table.charge")
    args = ["solve", config("cavalry"), "--target", "cavalry.intercepted>=3/4", "--vary", "cavalry.table.charge"]
    cli(*args, "--json", "--out", str(tmp_path / "solve"), tmp=tmp_path)
    assert pl.DataFrame(solved.table).equals(pl.read_parquet(tmp_path / "solve" / "solve.parquet"))
    assert any(p.endswith("report.html") for p in solved.write(tmp_path / "again"))


def test_odds_equal_the_cli(tmp_path: Path) -> None:
    naval = isim.odds("naval", dice=4, distance=7, pacific=True)
    assert naval.document == cli("odds", "naval", "--dice", "4", "--distance", "7", "--pacific", "--json", tmp=tmp_path)
    assert naval.answer and "287/432" in naval.answer
    cavalry = isim.Scenario.load(config("cavalry")).odds(order="charge", morale=7)
    assert cavalry.document == cli("odds", "cavalry", "--order", "charge", "--morale", "7", "--json", tmp=tmp_path)
    with pytest.raises(ValueError, match="dice: \"9\" is not allowed; allowed: a whole number from 0 to 8"):
        isim.odds("naval", dice=9, distance=7)
    with pytest.raises(ValueError, match='no odds of "chess"; allowed: cavalry, naval'):
        isim.odds("chess")


def test_a_dict_is_a_config() -> None:
    toml = isim.Scenario.load(config("cavalry"))
    import tomllib  # Python 3.11+, as the test environment has

    as_dict = tomllib.loads(Path(config("cavalry")).read_text())
    assert isim.Scenario.from_dict(as_dict).exact().document["metrics"] == toml.exact().document["metrics"]
    as_dict["cavalry"]["target"]["morale"] = "high"
    with pytest.raises(isim.ConfigError) as bad:
        isim.Scenario.from_dict(as_dict, name="mine")
    assert (bad.value.file, bad.value.line, bad.value.key) == ("mine", None, "cavalry.target.morale")
    with pytest.raises(isim.ConfigError, match="not a config") as bad:
        isim.Scenario.from_dict({"cavalry": {1, 2}})
    assert (bad.value.file, bad.value.line, bad.value.key) == ("<dict>", None, None)


MAP = "configs/naval/chain-on-the-map.toml"


def test_where_equals_the_cli_and_draws_the_map(tmp_path: Path) -> None:
    from test_api import ROOT

    scenario = isim.Scenario.load(str(ROOT / MAP))
    where = scenario.where()
    assert where.document == cli("where", str(ROOT / MAP), "--json", "--out", str(tmp_path / "where"), tmp=tmp_path)
    assert where.best == "1511" and where.answer.startswith("Where the defender intercepts the malta-convoy force: 1511")
    assert where.value("1511") == Fraction(17377, 31104)
    assert [o["option"] for o in where.ranked][:2] == ["1511", "1611"]
    svg = where.svg()
    assert svg is not None and svg.count("data-hex=") == 480 and "best: 1511 (55.9%)" in svg
    written = where.write(tmp_path / "again")
    shown = sorted(p.name for p in (tmp_path / "where").iterdir() if not p.name.startswith("."))
    assert sorted(Path(p).name for p in written) == shown == ["report.html", "where.csv", "where.json", "where.svg"]
    assert "data-option=\"1511\"" in where._repr_html_()
    with pytest.raises(ValueError, match="--metric nothing: no such metric"):
        scenario.where("nothing")
    with pytest.raises(ValueError, match="leaves no choice to make"):
        isim.Scenario.load(config("naval")).where()


@pytest.mark.parametrize(
    "bad", sorted(p.name for p in (Path(__file__).resolve().parents[2] / "tests/bad_configs").glob("naval_[mr]*.toml"))
)
def test_a_bad_map_or_route_is_refused_as_the_cli_refuses_it(bad: str, tmp_path: Path) -> None:
    from test_api import ROOT

    path = ROOT / "tests/bad_configs" / bad
    with pytest.raises(isim.ConfigError) as refused:
        isim.Scenario.load(str(path))
    out = subprocess.run([CLI, "validate", str(path)], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.strip() == f"error: {refused.value}"
    assert "\n" not in str(refused.value) and refused.value.key and refused.value.key.startswith("naval.")
