//! `patience`: exhaustive solvers for historical patience games, with replayable solutions and
//! exact odds over seeded deals.

pub mod alternate_pile;
pub mod app;
pub mod batch;
pub mod bits;
pub mod card;
pub mod chunked;
pub mod cli;
pub mod clock;
pub mod cnf;
pub mod column;
pub mod compare;
pub mod deal;
pub mod export;
pub mod foundations;
pub mod game;
pub mod games;
pub mod key;
pub mod links;
pub mod number_set;
pub mod oracle;
pub mod origins;
pub mod relaxation;
pub mod solver;
pub mod stats;
pub mod strategy;
pub mod table;
pub mod talon;
pub mod verify;
