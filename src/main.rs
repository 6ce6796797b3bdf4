//! The `intercept-sim` command line: parse, resolve, run, export. All the work is in the library; this file
//! adds the command-line surface, the progress bar, the human-readable tables, and the exit codes
//! (0 success, 1 a run that failed, 2 bad input: a config or an argument that cannot be used).

mod progress;
mod show;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use intercept_sim::config::{self, ConfigError, Overrides, Scenario};
use intercept_sim::runner::{self, SampleOptions};

const EXAMPLES: &str = "\
Examples:
  intercept-sim validate configs/cavalry/charge-on-pikes.toml     check a config, show every default
  intercept-sim exact configs/cavalry/charge-on-pikes.toml        exact odds, as fractions
  intercept-sim run configs/cavalry/charge-on-pikes.toml          1,000,000 seeded trials -> reports/charge-on-pikes/
  intercept-sim run CONFIG --trials 100000000 --seed 7 --json     more trials, another seed, JSON on stdout

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

#[derive(Args, Debug)]
struct RunArgs {
    /// The scenario config (TOML).
    config: PathBuf,
    /// Number of trials (overrides run.trials).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// Seed (overrides run.seed). The same config and seed give the same results on any number of threads.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads [default: all cores]. Does not change the results.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Output folder [default: reports/<run.name>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write every trial's outcome to trials.parquet (one row group per chunk).
    #[arg(long)]
    per_trial: bool,
    /// Print the summary as JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,
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
    let overrides = Overrides { trials: args.trials, seed: args.seed };
    let scenario = config::load(&args.config, overrides)?;
    let dir = args.out.clone().unwrap_or_else(|| Path::new("reports").join(&scenario.run.name));
    create_dir(&dir)?;
    let opts =
        SampleOptions { threads: args.threads.map(|t| t as usize), per_trial: args.per_trial.then(|| dir.clone()) };
    let bar = progress::Progress::new(scenario.run.trials);
    let record = runner::sample(&scenario, &opts, &|n| bar.advance(n)).map_err(failed)?;
    bar.finish();
    let written = runner::export(&record, &dir).map_err(failed)?;
    emit(match args.json {
        true => show::summary_json(&record),
        false => show::run_table(&record, &dir, written.len() + usize::from(args.per_trial)),
    })
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
