//! `where`: a decision study's answer ([`DecidedView`]): a sentence naming the best option for the side
//! choosing, with its exact value and the next best; a table of every option ranked, with the choices each
//! side makes below it; and the same as JSON, exact fractions included, and CSV.

use std::fmt::Write as _;

use intercept_core::decide::{Considered, Decided};
use intercept_core::fraction;
use intercept_core::text::capitalised;
use intercept_core::view::View;
use serde_json::json;

/// A decision study's answer for `name` (the run's name).
pub struct DecidedView<'a> {
    pub name: &'a str,
    pub decided: &'a Decided,
    /// The folder the answer was written to and how many files, if it was.
    pub wrote: Option<(&'a std::path::Path, usize)>,
}

fn percent(v: &fraction::BigRational) -> String {
    format!("{:.1}%", 100.0 * fraction::to_f64(v))
}

impl DecidedView<'_> {
    /// The answer in one sentence: the best option for the side choosing, its exact value, the next best:
    /// "Where the defender intercepts the malta-convoy force: 1813, where mission.completed is 41.2% of the
    /// time (exactly 57/138); at the next best, 1712, 47.9%."
    pub fn sentence(&self) -> String {
        let d = self.decided;
        let Some(best) = d.best() else {
            return format!("{}: no option can be solved: {}", capitalised(&d.question), self.first_refusal());
        };
        let value = best.value.as_ref().expect("a ranked option has a value");
        let mut s = format!(
            "{}: {}, where {} is {}",
            capitalised(&d.question),
            best.label,
            d.metric,
            intercept_core::present::how_often_exactly(value)
        );
        match d.ranked.get(1).map(|&i| &d.options[i]) {
            Some(next) => {
                let v = next.value.as_ref().expect("a ranked option has a value");
                let _ = write!(s, "; at the next best, {}, {}.", next.label, percent(v));
            }
            None => s.push('.'),
        }
        s
    }

    fn first_refusal(&self) -> String {
        self.decided.options.iter().find_map(|o| o.value.as_ref().err().map(|e| e.0.clone())).unwrap_or_default()
    }

    /// The choices below an option, in words: "the moving player meets taranto on its way at 2111; ...".
    pub fn line_of(o: &Considered) -> String {
        o.line.iter().map(|p| format!("{} at {}", p.act, p.label)).collect::<Vec<_>>().join("; ")
    }
}

impl View for DecidedView<'_> {
    fn text(&self) -> String {
        let d = self.decided;
        let mut out = format!(
            "{}: {}, judged by {} exactly ({} exact solves; {} wants it {})\n{}\n\n",
            self.name,
            d.question,
            d.metric,
            d.solves,
            d.side,
            if d.maximises() { "high" } else { "low" },
            self.sentence()
        );
        let _ = writeln!(
            out,
            "{:<5} {:<8} {:<12} {:<24} then",
            "rank",
            "option",
            d.metric.rsplit('.').next().unwrap_or(""),
            "exact"
        );
        for (rank, &i) in d.ranked.iter().enumerate() {
            let o = &d.options[i];
            let v = o.value.as_ref().expect("ranked");
            let row = format!(
                "{:<5} {:<8} {:<12.6} {:<24} {}",
                rank + 1,
                o.label,
                fraction::to_f64(v),
                fraction::text(v),
                Self::line_of(o)
            );
            // No line below the choice (one level): no spaces left after its fraction.
            let _ = writeln!(out, "{}", row.trim_end());
        }
        for o in d.options.iter().filter(|o| o.value.is_err()) {
            let _ = writeln!(
                out,
                "{:<5} {:<8} refused: {}",
                "-",
                o.label,
                o.value.as_ref().err().map_or("", |e| e.0.as_str())
            );
        }
        if let Some((dir, files)) = self.wrote {
            let _ = writeln!(
                out,
                "\nwrote {files} files (where.csv, where.json, where.svg, report.html) to {}",
                intercept_core::text::shown_path(dir)
            );
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let d = self.decided;
        let option = |(i, o): (usize, &Considered)| {
            let rank = d.ranked.iter().position(|&r| r == i).map(|r| r + 1);
            let written = d.written == Some(i);
            let line: Vec<_> =
                o.line.iter().map(|p| json!({ "side": p.side, "act": p.act, "choice": p.label })).collect();
            match &o.value {
                Ok(v) => json!({ "option": o.label, "rank": rank, "written": written, "value": fraction::to_f64(v),
                                 "value_fraction": fraction::text(v), "then": line }),
                Err(why) => json!({ "option": o.label, "rank": null, "written": written, "refused": why.0 }),
            }
        };
        json!({
            "name": self.name, "question": d.question, "side": d.side, "metric": d.metric, "favours": d.favours,
            "maximises": d.maximises(), "solves": d.solves, "answer": self.sentence(),
            "best": d.best().map(|b| b.label.clone()), "options": d.options.iter().enumerate().map(option).collect::<Vec<_>>(),
        })
    }

    fn csv(&self) -> Option<String> {
        let d = self.decided;
        let mut out = String::from("option,rank,value,value_fraction,then\n");
        for (i, o) in d.options.iter().enumerate() {
            let rank = d.ranked.iter().position(|&r| r == i).map(|r| (r + 1).to_string()).unwrap_or_default();
            let (v, f) = match &o.value {
                Ok(v) => (fraction::to_f64(v).to_string(), fraction::text(v)),
                Err(_) => (String::new(), String::new()),
            };
            out += &intercept_core::text::csv_line(&[o.label.clone(), rank, v, f, Self::line_of(o)]);
        }
        Some(out)
    }
}
