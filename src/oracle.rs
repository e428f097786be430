//! Oracles that check the optimised code against the rules alone: perft (the number of move
//! paths of a given length, as chess engines count them) and a brute-force solver.

use crate::game::Game;
use std::collections::HashSet;

/// The number of sequences of exactly `depth` legal moves from `position`.
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&position.play(mv), depth - 1))
        .sum()
}

/// Whether `deal` can be won, by a plain graph search written for clarity: every legal move,
/// positions compared whole in their canonical form (not by the packed key), no safe moves, no
/// move ordering. Only for small or reduced deals: it holds every reachable position.
pub fn brute_force_winnable<G: Game>(deal: &G) -> bool {
    brute_force_within(deal, usize::MAX).expect("no limit")
}

/// The same search, giving up (`None`) once it has seen more than `limit` positions: a test
/// may pick, among positions of a game too large to search whole, those whose graph is small.
pub fn brute_force_within<G: Game>(deal: &G, limit: usize) -> Option<bool> {
    explore(deal, limit, true).map(|(won, _)| won)
}

/// How many positions can be reached from `position` (itself included), or `None` once more
/// than `limit` are seen: a test may pick positions whose whole graph, won or lost, is small
/// enough for any search order to finish quickly.
pub fn reachable_within<G: Game>(position: &G, limit: usize) -> Option<usize> {
    explore(position, limit, false).map(|(_, seen)| seen)
}

/// The plain graph search behind both: whether a won position was met (stopping there when
/// `stop_at_win`) and how many positions were seen; `None` once more than `limit` are.
fn explore<G: Game>(start: &G, limit: usize, stop_at_win: bool) -> Option<(bool, usize)> {
    let mut seen = HashSet::from([start.canonical()]);
    let mut to_visit = vec![*start];
    let mut moves = Vec::new();
    let mut won = false;
    while let Some(position) = to_visit.pop() {
        if position.is_won() {
            won = true;
            if stop_at_win {
                break;
            }
        }
        moves.clear();
        position.legal_moves(&mut moves);
        for &mv in &moves {
            let next = position.play(mv);
            if seen.insert(next.canonical()) {
                to_visit.push(next);
            }
        }
        if seen.len() > limit {
            return None;
        }
    }
    Some((won, seen.len()))
}
