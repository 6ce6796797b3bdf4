//! Interceptors and fights per final location, for a card-game run: where the (first) mover ended, and,
//! among the trials that ended there, how often it attacked (S-2), went unintercepted, or was intercepted
//! by 1, 2, ... units; and how the fights there went: whether the mover died, and how many interceptors
//! did (S-11, S-12).
//!
//! The card game reports every trial's final location and outcome in one distribution metric ([`FINAL`]),
//! and its final location and fight in another ([`FIGHTS`]). A [`Place`] unpacks one location's values of
//! the first into [`Outcome`]s, each with its Wilson interval among the trials that ended there and the
//! exact share where the tree was solved; a [`FightPlace`] sums one location's values of the second. [`extra`]
//! and [`fights_extra`] give them to the shared layers as `final-locations.parquet` and
//! `fights-by-location.parquet`, stacked bars, and report sections with tables.

use super::{CardGame, FIGHTS, FINAL};
use crate::present::{Bar, Cell, DataTable, Extra, Picture, Placement, Row, StackedBars, Table, Values, thousands};
use crate::stats::{Z95, wilson};
use crate::summary::{DistRow, Summary};

/// One final location of the mover.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub location: String,
    /// Trials that ended here, and their share of all trials (exact where solved).
    pub trials: u64,
    pub share: f64,
    pub exact_share: Option<f64>,
    /// What happened after the mover ended here: attacked, then 0, 1, 2, ... interceptors.
    pub outcomes: Vec<Outcome>,
}

/// One outcome at a final location, as a share of the trials that ended there.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `None` when the mover attacked; otherwise how many units intercepted.
    pub interceptors: Option<u32>,
    pub count: u64,
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub exact: Option<f64>,
}

impl Outcome {
    /// `attacked`, `not intercepted`, `1 interceptor`, `2 interceptors`, ...
    pub fn label(&self) -> String {
        match self.interceptors {
            None => "attacked".to_owned(),
            Some(0) => "not intercepted".to_owned(),
            Some(1) => "1 interceptor".to_owned(),
            Some(k) => format!("{k} interceptors"),
        }
    }
}

/// The mover's final locations, or `None` when the summary does not hold them.
pub fn places(game: &CardGame, summary: &Summary, all: u64) -> Option<Vec<Place>> {
    let rows: Vec<&DistRow> = summary.distributions.iter().filter(|r| r.metric == FINAL).collect();
    let stride = game.k_max() as usize + 2;
    let ends = game.ends();
    if rows.len() != ends.len() * stride {
        return None;
    }
    let place = |(e, (at, _)): (usize, _)| unpack(game.label(0, at), &rows[e * stride..(e + 1) * stride], all);
    Some(ends.into_iter().enumerate().map(place).collect())
}

/// One location's values: `0..=k_max` interceptors, then the attack.
fn unpack(location: String, rows: &[&DistRow], all: u64) -> Place {
    let trials: u64 = rows.iter().map(|r| r.count).sum();
    let exact_share = rows.iter().map(|r| r.exact).sum::<Option<f64>>();
    let share = if all > 0 { trials as f64 / all as f64 } else { 0.0 };
    let attack = rows.len() - 1;
    let order = std::iter::once(attack).chain(0..attack);
    let outcomes = order
        .map(|i| {
            let ci = wilson(rows[i].count, trials, Z95);
            let exact = rows[i].exact.zip(exact_share).filter(|(_, s)| *s > 0.0).map(|(p, s)| p / s);
            let interceptors = (i != attack).then_some(i as u32);
            Outcome {
                interceptors,
                count: rows[i].count,
                estimate: ci.estimate,
                ci_low: ci.low,
                ci_high: ci.high,
                exact,
            }
        })
        .collect();
    Place { location, trials, share, exact_share, outcomes }
}

/// The final locations as an output: `final-locations.parquet`, stacked bars, and the report's section.
pub fn extra(game: &CardGame, summary: &Summary, all: u64) -> Option<Extra> {
    let places = places(game, summary, all)?;
    Some(Extra {
        name: "final-locations".to_owned(),
        placement: Placement::Results("Interceptors by final location".to_owned()),
        text: "Each location the mover may end at, and what happened among the trials that ended there: it \
               attacked (Defend, not Intercept: S-2), or it did not and 0, 1, 2, ... units intercepted it \
               together (S-11). The same figures are in final-locations.parquet."
            .to_owned(),
        data: Some(data(&places)),
        picture: Some(Picture::StackedBars(bars(&places))),
        caption: "Outcomes at each final location".to_owned(),
        table: Some(shown(&places)),
    })
}

/// One row per final location and outcome.
fn data(places: &[Place]) -> DataTable {
    let rows: Vec<(&Place, &Outcome)> = places.iter().flat_map(|p| p.outcomes.iter().map(move |o| (p, o))).collect();
    let real = |f: &dyn Fn(&Place, &Outcome) -> f64| Values::F64(rows.iter().map(|(p, o)| f(p, o)).collect());
    let count = |f: &dyn Fn(&Place, &Outcome) -> u64| Values::U64(rows.iter().map(|(p, o)| f(p, o)).collect());
    DataTable::default()
        .column("location", Values::Text(rows.iter().map(|(p, _)| p.location.clone()).collect()))
        .column("location_share", real(&|p, _| p.share))
        .column("location_share_exact", Values::MaybeF64(rows.iter().map(|(p, _)| p.exact_share).collect()))
        .column("outcome", Values::Text(rows.iter().map(|(_, o)| o.label()).collect()))
        .column("interceptors", Values::MaybeU32(rows.iter().map(|(_, o)| o.interceptors).collect()))
        .column("trials_here", count(&|p, _| p.trials))
        .column("count", count(&|_, o| o.count))
        .column("estimate", real(&|_, o| o.estimate))
        .column("ci_low", real(&|_, o| o.ci_low))
        .column("ci_high", real(&|_, o| o.ci_high))
        .column("exact", Values::MaybeF64(rows.iter().map(|(_, o)| o.exact).collect()))
}

/// One bar per location: attacked first, then 0, 1, 2, ... interceptors; the chance of ending there at the right.
fn bars(places: &[Place]) -> StackedBars {
    let k_max = places.first().map_or(0, |p| p.outcomes.len().saturating_sub(2));
    let outcome =
        |interceptors| Outcome { interceptors, count: 0, estimate: 0.0, ci_low: 0.0, ci_high: 0.0, exact: None };
    let legend = std::iter::once(None).chain((0..=k_max as u32).map(Some)).map(|k| outcome(k).label()).collect();
    let bar = |p: &Place| Bar {
        label: p.location.clone(),
        shares: p.outcomes.iter().map(|o| o.exact.unwrap_or(o.estimate)).collect(),
        note: format!("{:.1}%", p.exact_share.unwrap_or(p.share) * 100.0),
    };
    StackedBars {
        title: "What happens at each final location (share of the trials that end there)".to_owned(),
        x_desc: "share of the trials ending at the location; right: chance of ending there".to_owned(),
        legend,
        bars: places.iter().map(bar).collect(),
    }
}

/// The report's table: every location and outcome, with its interval and exact share.
fn shown(places: &[Place]) -> Table {
    let mut table =
        Table::new(&["location", "ends here", "outcome", "trials", "share", "95% low", "95% high", "exact"]);
    for p in places {
        for o in &p.outcomes {
            let cells = vec![
                Cell::name(&p.location),
                Cell::value(p.exact_share.unwrap_or(p.share)),
                Cell::name(o.label()),
                Cell::number(thousands(o.count)),
                Cell::value(o.estimate).class("estimate"),
                Cell::value(o.ci_low).class("ci-low"),
                Cell::value(o.ci_high).class("ci-high"),
                Cell::maybe(o.exact).class("exact"),
            ];
            table.push(Row::new(cells).data("location", &p.location).data("outcome", &o.label()));
        }
    }
    table
}

/// The fights at one final location of the mover, as shares of the trials that ended there.
#[derive(Clone, Debug, PartialEq)]
pub struct FightPlace {
    pub location: String,
    /// Trials that ended here, and their share of all trials (exact where solved).
    pub trials: u64,
    pub share: f64,
    pub exact_share: Option<f64>,
    /// Trials here with a fight (some unit intercepted), their share and exact share.
    pub fought: u64,
    pub fought_estimate: f64,
    pub fought_exact: Option<f64>,
    /// Trials here in which the mover died in the fight: count, share with its Wilson interval, exact.
    pub mover_killed: u64,
    pub killed_estimate: f64,
    pub killed_low: f64,
    pub killed_high: f64,
    pub killed_exact: Option<f64>,
    /// Interceptors killed per trial that ended here: the mean, and its exact value.
    pub deaths_mean: f64,
    pub deaths_exact: Option<f64>,
}

/// The mover's final locations with their fights, or `None` when the summary does not hold them.
pub fn fight_places(game: &CardGame, summary: &Summary, all: u64) -> Option<Vec<FightPlace>> {
    let rows: Vec<&DistRow> = summary.distributions.iter().filter(|r| r.metric == FIGHTS).collect();
    let stride = 2 * game.k_max() as usize + 3;
    let ends = game.ends();
    if rows.len() != ends.len() * stride {
        return None;
    }
    let place = |(e, (at, _)): (usize, _)| sum_fights(game.label(0, at), &rows[e * stride..(e + 1) * stride], all);
    Some(ends.into_iter().enumerate().map(place).collect())
}

/// One location's fight values: 0 no fight, then `1 + 2 * d + m` for `d` interceptors and the mover
/// killed (`m` = 1) or not.
fn sum_fights(location: String, rows: &[&DistRow], all: u64) -> FightPlace {
    let count =
        |keep: &dyn Fn(usize) -> bool| rows.iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, r)| r.count).sum();
    let exact = |weight: &dyn Fn(usize) -> f64| -> Option<f64> {
        rows.iter().enumerate().map(|(i, r)| r.exact.map(|p| p * weight(i))).sum()
    };
    let deaths = |i: usize| if i == 0 { 0.0 } else { ((i - 1) / 2) as f64 };
    let trials: u64 = count(&|_| true);
    let exact_share = exact(&|_| 1.0);
    let here = |p: Option<f64>| p.zip(exact_share).filter(|(_, s)| *s > 0.0).map(|(p, s)| p / s);
    let (fought, mover_killed) = (count(&|i| i > 0), count(&|i| i > 0 && (i - 1) % 2 == 1));
    let ci = wilson(mover_killed, trials, Z95);
    let total_deaths: f64 = rows.iter().enumerate().map(|(i, r)| r.count as f64 * deaths(i)).sum();
    FightPlace {
        location,
        trials,
        share: if all > 0 { trials as f64 / all as f64 } else { 0.0 },
        exact_share,
        fought,
        fought_estimate: wilson(fought, trials, Z95).estimate,
        fought_exact: here(exact(&|i| f64::from(u8::from(i > 0)))),
        mover_killed,
        killed_estimate: ci.estimate,
        killed_low: ci.low,
        killed_high: ci.high,
        killed_exact: here(exact(&|i| f64::from(u8::from(i > 0 && (i - 1) % 2 == 1)))),
        deaths_mean: if trials > 0 { total_deaths / trials as f64 } else { 0.0 },
        deaths_exact: here(exact(&deaths)),
    }
}

/// The fights per final location as an output: `fights-by-location.parquet`, stacked bars, and the
/// report's section.
pub fn fights_extra(game: &CardGame, summary: &Summary, all: u64) -> Option<Extra> {
    let places = fight_places(game, summary, all)?;
    Some(Extra {
        name: "fights-by-location".to_owned(),
        placement: Placement::Results("Fights by final location".to_owned()),
        text: "Each location the mover may end at, and the fights there: among the trials that ended there, how \
               often units intercepted it, how often it died in the fight (first strikes, deaths, normal strikes, \
               deaths: S-11, S-12), and how many interceptors died on average. The same figures are in \
               fights-by-location.parquet."
            .to_owned(),
        data: Some(fight_data(&places)),
        picture: Some(Picture::StackedBars(fight_bars(&places))),
        caption: "Fights at each final location".to_owned(),
        table: Some(fight_table(&places)),
    })
}

/// One row per final location.
fn fight_data(places: &[FightPlace]) -> DataTable {
    let real = |f: &dyn Fn(&FightPlace) -> f64| Values::F64(places.iter().map(f).collect());
    let maybe = |f: &dyn Fn(&FightPlace) -> Option<f64>| Values::MaybeF64(places.iter().map(f).collect());
    let count = |f: &dyn Fn(&FightPlace) -> u64| Values::U64(places.iter().map(f).collect());
    DataTable::default()
        .column("location", Values::Text(places.iter().map(|p| p.location.clone()).collect()))
        .column("location_share", real(&|p| p.share))
        .column("location_share_exact", maybe(&|p| p.exact_share))
        .column("trials_here", count(&|p| p.trials))
        .column("fought", count(&|p| p.fought))
        .column("fought_estimate", real(&|p| p.fought_estimate))
        .column("fought_exact", maybe(&|p| p.fought_exact))
        .column("mover_killed", count(&|p| p.mover_killed))
        .column("estimate", real(&|p| p.killed_estimate))
        .column("ci_low", real(&|p| p.killed_low))
        .column("ci_high", real(&|p| p.killed_high))
        .column("exact", maybe(&|p| p.killed_exact))
        .column("interceptors_killed_mean", real(&|p| p.deaths_mean))
        .column("interceptors_killed_mean_exact", maybe(&|p| p.deaths_exact))
}

/// One bar per location: no fight, a fight the mover survived, a fight it died in.
fn fight_bars(places: &[FightPlace]) -> StackedBars {
    let bar = |p: &FightPlace| {
        let fought = p.fought_exact.unwrap_or(p.fought_estimate);
        let killed = p.killed_exact.unwrap_or(p.killed_estimate);
        Bar {
            label: p.location.clone(),
            shares: vec![1.0 - fought, fought - killed, killed],
            note: format!("{:.1}%", p.exact_share.unwrap_or(p.share) * 100.0),
        }
    };
    StackedBars {
        title: "The fights at each final location (share of the trials that end there)".to_owned(),
        x_desc: "share of the trials ending at the location; right: chance of ending there".to_owned(),
        legend: vec!["no fight".to_owned(), "mover survives".to_owned(), "mover dies".to_owned()],
        bars: places.iter().map(bar).collect(),
    }
}

/// The report's table: every location, its fights, the mover's death with its interval, and deaths.
fn fight_table(places: &[FightPlace]) -> Table {
    let mut table = Table::new(&[
        "location",
        "ends here",
        "fought",
        "mover killed",
        "95% low",
        "95% high",
        "exact",
        "interceptors killed (mean)",
        "exact mean",
    ]);
    for p in places {
        let cells = vec![
            Cell::name(&p.location),
            Cell::value(p.exact_share.unwrap_or(p.share)),
            Cell::value(p.fought_exact.unwrap_or(p.fought_estimate)),
            Cell::value(p.killed_estimate).class("estimate"),
            Cell::value(p.killed_low).class("ci-low"),
            Cell::value(p.killed_high).class("ci-high"),
            Cell::maybe(p.killed_exact).class("exact"),
            Cell::value(p.deaths_mean),
            Cell::maybe(p.deaths_exact),
        ];
        table.push(Row::new(cells).data("location", &p.location));
    }
    table
}
