//! The beam search (`Order::Beam`, `BeamSecond` and the other heuristics'): a win-finder,
//! widening after each run that cut a layer.

use super::*;
use crate::number_set::spread;
use crate::table::prefetch_whole;
use ahash::AHashSet;
use std::cmp::Reverse;

/// The first beam width; each run that ends without a win doubles it.
pub const FIRST_BEAM_WIDTH: usize = 8;

/// How many places ahead a cut fetches the positions it keeps.
const PREFETCH_AHEAD: usize = 8;

/// Beam runs from the first width, the width doubling after each run that cut a layer and
/// found no win, until a win, a budget spent, a run that cut nothing (a proof of loss), or a
/// run as wide as the widest allowed.
pub(super) fn beam<G: Game>(
    deal: &G,
    budget: Budget,
    score: impl Fn(&G) -> i32 + Copy,
) -> Outcome<G::Move> {
    let mut spent = 0u64;
    let mut width = budget.first_beam_width.unwrap_or(FIRST_BEAM_WIDTH).max(1);
    loop {
        let run = Budget {
            max_nodes: budget.max_nodes.map(|max| max.saturating_sub(spent)),
            ..budget
        };
        let (mut outcome, cut) = beam_run(deal, run, width, score);
        outcome.nodes += spent;
        if outcome.verdict == Verdict::Won || outcome.exhausted.is_some() || !cut {
            return outcome;
        }
        if budget.max_beam_width.is_some_and(|widest| width >= widest) {
            outcome.verdict = Verdict::Unknown;
            outcome.exhausted = Some(Exhausted::BeamWidth);
            return outcome;
        }
        // A run twice as wide needs about twice the positions to reach as deep: where the
        // budget left cannot carry it, it could not reach the layers where the wins of these
        // games lie (at the end of play), so its positions would be spent for nothing.
        let run_nodes = outcome.nodes - spent;
        if budget
            .max_nodes
            .is_some_and(|max| max.saturating_sub(outcome.nodes) < run_nodes.saturating_mul(2))
        {
            outcome.verdict = Verdict::Unknown;
            outcome.exhausted = Some(Exhausted::NextBeamRun);
            return outcome;
        }
        spent = outcome.nodes;
        width = width.saturating_mul(2);
    }
}

/// Where a position found `id`-th in its run ranks among equally scored ones under `salt`:
/// SplitMix64's finaliser over the two, so the same salt gives the same runs on every machine.
fn salted_rank(salt: u64, id: u32) -> u32 {
    (spread(salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(id), 64) >> 32) as u32
}

/// One beam search of the given width, positions ranked by `score`; also says whether it cut
/// any layer. A run that cut
/// none expanded every position of every layer, that is, searched the whole graph breadth
/// first, so its "lost" is a proof; after a cut run the verdict is only that no win was found.
fn beam_run<G: Game>(
    deal: &G,
    budget: Budget,
    width: usize,
    score: impl Fn(&G) -> i32,
) -> (Outcome<G::Move>, bool) {
    let mut visited = Visited::new(deal, budget);
    // For each position entered: the position it was reached from, and the move.
    let mut parents: Vec<(u32, Option<G::Move>)> = vec![(0, None)];
    let mut layer: Vec<(u32, G)> = vec![(0, *deal)];
    let mut next: Vec<(u32, G)> = Vec::new();
    let mut moves = Vec::new();
    // The keys of the children a position's moves reach, with the moves, in order.
    let mut keys: Vec<(G::Move, G::Key)> = Vec::new();
    let mut cut = false;
    let mut families: AHashSet<u64> = AHashSet::new();
    // Each of `next`'s places with its score, sorted best first at a cut.
    let mut ranking: Vec<(Reverse<i32>, u32)> = Vec::new();
    // Under a salt, each place's rank among equally scored positions.
    let mut salted: Vec<u32> = Vec::new();
    let salted_bytes = if budget.beam_salt.is_some() {
        size_of::<u32>()
    } else {
        0
    };
    let held = |parents: &Vec<(u32, Option<G::Move>)>, next: &Vec<(u32, G)>| {
        (parents.capacity() * size_of::<(u32, Option<G::Move>)>()
            + next.capacity()
                * (size_of::<(u32, G)>() + size_of::<(Reverse<i32>, u32)>() + salted_bytes)
            + width * size_of::<(u32, G)>()) as u64
    };
    while !layer.is_empty() {
        next.clear();
        ranking.clear();
        salted.clear();
        // Each position is read where it lies in the layer, not copied out of it.
        for (node, position) in &layer {
            let node = *node;
            moves.clear();
            match position.safe_move() {
                Some(mv) => moves.push(mv),
                None => position.search_moves(&mut moves),
            }
            // The children are played in place in `next` (a position is hundreds of bytes,
            // so it is copied no more than it must be), their table slots fetched, and then
            // looked up in turn: those seen before are dropped, the others close ranks.
            let start = next.len();
            keys.clear();
            for &mv in &moves {
                next.push((0, *position));
                let child = &mut next.last_mut().expect("just pushed").1;
                child.play_in_place(mv);
                let key = child.key();
                visited.table.prefetch(&key);
                keys.push((mv, key));
            }
            let mut kept = start;
            for (i, &(mv, key)) in keys.iter().enumerate() {
                let child = &next[start + i].1;
                if child.is_won() {
                    let moves = shorten(deal, &line_through(&parents, node, mv));
                    let bytes = held(&parents, &next);
                    return (visited.outcome(Verdict::Won, None, moves, bytes), cut);
                }
                match visited.admit(key, 2 * held(&parents, &next)) {
                    Admission::Seen => continue,
                    Admission::Stop(why) => {
                        let bytes = held(&parents, &next);
                        let outcome =
                            visited.outcome(Verdict::Unknown, Some(why), Vec::new(), bytes);
                        return (outcome, cut);
                    }
                    Admission::New => {}
                }
                let id = parents.len() as u32;
                parents.push((node, Some(mv)));
                let score = score(child);
                if kept != start + i {
                    next[kept].1 = next[start + i].1;
                }
                next[kept].0 = id;
                ranking.push((Reverse(score), kept as u32));
                if let Some(salt) = budget.beam_salt {
                    salted.push(salted_rank(salt, id));
                }
                kept += 1;
            }
            next.truncate(kept);
        }
        layer.clear();
        if next.len() > width {
            // The best first, and among equals the earlier found (or as the salt ranks them);
            // the positions stay where they are and only their places are sorted (a position
            // is hundreds of bytes).
            match budget.beam_salt {
                None => ranking.sort_unstable(),
                Some(_) => {
                    ranking.sort_unstable_by_key(|&(score, i)| (score, salted[i as usize], i));
                }
            }
            // The positions lie scattered over `next` (tens of megabytes) in this order, so
            // each is fetched a few places ahead of its turn.
            families.clear();
            for (k, &(_, i)) in ranking.iter().enumerate() {
                if let Some(&(_, ahead)) = ranking.get(k + PREFETCH_AHEAD) {
                    prefetch_whole(&next[ahead as usize]);
                }
                let (id, position) = &next[i as usize];
                if position
                    .family()
                    .is_none_or(|family| families.insert(family))
                {
                    layer.push((*id, *position));
                    if layer.len() == width {
                        break;
                    }
                }
            }
            cut = true;
        } else {
            layer.extend(next.iter().copied());
        }
    }
    let bytes = held(&parents, &next);
    (visited.outcome(Verdict::Lost, None, Vec::new(), bytes), cut)
}
