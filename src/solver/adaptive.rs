//! Nested rollouts with an adapted policy (`Order::AdaptiveRollout`): Rosin's Nested Rollout
//! Policy Adaptation, with the game's heuristic as each move's bias (Cazenave's generalised
//! form), a win-finder that learns from its own best line which moves to prefer.
//!
//! A rollout plays from the deal to its end, each move drawn with a probability that grows
//! with the move's weight in the policy and with the heuristic of the position it reaches,
//! never into a position the rollout has already stood on. A walk of level n runs
//! `ITERATIONS` walks of level n - 1, each on a copy of its policy, keeps the line that ended
//! best, and after each one shifts its policy toward that line's moves; level 0 is a rollout.
//! A move's weight is shared by every position it is played from (a card from one place to
//! another), so what one line learns guides the lines after it. Walks from the deal repeat,
//! each with a fresh policy, until one wins or the node budget is spent: the search proves no
//! loss, but for a deal with no move at all.

use super::rollout::{expand, Child, Expansions, Spent};
use super::*;
use ahash::{AHashMap, AHashSet, RandomState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How many walks of the level below a walk runs (Rosin's choice).
const ITERATIONS: usize = 100;

/// Heuristic points per unit of a move's logit: a card home (about 20 points) makes a move
/// some e^2.5 times likelier, as strong a preference as the plain rollouts' nudges leave.
const TEMPERATURE: f32 = 8.0;

/// How far a walk shifts its policy toward its best line after each walk below it.
const ALPHA: f32 = 1.0;

/// A move's weight by its code (`Adapter::code`); a move never adapted weighs 0.
type Policy = AHashMap<u64, f32>;

/// A rollout's line, with what adapting a policy toward it needs: at each step the codes and
/// biases of the moves there were to choose from, and which was played.
struct Line<M> {
    score: i32,
    moves: Vec<M>,
    won: bool,
    /// Every step's choices, one after another; `steps` ends each step's.
    choices: Vec<(u64, f32)>,
    steps: Vec<(usize, usize)>,
}

struct Adapter<G: Game, S> {
    score: S,
    draws: ChaCha8Rng,
    codes: RandomState,
    nodes: u64,
    max_nodes: u64,
    expansions: Expansions<G>,
    children: Vec<Child<G>>,
    seen: AHashSet<G::Key>,
    /// Room for `adapt`'s shifts.
    shifts: Vec<(u64, f32)>,
    peak_keys: usize,
}

impl<G: Game, S: Fn(&G) -> i32> Adapter<G, S> {
    /// The move's code in the policy: the move itself (a card, where from, where to).
    fn code(&self, mv: G::Move) -> u64 {
        self.codes.hash_one(mv)
    }

    /// Plays from `deal` to the end, each move drawn by its policy weight and bias.
    fn roll_out(&mut self, deal: &G, policy: &Policy) -> Result<Line<G::Move>, Spent> {
        let mut line = Line {
            score: 0,
            moves: Vec::new(),
            won: false,
            choices: Vec::new(),
            steps: Vec::new(),
        };
        self.seen.clear();
        let (mut at, mut at_key) = (*deal, deal.key());
        self.seen.insert(at_key);
        let mut children = std::mem::take(&mut self.children);
        let mut logits = Vec::new();
        let ended = loop {
            if at.is_won() {
                line.won = true;
                line.score = i32::MAX;
                break Ok(line);
            }
            let expanded = expand(
                &at,
                &at_key,
                &self.seen,
                &mut self.expansions,
                &mut children,
                &mut self.nodes,
                self.max_nodes,
            );
            if let Err(spent) = expanded {
                break Err(spent);
            }
            if children.is_empty() {
                self.peak_keys = self.peak_keys.max(self.seen.len());
                line.score = (self.score)(&at);
                break Ok(line);
            }
            let first = line.choices.len();
            logits.clear();
            for (mv, child, _) in &children {
                let code = self.code(*mv);
                let bias = (self.score)(child) as f32 / TEMPERATURE;
                line.choices.push((code, bias));
                logits.push(policy.get(&code).copied().unwrap_or(0.0) + bias);
            }
            let chosen = draw(&mut self.draws, &mut logits);
            line.steps.push((first, chosen));
            let (mv, child, key) = children[chosen];
            self.seen.insert(key);
            line.moves.push(mv);
            (at, at_key) = (child, key);
        };
        self.children = children;
        ended
    }

    /// The walk of `level` from `deal` under `policy`, which it adapts.
    fn walk(&mut self, level: u32, deal: &G, policy: &mut Policy) -> Result<Line<G::Move>, Spent> {
        if level == 0 {
            return self.roll_out(deal, policy);
        }
        let mut best: Option<Line<G::Move>> = None;
        for _ in 0..ITERATIONS {
            let line = if level == 1 {
                self.roll_out(deal, policy)?
            } else {
                self.walk(level - 1, deal, &mut policy.clone())?
            };
            if line.won {
                return Ok(line);
            }
            if best.as_ref().is_none_or(|b| line.score >= b.score) {
                best = Some(line);
            }
            adapt(policy, best.as_ref().expect("a line"), &mut self.shifts);
        }
        Ok(best.expect("at least one walk"))
    }
}

/// A choice drawn from `logits` by their softmax (the logits are spent on it).
fn draw(draws: &mut ChaCha8Rng, logits: &mut [f32]) -> usize {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for logit in logits.iter_mut() {
        *logit = (*logit - top).exp();
        total += *logit;
    }
    let mut left = draws.gen::<f32>() * total;
    for (i, &weight) in logits.iter().enumerate() {
        left -= weight;
        if left < 0.0 {
            return i;
        }
    }
    logits.len() - 1
}

/// Shifts `policy` toward `line`: at each step the move played gains `ALPHA` and every move
/// there loses `ALPHA` times its probability, all taken under the policy as it was. `shifts`
/// is room for the shifts, kept from call to call.
fn adapt<M>(policy: &mut Policy, line: &Line<M>, shifts: &mut Vec<(u64, f32)>) {
    shifts.clear();
    for (i, &(first, chosen)) in line.steps.iter().enumerate() {
        let end = line
            .steps
            .get(i + 1)
            .map_or(line.choices.len(), |&(next, _)| next);
        let step = &line.choices[first..end];
        if step.len() < 2 {
            continue;
        }
        // Each move's logit, then in its place the share it loses.
        let start = shifts.len();
        for &(code, bias) in step {
            shifts.push((code, policy.get(&code).copied().unwrap_or(0.0) + bias));
        }
        let logits = &mut shifts[start..];
        let top = logits.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = logits.iter().map(|s| (s.1 - top).exp()).sum();
        for (_, shift) in logits.iter_mut() {
            *shift = -ALPHA * (*shift - top).exp() / total;
        }
        shifts.push((step[chosen].0, ALPHA));
    }
    for &(code, shift) in shifts.iter() {
        *policy.entry(code).or_insert(0.0) += shift;
    }
}

/// Adapted walks of the level given (`rollout::ROLLOUT_LEVEL` if none) from the deal, scored
/// by `score`, until one wins or the node budget is spent; the salt seeds the draws.
pub(super) fn adaptive_rollout<G: Game>(
    deal: &G,
    budget: Budget,
    score: impl Fn(&G) -> i32,
) -> Outcome<G::Move> {
    let level = budget.rollout_level.unwrap_or(ROLLOUT_LEVEL);
    let salt = budget.beam_salt.unwrap_or(0);
    let mut adapter = Adapter {
        score,
        draws: ChaCha8Rng::seed_from_u64(salt),
        codes: RandomState::with_seeds(1, 2, 3, 4),
        nodes: 0,
        max_nodes: budget.max_nodes.unwrap_or(ROLLOUT_NODES),
        expansions: Expansions::new(),
        children: Vec::new(),
        seen: AHashSet::new(),
        shifts: Vec::new(),
        peak_keys: 0,
    };
    loop {
        let before = adapter.nodes;
        let walked = adapter.walk(level, deal, &mut Policy::new());
        let (verdict, exhausted, moves) = match walked {
            Ok(line) if line.won => (Verdict::Won, None, shorten(deal, &line.moves)),
            // A rollout that played nothing found no move from the deal: it is lost.
            Ok(line) if line.moves.is_empty() && adapter.nodes == before => {
                (Verdict::Lost, None, Vec::new())
            }
            Ok(_) => continue,
            Err(Spent) => (Verdict::Unknown, Some(Exhausted::Nodes), Vec::new()),
        };
        let key_bytes = 2 * size_of::<G::Key>() as u64;
        return Outcome {
            verdict,
            exhausted,
            moves,
            nodes: adapter.nodes,
            formulas: 0,
            table_entries: 0,
            peak_bytes: adapter.peak_keys as u64 * key_bytes + adapter.expansions.peak_bytes,
        };
    }
}
