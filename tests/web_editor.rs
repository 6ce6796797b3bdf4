//! The editor's endpoints over real HTTP: `POST /api/picture` (the scenario's SVG, 204 for a rule set that
//! draws none, the command line's message for a refused config), `POST /api/parse` (config text as JSON for
//! the form), the page `GET /edit` and its assets, and the start page linking every scenario to the editor.
//! The browser side is tests/workbench_e2e.rs.

mod web;

use std::path::Path;

use web::{cli, cli_error, get, post, shipped};

const NAVAL: &str = "configs/naval/three-level-chain.toml";

#[test]
fn the_picture_is_the_scenario_svg_or_204() {
    let base = shipped();
    let reply = post(&format!("{base}/api/picture"), &std::fs::read_to_string(NAVAL).unwrap());
    assert_eq!((reply.status, reply.content_type.as_str()), (200, "image/svg+xml"));
    assert!(reply.body.starts_with("<svg") && reply.body.contains("taranto"), "{}", &reply.body[..200]);
    let none = std::fs::read_to_string("configs/card-game/deterrent.toml").unwrap();
    assert_eq!(post(&format!("{base}/api/picture"), &none).status, 204);
}

#[test]
fn a_refused_config_has_no_picture_and_the_cli_message() {
    let base = shipped();
    let text = std::fs::read_to_string("tests/bad_configs/morale_11.toml").unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), &text).unwrap();
    let (_, _, stderr) = cli(dir.path(), &["validate", "bad.toml"]);
    let reply = post(&format!("{base}/api/picture?name=bad.toml"), &text);
    assert_eq!((reply.status, reply.error()), (422, cli_error(&stderr)));
}

#[test]
fn parse_gives_the_config_as_json_and_refuses_what_is_not_toml() {
    let base = shipped();
    let reply = post(&format!("{base}/api/parse"), &std::fs::read_to_string(NAVAL).unwrap());
    assert_eq!(reply.status, 200, "{}", reply.body);
    let doc = reply.json();
    assert_eq!(doc["naval"]["group"][0]["name"], "taranto");
    assert_eq!(doc["naval"]["group"][0]["distance"], 8);
    let reply = post(&format!("{base}/api/parse?name=x.toml"), "a = = 1");
    assert_eq!(reply.status, 422);
    assert!(reply.error().starts_with("x.toml: "), "{}", reply.body);
}

#[test]
fn the_editor_page_and_its_assets_are_served_and_the_start_page_links_to_it() {
    let base = shipped();
    let page = get(&format!("{base}/edit"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/assets/editor.js") && !page.body.contains("<script>"), "no inline script");
    for (asset, kind) in [("editor.js", "text/javascript"), ("editor.css", "text/css")] {
        let reply = get(&format!("{base}/assets/{asset}"));
        assert_eq!(reply.status, 200);
        assert!(reply.content_type.starts_with(kind), "{asset}: {}", reply.content_type);
    }
    let start = get(&format!("{base}/"));
    assert!(start.body.contains("href=\"/edit?path=naval/three-level-chain.toml\""));
    assert!(start.body.contains("href=\"/edit?rule_set=naval\""));
    assert!(Path::new(NAVAL).exists());
}
