"""A designer's question, typed: "what if slow ships cost two dice instead of one?" Each value of the rule
is solved exactly on the three-level chain, then the penalties that keep the mission at 58.5% or better
are found. Checked by `mypy --strict` in the test suite, so the API's types stay usable.

Run from the repository's root: python examples/designer.py
"""

from __future__ import annotations

from fractions import Fraction
from typing import Dict

import intercept_sim as isim


def completed_by_penalty(scenario: isim.Scenario) -> Dict[int, Fraction]:
    """The exact chance the mission is completed, for each dice penalty of slow ships."""
    odds: Dict[int, Fraction] = {}
    for penalty in (0, -1, -2, -3):
        value = scenario.set("naval.rules.slow_ships", penalty).exact().values["mission.completed"]
        assert value is not None, "the chain's tree is small enough to solve"
        odds[penalty] = value
    return odds


def main() -> None:
    chain = isim.Scenario.load("configs/naval/three-level-chain.toml")
    for penalty, chance in completed_by_penalty(chain).items():
        print(f"slow ships {penalty:+d} dice: mission completed {float(chance):.1%} ({chance})")
    solved: isim.SolveResult = chain.solve("mission.completed>=0.585", "naval.rules.slow_ships=-3..0")
    print(solved.answer)


if __name__ == "__main__":
    main()
