//! The SAT search (`Order::Sat`): the game's cases as formulas (`Game::formula`), each decided
//! by CaDiCaL. The first model is a win; every case unsatisfiable is a loss.

use super::{Budget, Exhausted, Outcome, Verdict};
use crate::cnf::Decision;
use crate::game::Game;

pub(super) fn satisfiability<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
    let mut outcome = Outcome {
        verdict: Verdict::Lost,
        exhausted: None,
        moves: Vec::new(),
        nodes: 0,
        formulas: 0,
        table_entries: 0,
        peak_bytes: 0,
    };
    while let Some(formula) = deal.formula(outcome.formulas as usize) {
        outcome.formulas += 1;
        outcome.peak_bytes = outcome.peak_bytes.max(formula.cnf.bytes());
        match formula.cnf.decide(budget.max_nodes, &[]) {
            Decision::Satisfiable(model) => {
                outcome.verdict = Verdict::Won;
                outcome.exhausted = None;
                outcome.moves = (formula.line)(&model);
                return outcome;
            }
            Decision::Unsatisfiable => {}
            // Another case may still be won.
            Decision::Undecided => {
                outcome.verdict = Verdict::Unknown;
                outcome.exhausted = Some(Exhausted::Conflicts);
            }
        }
    }
    // No formula at all proves nothing.
    if outcome.formulas == 0 {
        outcome.verdict = Verdict::Unknown;
        outcome.exhausted = Some(Exhausted::NoFormula);
    }
    outcome
}
