//! The naval rules on a map (issue 52): `where` on the shipped chain on the Mediterranean map (an 18-hex
//! route, a three-level chain: every hex of the route, each side answering best below, solved exactly),
//! against one exact solve of the scenario; and the shortest legal paths from every port of a 4,000-hex map
//! (80 x 50, land in blocks, 40 ports), map checks included. The issue asks under a second for the first and
//! under 10 ms for the second.
//!
//! Run with `cargo bench --bench map`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use intercept_sim::core::config::{self, Overrides};
use intercept_sim::core::decide;
use intercept_sim::core::games::shipped;
use intercept_sim::core::hexmap::{Drawing, HexMap, Layout, Lower, Terrain};
use intercept_sim::core::runner;

fn where_on_the_chain(c: &mut Criterion) {
    let path = Path::new("configs/naval/chain-on-the-map.toml");
    let s = config::load(&shipped(), path, Overrides::default()).expect("shipped config");
    let mut g = c.benchmark_group("where_chain_on_the_map");
    g.sample_size(10);
    g.bench_function("exact_once", |b| b.iter(|| black_box(runner::solve(&s).expect("solvable").leaves)));
    g.bench_function("where", |b| b.iter(|| black_box(decide::decide(&s, None).expect("decided").solves)));
    g.finish();
}

/// An 80 x 50 map: sea, with a 3 x 2 block of land every 8 columns and 6 rows, and a port on the top-left
/// bottom-right hex of each of the first 40 blocks (land with sea below it).
fn large_map() -> (String, BTreeMap<String, String>) {
    let (columns, rows) = (80u32, 50u32);
    let land = |c: u32, r: u32| c % 8 < 3 && r % 6 < 2;
    let grid: Vec<String> = (0..rows)
        .map(|r| {
            let tokens = (0..columns).map(|c| if land(c, r) { Terrain::Land.token() } else { Terrain::Sea.token() });
            tokens.map(String::from).collect::<Vec<_>>().join(" ")
        })
        .collect();
    let mut ports = BTreeMap::new();
    for r in (0..rows).step_by(6) {
        for c in (0..columns).step_by(8) {
            if ports.len() < 40 {
                ports.insert(format!("port-{c}-{r}"), format!("{:02}{:02}", c + 3, r + 2));
            }
        }
    }
    (grid.join("\n"), ports)
}

fn distances_from_every_port(c: &mut Criterion) {
    let (grid, ports) = large_map();
    let (none, no_boxes) = (BTreeMap::new(), BTreeMap::new());
    let drawing = || Drawing {
        layout: Layout::Columns,
        lower: Lower::Even,
        first: "0101",
        grid: &grid,
        ports: &ports,
        straits: &none,
        boxes: &no_boxes,
    };
    let map = HexMap::build(&drawing()).expect("a valid map");
    assert_eq!(map.grid.len(), 4_000);
    let mut g = c.benchmark_group("map_4000_hexes");
    g.bench_function("check_the_map", |b| b.iter(|| black_box(HexMap::build(&drawing()).expect("valid").nodes())));
    g.bench_function("paths_from_40_ports", |b| {
        b.iter(|| {
            let corner = map.grid.len() as u32 - 1;
            black_box(map.ports().map(|(_, p)| map.paths_from(p, &[]).distance(corner).unwrap_or(0)).sum::<u32>())
        })
    });
    g.finish();
}

criterion_group!(benches, where_on_the_chain, distances_from_every_port);
criterion_main!(benches);
