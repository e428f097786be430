//! Propositional formulas in conjunctive normal form, built a clause at a time and decided by
//! the CaDiCaL SAT solver: for games that can state a whole deal as one formula whose models
//! are its won games (`Game::formulas`, `--search sat`).

/// A literal: a variable (numbered from 1) or its negation (the number negated), as in DIMACS.
pub type Lit = i32;

/// A formula: a conjunction of clauses over variables `1..=vars`.
pub struct Cnf {
    vars: i32,
    /// The clauses, each ended by a 0.
    literals: Vec<Lit>,
    truth: Lit,
}

/// What the solver made of a formula.
pub enum Decision {
    /// A model: the value of every variable.
    Satisfiable(Model),
    Unsatisfiable,
    /// The conflict budget ran out first.
    Undecided,
}

/// A satisfying assignment.
pub struct Model {
    values: Vec<bool>,
}

impl Model {
    pub fn holds(&self, lit: Lit) -> bool {
        self.values[lit.unsigned_abs() as usize] == (lit > 0)
    }
}

impl Default for Cnf {
    fn default() -> Self {
        Self::new()
    }
}

impl Cnf {
    pub fn new() -> Self {
        let mut cnf = Cnf {
            vars: 0,
            literals: Vec::new(),
            truth: 0,
        };
        cnf.truth = cnf.var();
        cnf.clause([cnf.truth]);
        cnf
    }

    /// A fresh variable.
    pub fn var(&mut self) -> Lit {
        self.vars += 1;
        self.vars
    }

    /// A literal that always holds (its negation never does).
    pub fn truth(&self) -> Lit {
        self.truth
    }

    pub fn clause(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.literals.extend(lits);
        self.literals.push(0);
    }

    /// A fresh variable that holds exactly when every one of `lits` does.
    pub fn and(&mut self, lits: &[Lit]) -> Lit {
        let all = self.var();
        for &lit in lits {
            self.clause([-all, lit]);
        }
        self.clause(lits.iter().map(|&lit| -lit).chain([all]));
        all
    }

    /// A fresh variable that holds exactly when one of `lits` does (never, for none).
    pub fn or(&mut self, lits: &[Lit]) -> Lit {
        let any = self.var();
        self.clause([-any].into_iter().chain(lits.iter().copied()));
        for &lit in lits {
            self.clause([-lit, any]);
        }
        any
    }

    /// At most one of `lits` holds: pairwise for a few, else with a ladder of auxiliary
    /// variables (Sinz's sequential counter), whose clauses grow linearly.
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        if lits.len() <= 6 {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause([-a, -b]);
                }
            }
            return;
        }
        // seen[i]: one of lits[..=i] holds.
        let mut seen = self.var();
        self.clause([-lits[0], seen]);
        for &lit in &lits[1..] {
            let next = self.var();
            self.clause([-lit, next]);
            self.clause([-seen, next]);
            self.clause([-lit, -seen]);
            seen = next;
        }
    }

    /// Exactly one of `lits` holds.
    pub fn exactly_one(&mut self, lits: &[Lit]) {
        self.clause(lits.iter().copied());
        self.at_most_one(lits);
    }

    /// Bytes the clauses take here (the solver's own copy is not counted).
    pub fn bytes(&self) -> u64 {
        (self.literals.len() * std::mem::size_of::<Lit>()) as u64
    }

    /// Decides the formula with CaDiCaL, within `conflicts` conflicts where given, with the
    /// literals of `assuming` taken to hold.
    pub fn decide(&self, conflicts: Option<u64>, assuming: &[Lit]) -> Decision {
        let mut solver: cadical::Solver = cadical::Solver::new();
        solver.reserve(self.vars);
        for clause in self.literals.split(|&lit| lit == 0) {
            if !clause.is_empty() {
                solver.add_clause(clause.iter().copied());
            }
        }
        if let Some(limit) = conflicts {
            let limit = i32::try_from(limit).unwrap_or(i32::MAX);
            solver
                .set_limit("conflicts", limit)
                .expect("CaDiCaL knows the conflicts limit");
        }
        match solver.solve_with(assuming.iter().copied()) {
            Some(true) => Decision::Satisfiable(Model {
                values: (0..=self.vars)
                    .map(|var| var > 0 && solver.value(var) == Some(true))
                    .collect(),
            }),
            Some(false) => Decision::Unsatisfiable,
            None => Decision::Undecided,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the models over `vars` variables by adding each as a blocking clause.
    fn models(mut cnf: Cnf, vars: &[Lit]) -> usize {
        let mut count = 0;
        while let Decision::Satisfiable(model) = cnf.decide(None, &[]) {
            count += 1;
            let block: Vec<Lit> = vars
                .iter()
                .map(|&v| if model.holds(v) { -v } else { v })
                .collect();
            cnf.clause(block);
        }
        count
    }

    #[test]
    fn cardinality_constraints_have_the_models_they_should() {
        for n in [1, 3, 6, 7, 12] {
            let mut cnf = Cnf::new();
            let vars: Vec<Lit> = (0..n).map(|_| cnf.var()).collect();
            cnf.exactly_one(&vars);
            assert_eq!(models(cnf, &vars), n, "exactly one of {n}");
            let mut cnf = Cnf::new();
            let vars: Vec<Lit> = (0..n).map(|_| cnf.var()).collect();
            cnf.at_most_one(&vars);
            assert_eq!(models(cnf, &vars), n + 1, "at most one of {n}");
        }
    }

    #[test]
    fn and_and_or_define_their_variable() {
        let mut cnf = Cnf::new();
        let (a, b) = (cnf.var(), cnf.var());
        let both = cnf.and(&[a, b]);
        let either = cnf.or(&[a, -b]);
        // Every assignment of a and b extends in exactly one way.
        assert_eq!(models(cnf, &[a, b, both, either]), 4);
        let mut cnf = Cnf::new();
        let none = cnf.or(&[]);
        cnf.clause([none]);
        assert!(matches!(cnf.decide(None, &[]), Decision::Unsatisfiable));
        let mut cnf = Cnf::new();
        let (a, b) = (cnf.var(), cnf.var());
        cnf.clause([a, b]);
        assert!(matches!(cnf.decide(None, &[-a]), Decision::Satisfiable(m) if m.holds(b)));
        assert!(matches!(
            cnf.decide(None, &[-a, -b]),
            Decision::Unsatisfiable
        ));
    }
}
