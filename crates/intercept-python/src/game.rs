//! [`Game`]: a rule set's game played from Python one turn at a time, through its registry entry's
//! [`Play`] as the workbench's `/play` page plays it (no rule set named here). A game is immutable: `apply`
//! gives the position after a turn. Positions, turns, statuses and advice leave as the JSON the page reads.

use intercept_sim::core::games::shipped;
use intercept_sim::core::ruleset::{Play, PlayError};
use intercept_sim::output::plot::picture_svg;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value;

use crate::scenario::Scenario;

/// The most playouts one piece of advice may spend: about a minute and a half of search on one core in the
/// middle of a game (the workbench allows a thousand, about a second).
const MOST_PLAYOUTS: u32 = 100_000;

/// A position of a rule set's game.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Game {
    play: &'static dyn Play,
    table: &'static str,
    position: Value,
}

fn refused(e: PlayError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Rule set `table`'s name as the registry holds it, and its game; refused in a line naming the rule sets
/// that have one.
fn game_of(table: &str) -> PyResult<(&'static str, &'static dyn Play)> {
    let registry = shipped();
    if let Some((set, play)) = registry.find(table).and_then(|s| Some((s, s.play()?))) {
        return Ok((set.table(), play));
    }
    let games: Vec<&str> = registry.sets().iter().filter(|s| s.play().is_some()).map(|s| s.table()).collect();
    Err(PyValueError::new_err(format!("[{table}] has no game to play; games: {}", games.join(", "))))
}

#[pymethods]
impl Game {
    /// The position a game of `scenario` starts from.
    #[staticmethod]
    fn opening(py: Python<'_>, scenario: &Scenario) -> PyResult<Game> {
        let (table, play) = game_of(scenario.inner.rules.entry().table())?;
        let position = py.detach(|| play.opening(scenario.inner.rules.as_ref())).map_err(refused)?;
        Ok(Game { play, table, position })
    }

    /// A position of rule set `table`'s game given as JSON (what `position_json` wrote), checked as a new
    /// game's start.
    #[staticmethod]
    fn from_position(table: &str, position: &str) -> PyResult<Game> {
        let (table, play) = game_of(table)?;
        let value: Value =
            serde_json::from_str(position).map_err(|e| PyValueError::new_err(format!("not JSON: {e}")))?;
        let position = play.set_up(&value).map_err(refused)?;
        Ok(Game { play, table, position })
    }

    /// The rule set whose game this is.
    #[getter]
    fn rule_set(&self) -> &'static str {
        self.table
    }

    /// The position, as JSON.
    fn position_json(&self) -> PyResult<String> {
        json(&self.position)
    }

    /// Whose turn it is, whether the game is over and who won, as JSON.
    fn status_json(&self) -> PyResult<String> {
        json(&self.play.status(&self.position).map_err(refused)?)
    }

    /// Every legal turn (its id and text), as JSON; none when the game is over.
    fn turns_json(&self) -> PyResult<String> {
        json(&self.play.turns(&self.position).map_err(refused)?)
    }

    /// The position after the turn whose id is `turn`; an illegal turn raises `ValueError`.
    fn apply(&self, turn: &str) -> PyResult<Game> {
        let position = self.play.apply(&self.position, turn).map_err(refused)?;
        Ok(Game { play: self.play, table: self.table, position })
    }

    /// The rule set's search player's turn with `budget` playouts, the same for the same `seed`, as JSON.
    #[pyo3(signature = (budget = 300, seed = 1))]
    fn advise_json(&self, py: Python<'_>, budget: u32, seed: u64) -> PyResult<String> {
        if !(1..=MOST_PLAYOUTS).contains(&budget) {
            let most = MOST_PLAYOUTS;
            return Err(PyValueError::new_err(format!("budget {budget}: allowed: 1 to {most} playouts")));
        }
        let advice = py.detach(|| self.play.advise(&self.position, budget, seed)).map_err(refused)?;
        json(&advice)
    }

    /// The board as SVG.
    fn svg(&self) -> PyResult<String> {
        let picture = self.play.picture(&self.position).map_err(refused)?;
        picture_svg(&picture).map_err(|e| PyRuntimeError::new_err(e.0))
    }
}
