//! Partial results: going on with an interrupted run, and merging the shards of one run.
//!
//! A run that is interrupted, or that runs one shard of a run (`--shard K/N`), writes its outputs as usual
//! and marks `manifest.json` `partial`, with the chunks its counts cover and the raw counts themselves. Both
//! operations here start from those manifests ([`Stored`]), read back with their resolved config, so neither
//! needs the config file: [`resume`] turns an interrupted run's manifest into the options that finish it,
//! and [`merge`] checks that a set of shards tiles the chunks of one run exactly and adds their counts.
//! Counts are integers merged in chunk order, so a resumed or merged run writes the same bytes as a run made
//! in one go. [`PartialError`] says, in one line, why a folder cannot be resumed or merged.
//!
//! Nothing read back is believed unchecked: a manifest must read back as it was written, with the digest of
//! its own contents and, when the job has a key, its key seal ([`crate::seal`]); its counts must fit its
//! config ([`Stored::scenario`]): one count per slot, no probability counted in more trials than ran,
//! distributions adding up to the trials, and the trials those of the chunks it says it covers; and the
//! counts to be resumed or merged must be plausible against the exact values ([`crate::plausible`]). Sums of
//! shards are checked for overflow.

use crate::metrics::Implausible;
use std::path::{Path, PathBuf};

use crate::config::{self, ConfigError, Overrides, Scenario};
use crate::engine::Plan;
use crate::exact::ExactTally;
use crate::metrics::Tally;
use crate::record::RunRecord;
use crate::ruleset::Registry;
use crate::runner::{self, Resume, RunFacts};
use crate::seal::{Key, Sealed, Unsealed, unseal};
use crate::text::{ReadError, plain_io, read_capped, shown_path};

/// Why a folder cannot be resumed or merged.
#[derive(Debug, thiserror::Error)]
pub enum PartialError {
    #[error("{}: cannot read the run's manifest: {}", shown_path(path), plain_io(source))]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: not an intercept-sim manifest: {message}", shown_path(path))]
    Format { path: PathBuf, message: String },
    #[error("{}: {message}", shown_path(dir))]
    Refused { dir: PathBuf, message: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// A run's `manifest.json`, read back as the [`RunRecord`] that wrote it (without the summary, which is
/// worked out again from the counts), and the folder it came from.
#[derive(Clone, Debug)]
pub struct Stored {
    pub record: RunRecord,
    pub dir: PathBuf,
}

impl std::ops::Deref for Stored {
    type Target = RunRecord;

    fn deref(&self) -> &RunRecord {
        &self.record
    }
}

impl Stored {
    /// Reads `dir/manifest.json`, refusing one written by another version (its numbers would differ),
    /// edited since (its digest would not match), or sealed otherwise than with `key`.
    pub fn read(dir: &Path, key: Option<&Key>) -> Result<Stored, PartialError> {
        let path = dir.join("manifest.json");
        let text = read_manifest(&path)?;
        Stored::parse(&text, dir, key)
    }

    /// A manifest's text, read back from the run folder `dir`.
    pub fn parse(text: &str, dir: &Path, key: Option<&Key>) -> Result<Stored, PartialError> {
        Ok(Stored { record: unsealed(text, dir, "run", key)?, dir: dir.to_owned() })
    }

    /// The scenario the run was made from, resolved again from the config it recorded, once the counts are
    /// checked against it.
    pub fn scenario(&self, registry: &Registry) -> Result<Scenario, PartialError> {
        let scenario = recorded_scenario(registry, &self.config, &self.config_file)?;
        self.verify(&scenario)?;
        Ok(scenario)
    }

    /// Refuses a manifest whose chunks, trials and counts are not those of a run of `scenario`.
    pub fn verify(&self, scenario: &Scenario) -> Result<(), PartialError> {
        self.check(scenario).map_err(|m| self.refused(format!("manifest.json does not hold a whole run: {m}")))
    }

    /// Whether the chunks, trials and counts are those of a run of `scenario`.
    fn check(&self, scenario: &Scenario) -> Result<(), Implausible> {
        let plan = runner::plan(scenario);
        if (self.seed, self.chunk_size) != (plan.seed, plan.chunk_size) {
            return Err(Implausible::from("its seed or chunk size differs from its config's".to_owned()));
        }
        let (all, wanted, chunks) = (plan.chunks(), self.wanted, self.chunks);
        let within = wanted.from <= wanted.to && wanted.to <= all;
        if !within || chunks.from != wanted.from || chunks.to < chunks.from || chunks.to > wanted.to {
            let (w, c) = (format!("{}..{}", wanted.from, wanted.to), format!("{}..{}", chunks.from, chunks.to));
            return Err(Implausible::from(format!("chunks {c} of {w} are not chunks of a run of {all}")));
        }
        let whole = wanted.from == 0 && wanted.to == all && (chunks.to == all || self.precision.is_some());
        if !self.partial && !whole {
            return Err(Implausible::from("it says it is whole but covers only some of the run's chunks".to_owned()));
        }
        let due = plan.trials_in(chunks.from..chunks.to);
        if self.trials != due {
            return Err(Implausible::from(format!("it counts {} trials where its chunks hold {due}", self.trials)));
        }
        scenario.rules.metrics().check_counts(&self.counts, self.trials)
    }

    /// Refuses counts that a run of `scenario` could not have made, given its exact values when its tree
    /// could be solved ([`crate::plausible`]).
    pub fn plausible(
        &self,
        scenario: &Scenario,
        exact: Option<&ExactTally>,
        tally: &Tally,
    ) -> Result<(), PartialError> {
        let Some(exact) = exact else { return Ok(()) };
        crate::plausible::against(scenario, exact, tally).map_err(|m| self.refused(format!("manifest.json: {m}")))
    }

    /// The counts, as the engine holds them.
    pub fn tally(&self) -> Tally {
        Tally { trials: self.trials, counts: self.counts.clone() }
    }

    fn refused(&self, message: String) -> PartialError {
        PartialError::Refused { dir: self.dir.clone(), message }
    }
}

/// Whether the config file named by `recorded` (a scenario resolved from a manifest's config) no longer
/// resolves to that config (edited or removed since), with the run's trials and seed as given then.
pub fn file_changed(registry: &Registry, recorded: &Scenario) -> bool {
    let overrides = Overrides { trials: Some(recorded.run.trials), seed: Some(recorded.run.seed) };
    match config::load(registry, &recorded.file, overrides) {
        Ok(now) => now.config != recorded.config,
        Err(_) => true,
    }
}

/// What finishing an interrupted run needs: its scenario, and where and from which counts to go on.
pub struct Resumed {
    pub scenario: Scenario,
    pub wanted: std::ops::Range<u64>,
    pub resume: Resume,
    pub precision: Option<f64>,
}

/// The interrupted run in `dir`, ready to go on from where it stopped.
pub fn resume(registry: &Registry, dir: &Path, key: Option<&Key>) -> Result<Resumed, PartialError> {
    let stored = Stored::read(dir, key)?;
    if !stored.partial || stored.chunks.to >= stored.wanted.to {
        let what = if stored.partial { "a finished shard; merge it with the others" } else { "a finished run" };
        return Err(stored.refused(format!("nothing to resume: it holds {what}")));
    }
    if dir.join("trials.parquet").exists() {
        let message = "a --per-trial run cannot be resumed (trials.parquet cannot be extended); run it again";
        return Err(stored.refused(message.to_owned()));
    }
    let scenario = stored.scenario(registry)?;
    stored.plausible(&scenario, runner::solve(&scenario).ok().as_ref(), &stored.tally())?;
    let resume = Resume { next: stored.chunks.to, before: stored.tally() };
    let wanted = stored.wanted.from..stored.wanted.to;
    Ok(Resumed { scenario, wanted, resume, precision: stored.precision })
}

/// The manifest `text` of the folder `dir`, once [`unseal`] believes it (the `what`, run or sweep, wrote it
/// as it is, with `key` if one is given).
pub(crate) fn unsealed<T: Sealed>(text: &str, dir: &Path, what: &str, key: Option<&Key>) -> Result<T, PartialError> {
    unseal(text, what, key).map_err(|e| match e {
        Unsealed::Format(message) => PartialError::Format { path: dir.join("manifest.json"), message },
        Unsealed::Refused(message) => PartialError::Refused { dir: dir.to_owned(), message },
    })
}

/// The scenario a manifest was made from, resolved again from the `config` it recorded (read from `file`).
pub(crate) fn recorded_scenario(
    registry: &Registry,
    config: &crate::config::RawConfig,
    file: &str,
) -> Result<Scenario, PartialError> {
    Ok(config::from_raw(registry, config, Path::new(file))?)
}

/// The most bytes a manifest may hold: far more than any run's counts and config take.
pub const MANIFEST_MOST: u64 = 64 << 20;

/// The text of the manifest at `path`, refusing one too large to be a manifest.
pub(crate) fn read_manifest(path: &Path) -> Result<String, PartialError> {
    let text = std::fs::File::open(path).map_err(ReadError::from).and_then(|f| read_capped(f, MANIFEST_MOST));
    text.map_err(|e| match e {
        ReadError::Io(source) => PartialError::Read { path: path.to_owned(), source },
        ReadError::TooLarge { .. } => {
            PartialError::Format { path: path.to_owned(), message: format!("{e}, which no manifest is") }
        }
        ReadError::NotText { .. } => PartialError::Format { path: path.to_owned(), message: e.to_string() },
    })
}

/// The shards in `dirs` merged into the record of the whole run, after checking that they come from one run
/// (same version, config and seed) and cover each of its chunks exactly once.
pub fn merge(registry: &Registry, dirs: &[PathBuf], key: Option<&Key>) -> Result<RunRecord, PartialError> {
    let mut shards: Vec<Stored> = dirs.iter().map(|d| Stored::read(d, key)).collect::<Result<_, _>>()?;
    shards.sort_by_key(|s| (s.chunks.from, s.chunks.to));
    let first = shards.first().expect("clap asks for at least one folder").clone();
    shards.iter().try_for_each(|s| same_run(&first, s))?;
    let scenario = first.scenario(registry)?;
    shards.iter().skip(1).try_for_each(|s| s.verify(&scenario))?;
    let plan = runner::plan(&scenario);
    tiles(&shards, &plan)?;
    let mut tally = Tally::new(scenario.rules.metrics());
    for s in &shards {
        tally.checked_merge(&s.tally()).ok_or_else(|| s.refused("its counts overflow the sum of the shards".into()))?;
    }
    // Each shard alone, then the sum: a forged shard is named, and small forgeries in several shards still
    // add up to one that is caught.
    let exact = runner::solve(&scenario).ok();
    shards.iter().try_for_each(|s| s.plausible(&scenario, exact.as_ref(), &s.tally()))?;
    let all = dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ");
    let whole = Stored { record: first.record.clone(), dir: PathBuf::from(format!("the shards {all} together")) };
    whole.plausible(&scenario, exact.as_ref(), &tally)?;
    let all = 0..plan.chunks();
    let run = RunFacts { timing: None, chunks: all.clone(), wanted: all, partial: false, precision: None };
    let mut record = runner::summarise_with(&scenario, run, tally, exact);
    record.file_changed = file_changed(registry, &scenario);
    Ok(record)
}

/// Refuses a shard that is not from the same run as `first`, or that did not finish its share.
fn same_run(first: &Stored, s: &Stored) -> Result<(), PartialError> {
    let differs =
        |what: &str| s.refused(format!("not a shard of the same run as {}: its {what} differs", first.dir.display()));
    if s.seed != first.seed {
        return Err(differs("seed"));
    }
    if s.config != first.config {
        return Err(differs("config"));
    }
    if s.precision.is_some() {
        return Err(s.refused("a --precision run has no shards to merge".to_owned()));
    }
    if s.chunks.to < s.wanted.to {
        return Err(s.refused(format!(
            "an interrupted shard: resume it first (intercept-sim run --resume {})",
            s.dir.display()
        )));
    }
    Ok(())
}

/// Refuses shards that leave a chunk of the plan out or cover one twice.
fn tiles(shards: &[Stored], plan: &Plan) -> Result<(), PartialError> {
    let mut next = 0;
    for (i, s) in shards.iter().enumerate() {
        if s.chunks.from > next {
            return Err(s.refused(missing(next..s.chunks.from)));
        }
        if s.chunks.from < next {
            let other = shards[i - 1].dir.display();
            return Err(s.refused(format!("repeats chunks {}..{next}, which {other} covers too", s.chunks.from)));
        }
        next = s.chunks.to;
    }
    match next < plan.chunks() {
        true => Err(shards[shards.len() - 1].refused(missing(next..plan.chunks()))),
        false => Ok(()),
    }
}

fn missing(chunks: std::ops::Range<u64>) -> String {
    format!("chunks {}..{} are missing: no shard given covers them", chunks.start, chunks.end)
}
