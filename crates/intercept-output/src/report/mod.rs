//! `report.html`: one self-contained page per output folder, for people rather than programs.
//!
//! [`Page`] is a small page builder: a title with a line of facts, then sections, each a heading followed by
//! paragraphs, lists, [`Table`]s (rows of [`Cell`]s, optionally tagged with `data-` attributes through
//! [`Row::data`] so that tests and scripts can find them), inline SVG charts (any crate-private `plot::Chart`,
//! drawn in memory, never read back from disk) and a reproduce block. [`Page::write`] writes `report.html`
//! through [`crate::export::write_file`].
//!
//! The page is self-contained: styles are inline, charts are inline SVG, and there is no script. A strict
//! Content-Security-Policy (`default-src 'none'`) makes the browser refuse, and log to its console, any
//! resource the page might accidentally ask for, which is what the headless-browser test looks for. Every
//! string is HTML-escaped on the way in, since names in a config are user input.
//!
//! Three pages are built on it: [`RunReport`] (an [`crate::export::Output`] of every `run`),
//! [`SweepReport`] (written by `sweep`) and [`SensitivityReport`] (written by `sensitivity`). `Page::chart` accepts any chart of [`crate::plot`], a crate-private
//! trait, so a new page kind lives here in `src/report/` and its charts beside the others in `src/plot/`. It
//! follows the same pattern:
//!
//! ```text
//! let mut page = Page::new("three-level-chain sensitivity");
//! page.facts([scenario.rules.entry().title().to_owned(), "seed 1941".to_owned()]);
//! page.section("Ranking").paragraph("Which input moves each metric most.");
//! let mut table = Table::new(&["input", "swing"]);
//! table.push(Row::new(vec![Cell::name("game.rules.speed"), Cell::value(0.12)]).data("input", "speed"));
//! page.table(&table).chart("Tornado of mission.completed", &tornado)?;
//! page.reproduce("intercept-sim sensitivity CONFIG", Some(&config_toml));
//! page.write(dir)?;
//! ```

mod decided;
mod exact;
mod run;
mod sensitivity;
mod solve;
mod sweep;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use self::decided::{DecidedReport, decided_picture, write_decided};
pub use self::exact::exact_page;
pub use self::run::{RunReport, page as run_page};
pub use self::sensitivity::SensitivityReport;
pub use self::solve::{SolveReport, command as solve_command};
pub use self::sweep::SweepReport;
use crate::export::{ExportError, create, write_file};
use crate::plot::{Chart, picture_svg, svg_string};
use intercept_core::present::Picture;
pub use intercept_core::present::{Cell, DECIMALS, Row, Table, fixed, thousands};

/// The file every report page is written to.
pub const FILE: &str = "report.html";

/// The policy that keeps the page offline: nothing may load except inline styles and `data:` images.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = include_str!("report.css");

/// An HTML page under construction: a title, a line of facts, then sections of blocks. Built with
/// [`Page::new`], which opens the untitled section that blocks before the first heading go into.
#[derive(Clone, Debug)]
pub struct Page {
    title: String,
    facts: Vec<String>,
    sections: Vec<Section>,
    /// The answer paragraph's text, the last table or figure added, and the blocks marked with
    /// [`Page::feature`]: what [`Page::fragment`] shows.
    lead: Option<String>,
    /// The heading the blocks added now sit under: the title, a section's or a subheading's.
    under: String,
    last: Option<Featured>,
    featured: Vec<Featured>,
}

/// A block [`Page::fragment`] shows: a table (folded under its section's heading) or a figure.
#[derive(Clone, Debug)]
struct Featured {
    table: bool,
    heading: String,
    html: String,
}

/// One `<section>`: its `<h2>` (none for the blocks before the first heading) and its HTML so far.
#[derive(Clone, Debug, Default)]
struct Section {
    heading: Option<(String, String)>,
    html: String,
}

impl Page {
    /// A page titled `title`, with no sections yet.
    pub fn new(title: &str) -> Page {
        let sections = vec![Section::default()];
        let (title, under) = (title.to_owned(), title.to_owned());
        Page { title, facts: Vec::new(), sections, lead: None, under, last: None, featured: Vec::new() }
    }

    /// Adds facts to the line under the title (model, trials, seed, ...), shown in order.
    pub fn facts(&mut self, facts: impl IntoIterator<Item = String>) -> &mut Self {
        self.facts.extend(facts);
        self
    }

    /// Starts a new section with `heading` as its `<h2>`; it is listed in the page's contents.
    pub fn section(&mut self, heading: &str) -> &mut Self {
        let id = self.unique_id(heading);
        heading.clone_into(&mut self.under);
        self.sections.push(Section { heading: Some((heading.to_owned(), id)), html: String::new() });
        self
    }

    /// A `<h3>` inside the current section.
    pub fn subheading(&mut self, text: &str) -> &mut Self {
        text.clone_into(&mut self.under);
        self.push(&format!("<h3>{}</h3>\n", escape(text)))
    }

    /// A paragraph of plain text.
    pub fn paragraph(&mut self, text: &str) -> &mut Self {
        self.push(&format!("<p>{}</p>\n", escape(text)))
    }

    /// The page's answer: a paragraph set larger than the others, meant to open the page.
    pub fn answer(&mut self, text: &str) -> &mut Self {
        self.lead.get_or_insert_with(|| text.to_owned());
        self.push(&format!("<p class=\"answer\">{}</p>\n", escape(text)))
    }

    /// The metrics that took `value` in every trial, folded into one line instead of a table row each; every
    /// name carries `data-metric`, the line `data-always="<value>"`.
    pub fn folded(&mut self, value: u32, names: &[&str]) -> &mut Self {
        let names: Vec<String> =
            names.iter().map(|n| format!("<span class=\"name\" data-metric=\"{0}\">{0}</span>", escape(n))).collect();
        let line = format!("<p class=\"always\" data-always=\"{value}\">Always {value}: {}</p>\n", names.join(", "));
        self.push(&line)
    }

    /// A bulleted list, one item per string.
    pub fn list(&mut self, items: &[String]) -> &mut Self {
        let items: String = items.iter().map(|i| format!("<li>{}</li>\n", escape(i))).collect();
        self.push(&format!("<ul class=\"plain\">\n{items}</ul>\n"))
    }

    /// A table.
    pub fn table(&mut self, table: &Table) -> &mut Self {
        let html = table_html(table);
        self.remember(true, &html);
        self.push(&html)
    }

    /// Marks the table or figure just added as one [`Page::fragment`] shows.
    pub fn feature(&mut self) -> &mut Self {
        self.featured.extend(self.last.take());
        self
    }

    /// The page as a notebook cell shows a result: the answer, then the featured tables (each folded under
    /// its section's heading) and figures, in one `<div>` with no page around it.
    pub fn fragment(&self) -> String {
        let mut out = String::from("<div class=\"intercept-sim\">\n");
        if let Some(lead) = &self.lead {
            let _ = writeln!(out, "<p><strong>{}</strong></p>", escape(lead));
        }
        for block in &self.featured {
            match block.table {
                true => {
                    let heading = escape(&block.heading);
                    let _ = writeln!(out, "<details>\n<summary>{heading}</summary>\n{}</details>", block.html);
                }
                false => out.push_str(&block.html),
            }
        }
        out += "</div>\n";
        out
    }

    fn remember(&mut self, table: bool, html: &str) {
        self.last = Some(Featured { table, heading: self.under.clone(), html: html.to_owned() });
    }

    /// A chart drawn as inline SVG, with `caption` under it (also its accessible name). The chart shrinks to
    /// the page's width, but never below the width at which its smallest text is [`READABLE_PX`] high: on a
    /// phone it scrolls sideways in its own box instead (a chart drawn with smaller text is shown wider than drawn).
    pub(crate) fn chart(&mut self, caption: &str, chart: &impl Chart) -> Result<&mut Self, ExportError> {
        let svg = svg_string(chart).map_err(|e| ExportError::Chart { path: PathBuf::from(FILE), message: e.0 })?;
        Ok(self.figure(caption, &svg))
    }

    /// A picture of any kind ([`Picture`]) drawn as inline SVG, with `caption` under it, as [`Page::chart`].
    pub fn picture(&mut self, caption: &str, picture: &Picture) -> Result<&mut Self, ExportError> {
        let svg = picture_svg(picture).map_err(|e| ExportError::Chart { path: PathBuf::from(FILE), message: e.0 })?;
        Ok(self.figure(caption, &svg))
    }

    /// An SVG document as a figure: it shrinks to the page's width, but never below the width at which its
    /// smallest text is [`READABLE_PX`] high.
    fn figure(&mut self, caption: &str, svg: &str) -> &mut Self {
        let width = svg_width(svg).unwrap_or(READABLE_PX);
        let min_width = smallest_font(svg).map_or(width, |font| (width * READABLE_PX / font).ceil());
        let label = format!("<svg role=\"img\" aria-label=\"{}\" style=\"min-width: {min_width}px\" ", escape(caption));
        let svg = svg.replacen("<svg ", &label, 1);
        let caption = escape(caption);
        let html = format!("<figure>\n<div class=\"chart\">{svg}</div><figcaption>{caption}</figcaption>\n</figure>\n");
        self.remember(false, &html);
        self.push(&html)
    }

    /// Preformatted text, such as a command.
    pub fn code(&mut self, text: &str) -> &mut Self {
        self.push(&format!("<pre><code>{}</code></pre>\n", escape(text)))
    }

    /// A collapsed block: `summary` is shown, the preformatted `text` opens on a click.
    pub fn details(&mut self, summary: &str, text: &str) -> &mut Self {
        let (summary, text) = (escape(summary), escape(text));
        self.push(&format!("<details>\n<summary>{summary}</summary>\n<pre><code>{text}</code></pre>\n</details>\n"))
    }

    /// The "Reproduce" section: the exact command, and the resolved config (every default filled in) so the
    /// result can be reproduced even if the config file changes.
    pub fn reproduce(&mut self, command: &str, config_toml: Option<&str>) -> &mut Self {
        self.section("Reproduce");
        self.paragraph(
            "Run this from the folder the command was run in. The same config and seed give the same numbers on \
             any number of threads (--threads) and in any output folder (--out).",
        );
        self.code(command);
        if let Some(toml) = config_toml {
            self.paragraph(
                "If the config file has changed since, save the resolved config below as a .toml file and run the \
                 same command on it.",
            );
            self.details("The resolved config, every default filled in", toml);
        }
        self
    }

    /// The whole page as HTML.
    pub fn html(&self) -> String {
        let mut out = String::with_capacity(64 * 1024);
        let title = escape(&self.title);
        let version = env!("CARGO_PKG_VERSION");
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"intercept-sim {version}\">\n\
             <title>{title}</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n{STYLE}</style>\n</head>\n\
             <body>\n<main>\n<header>\n<p class=\"kicker\">intercept-sim report</p>\n<h1>{title}</h1>\n"
        );
        if !self.facts.is_empty() {
            let facts: String = self.facts.iter().map(|f| format!("<li>{}</li>", escape(f))).collect();
            let _ = writeln!(out, "<ul class=\"facts\">{facts}</ul>");
        }
        out += "</header>\n";
        out += &self.contents();
        for section in &self.sections {
            out += &section.html_with_heading();
        }
        let _ = write!(
            out,
            "<footer>Written by intercept-sim {version}. This page is self-contained: no scripts, no network.\
             </footer>\n</main>\n</body>\n</html>\n"
        );
        out
    }

    /// Writes the page to `dir/report.html`; returns the path written.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, ExportError> {
        let path = dir.join(FILE);
        let html = self.html();
        write_file(&path, |p| {
            use std::io::Write;
            create(p)?.write_all(html.as_bytes()).map_err(|source| ExportError::Io { path: p.to_owned(), source })
        })?;
        Ok(path)
    }

    /// The list of section links under the header.
    fn contents(&self) -> String {
        let links: String = self
            .sections
            .iter()
            .filter_map(|s| s.heading.as_ref())
            .map(|(text, id)| format!("<li><a href=\"#{id}\">{}</a></li>", escape(text)))
            .collect();
        if links.is_empty() { String::new() } else { format!("<nav><ul>{links}</ul></nav>\n") }
    }

    fn push(&mut self, html: &str) -> &mut Self {
        self.sections.last_mut().expect("a page always has a section").html += html;
        self
    }

    /// An element id from a heading: lowercase letters, digits and dashes, made unique on the page.
    fn unique_id(&self, heading: &str) -> String {
        let slug: String =
            heading.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        let slug = slug.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-");
        let base = if slug.is_empty() { "section".to_owned() } else { slug };
        let taken = |id: &str| self.sections.iter().any(|s| s.heading.as_ref().is_some_and(|(_, i)| i == id));
        let mut id = base.clone();
        let mut n = 2;
        while taken(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
}

impl Section {
    fn html_with_heading(&self) -> String {
        match &self.heading {
            None if self.html.is_empty() => String::new(),
            None => format!("<section>\n{}</section>\n", self.html),
            Some((text, id)) => format!("<section id=\"{id}\">\n<h2>{}</h2>\n{}</section>\n", escape(text), self.html),
        }
    }
}

/// A table's HTML. A column whose first cell is a number is right-aligned, heading included.
fn table_html(table: &Table) -> String {
    let numeric = |i: usize| table.rows.first().and_then(|r| r.cells.get(i)).is_some_and(|c| c.numeric);
    let head: String = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| match numeric(i) {
            true => format!("<th class=\"num\">{}</th>", escape(c)),
            false => format!("<th>{}</th>", escape(c)),
        })
        .collect();
    let id = table.id.as_ref().map(|id| format!(" id=\"{id}\"")).unwrap_or_default();
    let rows: String = table.rows.iter().map(row_html).collect();
    format!(
        "<div class=\"table\"><table{id}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table></div>\n"
    )
}

fn row_html(row: &Row) -> String {
    let attrs: String = row.data.iter().map(|(n, v)| format!(" data-{n}=\"{}\"", escape(v))).collect();
    let cells: String = row.cells.iter().map(cell_html).collect();
    format!("<tr{attrs}>{cells}</tr>\n")
}

fn cell_html(cell: &Cell) -> String {
    let class = if cell.classes.is_empty() { String::new() } else { format!(" class=\"{}\"", cell.classes.join(" ")) };
    let note = cell.note.as_ref().map(|n| format!("<small class=\"about\">{}</small>", escape(n)));
    format!("<td{class}>{}{}</td>", escape(&cell.text), note.unwrap_or_default())
}

/// The height, in CSS pixels, the smallest text of a chart keeps however narrow the screen.
pub const READABLE_PX: f64 = 9.5;

/// The drawn width an SVG document sets on its root, in its own units.
fn svg_width(svg: &str) -> Option<f64> {
    svg.split("width=\"").nth(1)?.split('"').next()?.parse().ok()
}

/// The smallest `font-size` an SVG document sets, in its own units.
fn smallest_font(svg: &str) -> Option<f64> {
    let sizes = svg.split("font-size=\"").skip(1).filter_map(|rest| rest.split('"').next()?.parse::<f64>().ok());
    sizes.filter(|s| *s > 0.0).min_by(f64::total_cmp)
}

/// `word` as one shell word: as it is when it holds only safe characters, else single-quoted.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Text made safe for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_is_escaped_everywhere() {
        let mut page = Page::new("<script>alert('x')</script>");
        page.facts(["a & b".to_owned()]).section("\"quoted\" <h>").paragraph("1 < 2");
        let mut table = Table::new(&["<b>heading</b>"]);
        table.push(Row::new(vec![Cell::text("<i>cell</i>")]).data("metric", "\"><script>"));
        page.table(&table).details("<s>", "</pre>").code("rm -rf '<x>'");
        let html = page.html();
        assert!(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"), "{html}");
        assert!(!html.contains("<s>") && !html.contains("<x>") && html.contains("&lt;b&gt;heading"));
        assert!(!html.contains("</pre></pre>") && html.contains("&lt;/pre&gt;"));
        assert!(html.contains("data-metric=\"&quot;&gt;&lt;script&gt;\""));
        assert!(html.contains("<h2>&quot;quoted&quot; &lt;h&gt;</h2>"));
    }

    #[test]
    fn the_page_forbids_every_resource() {
        let html = Page::new("t").html();
        assert!(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""));
        assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    }

    #[test]
    fn sections_get_unique_ids_and_a_contents_list() {
        let mut page = Page::new("t");
        page.section("Headline odds").section("Headline odds").section("!!");
        let html = page.html();
        for id in ["headline-odds", "headline-odds-2", "section"] {
            assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}: {html}");
            assert!(html.contains(&format!("<a href=\"#{id}\">")), "{id}");
        }
    }

    #[test]
    fn numbers_have_one_precision() {
        assert_eq!(fixed(0.123456), "0.1235");
        assert_eq!(fixed(-0.00001), "0.0000");
        assert_eq!(fixed(1.0), "1.0000");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(shell_word("configs/a.toml"), "configs/a.toml");
        assert_eq!(shell_word("my config's.toml"), "'my config'\\''s.toml'");
    }
}
