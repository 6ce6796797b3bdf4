//! The rule set as the shared layers see it ([`RuleSet`]): the `[naval]` table, its model, and how a run
//! of it is shown.

use super::Naval;
use super::config::{CombatModel, NavalConfig, Side};
use crate::config::Invalid;
use crate::config::files::{Files, Included};
use crate::decide::Decided;
use crate::present::{Assumption, Extra, Picture, how_often};
use crate::ruleset::{Decision, RuleSet, Tool};
use crate::summary::Summary;

/// The rules of the `[naval]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct NavalRules;

impl RuleSet for NavalRules {
    const TABLE: &'static str = "naval";
    const TITLE: &'static str = "naval rules (A World at War)";
    const STARTER: Option<&'static str> = Some(include_str!("starter.toml"));
    const TOOLS: &'static [&'static dyn Tool] = &[&super::odds::NavalOdds, &super::odds::ReachTables];
    type Config = NavalConfig;
    type Model = Naval;

    /// A map file named by `naval.map.file` is read and held inline.
    fn include(&self, config: &mut Self::Config, files: &dyn Files) -> Result<(), Included> {
        let Some(m) = config.map.as_mut() else { return Ok(()) };
        m.include(files)?;
        // A Pacific map makes the scenario Pacific (N-8.2): the resolved config says so, as the rules read it.
        // (A Europe map under `naval.theater = "pacific"` is refused as a contradiction when the map is read.)
        if m.theater == Some(super::config::Theater::Pacific) {
            config.theater = super::config::Theater::Pacific;
        }
        Ok(())
    }

    fn resolve(&self, config: &Self::Config) -> Result<Naval, Invalid> {
        config.resolve()
    }

    fn describe(&self, model: &Naval) -> serde_json::Value {
        model.describe()
    }

    fn plain_words(&self, config: &Self::Config, model: &Naval) -> Vec<String> {
        model.plain_words(model.typed(config))
    }

    /// The side's own question first (`naval.side`): the mission completing, or being caught.
    fn headline(&self, model: &Naval) -> Vec<String> {
        let order = match model.side {
            Side::Moving => ["mission.completed", "mission.intercepted", "mission.engaged"],
            Side::Defender => ["mission.intercepted", "mission.engaged", "mission.completed"],
        };
        order.map(str::to_owned).to_vec()
    }

    /// On a map: where each side meets each force, level by level (N-2.2, N-2.4).
    fn decision(&self, config: &Self::Config, step: usize) -> Result<Option<Decision>, Invalid> {
        config.decision(step)
    }

    /// The mission completing favours the moving side; its being caught, engaged or sent home the defender;
    /// a group reaching, fighting or winning its own side, and its being inverted the other.
    fn favours(&self, model: &Naval, metric: &str) -> Option<String> {
        let side = |moving: bool| if moving { "moving" } else { "defender" }.to_owned();
        if let Some(fact) = metric.strip_prefix("mission.") {
            return match fact {
                "completed" => Some(side(true)),
                "intercepted" | "engaged" | "returned" | "caught_going_home" => Some(side(false)),
                _ => None,
            };
        }
        let rest = metric.strip_prefix("group.")?;
        let g = model.groups.iter().find(|g| rest.strip_prefix(g.name.as_str()).is_some_and(|f| f.starts_with('.')))?;
        let fact = &rest[g.name.len() + 1..];
        let moving = g.level % 2 == 0;
        match fact {
            "reached" | "fought" | "won" | "joined_late" | "joined_deferred" => Some(side(moving)),
            "inverted" => Some(side(!moving)),
            _ => None,
        }
    }

    fn scenario_picture(&self, config: &Self::Config, model: &Naval) -> Option<Picture> {
        Some(model.picture(config.mission.activity))
    }

    /// The scenario on its map, if it has one.
    fn map_picture(&self, _config: &Self::Config, model: &Naval) -> Option<Picture> {
        model.map_chart().map(Picture::Hexes)
    }

    /// The map of a `where` answer: the route's hexes by value, the best line's paths.
    fn decided_picture(&self, _config: &Self::Config, model: &Naval, decided: &Decided) -> Option<Picture> {
        model.decided_chart(decided).map(Picture::Hexes)
    }

    /// With a map, the scenario on it, in the report's scenario section.
    fn extras(&self, _config: &Self::Config, model: &Naval, _summary: &Summary, _trials: u64) -> Vec<Extra> {
        model.map_extra().into_iter().collect()
    }

    /// The combat model: under the fixed reading (the default) the forces' factors change nothing (N-16.4).
    fn assumptions(&self, config: &Self::Config, _model: &Naval) -> Vec<Assumption> {
        let c = &config.combat;
        let combat = match c.model {
            CombatModel::Fixed => format!(
                "combat: fixed odds, the intercepting side wins {} of the time whatever the forces, their factors \
                 ignored (N-16.4)",
                c.p_intercepting_side_wins
            ),
            CombatModel::Strength => {
                "combat: by strength, each round won by the ratio of the factors present (A-18)".to_owned()
            }
        };
        vec![Assumption::new("naval.combat.model", combat)]
    }

    /// Each combat model reads its own keys (N-16.4, A-18): the fixed chance of winning under `fixed`, the
    /// ratio bands under `strength`.
    fn unread(&self, config: &Self::Config, _model: &Naval, key: &str) -> Option<String> {
        match config.combat.model {
            CombatModel::Strength if key == "naval.combat.p_intercepting_side_wins" => Some(
                "under naval.combat.model = \"strength\" each round goes to the side the ratio of the factors \
                 present favours (A-18), so the fixed chance naval.combat.p_intercepting_side_wins is never read \
                 (N-16.4)"
                    .to_owned(),
            ),
            CombatModel::Fixed if key.starts_with("naval.combat.band") => Some(format!(
                "under naval.combat.model = \"fixed\" the intercepting side wins {} of the time whatever the \
                 forces (N-16.4), so the ratio bands are never read",
                config.combat.p_intercepting_side_wins
            )),
            _ => None,
        }
    }

    /// The side's question in one sentence (`naval.side`): for the moving side whether its force completes
    /// its mission; for the intercepting side whether its groups catch the force (N-9.1), then whether it
    /// still completes.
    fn answer(&self, _config: &Self::Config, model: &Naval, summary: &Summary) -> Option<String> {
        let completed = summary.metric("mission.completed")?;
        let force = &model.mission_name;
        match model.side {
            Side::Moving => Some(format!("The {force} force completes its mission {}.", how_often(completed))),
            Side::Defender => {
                let caught = summary.metric("mission.intercepted")?;
                Some(format!(
                    "The defender's groups catch the {force} force {}; it still completes its mission {}.",
                    how_often(caught),
                    how_often(completed)
                ))
            }
        }
    }
}

#[cfg(test)]
mod conformance {
    use std::path::Path;

    use crate::ruleset::conformance::check;

    /// The shared conformance suite, on this rule set, its configs in `configs/naval/` and its starter.
    #[test]
    fn the_rule_set_conforms() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/naval");
        let report = check(&super::NavalRules, &crate::games::shipped(), &configs).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.configs.len() > 1, "the folder's configs and the starter are checked: {report:?}");
    }
}

/// The shared exact sweep ([`crate::sweep::exact`]) on a shipped config of this rule set: the values around
/// a key, the points solved with the current value among them, and their exact differences.
#[cfg(test)]
mod exact_sweep {
    use std::path::Path;

    use num_rational::BigRational;

    use crate::config::{self, Overrides};
    use crate::sweep::exact::{self, MOST_VALUES, Points, State, Unsolved};
    use crate::sweep::{NoValues, around};

    fn chain() -> config::Scenario {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/naval/three-level-chain.toml");
        config::load(&crate::games::shipped(), &file, Overrides::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn values(list: &[&str]) -> Vec<String> {
        list.iter().map(|v| v.to_string()).collect()
    }

    #[test]
    fn the_values_around_a_key_and_the_points_to_solve() {
        let base = chain();
        let taranto = around(&base, "naval.group[0].distance").unwrap();
        assert_eq!(taranto.key, "naval.group.taranto.distance");
        assert_eq!((taranto.current(), taranto.values.clone()), ("8", values(&["8", "6", "7", "9", "10"])));
        let decimal = around(&base, "naval.combat.p_end_after_round").unwrap();
        assert_eq!(decimal.values, values(&["0.4", "0.3", "0.35", "0.45", "0.5"]));
        assert!(matches!(around(&base, "naval.group.taranto.name"), Err(NoValues::NotANumber(_))));
        let unknown = around(&base, "naval.group.tarant.distance").unwrap_err();
        assert!(matches!(unknown, NoValues::Unknown(_)) && unknown.to_string().contains("did you mean 'taranto'"));

        let given = Points::new(taranto.clone(), Some(values(&["10", "-1", "6", "7"]))).unwrap();
        assert_eq!((given.current.as_str(), given.values), ("8", values(&["-1", "6", "7", "8", "10"])));
        let typed = Points::new(taranto.clone(), Some(values(&["8.0", "7", "7"]))).unwrap();
        assert_eq!(typed.values, values(&["7", "8"]), "a typed 8.0 is the current value, each value once");
        let defaults = Points::new(taranto.clone(), None).unwrap();
        assert_eq!(defaults.values, values(&["6", "7", "8", "9", "10"]));
        let many: Vec<String> = (0..=MOST_VALUES).map(|v| v.to_string()).collect();
        assert!(Points::new(taranto, Some(many)).is_err());
    }

    #[test]
    fn every_point_is_solved_exactly_and_compared_with_the_current_value() {
        let base = chain();
        let metric = exact::metric(&base, &[]).unwrap();
        assert_eq!(metric, "mission.completed", "the headline metric");
        assert!(exact::metric(&base, &values(&["nope"])).is_err());
        let taranto = around(&base, "naval.group.taranto.distance").unwrap();
        let points = Points::new(taranto, Some(values(&["7", "-1"]))).unwrap();
        let swept = exact::solve(&base, &points, &metric);
        assert_eq!(
            (swept.key.as_str(), swept.current.as_str(), swept.too_large()),
            ("naval.group.taranto.distance", "8", 0)
        );
        let fraction = |t: &str| t.parse::<BigRational>().unwrap();
        let [refused, seven, eight] = &swept.points[..] else { panic!("three points: {swept:?}") };
        let State::Unsolved(Unsolved::Refused(why)) = &refused.state else { panic!("-1 is refused: {refused:?}") };
        assert!(why.to_string().contains("-1 is out of range; allowed: 0 to 99"), "{why}");
        let solved = |exact: &str, difference: &str| State::Solved {
            exact: fraction(exact),
            difference: Some(fraction(difference)),
        };
        assert_eq!((seven.value.as_str(), seven.current), ("7", false));
        assert_eq!(seven.state, solved("54367/93312", "65/69984"));
        assert_eq!((eight.value.as_str(), eight.current), ("8", true));
        assert_eq!(eight.state, solved("162841/279936", "0"));
    }
}
