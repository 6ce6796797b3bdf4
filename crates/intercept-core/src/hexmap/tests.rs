//! Hand-worked distances on a small map: a wall of land with one strait through it, a port, and a box
//! round the wall (N-8.3).
//!
//! ```text
//!      c01 c02 c03 c04 c05      columns of flat-topped hexes; even columns sit half a hex lower
//! r01   #   ~   #   ~   ~       0101 is the port "west"
//! r02   ~   ~   #   ~   ~
//! r03   ~   ~   =   ~   ~       0303 is the strait "narrows"
//! r04   ~   ~   #   ~   ~       the box "ocean" joins 0102 and 0504, 3 spaces
//! ```

use std::collections::BTreeMap;

use super::*;

const GRID: &str = "# ~ # ~ ~\n~ ~ # ~ ~\n~ ~ = ~ ~\n~ ~ # ~ ~\n";

fn named(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn drawn(
    grid: &str,
    ports: &[(&str, &str)],
    straits: &[(&str, &str)],
    boxes: &[(&str, &[&str], i64)],
) -> Result<HexMap, MapError> {
    let boxes: BTreeMap<String, OffMap> = boxes
        .iter()
        .map(|(n, j, s)| (n.to_string(), OffMap { joins: j.iter().map(|l| l.to_string()).collect(), spaces: *s }))
        .collect();
    let (ports, straits) = (named(ports), named(straits));
    HexMap::build(&Drawing {
        layout: Layout::Columns,
        lower: Lower::Even,
        first: "0101",
        grid,
        ports: &ports,
        straits: &straits,
        boxes: &boxes,
    })
}

fn small() -> HexMap {
    drawn(GRID, &[("west", "0101")], &[("narrows", "0303")], &[("ocean", &["0102", "0504"], 3)]).unwrap()
}

fn distance(map: &HexMap, from: &str, to: &str, closed: &[&str]) -> Option<u32> {
    let closed: Vec<Node> = closed.iter().map(|c| map.node(c).unwrap()).collect();
    map.paths_from(map.node(from).unwrap(), &closed).distance(map.node(to).unwrap())
}

fn path(map: &HexMap, from: &str, to: &str) -> Vec<String> {
    let p = map.paths_from(map.node(from).unwrap(), &[]).path(map.node(to).unwrap()).unwrap();
    p.into_iter().map(|n| map.label(n)).collect()
}

#[test]
fn the_port_is_0_from_itself_and_the_strait_3_hexes_entered() {
    let map = small();
    assert_eq!(distance(&map, "west", "west", &[]), Some(0));
    assert_eq!(distance(&map, "west", "0201", &[]), Some(1));
    // 0101 -> 0201 -> 0202 -> 0303: the wall's only gap.
    assert_eq!(distance(&map, "west", "narrows", &[]), Some(3));
    assert_eq!(path(&map, "west", "0303"), ["0101", "0201", "0202", "0303"]);
}

#[test]
fn land_makes_a_detour_and_the_box_counts_its_spaces() {
    let map = small();
    // Two hexes apart as the crow flies (0201, 0301, 0401), four by sea round the wall through the strait.
    assert_eq!(distance(&map, "0201", "0401", &[]), Some(4));
    assert_eq!(path(&map, "0201", "0401"), ["0201", "0202", "0303", "0402", "0401"]);
    // Through the strait 0403 is 4 from the port; round by the box 1 + 3 + 1 + 1 = 6.
    assert_eq!(distance(&map, "west", "0403", &[]), Some(4));
    assert_eq!(distance(&map, "west", "ocean", &[]), Some(4));
    assert_eq!(distance(&map, "west", "0403", &["narrows"]), Some(6));
    // 0503 touches 0402 and 0403, both 4 out: 0402 is settled first (higher on the map).
    assert_eq!(path(&map, "west", "0503"), ["0101", "0201", "0202", "0303", "0402", "0503"]);
}

#[test]
fn a_closed_strait_with_no_box_cuts_the_map() {
    let map = drawn(GRID, &[("west", "0101")], &[("narrows", "0303")], &[]).unwrap();
    assert_eq!(distance(&map, "west", "0503", &["narrows"]), None);
    assert_eq!(distance(&map, "west", "0303", &["narrows"]), None);
}

#[test]
fn ties_go_to_the_first_settled_hex() {
    // 0202 is 2 from the port by 0201 and by 0102; 0201 comes first on the map (top row first).
    let map = small();
    assert_eq!(path(&map, "west", "0202"), ["0101", "0201", "0202"]);
}

#[test]
fn bad_maps_are_refused_naming_the_hex() {
    let said = |r: Result<HexMap, MapError>| r.unwrap_err().to_string();
    let sea_port = drawn(GRID, &[("wet", "0102")], &[("narrows", "0303")], &[]);
    assert_eq!(
        said(sea_port),
        "ports.wet: hex 0102: the port \"wet\" is on open water; a port is a coastal land hex ('#')"
    );
    let inland = drawn("# # #\n# # #\n# # ~\n", &[("dry", "0101")], &[], &[]);
    assert_eq!(
        said(inland),
        "ports.dry: hex 0101: the port \"dry\" has no sea beside it; a port needs a sea or strait hex next to it"
    );
    let unnamed = drawn(GRID, &[], &[], &[]);
    assert!(said(unnamed).starts_with("straits: hex 0303: a strait hex ('=') with no name"));
    let off = drawn(GRID, &[("west", "0909")], &[("narrows", "0303")], &[]);
    assert_eq!(said(off), "ports.west: \"0909\" is not a hex of the map; allowed: labels 0101 to 0504");
    let twice = drawn(GRID, &[("narrows", "0101")], &[("narrows", "0303")], &[]);
    assert!(said(twice).starts_with("straits.narrows: \"narrows\" is also the name of one of the ports"));
    let digits = drawn(GRID, &[("1234", "0101")], &[("narrows", "0303")], &[]);
    assert!(said(digits).contains("reads as a hex label"));
    let landed = drawn(GRID, &[], &[("narrows", "0303")], &[("ocean", &["0301"], 2)]);
    assert!(said(landed).starts_with("boxes.ocean.joins: hex 0301: a box joins sea, strait or port hexes"));
    let spaces = drawn(GRID, &[], &[("narrows", "0303")], &[("ocean", &["0102"], 0)]);
    assert_eq!(said(spaces), "boxes.ocean.spaces: 0 is out of range; allowed: 1 to 20");
    let stray = drawn(GRID, &[], &[("narrows", "0202")], &[]);
    assert!(said(stray).starts_with("straits.narrows: hex 0202: the strait \"narrows\" is on a hex whose token"));
}

#[test]
fn a_port_is_an_end_of_a_path_never_a_way_through() {
    // The port "gate" on the wall at 0301 touches the sea on both sides; ships still go round by the strait.
    let map = drawn(GRID, &[("gate", "0301")], &[("narrows", "0303")], &[]).unwrap();
    assert_eq!(distance(&map, "0201", "gate", &[]), Some(1));
    assert_eq!(distance(&map, "gate", "0401", &[]), Some(1));
    assert_eq!(distance(&map, "0201", "0401", &[]), Some(4));
}
