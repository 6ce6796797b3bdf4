//! What a scenario says of itself beside its numbers: the readings its answer rests on, and its picture.

use intercept_core::config::{self, Overrides};
use intercept_core::games::shipped;
use intercept_core::present::{Picture, Presentation};
use intercept_core::summary::Summary;

fn presented(path: &str) -> Presentation {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    let scenario = config::load(&shipped(), &path, Overrides::default()).expect("a shipped config loads");
    let solved = intercept_core::runner::solve(&scenario).expect("a small tree");
    scenario.rules.present(&Summary::exact_only(scenario.rules.metrics(), &solved), 0)
}

/// The naval answer says its combats are fixed odds, the forces' factors ignored (N-16.4), and names the key
/// that changes it; the strength model says so instead; cavalry names the target's reaction (C-5.2).
#[test]
fn an_answer_names_the_readings_it_rests_on() {
    let chain = presented("configs/naval/three-level-chain.toml");
    let said: Vec<(&str, &str)> = chain.assumptions.iter().map(|a| (a.key.as_str(), a.said.as_str())).collect();
    assert_eq!(said.len(), 1);
    assert_eq!(said[0].0, "naval.combat.model");
    assert!(said[0].1.starts_with("combat: fixed odds, the intercepting side wins 0.5 of the time"), "{said:?}");
    assert!(said[0].1.contains("factors ignored (N-16.4)"), "{said:?}");
    let harpoon = presented("configs/naval/operation-harpoon.toml");
    assert!(harpoon.assumptions[0].said.starts_with("combat: by strength"), "{:?}", harpoon.assumptions);
    let pikes = presented("configs/cavalry/charge-on-pikes.toml");
    let keys: Vec<&str> = pikes.assumptions.iter().map(|a| a.key.as_str()).collect();
    assert_eq!(keys, ["cavalry.target.reaction", "cavalry.fire"]);
    assert!(pikes.assumptions[0].said.starts_with("the target prefers fire where the table leaves it a choice"));
}

/// Issue 51: a scenario says whose side it answers for (`naval.side`). The moving side (the default) asks
/// whether its mission completes; the defender whether its groups catch the mission (N-9.1), and its
/// headline leads with that metric.
#[test]
fn the_answer_speaks_for_the_side_the_scenario_takes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/naval/three-level-chain.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let for_side = |side: &str| {
        let src = text.replacen("\n[naval]\n", &format!("\n[naval]\nside = \"{side}\"\n"), 1);
        let s = config::from_str(&shipped(), &src, &path, Overrides::default()).expect("valid");
        let solved = intercept_core::runner::solve(&s).expect("a small tree");
        s.rules.present(&Summary::exact_only(s.rules.metrics(), &solved), 0)
    };
    let moving = for_side("moving");
    assert_eq!(moving.answer, presented("configs/naval/three-level-chain.toml").answer, "the default side");
    assert!(moving.answer.as_deref().unwrap().starts_with("The malta-convoy force completes its mission 58.2%"));
    assert_eq!(moving.headline[0], "mission.completed");
    let defender = for_side("defender");
    let said = "The defender's groups catch the malta-convoy force 99.9% of the time (exactly 0.998750 \
                (139793/139968)); it still completes its mission 58.2% of the time (exactly 0.581708 (162841/279936)).";
    assert_eq!(defender.answer.as_deref(), Some(said));
    assert_eq!(defender.headline, ["mission.intercepted", "mission.engaged", "mission.completed"]);
}

/// The notes of a combat hex, in order.
fn hex_notes(path: &str) -> Vec<String> {
    let Some(Picture::Diagram(d)) = presented(path).picture else { panic!("{path}: no diagram") };
    d.nodes.iter().filter(|n| n.id.starts_with("hex-")).map(|n| n.note.clone()).collect()
}

/// A combined combat (N-10.3) sides the escort aimed at the interception hex with the force it escorts: the
/// French counter-interceptors fight beside the base change, against Force H.
#[test]
fn a_combined_combat_puts_each_group_on_its_side() {
    assert_eq!(
        hex_notes("configs/naval/combined-combat.toml"),
        ["combat: force-h against base-change and mers-el-kebir"]
    );
    let chain = hex_notes("configs/naval/three-level-chain.toml");
    assert!(chain.contains(&"combat: taranto and messina against malta-convoy".to_owned()), "{chain:?}");
    assert!(chain.contains(&"combat: force-b against taranto".to_owned()), "{chain:?}");
}
