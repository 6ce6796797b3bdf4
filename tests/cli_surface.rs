//! The command line's conveniences: shell completions, the manual pages (and that the committed ones in
//! docs/man are up to date), `init`'s starter configs for every rule set, `--json` and `--csv` answers,
//! the short flags and `--quiet`.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

/// What a command that must succeed prints on stdout.
fn stdout(args: &[&str]) -> String {
    let out = sim().args(args).assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("UTF-8")
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap_or_else(|e| panic!("{args:?} prints JSON: {e}"))
}

#[test]
fn completions_cover_every_shell_and_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        for sub in ["run", "reach-table", "sensitivity", "init", "completions"] {
            assert!(script.contains(sub), "{shell} completes {sub}");
        }
    }
    sim().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn the_committed_manual_pages_are_up_to_date() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH intercept-sim 1") && page.contains("intercept\\-sim\\-init(1)"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    sim().args(["man", "--dir"]).arg(dir.path()).assert().success();
    let names = |d: &Path| {
        let mut n: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        n.sort();
        n
    };
    let committed = Path::new("docs/man");
    let regenerate = "regenerate them: cargo run -- man --dir docs/man";
    assert_eq!(names(dir.path()), names(committed), "{regenerate}");
    for name in names(committed) {
        let (new, old) =
            (std::fs::read(dir.path().join(&name)).unwrap(), std::fs::read(committed.join(&name)).unwrap());
        assert!(new == old, "docs/man/{name} is out of date; {regenerate}");
    }
    let main = std::fs::read_to_string(committed.join("intercept-sim.1")).unwrap();
    assert_eq!(main.trim_end(), page.trim_end(), "`man` prints the main page");
}

/// Every rule set's starter: written, commented, valid, and it runs (and solves, where exact is quick).
#[test]
fn init_writes_a_valid_commented_starter_for_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    for (set, rule, solve) in [
        ("naval", "(N-", true),
        ("cavalry", "(C-", true),
        ("step-race", "(G-", true),
        ("card_game", "(S-", true),
        ("board", "(I-", false),
    ] {
        let file = dir.path().join(format!("my-{set}.toml"));
        sim().args(["init", set, "-o"]).arg(&file).assert().success();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("# A starter config") && text.contains(rule), "{set}: commented with rule IDs");
        assert!(text.contains("name = \"my-"), "{set}: the run is named after the file");
        sim().arg("validate").arg(&file).assert().success();
        if solve {
            sim().arg("exact").arg(&file).assert().success();
        }
        let out = dir.path().join(format!("out-{set}"));
        let quiet = sim().arg("run").arg(&file).args(["-n", "64", "-q", "-o"]).arg(&out).assert().success();
        assert!(quiet.get_output().stdout.is_empty(), "{set}: -q prints nothing");
        assert!(out.join("summary.parquet").exists());
    }
}

#[test]
fn init_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    std::fs::write(&file, "# my own work\n").unwrap();
    let refused = sim().args(["init", "cavalry", "-o"]).arg(&file).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("exists") && stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# my own work\n");
    sim().args(["init", "cavalry", "--force", "-o"]).arg(&file).assert().success();
    assert!(std::fs::read_to_string(&file).unwrap().contains("[cavalry.target]"));
    let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left");
    assert!(stdout(&["init", "naval", "-o", "-"]).contains("[[naval.group]]"));
    let unknown = sim().args(["init", "chess"]).assert().code(2);
    assert!(String::from_utf8_lossy(&unknown.get_output().stderr).contains("allowed: cavalry, naval, step_race"));
}

#[test]
fn odds_reach_table_and_replay_answer_in_json() {
    let naval = json(&["odds", "naval", "--dice", "2", "--distance", "5", "--json"]);
    assert!((naval["p_reach"].as_f64().unwrap() - 5.0 / 6.0).abs() < 1e-12, "{naval}");
    assert_eq!(naval["moved"].as_array().unwrap().len(), 6);
    let table = json(&["reach-table", "--json", "--max-distance", "4"]);
    assert_eq!(table["rows"][1]["p_reach"][3].as_f64(), Some(0.5), "1 die reaches 4 hexes half the time");
    let charge = json(&["odds", "cavalry", "--order", "charge", "--morale", "7", "--json"]);
    assert!((charge["morale_check"]["p_pass"].as_f64().unwrap() - 0.8).abs() < 1e-12, "{charge}");
    let game = json(&["replay", "configs/board/random-vs-random.toml", "--game", "2", "--moves-only", "--json"]);
    let turns = game["turns"].as_array().unwrap();
    assert_eq!(turns.len() as u64, game["result"]["turns"].as_u64().unwrap());
    assert!(turns[0]["board"].is_null() && turns[0]["move"].is_string(), "{}", turns[0]);
}

/// Issue 18, item 10: under Rally orders the morale check is never rolled, and the answer says so.
#[test]
fn rally_orders_answer_the_morale_check_in_words() {
    let text = stdout(&["odds", "cavalry", "--order", "rally", "--morale", "6"]);
    assert!(text.contains("may not intercept (C-1.7)") && text.contains("never rolled"), "{text}");
    assert!(!text.contains("= -"), "{text}");
    let rally = json(&["odds", "cavalry", "--order", "rally", "--morale", "6", "--json"]);
    assert_eq!(rally["can_intercept"], false);
    assert_eq!(rally["morale_check"]["rolled"], false);
    assert!((rally["morale_check"]["p_pass"].as_f64().unwrap() - 0.7).abs() < 1e-12, "{rally}");
}

#[test]
fn tables_print_as_csv() {
    let table = stdout(&["reach-table", "--csv", "--max-distance", "3"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[0], "dice,1,2,3");
    assert_eq!(lines.len(), 10, "dice 0 to 8");
    let odds = stdout(&["odds", "naval", "--dice", "1", "--distance", "4", "--csv"]);
    assert!(odds.starts_with("hexes,probability,reached\n") && odds.contains("\n4,0.5,true"), "{odds}");
    let metrics = stdout(&["metrics", "configs/cavalry/single-charge.toml", "--csv"]);
    assert!(metrics.starts_with("metric,kind,headline,about\n") && metrics.contains("cavalry.intercepted,"));
    sim().args(["reach-table", "--csv", "--json"]).assert().code(2);
}

/// `-n -s -j -o` are `--trials --seed --threads --out`.
#[test]
fn short_flags_are_the_long_ones() {
    let dir = tempfile::tempdir().unwrap();
    let config = "configs/cavalry/single-charge.toml";
    let short = sim()
        .args(["run", config, "-n", "2000", "-s", "3", "-j", "1", "--json", "-o"])
        .arg(dir.path().join("a"))
        .output()
        .unwrap();
    let long = sim()
        .args(["run", config, "--trials", "2000", "--seed", "3", "--threads", "1", "--json", "--out"])
        .arg(dir.path().join("b"))
        .output()
        .unwrap();
    assert!(short.status.success() && long.status.success());
    assert_eq!(short.stdout, long.stdout);
    let summary: Value = serde_json::from_slice(&short.stdout).unwrap();
    assert_eq!((summary["trials"].as_u64(), summary["seed"].as_u64()), (Some(2000), Some(3)));
}

/// `merge --json` prints what `run --json` prints for the same trials in one go.
#[test]
fn merge_answers_in_json_as_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let config = "configs/cavalry/single-charge.toml";
    let trials = "140000"; // three chunks of 65536
    for k in ["0", "1"] {
        let shard = format!("{k}/2");
        sim()
            .args(["run", config, "-n", trials, "--shard", &shard, "-q", "-o"])
            .arg(dir.path().join(k))
            .assert()
            .success();
    }
    let merged = sim()
        .args(["merge", "--json", "-o"])
        .arg(dir.path().join("merged"))
        .arg(dir.path().join("0"))
        .arg(dir.path().join("1"))
        .output()
        .unwrap();
    let whole =
        sim().args(["run", config, "-n", trials, "--json", "-o"]).arg(dir.path().join("whole")).output().unwrap();
    assert!(merged.status.success() && whole.status.success());
    assert_eq!(merged.stdout, whole.stdout);
}

/// Bash completes a subcommand's own options and values (clap_complete's script needs a fix for a bin
/// name with a hyphen, which `completions bash` applies).
#[test]
fn bash_completes_subcommand_options() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("intercept-sim.bash");
    std::fs::write(&script, stdout(&["completions", "bash"])).unwrap();
    let complete = |words: &str| {
        let probe = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             _intercept__sim intercept-sim \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = std::process::Command::new("bash").args(["-c", &probe]).output().expect("bash runs");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(complete("intercept-sim ini").contains("init"));
    assert!(complete("intercept-sim run --tr").contains("--trials"));
    assert!(complete("intercept-sim completions \"\"").contains("powershell"));
    assert!(complete("intercept-sim odds cavalry --order \"\"").contains("receive_charge"));
}

/// One `--format` flag everywhere: every command that prints more than text prints with `--format json`
/// exactly what its `--json` prints, and with `--format csv` what its `--csv` prints; a format a command does
/// not offer is refused with exit 2.
#[test]
fn every_command_takes_format_with_json_and_csv_as_its_short_forms() {
    const PIKES: &str = "configs/cavalry/charge-on-pikes.toml";
    let cases: [(&[&str], &[&str]); 8] = [
        (&["exact", PIKES], &["json"]),
        (&["validate", PIKES], &["json"]),
        (&["metrics", PIKES], &["json", "csv"]),
        (&["odds", "naval", "--dice", "2", "--distance", "7"], &["json", "csv"]),
        (&["odds", "naval", "--group", "8", "--group", "6,slow-ships"], &["json", "csv"]),
        (&["reach-table", "--max-distance", "3"], &["json", "csv"]),
        (&["check", "step-race", "--interceptor", "7-7", "--box", "7-7/3", "--move", "5-2,5-4,8-4"], &["json"]),
        (&["replay", "configs/board/greedy-vs-random.toml", "--game", "1", "--moves-only"], &["json"]),
    ];
    for (args, formats) in cases {
        for format in formats.iter() {
            let long = stdout(&[args, &["--format", format]].concat());
            let short = stdout(&[args, &[&format!("--{format}") as &str]].concat());
            assert_eq!(long, short, "{args:?} --format {format}");
        }
        if !formats.contains(&"csv") {
            sim().args(args).args(["--format", "csv"]).assert().code(2).stdout("");
        }
        assert_eq!(stdout(&[args, &["--format", "text"]].concat()), stdout(args), "{args:?} --format text");
    }
}
