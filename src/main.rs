//! The `intercept-sim` command line: parse, resolve, run, export. All the work is in the library; this file
//! adds the command-line surface, the progress bar, the human-readable tables, and the exit codes
//! (0 success, 1 a run that failed, 2 bad input: a config or an argument that cannot be used).

mod progress;
mod show;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use intercept_sim::config::{self, ConfigError, Overrides, Scenario, set};
use intercept_sim::metrics::MetricKind;
use intercept_sim::odds::{self, CavalryQuestion, NavalQuestion, OddsError};
use intercept_sim::plot::sweep::SweepCharts;
use intercept_sim::plot::tornado::TornadoCharts;
use intercept_sim::report::{SensitivityReport, SweepReport};
use intercept_sim::runner::{self, SampleOptions};
use intercept_sim::sensitivity::{self, Scope, SensitivityParquet};
use intercept_sim::sweep::{Axis, SweepParquet};

const EXAMPLES: &str = "\
Examples:
  intercept-sim validate configs/cavalry/charge-on-pikes.toml     check a config, show every default
  intercept-sim exact configs/cavalry/charge-on-pikes.toml        exact odds, as fractions
  intercept-sim run configs/cavalry/charge-on-pikes.toml          1,000,000 seeded trials -> reports/charge-on-pikes/
  intercept-sim run CONFIG --trials 100000000 --seed 7 --json     more trials, another seed, JSON on stdout
  intercept-sim odds naval --dice 4 --distance 7 --pacific       exact odds of one roll, no config file
  intercept-sim odds cavalry --order charge --morale 7            the d10 table and a hedgehog morale check

Exit status: 0 success, 1 the run failed (I/O, a tree too large to solve), 2 bad input (config or arguments).";

/// Odds of interception rules: seeded Monte Carlo and exact enumeration from one rules implementation.
#[derive(Parser, Debug)]
#[command(name = "intercept-sim", version, about, long_about = None, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the scenario's trials and write summary, distributions, charts and manifest.
    Run(RunArgs),
    /// Compute every metric exactly by walking the whole chance tree.
    Exact(ExactArgs),
    /// Check a config and print the resolved scenario, with every default filled in.
    Validate(ExactArgs),
    /// Print the exact chance that n interception dice reach a hex d hexes away (naval rules N-8).
    ReachTable(ReachArgs),
    /// Run the scenario over a grid of config values, every point on the same seed (common random numbers).
    #[command(
        after_help = "Example:\n  intercept-sim sweep configs/naval/three-level-chain.toml --set naval.rules.slow_ships=-2,-1,0"
    )]
    Sweep(SweepArgs),
    /// Move every number of the rules one step down and up and rank how far each moves the odds.
    #[command(after_help = "Examples:\n  intercept-sim sensitivity configs/naval/three-level-chain.toml\n  \
        intercept-sim sensitivity configs/naval/three-level-chain.toml --only naval.rules --metric mission.completed")]
    Sensitivity(SensitivityArgs),
    /// Exact odds of one interception from a few numbers, no config file needed.
    #[command(subcommand)]
    Odds(OddsCommand),
}

#[derive(Subcommand, Debug)]
enum OddsCommand {
    /// Can n interception dice reach a hex d hexes away? (naval rules N-7, N-8)
    #[command(after_help = "Example:\n  intercept-sim odds naval --dice 4 --distance 7 --pacific")]
    Naval(NavalOddsArgs),
    /// Does a unit under this order intercept, and does the target pass its hedgehog morale check? (C-2, C-9)
    #[command(after_help = "Example:\n  intercept-sim odds cavalry --order charge --morale 7 --leader 1")]
    Cavalry(CavalryOddsArgs),
}

#[derive(Args, Debug)]
struct NavalOddsArgs {
    /// Interception dice, after modifiers (0 to 8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=8))]
    dice: u32,
    /// Hexes from the group's base to its interception hex (0 to 99).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=99))]
    distance: u32,
    /// Halve the dice total, rounding up, as in the Pacific (N-8.2).
    #[arg(long)]
    pacific: bool,
    /// Read the highest die instead of the sum (the A-1 alternative).
    #[arg(long)]
    highest: bool,
}

#[derive(Args, Debug)]
struct CavalryOddsArgs {
    /// The interceptor's own order (C-2): its row of the d10 interception table.
    #[arg(long, value_parser = ["charge", "make_ready", "receive_charge", "rally"])]
    order: String,
    /// The target's morale (0 to 10): also show its hedgehog morale check (C-9).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=10))]
    morale: Option<u32>,
    /// The rating of the leader stacked with the target (0 to 9), subtracted from the roll (C-9.3).
    #[arg(long, default_value_t = 0, requires = "morale", value_parser = clap::value_parser!(u32).range(0..=9))]
    leader: u32,
    /// Morale checks rolled at once (1 to 10): +1 to the roll for each beyond the first (C-9.2).
    #[arg(long, default_value_t = 1, requires = "morale", value_parser = clap::value_parser!(u32).range(1..=10))]
    checks: u32,
}

#[derive(Args, Debug)]
struct ReachArgs {
    /// Halve the dice total, rounding up, as in the Pacific (N-8.2).
    #[arg(long)]
    pacific: bool,
    /// Read the highest die instead of the sum (the A-1 alternative).
    #[arg(long)]
    highest: bool,
    /// Largest distance shown.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    max_distance: u32,
}

/// How a command that samples runs: trials, seed and threads.
#[derive(Args, Debug)]
struct Sampling {
    /// Number of trials (overrides run.trials): per point of a sweep, per value of a sensitivity run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// Seed (overrides run.seed), shared by every point of a sweep. The same config and seed give the same
    /// results on any number of threads.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads [default: all cores]. Does not change the results.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

impl Sampling {
    fn overrides(&self) -> Overrides {
        Overrides { trials: self.trials, seed: self.seed }
    }

    fn threads(&self) -> Option<usize> {
        self.threads.map(|t| t as usize)
    }
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The scenario config (TOML).
    config: PathBuf,
    #[command(flatten)]
    sampling: Sampling,
    /// Output folder [default: reports/<run.name>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write every trial's outcome to trials.parquet (one row group per chunk).
    #[arg(long)]
    per_trial: bool,
    /// Print the summary as JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,
    /// Keep adding chunks until every probability's 95% interval half-width is at most this (0 < P < 0.5).
    /// The same seed stops at the same chunk on any number of threads.
    #[arg(long, value_parser = parse_precision, conflicts_with = "trials", allow_negative_numbers = true)]
    precision: Option<f64>,
    /// With --precision: the most trials to run [default: 1000000000].
    #[arg(long, requires = "precision", value_parser = clap::value_parser!(u64).range(1..))]
    max_trials: Option<u64>,
}

/// A half-width target: a number strictly between 0 and 0.5 (wider intervals say nothing).
fn parse_precision(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        Ok(p) => Err(format!("{p} is not a usable half-width; allowed: above 0 and below 0.5, such as 0.001")),
        Err(_) => Err(format!("{s:?} is not a number; allowed: above 0 and below 0.5, such as 0.001")),
    }
}

#[derive(Args, Debug)]
struct SweepArgs {
    /// The scenario config (TOML).
    config: PathBuf,
    /// A key by its dotted path and the values it takes: KEY=V1,V2,... Repeat for a grid. Tables in a list
    /// are named: naval.group.<name>.distance, cavalry.interceptor.<name>.order.
    #[arg(long = "set", required = true, value_parser = set::parse_list)]
    sets: Vec<(String, Vec<String>)>,
    #[command(flatten)]
    sampling: Sampling,
    /// Output folder [default: reports/<run.name>-sweep].
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct SensitivityArgs {
    /// The scenario config (TOML).
    config: PathBuf,
    /// Vary only keys under this dotted prefix (repeatable), such as naval.rules or cavalry.table.
    #[arg(long)]
    only: Vec<String>,
    /// Print the ranked table of this metric (repeatable) [default: the first probability metric].
    #[arg(long)]
    metric: Vec<String>,
    /// The step of a decimal value such as a probability; whole numbers step by one.
    #[arg(long, default_value_t = sensitivity::DEFAULT_FLOAT_STEP, value_parser = parse_step, allow_negative_numbers = true)]
    float_step: f64,
    #[command(flatten)]
    sampling: Sampling,
    /// Output folder [default: reports/<run.name>-sensitivity].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A decimal step: a finite number above 0.
fn parse_step(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s:?} is not a usable step; allowed: a number above 0, such as 0.05")),
    }
}

#[derive(Args, Debug)]
struct ExactArgs {
    /// The scenario config (TOML).
    config: PathBuf,
    /// Print JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,
}

/// Why the command failed, and with which exit code.
struct Failure {
    code: u8,
    message: String,
}

impl From<ConfigError> for Failure {
    fn from(e: ConfigError) -> Self {
        Failure { code: 2, message: e.to_string() }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run(args),
        Command::Exact(args) => exact(args),
        Command::Validate(args) => validate(args),
        Command::ReachTable(args) => emit(show::reach_table(args.pacific, args.highest, args.max_distance)),
        Command::Sweep(args) => sweep(args),
        Command::Sensitivity(args) => sensitivity(args),
        Command::Odds(OddsCommand::Naval(a)) => naval_odds(a),
        Command::Odds(OddsCommand::Cavalry(a)) => cavalry_odds(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(args: RunArgs) -> Result<(), Failure> {
    let most = args.precision.map(|_| args.max_trials.unwrap_or(1_000_000_000));
    let overrides = Overrides { trials: args.sampling.trials.or(most), ..args.sampling.overrides() };
    let scenario = config::load(&args.config, overrides)?;
    let dir = args.out.clone().unwrap_or_else(|| Path::new("reports").join(&scenario.run.name));
    create_dir(&dir)?;
    let opts = SampleOptions {
        threads: args.sampling.threads(),
        per_trial: args.per_trial.then(|| dir.clone()),
        precision: args.precision,
    };
    let bar = progress::Progress::new(scenario.run.trials);
    let record = runner::sample(&scenario, &opts, &|n| bar.advance(n)).map_err(failed)?;
    bar.finish();
    let written = runner::export(&record, &dir).map_err(failed)?;
    emit(match args.json {
        true => show::summary_json(&record),
        false => show::run_table(&record, &dir, written.len() + usize::from(args.per_trial)),
    })
}

fn sweep(args: SweepArgs) -> Result<(), Failure> {
    let scenario = config::load(&args.config, args.sampling.overrides())?;
    let axes: Vec<Axis> = args.sets.into_iter().map(|(key, values)| Axis { key, values }).collect();
    let points = intercept_sim::sweep::resolve(&scenario, &axes)?;
    let dir = args.out.unwrap_or_else(|| Path::new("reports").join(format!("{}-sweep", scenario.run.name)));
    create_dir(&dir)?;
    let opts = SampleOptions { threads: args.sampling.threads(), ..SampleOptions::default() };
    let points = intercept_sim::sweep::run(points, &opts).map_err(failed)?;
    let mut written = SweepParquet { axes: &axes, points: &points }.write(&dir).map_err(failed)?;
    written.extend(SweepCharts { points: &points }.write(&dir).map_err(failed)?);
    written.extend(SweepReport { scenario: &scenario, axes: &axes, points: &points }.write(&dir).map_err(failed)?);
    emit(show::sweep_table(&points, &dir, written.len()))
}

fn sensitivity(args: SensitivityArgs) -> Result<(), Failure> {
    let scenario = config::load(&args.config, args.sampling.overrides())?;
    let shown = shown_metrics(&scenario, &args.metric).map_err(|message| Failure { code: 2, message })?;
    let scope = Scope { only: args.only.clone(), float_step: args.float_step };
    let steps = sensitivity::steps(&scenario, &scope);
    if steps.is_empty() {
        let (file, only) = (args.config.display(), args.only.join(", "));
        let message = format!("{file}: no number of the config is under {only}; allowed: {}", prefixes(&scenario));
        return Err(Failure { code: 2, message });
    }
    let dir = args.out.unwrap_or_else(|| Path::new("reports").join(format!("{}-sensitivity", scenario.run.name)));
    create_dir(&dir)?;
    let solved = sensitivity::solve(&scenario, steps);
    let bar = progress::Progress::new(solved.trials_to_sample());
    let s = in_pool(args.sampling.threads(), || solved.sample(&|n| bar.advance(n)))?;
    bar.finish();
    let probabilities = (0..s.metrics.len()).filter(|&m| s.metrics[m].kind == MetricKind::Probability);
    let mut written = SensitivityParquet(&s).write(&dir).map_err(failed)?;
    let charted: Vec<usize> = probabilities.collect();
    written.extend(TornadoCharts { sensitivity: &s, metrics: &charted }.write(&dir).map_err(failed)?);
    let report = SensitivityReport { scenario: &scenario, scope: &scope, sensitivity: &s };
    written.extend(report.write(&dir).map_err(failed)?);
    let table = |m: &String| show::sensitivity_table(&scenario.run.name, &s, s.metric(m).expect("checked"));
    emit(shown.iter().map(table).collect::<Vec<_>>().join("\n") + &show::sensitivity_footer(&s, &dir, written.len()))
}

/// The sections holding the config's numbers, as `--only` prefixes: `cavalry.table, cavalry.target, ...`.
fn prefixes(scenario: &Scenario) -> String {
    let mut out: Vec<String> = Vec::new();
    for knob in set::numeric_keys(scenario) {
        let prefix: Vec<&str> = knob.key.split('.').take(2).collect();
        let prefix = prefix.join(".");
        if !out.contains(&prefix) {
            out.push(prefix);
        }
    }
    out.join(", ")
}

/// Runs `work` on a pool of `threads` worker threads (every core when `None`).
fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T, Failure> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build().map_err(failed)?;
    Ok(pool.install(work))
}

/// The metrics whose tables to print: those named, each checked, or the first probability metric.
fn shown_metrics(scenario: &Scenario, named: &[String]) -> Result<Vec<String>, String> {
    let defs = scenario.model.metrics().defs();
    if named.is_empty() {
        let first = defs.iter().find(|d| d.kind == MetricKind::Probability).unwrap_or(&defs[0]);
        return Ok(vec![first.name.clone()]);
    }
    if let Some(name) = named.iter().find(|n| !defs.iter().any(|d| &d.name == *n)) {
        let some: Vec<&str> = defs.iter().take(6).map(|d| d.name.as_str()).collect();
        let file = scenario.file.display();
        let some = some.join(", ");
        return Err(format!(
            "{file}: --metric {name}: no such metric; metrics include {some}, ... (`validate` lists all)"
        ));
    }
    Ok(named.to_vec())
}

fn naval_odds(a: NavalOddsArgs) -> Result<(), Failure> {
    let q = NavalQuestion { dice: a.dice, distance: a.distance, pacific: a.pacific, highest: a.highest };
    let answer = odds::answer(&q.config()).map_err(odds_failure)?;
    emit(show::naval_odds(&q, &answer))
}

fn cavalry_odds(a: CavalryOddsArgs) -> Result<(), Failure> {
    let q = CavalryQuestion { order: a.order, morale: a.morale, leader: a.leader, checks: a.checks };
    let answer = odds::answer(&q.config()).map_err(odds_failure)?;
    emit(show::cavalry_odds(&q, &answer))
}

/// The arguments are range-checked by clap, so a question that does not resolve is a bug, not bad input.
fn odds_failure(e: OddsError) -> Failure {
    Failure { code: 1, message: format!("cannot answer: {e}") }
}

fn exact(args: ExactArgs) -> Result<(), Failure> {
    let scenario = config::load(&args.config, Overrides::default())?;
    let solved = runner::solve(&scenario)
        .map_err(|e| Failure { code: 1, message: format!("{}: {e}", args.config.display()) })?;
    emit(match args.json {
        true => show::exact_json(&scenario, &solved),
        false => show::exact_table(&scenario, &solved),
    })
}

fn validate(args: ExactArgs) -> Result<(), Failure> {
    let scenario: Scenario = config::load(&args.config, Overrides::default())?;
    emit(match args.json {
        true => show::scenario_json(&scenario),
        false => show::scenario_text(&scenario),
    })
}

/// Prints to stdout; a reader that stops early (`| head`) is not an error.
fn emit(text: String) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{}", text.trim_end()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(failed(e)),
        _ => Ok(()),
    }
}

fn create_dir(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure { code: 1, message: format!("{}: cannot create the output folder: {e}", dir.display()) })
}

fn failed(e: impl std::fmt::Display) -> Failure {
    Failure { code: 1, message: e.to_string() }
}
