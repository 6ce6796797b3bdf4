//! The command line's surface: every subcommand and its arguments, with their help texts and the parsers
//! that check a value before any work starts (clap turns their errors into exit status 2).

use std::path::PathBuf;

use crate::core::config::{Overrides, set};
use crate::core::games::{self, shipped};
use crate::core::sensitivity;
use crate::core::solve::{Target, Vary};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

pub use crate::format::{Format, TextOrJson};
use crate::tools;

/// What the exit status says, as the top-level help ends.
const EXIT_STATUS: &str = "\
Exit status: 0 success, 1 the run failed (I/O, a tree too large to solve), 2 bad input (config, arguments, an
output folder another run holds or that cannot be written, a manifest that cannot be trusted), 130
interrupted by Ctrl-C or SIGTERM (a run or sweep writes its finished chunks as a partial result to resume; a
sensitivity run keeps nothing and says so).";

/// The order commands are listed in help: the derived ones, with the rule sets' tools among them.
const ORDER: &[&str] = &[
    "run",
    "exact",
    "validate",
    "metrics",
    "schema",
    "reach-table",
    "sweep",
    "sensitivity",
    "solve",
    "where",
    "merge",
    "replay",
    "check",
    "odds",
    "init",
    "serve",
    "completions",
    "man",
];

/// Odds of interception rules: seeded Monte Carlo and exact enumeration from one rules implementation.
#[derive(Parser, Debug)]
#[command(name = "intercept-sim", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the scenario's trials and write summary, distributions, charts, report.html and manifest.
    Run(RunArgs),
    /// Compute every metric exactly; a tree too large gives bounds that hold for certain.
    Exact(ExactArgs),
    /// Check a config and print the resolved scenario, with every default filled in.
    Validate(ValidateArgs),
    /// List the scenario's metrics: what each counts, with the rule IDs it follows; headline ones first.
    Metrics(TableArgs),
    /// Print the JSON Schema of a rule set's config (every key, its type, allowed values, default and help).
    Schema(SchemaArgs),
    /// Run the scenario over a grid of config values, every point on the same seed (common random numbers).
    Sweep(SweepArgs),
    /// Move every number of the rules one step down and up and rank how far each moves the odds.
    Sensitivity(SensitivityArgs),
    /// Find the value of a key that gives the odds asked for, exactly (a tree too large is sampled, said so).
    Solve(SolveArgs),
    /// Choose each side's interception hex exactly: every hex of the route ranked by the metric, each side
    /// answering best below (a scenario on a map).
    #[command(after_help = "Example (a scenario on a map):\n  intercept-sim where chain-on-the-map.toml")]
    Where(WhereArgs),
    /// Merge the shards of one run (`run --shard K/N`) into the files a single run writes.
    #[command(
        after_help = "Example:\n  intercept-sim merge shards/0 shards/1 shards/2 --out reports/three-level-chain"
    )]
    Merge(MergeArgs),
    /// Write a rule set's starter config: every key with its value and a comment on its meaning, allowed
    /// values, rules and default (read from the same schema as `schema`).
    Init(InitArgs),
    /// Serve the workbench: a local web page and JSON API over the configs folder, until Ctrl-C.
    #[command(after_help = "Examples:\n  intercept-sim serve                       http://127.0.0.1:8080/\n  \
        intercept-sim serve --port 0 --open      a free port, opened in the browser")]
    Serve(ServeArgs),
    /// Print a shell's completion script on stdout.
    #[command(
        after_help = "Examples:\n  intercept-sim completions bash > ~/.local/share/bash-completion/completions/intercept-sim\n  \
        intercept-sim completions zsh > ~/.zfunc/_intercept-sim      (with fpath+=~/.zfunc in ~/.zshrc)\n  \
        intercept-sim completions fish > ~/.config/fish/completions/intercept-sim.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout, or write one page per command into a folder.
    #[command(after_help = "Examples:\n  intercept-sim man | man -l -\n  intercept-sim man --dir docs/man")]
    Man(ManArgs),
}

/// `init`: which rule set, and where to write.
#[derive(Args, Debug)]
pub struct InitArgs {
    /// The rule set, by its config table (`intercept-sim schema` lists them); `-` may stand for `_`.
    pub rule_set: String,
    /// The file to write [default: <rule-set>.toml]; - for stdout. The run is named after the file.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace the file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `serve`: where to listen and which configs to serve.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the printed URL shows it).
    #[arg(long, default_value_t = 8080, value_parser = parse_port)]
    pub port: u16,
    /// The folder of configs the workbench lists, opens and saves into.
    #[arg(long, default_value = "configs", value_name = "DIR")]
    pub configs: PathBuf,
    /// Open the workbench in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The address to listen on [default: 127.0.0.1, this machine only]. Another (0.0.0.0: every
    /// interface) exposes the server to the network: it then asks for a token, printed in its URL.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<std::net::IpAddr>,
    /// Ask for a token even on 127.0.0.1 (always asked when --bind exposes the server). The token is random
    /// unless INTERCEPT_SIM_TOKEN gives one; open the printed URL, or send `Authorization: Bearer TOKEN`.
    #[arg(long)]
    pub token: bool,
    /// Another host name the server answers to, besides localhost and this machine's IP addresses (the name
    /// other machines reach it by); repeatable. Requests naming any other host are refused.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// The most trials one Monte Carlo job may run.
    #[arg(long, default_value_t = 100_000_000, value_parser = parse_trials)]
    pub max_trials: u64,
}

/// `completions`: for which shell.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

/// `man`: stdout, or a folder of pages.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write intercept-sim.1 and one page per command (intercept-sim-run.1, ...) into this folder.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `schema`: which rule set's config.
#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// The rule set's config table; without it, the tables are listed.
    pub table: Option<String>,
}

/// How a command that samples runs: trials, seed and threads.
#[derive(Args, Debug)]
pub struct Sampling {
    /// Number of trials (overrides run.trials): per point of a sweep, per value of a sensitivity run.
    #[arg(short = 'n', long, value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// Seed (overrides run.seed), shared by every point of a sweep. The same config and seed give the same
    /// results on any number of threads.
    #[arg(short, long, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores]. Does not change the results.
    #[arg(short = 'j', long, value_parser = parse_threads)]
    pub threads: Option<u64>,
    /// Print no progress bar and no table: only errors, and the JSON that --json asks for.
    #[arg(short, long)]
    pub quiet: bool,
}

/// How a run's manifest is sealed and checked: a key shared by the shards of one job.
#[derive(Args, Debug)]
pub struct Sealing {
    /// Seal manifest.json with this key as well as its digest, and accept only manifests sealed with it
    /// (`merge`, `--resume`): a file of 16 to 4096 bytes that every shard of the job reads [default: the key
    /// in the environment variable INTERCEPT_SIM_KEY, if set]. See docs/scale-out.md.
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
}

impl Sampling {
    pub fn overrides(&self) -> Overrides {
        Overrides { trials: self.trials, seed: self.seed }
    }

    pub fn threads(&self) -> Option<usize> {
        self.threads.map(|t| t as usize)
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The scenario config (TOML); not with --resume.
    #[arg(required_unless_present = "resume")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub sampling: Sampling,
    /// Output folder [default: reports/<run.name>]. It is locked while the run writes it: a second run into
    /// the same folder is refused.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Also write every trial's outcome to trials.parquet (in row groups of 64 MB of values).
    #[arg(long)]
    pub per_trial: bool,
    #[command(flatten)]
    pub format: TextOrJson,
    /// Keep adding chunks until every probability's 95% interval half-width is at most this (0 < P < 0.5).
    /// The same seed stops at the same chunk on any number of threads.
    #[arg(long, value_parser = parse_precision, conflicts_with = "trials", allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// With --precision: the most trials to run [default: 1000000000].
    #[arg(long, requires = "precision", value_parser = parse_trials)]
    pub max_trials: Option<u64>,
    /// With --per-trial: write trials.parquet even when its rows would exceed 64 GB before compression.
    #[arg(long, requires = "per_trial")]
    pub allow_large: bool,
    /// Run only shard K of N (K from 0 to N-1): a contiguous share of the chunks, written as a partial result
    /// for `merge`. Every shard takes the same config, seed and trial count.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, allow_hyphen_values = true, conflicts_with_all = ["precision", "per_trial"])]
    pub shard: Option<(u64, u64)>,
    /// Go on with the interrupted run in DIR to the trial count it was asked for, writing into DIR (or --out)
    /// exactly the files an uninterrupted run writes.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "trials", "seed", "precision", "per_trial", "shard"])]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub sealing: Sealing,
}

/// The most bytes of trial rows (before compression) a `--per-trial` run writes without `--allow-large`.
pub const PER_TRIAL_MOST: u64 = 64_000_000_000;

/// The largest number a config can hold (TOML integers are 64-bit signed), so a seed or trial count given
/// on the command line can always be written in the config a run records.
const MOST: u64 = i64::MAX as u64;

/// A seed: a whole number from 0 to 2^63 - 1.
fn parse_seed(s: &str) -> Result<u64, String> {
    whole(s, 0)
}

/// A trial count: a whole number from 1 to 2^63 - 1.
fn parse_trials(s: &str) -> Result<u64, String> {
    whole(s, 1)
}

/// A number of worker threads: 1 to 1024.
fn parse_threads(s: &str) -> Result<u64, String> {
    within(s, 1, 1024)
}

/// A port: 0 to 65535.
fn parse_port(s: &str) -> Result<u16, String> {
    within(s, 0, u16::MAX.into()).map(|p| p as u16)
}

fn whole(s: &str, least: u64) -> Result<u64, String> {
    within(s, least, MOST)
}

/// A whole number from `least` to `most`, refused in words that say what is allowed.
fn within(s: &str, least: u64, most: u64) -> Result<u64, String> {
    let (digits, allowed) = (s.trim(), format!("allowed: {least} to {most}"));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{:?} is not a whole number; {allowed}", clip(s)));
    }
    match digits.parse::<u64>() {
        Ok(n) if n < least => Err(format!("{n} is too small; {allowed}")),
        Ok(n) if n <= most => Ok(n),
        _ => Err(format!("{} is too large; {allowed}", clip(digits))),
    }
}

/// A value quoted in a message, cut to a readable length.
fn clip(s: &str) -> String {
    crate::core::text::clip(s, 40)
}

/// `K/N` with `K < N`, both whole numbers, N at least 1.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let parsed =
        s.split_once('/').and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    match parsed {
        Some((k, n)) if k < n => Ok((k, n)),
        _ => Err(format!("{s:?} is not a shard; allowed: K/N with 0 <= K < N, such as 0/3, 1/3, 2/3")),
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The output folders of the shards (`run --shard K/N`), in any order.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged run.
    #[arg(short, long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub format: TextOrJson,
    /// Print no table: only errors, and the JSON that --json asks for.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub sealing: Sealing,
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
pub struct SweepArgs {
    /// The scenario config (TOML); not with --resume.
    #[arg(required_unless_present = "resume")]
    pub config: Option<PathBuf>,
    /// A key by its dotted path and the values it takes: KEY=V1,V2,... Repeat for a grid. A table in a list
    /// is named by its name key or its index: TABLE.LIST.<name>.KEY or TABLE.LIST[0].KEY.
    #[arg(long = "set", required_unless_present = "resume", value_parser = set::parse_list)]
    pub sets: Vec<(String, Vec<String>)>,
    /// Print (and show on the page) only this metric (repeatable) [default: print the rule set's headline
    /// metrics; the page shows every metric].
    #[arg(long)]
    pub metric: Vec<String>,
    #[command(flatten)]
    pub sampling: Sampling,
    /// Output folder [default: reports/<run.name>-sweep].
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub format: Format,
    /// Go on with the interrupted sweep in DIR, writing into DIR (or --out) exactly the files an
    /// uninterrupted sweep writes.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "sets", "trials", "seed"])]
    pub resume: Option<PathBuf>,
    /// Run a sweep whose points would take more than 2 GB of memory or write more than 1 GB (estimated
    /// before it starts from its points and metrics).
    #[arg(long)]
    pub allow_large: bool,
    #[command(flatten)]
    pub sealing: Sealing,
}

#[derive(Args, Debug)]
pub struct SensitivityArgs {
    /// The scenario config (TOML).
    pub config: PathBuf,
    /// Vary only keys under this dotted prefix, such as TABLE.rules or TABLE.LIST[0] (a list's table by its
    /// index or its name); repeatable, or several at once as a comma list: --only A,B.
    #[arg(long, value_name = "PREFIX", value_delimiter = ',', value_parser = parse_prefix)]
    pub only: Vec<String>,
    /// Print the ranked table of this metric (repeatable) [default: the rule set's headline metric].
    #[arg(long)]
    pub metric: Vec<String>,
    /// The step of a decimal value such as a probability; whole numbers step by one.
    #[arg(long, default_value_t = sensitivity::DEFAULT_FLOAT_STEP, value_parser = parse_step, allow_negative_numbers = true)]
    pub float_step: f64,
    #[command(flatten)]
    pub sampling: Sampling,
    #[command(flatten)]
    pub format: Format,
    /// Output folder [default: reports/<run.name>-sensitivity].
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Run a sensitivity whose steps would take more than 2 GB of memory or write more than 1 GB (estimated
    /// before it starts from its steps and metrics).
    #[arg(long)]
    pub allow_large: bool,
}

/// A decimal step: from 10^-9 (stepped values are rounded to 9 decimals, so a smaller step would be no
/// step at all) to 10^9, with no more than 9 decimals.
/// One `--only` prefix of a comma list, without the spaces around it; an empty one is refused.
fn parse_prefix(s: &str) -> Result<String, String> {
    match s.trim() {
        "" => Err("an empty key prefix; allowed: dotted prefixes such as TABLE.rules, repeated or as a comma list \
                   A,B"
        .to_owned()),
        prefix => Ok(prefix.to_owned()),
    }
}

fn parse_step(s: &str) -> Result<f64, String> {
    let step = s.parse::<f64>().map_err(|_| format!("{:?} is not a number, such as 0.05", clip(s)))?;
    set::check_float_step(step).map_err(|e| e.0)
}

/// `solve`: the target, and the key to move.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The scenario config (TOML).
    pub config: PathBuf,
    /// What the metric should be: METRIC<=V, METRIC>=V or METRIC=V (V a fraction, decimal or percentage);
    /// without METRIC, the rule set's headline metric, as in --target '>=1/2'.
    #[arg(long, value_parser = parse_target, allow_hyphen_values = true)]
    pub target: Target,
    /// The key to move, by its dotted path, and optionally its range: KEY or KEY=LO..HI. A whole-number key
    /// is solved at every value [default range: every value the rules accept within 64 of the config's]; a
    /// decimal key (a chance) exactly as a polynomial in it [default range: 0..1].
    /// Given twice, the second key is solved so at each value of the first (a decimal first key in ten equal
    /// steps): the frontier of pairs that meet the target.
    #[arg(long, value_parser = parse_vary, allow_hyphen_values = true, required = true, num_args = 1, action = clap::ArgAction::Append)]
    pub vary: Vec<Vary>,
    /// How many decimals a decimal key's value is given to.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=30))]
    pub digits: u8,
    /// Output folder [default: reports/<run.name>-solve].
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub format: Format,
}

fn parse_target(s: &str) -> Result<Target, String> {
    s.parse::<Target>().map_err(|e| e.0)
}

fn parse_vary(s: &str) -> Result<Vary, String> {
    s.parse::<Vary>().map_err(|e| e.0)
}

/// A command on a config whose answer is a table.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The scenario config (TOML).
    pub config: PathBuf,
    #[command(flatten)]
    pub format: Format,
}

/// `where`: the scenario, and the metric the choices are judged by.
#[derive(Args, Debug)]
pub struct WhereArgs {
    /// The scenario config (TOML), on a map.
    pub config: PathBuf,
    /// The metric every choice is judged by, each side wanting it high or low as it favours it [default:
    /// the rule set's headline metric].
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// Output folder [default: reports/<run.name>-where]: where.csv, where.json, the answer on the map
    /// (where.svg) and report.html.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The scenario config (TOML).
    pub config: PathBuf,
    #[command(flatten)]
    pub format: TextOrJson,
}

#[derive(Args, Debug)]
pub struct ExactArgs {
    /// The scenario config (TOML).
    pub config: PathBuf,
    /// Beyond the exact budget, the most states carried at once, 100 to 10000000 (default: the config's
    /// run.max_exact_states, 20000 unless set): the least likely are set aside and the answer gives bounds
    /// that hold for certain.
    #[arg(long, value_name = "N", value_parser = parse_states)]
    pub max_states: Option<u64>,
    /// Stop after this many seconds (above 0, at most 86400) and set aside what is not yet explored: the
    /// answer gives bounds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub time: f64,
    #[command(flatten)]
    pub format: TextOrJson,
}

/// A state budget: run.max_exact_states's range.
fn parse_states(s: &str) -> Result<u64, String> {
    use crate::core::config::{FEWEST_EXACT_STATES, MOST_EXACT_STATES};
    within(s, FEWEST_EXACT_STATES as u64, MOST_EXACT_STATES as u64)
}

/// A time limit in seconds: above 0, at most a day.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 86_400.0 => Ok(t),
        Ok(t) => Err(format!("{t} is not a usable time limit; allowed: above 0 and at most 86400 seconds")),
        Err(_) => Err(format!("{s:?} is not a number of seconds; allowed: above 0 and at most 86400, such as 10")),
    }
}

/// What the command line asks: one of the commands above, or a rule set's tool.
pub enum Parsed {
    Cli(Cli),
    Tool(tools::Asked),
}

/// The whole command line: the commands above, every registered rule set's tools ([`tools::mount`]), and
/// help examples from the registry.
pub fn command() -> clap::Command {
    let registry = shipped();
    let mut command = tools::mount(Cli::command(), &registry);
    command = command.after_help(format!("{}\n\n{EXIT_STATUS}", examples_of("")));
    for name in ["metrics", "schema", "sweep", "sensitivity", "solve", "init"] {
        command = command.mut_subcommand(name, |c| c.after_help(examples_of(name)));
    }
    for (n, name) in ORDER.iter().enumerate() {
        command = command.mut_subcommand(name, |c| c.display_order(n));
    }
    command
}

/// The registry's examples for `command` (`""`: the top level), each command line with what it does beside
/// it, in a column.
fn examples_of(command: &str) -> String {
    let lines: Vec<(&str, &str)> =
        games::EXAMPLES.iter().filter(|(c, ..)| *c == command).map(|(_, line, words)| (*line, *words)).collect();
    let width = lines.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let head = if lines.len() == 1 { "Example:" } else { "Examples:" };
    let shown = lines.iter().map(|(l, w)| format!("  intercept-sim {l:<width$}   {w}").trim_end().to_owned());
    std::iter::once(head.to_owned()).chain(shown).collect::<Vec<_>>().join("\n")
}

/// The command line parsed. An error is one line on stderr naming the command's help, with long values cut
/// short, and exit status 2; help and the version print as usual.
pub fn parse(args: Vec<std::ffi::OsString>) -> Parsed {
    let matches = negative_numbers(command()).try_get_matches_from(&args);
    let parsed = matches.and_then(|mut m| match tools::asked(&shipped(), &m) {
        Some(asked) => Ok(Parsed::Tool(asked)),
        None => Cli::from_arg_matches_mut(&mut m).map(Parsed::Cli).map_err(|e| e.format(&mut command())),
    });
    match parsed {
        Ok(parsed) => parsed,
        Err(e) if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        Err(e) => {
            let command = named_command(&args);
            eprintln!("error: {}", one_line(&e.render().to_string(), &command));
            std::process::exit(2)
        }
    }
}

/// `command` with every argument that takes a value taking a negative number too, so that `--trials -1`
/// reaches the value's own check ("allowed: 1 to ...") instead of being read as an unknown flag.
fn negative_numbers(command: clap::Command) -> clap::Command {
    let command = command.mut_args(|a| match a.get_action().takes_values() {
        true => a.allow_negative_numbers(true),
        false => a,
    });
    command.mut_subcommands(negative_numbers)
}

/// clap's rendered error on one line: its lines but the usage and the pointer to `--help` (the command's
/// help is named instead), without the tip of the `--` escape, which would pass a value as the config file.
pub fn one_line(rendered: &str, command: &str) -> String {
    let kept = rendered.lines().filter(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information") && !l.contains("use '-- ")
    });
    let mut message = String::new();
    let mut listing = false;
    for raw in kept {
        // Indented lines after one ending in ':' are a list (the arguments not provided): one line, commas.
        let item = listing && raw.starts_with(' ');
        let line = raw.trim();
        let line = line.strip_prefix("error: ").or(line.strip_prefix("tip: ")).unwrap_or(line);
        let joint = match (message.is_empty(), message.ends_with(':'), item) {
            (true, _, _) => "",
            (_, true, _) => " ",
            (_, _, true) => ", ",
            _ => "; ",
        };
        message.push_str(joint);
        message.push_str(line);
        listing = line.ends_with(':') || item;
    }
    crate::core::text::one_line(&format!("{message}; see '{command} --help'"))
}

/// The command the arguments name (`intercept-sim odds NAME`): the subcommands they start with.
fn named_command(args: &[std::ffi::OsString]) -> String {
    let mut command = command();
    let mut words = vec!["intercept-sim".to_owned()];
    for arg in args.iter().skip(1).map(|a| a.to_string_lossy()) {
        match command.find_subcommand(arg.as_ref()) {
            Some(sub) => {
                words.push(sub.get_name().to_owned());
                command = sub.clone();
            }
            None => break,
        }
    }
    words.join(" ")
}
