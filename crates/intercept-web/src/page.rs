//! The start page (`GET /`): the configs folder's scenarios by rule set, each with its headline answer where
//! the background solver has one (`assets/start.js` fills in the rest as they arrive), rendered on the server
//! from the template `assets/start.html`, each opening in the editor. It never waits for a solve.

use axum::extract::State;
use axum::response::{Html, IntoResponse};
use intercept_core::games::shipped;
use intercept_core::ruleset::Entry;
use intercept_output::report::escape;

use crate::error::{Answer, ApiError};
use crate::scenarios::{AnswerState, Listed, listing};

const TEMPLATE: &str = include_str!("../assets/start.html");

pub async fn start(State(s): State<crate::State>) -> Answer {
    let configs = s.options.configs.display().to_string();
    let listed = tokio::task::spawn_blocking(move || listing(&s)).await.map_err(ApiError::internal)?;
    let sections = match listed {
        Ok(listed) => rule_sets(&listed),
        Err(e) => format!("<p class=\"error\">{}</p>", escape(&e.message)),
    };
    let page = TEMPLATE.replace("{{configs}}", &escape(&configs)).replace("{{rule_sets}}", &sections);
    Ok(Html(page).into_response())
}

/// Links to the rule set's quick odds calculator and its game page, where it has them.
fn tools(set: &dyn Entry) -> String {
    let table = set.table();
    let mut links = Vec::new();
    if set.calculator().is_some() {
        links.push(format!("<a class=\"calc\" href=\"/calc#{table}\">quick odds</a>"));
    }
    if set.play().is_some() {
        links.push(format!("<a class=\"play\" href=\"/play/{table}\">play against the engine</a>"));
    }
    match links.is_empty() {
        true => String::new(),
        false => format!("<p>{}</p>\n", links.join(" · ")),
    }
}

/// One section per registered rule set: its scenarios, and a link to its starter config.
fn rule_sets(listed: &[Listed]) -> String {
    let mut out = String::new();
    for set in shipped().sets() {
        let table = set.table();
        out += &format!("<section id=\"{table}\">\n<h2>{}</h2>\n", escape(set.title()));
        let items: Vec<String> = listed.iter().filter(|l| l.rule_set.as_deref() == Some(table)).map(item).collect();
        if !items.is_empty() {
            out += &format!("<ul class=\"scenarios\">\n{}</ul>\n", items.concat());
        }
        if set.starter().is_some() {
            out += &format!(
                "<p><a class=\"new\" href=\"/edit?rule_set={table}\">new scenario</a> \
                 (<a href=\"/api/starter/{table}\">starter config</a>)</p>\n"
            );
        }
        out += &tools(*set);
        out += "</section>\n";
    }
    let broken: Vec<String> = listed.iter().filter(|l| l.error.is_some()).map(item).collect();
    if !broken.is_empty() {
        out += &format!(
            "<section>\n<h2>Configs that cannot be used</h2>\n<ul class=\"scenarios\">\n{}</ul>\n</section>\n",
            broken.concat()
        );
    }
    out
}

fn item(l: &Listed) -> String {
    let name = escape(l.name.as_deref().unwrap_or(&l.path));
    let path = escape(&l.path);
    let answer = answer(l);
    let error = l.error.as_deref().map(|e| format!("<span class=\"error\">{}</span>", escape(e)));
    let href = format!("/edit?path={path}");
    format!(
        "<li data-path=\"{path}\"><a class=\"name\" href=\"{href}\">{name}</a><span class=\"path\">{path}</span>{}{}</li>\n",
        answer.unwrap_or_default(),
        error.unwrap_or_default()
    )
}

/// The headline answer as the list shows it: the sentence, or why there is none yet (`start.js` shows the
/// same words when it fills one in).
fn answer(l: &Listed) -> Option<String> {
    let (class, text) = match (l.answer_state, l.answer.as_deref()) {
        (AnswerState::Solved, Some(a)) => ("answer", a),
        (AnswerState::Solving, _) => ("answer solving", "solving exactly…"),
        (AnswerState::TooLarge, _) => ("answer too-large", "too large to solve at once: open it and run Monte Carlo"),
        _ => return None,
    };
    // The state as the API names it, so that start.js reads the page and the API alike.
    let state = serde_json::to_value(l.answer_state).ok();
    let state = state.as_ref().and_then(|v| v.as_str()).unwrap_or("none");
    Some(format!("<span class=\"{class}\" data-state=\"{state}\">{}</span>", escape(text)))
}
