//! The editor's endpoints over real HTTP: `POST /api/picture` (the scenario's SVG, 204 for a rule set that
//! draws none, the command line's message for a refused config), `POST /api/parse` (config text as JSON for
//! the form), `POST /api/set` (one form edit made in the text, comments kept), the page `GET /edit` and its
//! assets, and the start page linking every scenario to the editor.
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

/// Every shipped step-race config draws its map: a well-formed SVG naming each unit, its box and each
/// region of the mover's path as the config writes them.
#[test]
fn each_step_race_config_draws_its_map_naming_units_and_regions() {
    let base = shipped();
    for entry in std::fs::read_dir("configs/step-race").unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let reply = post(&format!("{base}/api/picture"), &text);
        assert_eq!((reply.status, reply.content_type.as_str()), (200, "image/svg+xml"), "{}", path.display());
        well_formed(&reply.body);
        let config: toml::Table = toml::from_str(&text).unwrap();
        let race = &config["step_race"];
        for unit in race["interceptor"].as_array().unwrap() {
            for key in ["name", "at", "box"] {
                let word = unit[key].as_str().unwrap();
                assert!(reply.body.contains(word), "{}: the map names {word}", path.display());
            }
        }
        for key in ["start", "destination", "waypoints"] {
            if let Some(region) = race["mover"].get(key).and_then(|v| v.as_str()) {
                assert!(reply.body.contains(region), "{}: the map names {key} {region}", path.display());
            }
        }
    }
}

/// A mover going by a waypoint region is drawn start, waypoint, destination: numbered rings 1, 2, 3 at the
/// regions' centres, each leg a line from one ring to the next.
#[test]
fn a_path_with_a_waypoint_runs_through_it_in_order() {
    let text = std::fs::read_to_string("configs/step-race/screen-with-waypoints.toml")
        .unwrap()
        .replace("waypoints = \"7-7/7\"", "waypoints = \"2-4/1\"");
    let svg = post(&format!("{}/api/picture", shipped()), &text).body;
    let rings = numbers_after(&svg, "<circle cx=", "r=\"9.5\"", &["cx", "cy"]);
    let legs = numbers_after(&svg, "<line x1=", "stroke-width=\"3\"", &["x1", "y1", "x2", "y2"]);
    assert_eq!((rings.len(), legs.len()), (3, 2), "{svg}");
    for (k, leg) in legs.iter().enumerate() {
        assert_eq!(
            (&leg[..2], &leg[2..]),
            (&rings[k][..], &rings[k + 1][..]),
            "leg {} joins ring {} to {}",
            k + 1,
            k + 1,
            k + 2
        );
    }
    let (start, way, end) = (&rings[0], &rings[1], &rings[2]);
    assert!(way[0] < start[0] && way[1] > start[1] && end[1] > way[1], "7-1, then 2-4, then 7-12: {rings:?}");
    for (n, ring) in rings.iter().enumerate() {
        let label = format!("font-weight=\"bold\" fill=\"#0d2a4d\">{}</text>", n + 1);
        assert!(svg[svg.find(&format!("cx=\"{:.1}\" cy=\"{:.1}\"", ring[0], ring[1])).unwrap()..].contains(&label));
    }
}

/// The named numeric attributes of every element that starts with `open` and has `marker` on its line.
fn numbers_after(svg: &str, open: &str, marker: &str, names: &[&str]) -> Vec<Vec<f64>> {
    let attr = |line: &str, name: &str| -> f64 {
        let at = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    let lines = svg.lines().filter(|l| l.starts_with(open) && l.contains(marker));
    lines.map(|l| names.iter().map(|n| attr(l, n)).collect()).collect()
}

/// Tags open and close in order, attributes are quoted, and text holds no bare `<` or `&`.
fn well_formed(svg: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = svg.trim();
    while let Some(at) = rest.find('<') {
        let text = &rest[..at];
        assert!(
            !text.contains('>')
                && text
                    .replace("&amp;", "")
                    .replace("&lt;", "")
                    .replace("&gt;", "")
                    .replace("&quot;", "")
                    .find('&')
                    .is_none(),
            "text {text:?}"
        );
        let end = rest[at..].find('>').expect("a tag ends") + at;
        let tag = &rest[at + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "quoted attributes: {tag}");
        let name = tag.trim_start_matches('/').split([' ', '/']).next().unwrap();
        match (tag.starts_with('/'), tag.ends_with('/')) {
            (true, _) => assert_eq!(open.pop(), Some(name), "</{name}> closes what is open"),
            (false, true) => {}
            (false, false) => open.push(name),
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty() && rest.trim().is_empty(), "left open: {open:?}");
}

#[test]
fn a_form_edit_changes_one_key_and_keeps_the_comments() {
    let base = shipped();
    let text = std::fs::read_to_string(NAVAL).unwrap();
    let ask = |path: serde_json::Value, value: &str| {
        let request = serde_json::json!({ "text": text, "path": path, "value": value });
        post(&format!("{base}/api/set"), &request.to_string())
    };
    let reply = ask(serde_json::json!(["naval", "group", 0, "distance"]), "10");
    assert_eq!(reply.status, 200, "{}", reply.body);
    let edited = reply.json()["text"].as_str().expect("patched in place").to_owned();
    let (before, after): (Vec<&str>, Vec<&str>) = (text.lines().collect(), edited.lines().collect());
    assert_eq!(before.len(), after.len(), "one line changed, none added or lost");
    let changed: Vec<(&&str, &&str)> = before.iter().zip(&after).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.trim_start().starts_with("distance = 10"), "{changed:?}");
    assert!(edited.contains('#') && edited.matches('#').count() == text.matches('#').count(), "comments kept");
    let toml: toml::Table = toml::from_str(&edited).unwrap();
    assert_eq!(toml["naval"]["group"][0]["distance"].as_integer(), Some(10));
    let bad = post(&format!("{base}/api/set"), "{\"text\": 3}");
    assert_eq!(bad.status, 400);
    assert!(bad.error().starts_with("the request is not"), "{}", bad.error());
}

/// "add to naval.group" and "remove" on the naval starter keep every comment but the removed group's own:
/// the starter's 258 comment lines stay 258 after an add, and the added group sits after the last one.
#[test]
fn adding_and_removing_a_group_keeps_the_comments() {
    let base = shipped();
    let starter = get(&format!("{base}/api/starter/naval")).body;
    let edit = |request: serde_json::Value| {
        let reply = post(&format!("{base}/api/set"), &request.to_string());
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()["text"].as_str().unwrap_or_else(|| panic!("{}", reply.body)).to_owned()
    };
    let comments = |t: &str| t.lines().filter(|l| l.trim_start().starts_with('#')).count();
    let added = edit(serde_json::json!({ "text": starter, "path": ["naval", "group"], "op": "append" }));
    assert_eq!(comments(&added), comments(&starter), "every comment kept");
    assert!(comments(&starter) >= 100, "the starter is commented");
    let groups = |t: &str| toml::from_str::<toml::Table>(t).unwrap()["naval"]["group"].as_array().unwrap().len();
    assert_eq!(groups(&added), groups(&starter) + 1);
    let header = |t: &str| t.find("\n[[naval.group]]").unwrap() + 1;
    let last_group = added.rfind("\n[[naval.group]]").unwrap();
    assert!(header(&added) < last_group, "the new group follows the others");
    let removed = edit(serde_json::json!({ "text": added, "path": ["naval", "group", 0], "op": "remove" }));
    assert_eq!(groups(&removed), groups(&starter));
    assert!(removed.starts_with(&starter[..header(&starter)]), "the text before it kept, the list's introduction too");
    // The removed group's own comments go: the starter's after its header, up to the next table.
    let first = &starter[header(&starter)..];
    let own = comments(&first[..first[1..].find("\n[").map_or(first.len(), |n| n + 1)]);
    assert_eq!(comments(&removed), comments(&starter) - own, "only the removed group's own comments go");
}
