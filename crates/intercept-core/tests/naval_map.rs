//! The naval rules on a map (issue 52): a mission's route declared hex by hex (N-2.1) and its interceptors'
//! hex on it (N-2.2); a map scenario equals the typed scenario its chart gives, fraction for fraction; the +2 dice and a deferral's placement come from the geometry (N-5.4, N-14.2, N-14.3);
//! `where` on one group ranks the route's hexes by the reach table (N-8), nearest first.

use std::path::Path;

use intercept_core::config::{self, Overrides};
use intercept_core::decide;
use intercept_core::games::naval::{NavalRules, dice};
use intercept_core::games::shipped;

const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/naval/chain-on-the-map.toml");

/// Every shipped naval scenario on a map (its mission's route declared hex by hex, N-2.1) solves to the same
/// fractions as its chart's typed twin.
#[test]
fn a_map_scenario_equals_its_typed_twin_fraction_for_fraction() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/naval");
    let mut on_maps = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let scenario = config::load(&shipped(), &path, Overrides::default()).unwrap();
        let resolved = scenario.resolved::<NavalRules>().unwrap();
        if resolved.config.map.is_none() {
            continue;
        }
        on_maps += 1;
        let typed = resolved.model.typed(&resolved.config);
        assert!(typed.map.is_none() && typed.group.iter().all(|g| g.distance.is_some() && g.base.is_none()));
        let text = format!(
            "{}\n{}",
            toml::to_string(&toml::toml! { [run] name = "twin" }).unwrap(),
            toml::to_string(&toml::Table::from_iter([("naval".to_owned(), toml::Value::try_from(typed).unwrap())]))
                .unwrap()
        );
        let twin = config::from_str(&shipped(), &text, Path::new("twin.toml"), Overrides::default()).unwrap();
        let (a, b) = (scenario.rules.solve(1 << 40).unwrap(), twin.rules.solve(1 << 40).unwrap());
        assert_eq!(a.fractions, b.fractions, "{}", path.display());
    }
    assert!(on_maps >= 1, "a shipped scenario on a map");
}

#[test]
fn the_interception_hex_dice_and_the_deferral_come_from_the_geometry() {
    let scenario = config::load(&shipped(), Path::new(CHAIN), Overrides::default()).unwrap();
    let d = scenario.rules.describe();
    let group = |name: &str| d["groups"].as_array().unwrap().iter().find(|g| g["name"] == name).unwrap().clone();
    // The flotilla meets force-b at force-b's own hex: 1 die from port, +2 there, +1 codebreaking (N-5.4).
    let flotilla = group("flotilla");
    assert_eq!((flotilla["at_interception_hex"].as_bool(), flotilla["dice"].as_u64()), (Some(true), Some(4)));
    // Messina's path 2011-2112-2113-... runs through force-b's fight with taranto at 2113, 2 hexes out:
    // it joins at once (N-14.2).
    let messina = group("messina");
    assert_eq!(messina["path"][2], "2113");
    assert_eq!((messina["defer_along"].as_i64(), messina["defer_distance"].as_i64()), (Some(2), Some(0)));
    // Taranto sails 2308-2309-2209-2210-2111 (the strait)-2112-2113-2013-1913-1813: 9 hexes (N-8.3).
    assert_eq!(group("taranto")["distance"].as_u64(), Some(9));
}

/// A sea lane along row 03 of a 10 x 5 map, a port two hexes off it: one group of 2 dice (a base change);
/// its odds at each hex of the route are the reach table's at that hex's distance.
const LANE: &str = r#"
[run]
name = "lane"
[naval.map]
grid = """
# # # # # # # # # #
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~ ~
# # # # # # # # # #
"""
ports = { home = "0501" }
[naval.mission]
activity = "base_change"
factors = 12
route = ["0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803", "0903", "1003"]
[[naval.group]]
name = "lone"
target = "mission"
base = "home"
intercept_at = "0903"
factors = 10
"#;

#[test]
fn where_ranks_one_groups_hexes_by_the_reach_table() {
    let scenario = config::from_str(&shipped(), LANE, Path::new("lane.toml"), Overrides::default()).unwrap();
    let decided = decide::decide(&scenario, Some("mission.intercepted")).unwrap();
    assert_eq!(decided.side, "defender");
    assert!(decided.maximises());
    let table = dice::reach_table(Default::default(), false, 12);
    for o in &decided.options {
        let probe = config::set::apply(
            &scenario,
            &[config::set::Setting { key: "naval.group.lone.intercept_at".into(), value: o.label.clone() }],
        )
        .unwrap();
        let distance = probe.rules.describe()["groups"][0]["distance"].as_u64().unwrap() as usize;
        let value = intercept_core::fraction::to_f64(o.value.as_ref().unwrap());
        assert!((value - table[2][distance - 1]).abs() < 1e-12, "{}: {value} at {distance} hexes", o.label);
    }
    // The port at 0501 sails 0502, 0503: the route's nearest hex, 2 hexes out, is best (two dice always make
    // 2); 0303, 0403, 0603 and 0703 follow at 3 hexes (by 0402 and 0602), tied, in the route's order.
    let ranked: Vec<&str> = decided.ranked.iter().map(|&i| decided.options[i].label.as_str()).collect();
    assert_eq!(ranked[..5], ["0503", "0303", "0403", "0603", "0703"]);
    assert_eq!(intercept_core::fraction::text(decided.best().unwrap().value.as_ref().unwrap()), "1");
}

/// A sea 24 columns wide between two coasts; the mission sails row 05 from west to east, the defender's
/// group from the middle of the north coast. With no one to meet it, its best hex is one of the nearest.
/// The moving player's squadron in a port of the south coast to the west (0606) can meet it on its way
/// only on the paths to the western hexes (one die from port; at the interception hex itself, under the
/// fixed combat model, its three dice change nothing): once it answers, the best hex moves east, 1105 to
/// 1205, both 4 hexes out.
fn corridor(with_squadron: bool) -> String {
    let sea = "~ ".repeat(24);
    let land = "# ".repeat(24);
    let route: Vec<String> = (1..=24).map(|c| format!("\"{c:02}05\"")).collect();
    let mut text = format!(
        "[run]\nname = \"corridor\"\n[naval.map]\ngrid = \"\"\"\n{land}\n{sea}\n{sea}\n{sea}\n{sea}\n{land}\n\"\"\"\n\
         ports = {{ home = \"1201\", west = \"0606\" }}\n[naval.mission]\nactivity = \"base_change\"\nfactors = 12\n\
         route = [{}]\n[[naval.group]]\nname = \"fleet\"\ntarget = \"mission\"\nbase = \"home\"\nintercept_at = \"1205\"\n\
         factors = 10\n",
        route.join(", ")
    );
    if with_squadron {
        text += "[[naval.group]]\nname = \"squadron\"\ntarget = \"fleet\"\nbase = \"west\"\nintercept_at = \"1205\"\nfactors = 10\n";
    }
    text
}

#[test]
fn the_best_hex_moves_once_the_counter_interceptor_answers() {
    let best = |with: bool| {
        let text = corridor(with);
        let scenario = config::from_str(&shipped(), &text, Path::new("corridor.toml"), Overrides::default()).unwrap();
        let decided = decide::decide(&scenario, None).unwrap();
        assert_eq!((decided.side.as_str(), decided.metric.as_str()), ("defender", "mission.completed"));
        let best = decided.best().unwrap().clone();
        (best.label[..2].parse::<u32>().unwrap(), best)
    };
    let (alone, _) = best(false);
    let (answered, line) = best(true);
    assert_eq!((alone, answered), (11, 12), "the best column moves east, away from the squadron");
    // Below the defender's hex, the moving player's answer is named, a hex of the fleet's path.
    assert_eq!(line.line.len(), 1);
    assert_eq!(line.line[0].side, "moving");
}

/// `where` on the shipped chain: the answer the guide shows. Alpha-beta leaves 995 of its 1,705 ends
/// unsolved; every hex's value and line below are those the full search gave (checked when it came in).
#[test]
fn where_on_the_chain_answers_as_the_guide_shows() {
    let scenario = config::load(&shipped(), Path::new(CHAIN), Overrides::default()).unwrap();
    let decided = decide::decide(&scenario, None).unwrap();
    let best = decided.best().unwrap();
    assert_eq!(best.label, "1511");
    assert_eq!(intercept_core::fraction::text(best.value.as_ref().unwrap()), "17377/31104");
    let line: Vec<&str> = best.line.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(line, ["2111", "2113"]);
    let last = &decided.options[decided.ranked[17]];
    assert_eq!(
        (last.label.as_str(), intercept_core::fraction::text(last.value.as_ref().unwrap()).as_str()),
        ("0409", "548213/559872")
    );
    assert_eq!(decided.solves, 710);
}
