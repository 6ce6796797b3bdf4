//! The `intercept-sim` command line: parse, resolve, run, export. All the work is in the library's crates;
//! this adds the command-line surface ([`crate::cli`]), the progress bar, the graceful stop on Ctrl-C, and the
//! exit codes: 0 success, 1 a run that failed, 2 bad input (a config or an argument that cannot be used), 130
//! a run interrupted and written as a partial result. What it prints is rendered by the library's `show`.
//! [`main`] is what the binary runs, and what the Python package's `intercept-sim` console script runs.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{
    Command, ExactArgs, MergeArgs, Parsed, RunArgs, SchemaArgs, SensitivityArgs, ServeArgs, SolveArgs, SweepArgs,
    TableArgs, ValidateArgs,
};
use crate::core::config::{self, Overrides, Scenario};
use crate::core::games::shipped;
use crate::core::partial::{self, PartialError};
use crate::core::runner::{self, SampleOptions};
use crate::core::seal::Key;
use crate::core::sensitivity;
use crate::core::solve;
use crate::core::sweep::{self, Axis};
use crate::failure::{Failure, bad_input, emit, failed, show_view};
use crate::output::export::ExportError;
use crate::output::folder::{Folder, FolderError};
use crate::output::outputs;
use crate::output::report;
use crate::output::show;
use crate::output::study::{self, SweepStart};
use crate::{cli, generate, interrupt, progress, tools};

/// Runs the command line `args` (the program's name first) and gives its exit code: what the
/// `intercept-sim` binary runs.
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    ExitCode::from(run_command_line(args))
}

/// [`main`]'s exit status as a number: what the Python package's `intercept-sim` console script returns.
pub fn run_command_line(args: impl IntoIterator<Item = OsString>) -> u8 {
    let cli = match cli::parse(args.into_iter().collect()) {
        Parsed::Cli(cli) => cli,
        Parsed::Tool(asked) => return exit(tools::answer(asked)),
    };
    progress::set_quiet(quiet(&cli.command));
    exit(match cli.command {
        Command::Run(args) => run(args),
        Command::Exact(args) => exact(args),
        Command::Validate(args) => validate(args),
        Command::Metrics(args) => metrics(args),
        Command::Schema(args) => schema(args),
        Command::Sweep(args) => sweep(args),
        Command::Sensitivity(args) => sensitivity(args),
        Command::Merge(args) => merge(args),
        Command::Solve(args) => solve(args),
        Command::Where(args) => where_to(args),
        Command::Init(a) => generate::init(a),
        Command::Serve(a) => serve(a),
        Command::Completions(a) => generate::completions(a),
        Command::Man(a) => generate::man(a),
    })
}

/// The exit code of a command's result, its error printed on one line.
fn exit(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("error: {}", f.message);
            f.code
        }
    }
}

fn run(args: RunArgs) -> Result<(), Failure> {
    let key = key(&args.sealing)?;
    let from = args.resume.as_deref();
    let new = from.is_none().then(|| fresh(&args)).transpose()?;
    let default = match (&new, from) {
        (Some((scenario, _)), _) => (Path::new("reports").join(&scenario.run.name), ""),
        (None, from) => (from.expect("clap asks for a config or --resume").to_owned(), "--resume"),
    };
    let (dir, flag) = out_or(args.out.clone(), default);
    // The folder is locked before an interrupted run is read from it, so no other run changes it meanwhile.
    let folder = open(&dir, flag)?;
    let (scenario, mut opts) = match (new, from) {
        (Some(new), _) => new,
        (None, from) => resumed(from.expect("clap asks for a config or --resume"), key.as_ref())?,
    };
    let file_changed = from.is_some() && partial::file_changed(&shipped(), &scenario);
    opts.threads = args.sampling.threads();
    opts.interrupt = Some(interrupt::install());
    let bar = progress::Progress::new(scenario.run.trials - opts.resume.as_ref().map_or(0, |r| r.before.trials));
    let per_trial = args.per_trial.then(|| folder.staging());
    let mut record =
        outputs::sample(&scenario, &opts, per_trial, &|n| bar.advance(n)).map_err(|e| not_written(e, &folder, &dir))?;
    bar.finish();
    if let Some(key) = &key {
        record.seal_with(key);
    }
    record.file_changed = file_changed;
    outputs::export(&record, folder.staging()).map_err(|e| not_written(e, &folder, &dir))?;
    let written = folder.commit().map_err(folder_failure)?;
    if let Some(shortfall) = show::precision_shortfall(&record) {
        eprintln!("warning: {shortfall}");
    }
    show_view(&show::RunView { record: &record, dir: &dir, files: written.len() }, args.format.asked())?;
    match record.unfinished() {
        true => Err(interrupt::stopped(&record, &dir)),
        false => Ok(()),
    }
}

/// A new run's scenario and options, from the config and the command line.
fn fresh(args: &RunArgs) -> Result<(Scenario, SampleOptions), Failure> {
    let most = args.precision.map(|_| args.max_trials.unwrap_or(1_000_000_000));
    let overrides = Overrides { trials: args.sampling.trials.or(most), ..args.sampling.overrides() };
    let scenario =
        config::load(&shipped(), args.config.as_deref().expect("clap requires a config without --resume"), overrides)?;
    let wanted = args.shard.map(|(k, n)| shard(&scenario, k, n)).transpose()?;
    if args.per_trial {
        per_trial_size(&scenario, args.allow_large)?;
    }
    Ok((scenario, SampleOptions { precision: args.precision, wanted, ..SampleOptions::default() }))
}

/// The chunks of shard `k` of `n`, refusing more shards than the run has chunks (a shard with none).
fn shard(scenario: &Scenario, k: u64, n: u64) -> Result<std::ops::Range<u64>, Failure> {
    let plan = runner::plan(scenario);
    if n > plan.chunks() {
        let (trials, size, chunks) = (plan.trials, plan.chunk_size, plan.chunks());
        let message = format!(
            "--shard {k}/{n}: the run has {chunks} chunks ({trials} trials of {size} a chunk), so at most {chunks} \
             shards; use --shard K/N with N up to {chunks}, or set a smaller run.chunk_size"
        );
        return Err(bad_input(message));
    }
    Ok(runner::shard_chunks(&plan, k, n))
}

/// Refuses a `--per-trial` run whose `trials.parquet` would be larger than is sane, unless `--allow-large`
/// says so.
fn per_trial_size(scenario: &Scenario, allow_large: bool) -> Result<(), Failure> {
    let row = crate::output::export::row_bytes(scenario.rules.metrics());
    let bytes = u128::from(scenario.run.trials) * u128::from(row);
    if allow_large || bytes <= u128::from(cli::PER_TRIAL_MOST) {
        return Ok(());
    }
    let message = format!(
        "--per-trial: {} trials make up to {} of trial rows before compression ({row} bytes a trial), more than \
         the {} allowed without --allow-large; add --allow-large to write it anyway, or ask for fewer trials",
        scenario.run.trials,
        show::bytes(bytes),
        show::bytes(u128::from(cli::PER_TRIAL_MOST))
    );
    Err(bad_input(message))
}

/// The interrupted run in `dir`, set to go on where it stopped.
fn resumed(dir: &Path, key: Option<&Key>) -> Result<(Scenario, SampleOptions), Failure> {
    let r = partial::resume(&shipped(), dir, key).map_err(partial_failure)?;
    let opts = SampleOptions {
        precision: r.precision,
        wanted: Some(r.wanted),
        resume: Some(r.resume),
        ..SampleOptions::default()
    };
    Ok((r.scenario, opts))
}

fn merge(args: MergeArgs) -> Result<(), Failure> {
    let key = key(&args.sealing)?;
    let mut record = partial::merge(&shipped(), &args.dirs, key.as_ref()).map_err(partial_failure)?;
    if let Some(key) = &key {
        record.seal_with(key);
    }
    let folder = open(&args.out, "--out")?;
    outputs::export(&record, folder.staging()).map_err(|e| not_written(e, &folder, &args.out))?;
    let written = folder.commit().map_err(folder_failure)?;
    show_view(&show::RunView { record: &record, dir: &args.out, files: written.len() }, args.format.asked())
}

/// The key that seals and checks manifests (`--key-file`, or else `INTERCEPT_SIM_KEY`), if one is given: an
/// unusable one is bad input, refused before any work.
fn key(sealing: &cli::Sealing) -> Result<Option<Key>, Failure> {
    Key::given(sealing.key_file.as_deref()).map_err(|e| bad_input(e.to_string()))
}

/// A folder that cannot be resumed or merged is bad input.
fn partial_failure(e: PartialError) -> Failure {
    bad_input(e.to_string())
}

fn sweep(args: SweepArgs) -> Result<(), Failure> {
    let key = key(&args.sealing)?;
    let from = args.resume.clone();
    let new = from.is_none().then(|| new_sweep(&args)).transpose()?;
    let default = match (&new, &from) {
        (Some(s), _) => (Path::new("reports").join(format!("{}-sweep", s.base.run.name)), ""),
        (None, from) => (from.clone().expect("clap asks for a config or --resume"), "--resume"),
    };
    let (dir, flag) = out_or(args.out.clone(), default);
    // The folder is locked before an interrupted sweep is read from it, so no other run changes it meanwhile.
    let folder = open(&dir, flag)?;
    let start = match new {
        Some(new) => new,
        None => {
            resumed_sweep(from.as_deref().expect("clap asks for a config or --resume"), &args.metric, key.as_ref())?
        }
    };
    let bar = progress::Progress::new(start.trials_left());
    let stop = interrupt::install();
    let pool = runner::pool(args.sampling.threads());
    let mut swept = pool.install(|| start.play(Some(&stop), &|n| bar.advance(n)));
    bar.finish();
    if let Some(key) = &key {
        swept.record.seal_with(key);
    }
    swept.write(folder.staging()).map_err(|e| not_written(e, &folder, &dir))?;
    let written = folder.commit().map_err(folder_failure)?;
    show_view(&swept.view(&dir, written.len()), args.format.asked())?;
    match swept.record.unfinished() {
        true => Err(interrupt::sweep_stopped(&swept.record, &dir)),
        false => Ok(()),
    }
}

/// A new sweep from the config and the command line, every point resolved and `--metric` checked.
fn new_sweep(args: &SweepArgs) -> Result<SweepStart, Failure> {
    let file = args.config.as_deref().expect("clap requires a config without --resume");
    let base = config::load(&shipped(), file, args.sampling.overrides())?;
    let axes: Vec<Axis> =
        args.sets.iter().map(|(key, values)| Axis { key: key.clone(), values: values.clone() }).collect();
    SweepStart::new(base, axes, args.metric.clone(), args.allow_large).map_err(refused)
}

/// The interrupted sweep in `dir`, set to go on where it stopped; `--metric` replaces the metrics it named.
fn resumed_sweep(dir: &Path, named: &[String], key: Option<&Key>) -> Result<SweepStart, Failure> {
    let r = sweep::resume(&shipped(), dir, key).map_err(partial_failure)?;
    let named = if named.is_empty() { r.metrics } else { named.to_vec() };
    let shown = study::sweep_metrics(&r.base, &named).map_err(refused)?;
    Ok(SweepStart { base: r.base, axes: r.axes, named, shown, points: r.points, counts: Some(r.counts) })
}

fn sensitivity(args: SensitivityArgs) -> Result<(), Failure> {
    let scenario = config::load(&shipped(), &args.config, args.sampling.overrides())?;
    let shown = study::shown_metrics(&scenario, &args.metric).map_err(refused)?;
    let (scope, steps) =
        study::sensitivity_steps(&scenario, &args.only, args.float_step, args.allow_large).map_err(refused)?;
    let default = Path::new("reports").join(format!("{}-sensitivity", scenario.run.name));
    let (dir, flag) = out_or(args.out, (default, ""));
    let folder = open(&dir, flag)?;
    let stop = interrupt::install_without_partial();
    // A stop ends the exact solves at their next leaf too, which may take minutes on a large tree.
    let solved = crate::core::exact::halting(&stop, || sensitivity::solve(&scenario, steps));
    let bar = progress::Progress::new(solved.trials_to_sample());
    let s = runner::pool(args.sampling.threads()).install(|| solved.sample_until(Some(&stop), &|n| bar.advance(n)));
    bar.finish();
    let Some(s) = s else { return Err(interrupt::sensitivity_stopped(&dir)) };
    study::write_sensitivity(&scenario, &scope, &s, folder.staging()).map_err(|e| not_written(e, &folder, &dir))?;
    let written = folder.commit().map_err(folder_failure)?;
    let metrics: Vec<usize> = shown.iter().map(|m| s.metric(m).expect("checked")).collect();
    let (name, files) = (&scenario.run.name, written.len());
    let view = show::sensitivity::SensitivityView { name, sensitivity: &s, shown: &metrics, dir: &dir, files };
    show_view(&view, args.format.asked())
}

/// `solve`: the values of the key that meet the target, found exactly.
fn solve(args: SolveArgs) -> Result<(), Failure> {
    let scenario = config::load(&shipped(), &args.config, Overrides::default())?;
    let answer = solve::solve(&scenario, &args.target, &args.vary, args.digits.into()).map_err(|e| bad_input(e.0))?;
    let default = Path::new("reports").join(format!("{}-solve", scenario.run.name));
    let (dir, flag) = out_or(args.out, (default, ""));
    let folder = open(&dir, flag)?;
    study::write_solve(&scenario, &answer, folder.staging()).map_err(|e| not_written(e, &folder, &dir))?;
    let written = folder.commit().map_err(folder_failure)?;
    show_view(&show::SolveView { answer: &answer, dir: &dir, files: written.len() }, args.format.asked())
}

/// `where`: every choice of the scenario's first decision, ranked exactly, each side answering best below.
fn where_to(args: cli::WhereArgs) -> Result<(), Failure> {
    let scenario = config::load(&shipped(), &args.config, Overrides::default())?;
    let default = Path::new("reports").join(format!("{}-where", scenario.run.name));
    let (dir, flag) = out_or(args.out, (default, ""));
    let plan = crate::core::decide::plan(&scenario, args.metric.as_deref()).map_err(|e| bad_input(e.0))?;
    let folder = open(&dir, flag)?;
    let decided = plan.decide();
    report::write_decided(&scenario, &decided, args.metric.as_deref(), folder.staging())
        .map_err(|e| not_written(e, &folder, &dir))?;
    let written = folder.commit().map_err(folder_failure)?;
    let view =
        show::decided::DecidedView { name: &scenario.run.name, decided: &decided, wrote: Some((&dir, written.len())) };
    show_view(&view, args.format.asked())
}

fn exact(args: ExactArgs) -> Result<(), Failure> {
    let mut scenario = config::load(&shipped(), &args.config, Overrides::default())?;
    if let Some(n) = args.max_states {
        scenario.run.max_exact_states = n;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(args.time);
    let solved = runner::solve_bounded(&scenario, Some(deadline))
        .map_err(|e| Failure { code: 1, message: format!("{}: {e}", args.config.display()) })?;
    show_view(&show::ExactView { scenario: &scenario, solved: &solved }, args.format.asked())
}

fn validate(args: ValidateArgs) -> Result<(), Failure> {
    let scenario: Scenario = config::load(&shipped(), &args.config, Overrides::default())?;
    show_view(&show::ScenarioView(&scenario), args.format.asked())
}

fn metrics(args: TableArgs) -> Result<(), Failure> {
    let scenario = config::load(&shipped(), &args.config, Overrides::default())?;
    show_view(&show::MetricsView(&scenario), args.format.asked())
}

fn schema(args: SchemaArgs) -> Result<(), Failure> {
    let registry = shipped();
    let Some(table) = args.table else { return emit(show::tables(&registry)) };
    let set = generate::rule_set(&table)?;
    emit(serde_json::to_string_pretty(&set.schema()).expect("a schema serialises"))
}

/// `serve`: the workbench on 127.0.0.1 (or `--bind`), its URL printed once it listens, until Ctrl-C. A token
/// is asked whenever it listens beyond this machine (or with `--token`), and printed in the URL.
fn serve(a: ServeArgs) -> Result<(), Failure> {
    let ip = a.bind.unwrap_or(std::net::Ipv4Addr::LOCALHOST.into());
    if !a.configs.is_dir() {
        return Err(bad_input(format!("--configs {}: not a folder", a.configs.display())));
    }
    if let Some(bad) = a.allow_host.iter().find(|h| !valid_host_name(h)) {
        return Err(bad_input(format!("--allow-host {bad:?}: not a host name; allowed: letters, digits, - and .")));
    }
    let token = match (a.token || !ip.is_loopback(), std::env::var("INTERCEPT_SIM_TOKEN")) {
        (false, _) => None,
        (true, Ok(given)) if !given.trim().is_empty() => Some(given.trim().to_owned()),
        (true, _) => Some(intercept_web::new_token().map_err(failed)?),
    };
    // The token goes into a URL, a cookie and a header as it is: URL-safe characters only.
    let url_safe = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric() || "-_.~".contains(c));
    if token.as_deref().is_some_and(|t| !url_safe(t)) {
        return Err(bad_input("INTERCEPT_SIM_TOKEN: not a token; allowed: letters, digits, -, _, . and ~".to_owned()));
    }
    if !ip.is_loopback() {
        eprintln!(
            "warning: --bind {ip} exposes the workbench to the network: anyone who has the printed URL (its token) \
             can read, change and run the configs in {}; the connection is not encrypted",
            a.configs.display()
        );
    }
    let options = intercept_web::Options {
        bind: std::net::SocketAddr::new(ip, a.port),
        configs: a.configs,
        max_trials: a.max_trials,
        token: token.clone(),
        allowed_hosts: a.allow_host,
        ..intercept_web::Options::default()
    };
    let names = options.allowed_hosts.clone();
    let bound = |addr: std::net::SocketAddr| {
        let shown = match addr.ip().is_unspecified() {
            true => std::net::SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port()),
            false => addr,
        };
        let query = token.as_ref().map(|t| format!("?token={t}")).unwrap_or_default();
        let url = format!("http://{shown}/{query}");
        // Other machines: this machine's addresses where it listens on all of them, and the names allowed.
        let addresses = intercept_web::reachable_at(addr).into_iter().filter(|a| *a != shown);
        let others: Vec<String> = addresses
            .map(|a| a.to_string())
            .chain(names.iter().map(|name| format!("{name}:{}", addr.port())))
            .collect();
        let mut said = format!("intercept-sim workbench: {url}\n");
        for other in &others {
            said += &format!("  from other machines: http://{other}/{query}\n");
        }
        if others.is_empty() && addr.ip().is_unspecified() {
            said += "  from other machines: no network address found on this machine; allow the name they know it \
                     by with --allow-host NAME\n";
        }
        // One write: a reader of the first line alone (a test, a script) never cuts the rest off.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(said.as_bytes()).and_then(|()| out.flush());
        if a.open {
            open_browser(&url);
        }
    };
    intercept_web::serve(options, bound).map_err(|e| bad_input(format!("--port {}: cannot listen: {e}", a.port)))
}

/// A DNS name: labels of letters, digits and hyphens, separated by dots.
fn valid_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// Asks the desktop to open `url`; a machine with no browser just keeps serving.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        eprintln!("cannot open a browser ({opener}); open {url} yourself");
    }
}

/// Whether the command was asked to be quiet (`-q`).
fn quiet(command: &Command) -> bool {
    match command {
        Command::Run(a) => a.sampling.quiet,
        Command::Sweep(a) => a.sampling.quiet,
        Command::Sensitivity(a) => a.sampling.quiet,
        Command::Merge(a) => a.quiet,
        _ => false,
    }
}

/// The folder `--out` gives, or else `default`, each with the flag that named it (none for a default folder).
fn out_or(out: Option<PathBuf>, default: (PathBuf, &'static str)) -> (PathBuf, &'static str) {
    out.map_or(default, |dir| (dir, "--out"))
}

/// The output folder, locked and checked writable before any work: a folder another run holds, or one that
/// cannot be written, is bad input, named by the `flag` that gave it (none for the default folder).
fn open(dir: &Path, flag: &str) -> Result<Folder, Failure> {
    Folder::open(dir).map_err(|e| {
        let mut failure = folder_failure(e);
        if !flag.is_empty() {
            failure.message = format!("{flag} {}", failure.message);
        }
        failure
    })
}

fn folder_failure(e: FolderError) -> Failure {
    Failure { code: if e.before_work() { 2 } else { 1 }, message: e.to_string() }
}

/// A study refused before it starts: bad input.
fn refused(e: study::Refused) -> Failure {
    bad_input(e.0)
}

/// A run whose files could not be written (a full disk): the file named where it was to go, not in the
/// staging folder, which is removed; and the folder is said to hold what it held before.
fn not_written(e: ExportError, folder: &Folder, dir: &Path) -> Failure {
    let e = e.relocated(folder.staging(), dir);
    let dir = crate::core::text::shown_path(dir);
    failed(format!("{e}; nothing was written, and {dir} holds what it held before"))
}
