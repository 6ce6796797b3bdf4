//! The card game's fights (S-11, S-12), the interceptor policy (S-A5), taps through the turn (S-19),
//! Stealth lost (S-8), oversized movers (S-17), Moves Freely (B.2) and Avatars (S-15), asserted through
//! the exact interpreter on configs. Every expected value is worked out by hand from the rules in
//! `docs/rules/card-game-intercept.md`; the working is in each test's comment.

mod solve;

use std::path::Path;

use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::exact::ExactTally;
use intercept_core::games::shipped;
use intercept_core::runner;
use solve::{close, exact};

/// Four rows of land, A, C and D along row 1 as in the codex's examples, B under C.
const LAND: &str = "LLLLL";

/// The realm of `row1` and three rows of land, with the codex's names.
fn realm(row1: &str) -> String {
    format!(
        "[card_game.realm]\nrows = [\"{row1}\", \"{LAND}\", \"{LAND}\", \"{LAND}\"]\n\
         names = {{ A = \"1-1\", C = \"2-1\", D = \"3-1\", B = \"2-2\" }}\n"
    )
}

/// A scenario from the `[card_game.*]` tables after an all-land realm.
fn load(tables: &str) -> Scenario {
    load_in(LAND, tables)
}

/// A scenario from the `[card_game.*]` tables after the realm whose row 1 is `row1`.
fn load_in(row1: &str, tables: &str) -> Scenario {
    solve::load(&format!("{}{tables}", realm(row1)))
}

fn parse(src: &str) -> Result<Scenario, config::ConfigError> {
    config::from_str(&shipped(), src, Path::new("card-game-test.toml"), Overrides::default())
}

/// The config error of `tables` after the realm whose row 1 is `row1`: the key and the message.
fn refused_in(row1: &str, tables: &str) -> (String, String) {
    let src = format!("{}{tables}", realm(row1));
    let e = parse(&src).err().unwrap_or_else(|| panic!("refused: {src}"));
    (e.key.unwrap_or_default(), e.message)
}

fn refused(tables: &str) -> (String, String) {
    refused_in(LAND, tables)
}

fn solved(s: &Scenario) -> ExactTally {
    runner::solve(s).expect("a small tree")
}

/// The exact chance that the distribution metric `name` takes the value `v`.
fn exact_value(s: &Scenario, name: &str, v: usize) -> f64 {
    let def = s.rules.metrics().defs().iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no {name}"));
    assert!(v < def.width(), "{name} has no value {v}");
    solved(s).probs[def.slot + v]
}

fn mover(name: &str, extra: &str) -> String {
    format!("[card_game.mover]\nname = \"{name}\"\nat = \"D\"\npath = [\"C\"]\nattack = false\n{extra}\n")
}

fn unit(name: &str, at: &str, extra: &str) -> String {
    format!("[[card_game.unit]]\nname = \"{name}\"\nat = \"{at}\"\n{extra}\n")
}

/// SOR-S1 with powers (S-11, S-12, S-A5). The Apprentice Wizard (power 1) ends at C without attacking;
/// the Bosk Troll (power 3) there may intercept. The fight: no first strikes; normal strikes at once, the
/// Wizard's 1 on the Troll (1 < 3, it lives) and the Troll's 3 on the Wizard (3 >= 1, it dies). Worth to
/// the Troll's side: one unit killed, none lost, +1, not negative, so it intercepts under the default
/// policy. Mover killed: 1; interceptors killed: 0.
#[test]
fn the_deterrent_fight() {
    let s = load(&format!("{}{}", mover("apprentice-wizard", "power = 1"), unit("bosk-troll", "C", "power = 3")));
    assert!(close(exact(&s, "card_game.intercepted"), 1.0));
    assert!(close(exact(&s, "card_game.mover_killed"), 1.0));
    assert!(close(exact(&s, "card_game.interceptors_killed"), 0.0));
    assert!(close(exact(&s, "card_game.unit.bosk-troll.killed"), 0.0));
}

/// S-11: the mover's controller splits its one strike. A mover of power 3 and life 10 meets three
/// interceptors of power (and life) 1, 2 and 3, all intercepting ("always"). Their strikes, 1 + 2 + 3 = 6,
/// do not reach 10, so the mover lives. `most_kills` spends the 3 damage on the least life first: 1, then
/// 2 (1 + 2 = 3): two die. `strongest_first` spends it on the highest power first: the 3 dies, and nothing
/// is left: one dies.
#[test]
fn the_mover_splits_its_strike() {
    let three = [("one", 1), ("two", 2), ("three", 3)].map(|(n, p)| unit(n, "C", &format!("power = {p}"))).concat();
    let policy = |split: &str| format!("[card_game.policy]\nintercept = \"always\"\nsplit = \"{split}\"\n");
    let most = load(&format!("{}{three}{}", mover("ogre", "power = 3\nlife = 10"), policy("most_kills")));
    assert!(close(exact_value(&most, "card_game.interceptors_killed", 2), 1.0));
    assert!(
        close(exact(&most, "card_game.unit.one.killed"), 1.0)
            && close(exact(&most, "card_game.unit.three.killed"), 0.0)
    );
    assert!(close(exact(&most, "card_game.mover_killed"), 0.0));
    let strongest = load(&format!("{}{three}{}", mover("ogre", "power = 3\nlife = 10"), policy("strongest_first")));
    assert!(close(exact_value(&strongest, "card_game.interceptors_killed", 1), 1.0));
    assert!(close(exact(&strongest, "card_game.unit.three.killed"), 1.0));
}

/// S-12: first strikes, then deaths, then the others. A mover of power 2 carrying a Lance strikes first
/// for 2 + 1 = 3 and kills a power-3 interceptor before it strikes: the mover lives. Without the Lance the
/// strikes are at once: the mover's 2 < 3 leaves the interceptor alive, whose 3 >= 2 kills the mover.
#[test]
fn a_lance_strikes_first() {
    let troll = unit("bosk-troll", "C", "power = 3\nintercepts = \"always\"");
    let lance = load(&format!("{}{troll}", mover("knight", "power = 2\nkeywords = [\"Lance\"]")));
    assert!(close(exact(&lance, "card_game.mover_killed"), 0.0));
    assert!(close(exact(&lance, "card_game.unit.bosk-troll.killed"), 1.0));
    let plain = load(&format!("{}{troll}", mover("knight", "power = 2")));
    assert!(close(exact(&plain, "card_game.mover_killed"), 1.0));
    assert!(close(exact(&plain, "card_game.unit.bosk-troll.killed"), 0.0));
    // Card text that makes the interceptor strike first turns it round: it kills the mover (3 >= 2) first.
    let pikes = unit("pikemen", "C", "power = 3\nkeywords = [\"strikes first\"]\nintercepts = \"always\"");
    let against = load(&format!("{}{pikes}", mover("knight", "power = 3\nlife = 3")));
    assert!(close(exact(&against, "card_game.mover_killed"), 1.0));
    assert!(close(exact(&against, "card_game.unit.pikemen.killed"), 0.0));
}

/// S-A5 against "always", on an open path. A power-3 mover at 1-1 (A) takes up to one step: each legal
/// path equally likely, and they end at A (no step), C and 1-2, 1/3 each. A power-3 troll waits at C and a
/// power-1 imp at 1-2. At C the troll trades evenly (both die: worth 1 - 1 = 0, not negative): it
/// intercepts. At 1-2 the imp would die and leave the mover alive (worth -1): under `not_negative` it does
/// not. So the mover dies with chance 1/3 and one interceptor dies with chance 1/3. Under "always" the imp
/// intercepts too: the mover still dies only at C (1/3), but an interceptor dies at C and at 1-2 (2/3).
#[test]
fn not_negative_against_always() {
    let tables = |policy: &str| {
        format!(
            "[card_game.mover]\nname = \"ogre\"\nat = \"A\"\nattack = false\npower = 3\n{}{}[card_game.policy]\n{policy}\n",
            unit("troll", "C", "power = 3"),
            unit("imp", "1-2", "power = 1")
        )
    };
    let judged = load(&tables(""));
    assert!(close(exact(&judged, "card_game.mover_killed"), 1.0 / 3.0));
    assert!(close(exact_value(&judged, "card_game.interceptors_killed", 1), 1.0 / 3.0));
    assert!(close(exact(&judged, "card_game.unit.imp.intercepts"), 0.0));
    let always = load(&tables("intercept = \"always\""));
    assert!(close(exact(&always, "card_game.mover_killed"), 1.0 / 3.0));
    assert!(close(exact_value(&always, "card_game.interceptors_killed", 1), 2.0 / 3.0));
    assert!(close(exact(&always, "card_game.unit.imp.intercepts"), 1.0 / 3.0));
}

/// S-A5, how a fight is weighed. A mover of power 6 meets two power-3 units. Together they kill it (3 + 3
/// = 6 >= 6), and its 6 damage, split by most kills, kills both (3 + 3): by `units` that is 1 - 2 = -1,
/// negative; one alone dies and leaves it alive (-1); so nobody intercepts. By `power` it is 6 - 3 - 3 = 0,
/// not negative, and the pair goes: mover killed 1, two interceptors killed.
#[test]
fn worth_by_units_or_by_power() {
    let pair = [unit("x", "C", "power = 3"), unit("y", "C", "power = 3")].concat();
    let by =
        |worth: &str| load(&format!("{}{pair}[card_game.policy]\nworth = \"{worth}\"\n", mover("giant", "power = 6")));
    let units = by("units");
    assert!(close(exact(&units, "card_game.intercepted"), 0.0));
    let power = by("power");
    assert!(close(exact(&power, "card_game.mover_killed"), 1.0));
    assert!(close(exact_value(&power, "card_game.interceptors_killed", 2), 1.0));
}

/// S-19: a unit that intercepted stays tapped for the turn. A scout (power 1) moves to C first, attacking
/// half the time; then an ogre (power 3) moves to C without attacking. The troll (power 3) at C intercepts
/// the scout whenever it does not attack (worth +1): chance 1/2, and then it is tapped and the ogre passes.
/// When the scout attacks (1/2), the troll is free and meets the ogre: an even trade (worth 0), so it
/// intercepts, and both die. Ogre intercepted 1/2, killed 1/2; the troll intercepts in every trial, and dies
/// in 1/2; one interceptor died with chance 1/2.
#[test]
fn a_tapped_interceptor_cannot_intercept_again() {
    let tables = format!(
        "{}[[card_game.then]]\nname = \"ogre\"\nat = \"B\"\npath = [\"C\"]\nattack = false\npower = 3\n{}",
        mover("scout", "power = 1").replace("attack = false\n", ""),
        unit("troll", "C", "power = 3")
    );
    let s = load(&format!("{tables}[card_game.policy]\nattack = 0.5\n"));
    assert!(close(exact(&s, "card_game.mover_killed"), 0.5), "the scout dies when it does not attack");
    assert!(close(exact(&s, "card_game.mover.ogre.intercepted"), 0.5));
    assert!(close(exact(&s, "card_game.mover.ogre.killed"), 0.5));
    assert!(close(exact(&s, "card_game.unit.troll.intercepts"), 1.0));
    assert!(close(exact(&s, "card_game.unit.troll.killed"), 0.5));
    assert!(close(exact_value(&s, "card_game.interceptors_killed", 1), 0.5));
}

/// S-8: a Stealth mover cannot be intercepted; one that has interacted with the realm (here: struck
/// earlier) has lost its Stealth and can be, and so can a Silenced one, whose Stealth mark is gone.
#[test]
fn stealth_is_lost_once_it_interacts() {
    let troll = unit("troll", "C", "power = 3");
    let with = |keywords: &str| load(&format!("{}{troll}", mover("sneak", &format!("keywords = [{keywords}]"))));
    assert!(close(exact(&with("\"Stealth\""), "card_game.intercepted"), 0.0));
    assert!(close(exact(&with("\"Stealth\", \"interacted\""), "card_game.intercepted"), 1.0));
    assert!(close(exact(&with("\"Stealth\", \"Silenced\""), "card_game.intercepted"), 1.0));
}

/// S-17: an oversized mover is there at every location it covers. A 2x2 giant (power 4) at A takes no
/// step: it covers A (1-1), C (2-1), 1-2 and B (2-2). The troll (power 3) at B may intercept it: "always",
/// it does, its 3 < 4 leaves the giant alive and the giant's 4 >= 3 kills it. Under `not_negative` that fight
/// is worth -1 to the troll's side, so it stays out.
#[test]
fn an_oversized_mover_is_met_anywhere_it_stands() {
    let giant =
        "[card_game.mover]\nname = \"giant\"\nat = \"A\"\nsize = \"2x2\"\npath = []\nattack = false\npower = 4\n";
    let always = load(&format!("{giant}{}", unit("troll", "B", "power = 3\nintercepts = \"always\"")));
    assert!(close(exact(&always, "card_game.intercepted"), 1.0));
    assert!(close(exact(&always, "card_game.unit.troll.killed"), 1.0));
    let judged = load(&format!("{giant}{}", unit("troll", "B", "power = 3")));
    assert!(close(exact(&judged, "card_game.interceptable"), 1.0));
    assert!(close(exact(&judged, "card_game.intercepted"), 0.0));
}

/// B.2, Moves Freely: in a realm whose row 1 is water from 1-1 to 3-1, a mover (power 3) with Moves Freely
/// in water steps 1-1 -> C -> D for free and pays its one step for D -> 4-1, where a power-3 troll is. They
/// trade evenly (3 >= 3 both ways: worth 0, not negative), so the troll intercepts and both die. Without
/// Moves Freely the same path is three steps, two more than it may take.
#[test]
fn moves_freely_through_water() {
    let tables = |keywords: &str| {
        format!(
            "[card_game.mover]\nname = \"pelleas\"\nat = \"A\"\nkeywords = [{keywords}]\npath = [\"C\", \"D\", \"4-1\"]\n\
             attack = false\npower = 3\n{}",
            unit("troll", "4-1", "power = 3")
        )
    };
    let s = load_in("WWWLL", &tables("\"Moves Freely in water\""));
    assert!(close(exact(&s, "card_game.intercepted"), 1.0));
    assert!(close(exact(&s, "card_game.unit.troll.killed"), 1.0));
    assert!(close(exact(&s, "card_game.mover_killed"), 1.0));
    let (key, message) = refused_in("WWWLL", &tables(""));
    assert_eq!(key, "card_game.mover.path");
    assert!(message.contains("3 steps"), "{message}");
}

/// S-15: an Avatar takes damage as life lost and cannot die in the fight (Death's Door). A power-5 mover
/// meets an Avatar of power 1 and life 20: nobody dies, worth 0, not negative: it intercepts.
#[test]
fn an_avatar_intercepts_and_does_not_die() {
    let avatar = unit("sorcerer", "C", "power = 1\nlife = 20\nkeywords = [\"Avatar\"]");
    let s = load(&format!("{}{avatar}", mover("dragon", "power = 5")));
    assert!(close(exact(&s, "card_game.intercepted"), 1.0));
    assert!(close(exact(&s, "card_game.unit.sorcerer.killed"), 0.0));
    assert!(close(exact(&s, "card_game.mover_killed"), 0.0));
}

/// The new keys are checked where they are written.
#[test]
fn bad_fight_keys_name_the_key() {
    let cases = [
        (mover("m", "power = 100"), "card_game.mover.power", "out of range"),
        (mover("m", "life = 100"), "card_game.mover.life", "out of range"),
        (mover("m", "size = \"3x1\""), "card_game.mover.size", "not a size"),
        (mover("m", "keywords = [\"Avatar\", \"Stealth\"]"), "card_game.mover.keywords", "only minions have Stealth"),
        (mover("m", "keywords = [\"Moves Freely on clouds\"]"), "card_game.mover.keywords.0", "not a keyword"),
        (
            format!("{}{}", mover("m", ""), unit("u", "C", "intercepts = 1.5")),
            "card_game.unit.u.intercepts",
            "allowed: 0 to 1",
        ),
        (format!("{}[card_game.policy]\nintercept = \"sometimes\"\n", mover("m", "")), "", "not a chance from 0 to 1"),
        (format!("{}[card_game.policy]\nsplit = \"evenly\"\n", mover("m", "")), "", "unknown variant"),
        (
            format!("{}[[card_game.then]]\nname = \"m\"\nat = \"A\"\n", mover("m", "")),
            "card_game.then.m.name",
            "already moves",
        ),
    ];
    for (tables, key, says) in cases {
        let (got_key, message) = refused(&tables);
        assert!(got_key.contains(key) && message.contains(says), "{tables}: key {got_key:?}: {message}");
    }
}
