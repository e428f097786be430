//! The replay checker: plays a move list from the deal, accepting a move only if the rules'
//! own legal-move list contains it, and says where the list first goes wrong.

use crate::game::Game;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// Every move was legal and the last one won the game.
    Won { moves: usize },
    /// Move `number` (1-based) is not legal in the position it is played from.
    IllegalMove {
        number: usize,
        text: String,
        legal: Vec<String>,
    },
    /// Every move was legal but the game is not won at the end.
    NotWon { moves: usize },
}

impl Replay {
    pub fn is_won(&self) -> bool {
        matches!(self, Replay::Won { .. })
    }
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replay::Won { moves } => write!(
                f,
                "valid: all {moves} moves are legal and the game ends won"
            ),
            Replay::IllegalMove {
                number,
                text,
                legal,
            } => {
                write!(
                f,
                "invalid: move {number}, '{text}', is not legal there; the legal moves were: {}",
                if legal.is_empty() { "none".to_string() } else { legal.join(", ") }
            )
            }
            Replay::NotWon { moves } => write!(
                f,
                "invalid: all {moves} moves are legal but the game is not won"
            ),
        }
    }
}

/// Replays `moves` (their text, compared without regard to case or surrounding space).
pub fn replay<G: Game, S: AsRef<str>>(deal: &G, moves: &[S]) -> Replay {
    let mut position = *deal;
    let mut legal = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref().trim();
        legal.clear();
        position.legal_moves(&mut legal);
        match legal
            .iter()
            .find(|&&mv| position.move_text(mv).eq_ignore_ascii_case(text))
        {
            Some(&mv) => position = position.play(mv),
            None => {
                return Replay::IllegalMove {
                    number: i + 1,
                    text: text.to_string(),
                    legal: legal.iter().map(|&mv| position.move_text(mv)).collect(),
                }
            }
        }
    }
    if position.is_won() {
        Replay::Won { moves: moves.len() }
    } else {
        Replay::NotWon { moves: moves.len() }
    }
}
