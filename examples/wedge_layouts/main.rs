//! Rebuilds the Wedge's lost diagram: tries every layout of a parameter space (row offsets in
//! half card widths, which row of each part lies in front, what the middle row lies over, two
//! readings of the first stage, and then the two B positions) and replays Hoffmann's worked
//! game on each, keeping the layouts under which every narrated move is legal and the game
//! ends won. `docs/rules/wedge.md` records what it finds.
//!
//! Run: `cargo run --release --example wedge_layouts` (about a minute on one core).

mod narrative;

use narrative::{narrative, replay, Replay, DEAL};
use patience::card::{parse_deal, Card};
use patience::games::wedge::{Geometry, Layout, Wedge, ADOPTED, POSITIONS, ROWS};
use std::collections::BTreeMap;
use std::collections::HashMap;

/// The positions that keep their dealt card until it is moved: not the middle row (10 to 15),
/// nor 16 and 21, whose cards the shifts move. Only these can be marked B ("must not be moved").
const KEEPS_ITS_CARD: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 21, 22, 23];

/// Row offsets tried, in half card widths from the middle row's left edge.
const OFFSETS: std::ops::RangeInclusive<i8> = -2..=4;

fn layouts_without_b() -> Vec<Layout> {
    let mut layouts = Vec::new();
    for o1 in OFFSETS {
        for o2 in OFFSETS {
            for o4 in OFFSETS {
                for o5 in OFFSETS {
                    for flags in 0..64u32 {
                        let flag = |bit: u32| flags >> bit & 1 == 1;
                        layouts.push(Layout {
                            offsets: [o1, o2, 0, o4, o5],
                            upper_front: if flag(0) { 1 } else { 0 },
                            lower_front: if flag(1) { 4 } else { 3 },
                            middle_over_upper: flag(2),
                            middle_over_lower: flag(3),
                            fixed: 0,
                            upper_open_before_split: flag(4),
                            kings_only_before_split: flag(5),
                        });
                    }
                }
            }
        }
    }
    layouts
}

/// What of a layout play depends on, so that layouts that play alike are replayed once.
fn play_signature(geometry: &Geometry) -> (Vec<u32>, Vec<u32>, u32, bool, bool) {
    let layout = &geometry.layout;
    (
        geometry.covered_by.to_vec(),
        geometry.middle_covers.to_vec(),
        layout.fixed,
        layout.upper_open_before_split,
        layout.kings_only_before_split,
    )
}

fn replay_on(layout: Layout, deal: &[Card]) -> Replay {
    let geometry: &'static Geometry = Box::leak(Box::new(layout.geometry()));
    replay(Wedge::with_geometry(geometry, deal).expect("the example's deal"))
}

fn positions(mask: u32) -> String {
    (0..POSITIONS)
        .filter(|p| mask >> p & 1 == 1)
        .map(|p| (p + 1).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The layout drawn in half card widths, each card as its position number.
fn drawing(layout: &Layout) -> String {
    let least = *layout.offsets.iter().min().expect("five rows") as i32;
    let mut out = String::new();
    for (row, &(first, len)) in ROWS.iter().enumerate() {
        let indent = (layout.offsets[row] as i32 - least) as usize * 2;
        let cards: Vec<String> = (first..first + len)
            .map(|p| {
                let mark = if layout.fixed >> p & 1 == 1 { "B" } else { "" };
                format!("{:<4}", format!("{}{mark}", p + 1))
            })
            .collect();
        out += &format!("    {}{}\n", " ".repeat(indent), cards.join(""));
    }
    out
}

fn describe(layout: &Layout) -> String {
    let geometry = layout.geometry();
    let covers: Vec<String> = (0..POSITIONS)
        .filter(|&p| geometry.covered_by[p] != 0)
        .map(|p| format!("{} over {}", positions(geometry.covered_by[p]), p + 1))
        .collect();
    format!(
        "offsets {:?}, front rows {} and {}, middle row over {}{}; E = {}; covering: {}\n{}",
        layout.offsets,
        layout.upper_front + 1,
        layout.lower_front + 1,
        match (layout.middle_over_upper, layout.middle_over_lower) {
            (true, true) => "both parts",
            (true, false) => "the upper part",
            (false, true) => "the lower part",
            (false, false) => "neither part",
        },
        if layout.upper_open_before_split {
            ""
        } else {
            ", upper part closed until the split"
        },
        positions(geometry.exposed_lower() & !layout.fixed),
        covers.join("; "),
        drawing(layout)
    )
}

fn main() {
    let deal = parse_deal(DEAL, 1).expect("the example's deal is a pack");
    let sentences = narrative();
    let layouts = layouts_without_b();
    let mut by_play: HashMap<_, Vec<Layout>> = HashMap::new();
    for layout in &layouts {
        by_play
            .entry(play_signature(&layout.geometry()))
            .or_default()
            .push(*layout);
    }
    println!(
        "{} layouts without B marks, {} that play differently",
        layouts.len(),
        by_play.len()
    );
    let mut failures: BTreeMap<usize, usize> = BTreeMap::new();
    let mut fitting: Vec<Vec<Layout>> = Vec::new();
    for group in by_play.values() {
        match replay_on(group[0], &deal) {
            Replay::Won(_) => fitting.push(group.clone()),
            Replay::Failed(sentence) => *failures.entry(sentence).or_default() += group.len(),
        }
    }
    println!("\nWhere the layouts that do not fit first fail (layouts, sentence):");
    for (sentence, count) in &failures {
        println!("{count:>7}  {}", sentences[*sentence].0);
    }
    println!(
        "\n{} ways of playing fit the whole narrative ({} layouts); each with the B pairs that also fit:",
        fitting.len(),
        fitting.iter().map(Vec::len).sum::<usize>()
    );
    fitting.sort_by_key(|group| group.iter().map(|l| l.offsets).min());
    for group in &fitting {
        let layout = group
            .iter()
            .min_by_key(|l| {
                l.offsets
                    .iter()
                    .map(|o| o.unsigned_abs() as u32)
                    .sum::<u32>()
            })
            .expect("a layout");
        let pairs: Vec<String> = KEEPS_ITS_CARD
            .iter()
            .flat_map(|&a| {
                KEEPS_ITS_CARD
                    .iter()
                    .filter(move |&&b| b > a)
                    .map(move |&b| (a, b))
            })
            .filter(|&(a, b)| {
                let with_b = Layout {
                    fixed: 1 << a | 1 << b,
                    ..*layout
                };
                matches!(replay_on(with_b, &deal), Replay::Won(_))
            })
            .map(|(a, b)| format!("{}+{}", a + 1, b + 1))
            .collect();
        println!(
            "\n{} layouts play like this one: {}B pairs that fit: {}",
            group.len(),
            describe(layout),
            pairs.join(" ")
        );
        println!("the {} layouts:", group.len());
        for other in group {
            println!(
                "    offsets {:?}, front rows {} and {}, middle row over upper {}, over lower {}",
                other.offsets,
                other.upper_front + 1,
                other.lower_front + 1,
                other.middle_over_upper,
                other.middle_over_lower
            );
        }
    }
    let adopted = replay_on(ADOPTED, &deal);
    println!(
        "\nThe adopted layout: {}fits: {}",
        describe(&ADOPTED),
        matches!(adopted, Replay::Won(_))
    );
    if let Replay::Won(moves) = adopted {
        println!("its moves: {}", moves.join(", "));
    }
}
