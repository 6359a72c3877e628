//! At-most-one encodings, chosen at run time.
//!
//! Every encoding here comes from rustsat (`rustsat::encodings::am1`); this
//! module only maps a plain enum onto them. Sizes for `n` inputs:
//!
//! | encoding | clauses | auxiliary variables | reference |
//! |---|---|---|---|
//! | pairwise | n(n−1)/2 | 0 | folklore |
//! | ladder (sequential) | 3n − 4 | n − 1 | Gent & Nightingale 2004 |
//! | bitwise (binary) | n·⌈log₂ n⌉ | ⌈log₂ n⌉ | Frisch et al. 2005 |
//! | commander (groups of 4) | ≈ 3n + pairwise over n/4 | n/4 | Klieber & Kwon 2007 |
//! | product (2-product) | ≈ 2n + 4√n | ≈ 2√n | Chen 2010 |
//! | bimander (groups of 4) | ≈ 1.5n + n/4·log(n/4)… | ⌈log₂(n/4)⌉ | Nguyen & Mai 2013 |
//!
//! `auto` picks per line: pairwise up to [`AUTO_PAIRWISE_MAX`] literals
//! (no auxiliaries, propagation in one step, and few clauses on short
//! lines), product above (O(n) clauses where pairwise needs O(n²)).
//!
//! All of them are arc consistent under unit propagation: a true input
//! propagates every other input to false, and two true inputs conflict
//! (`tests/propagation.rs` checks every partial assignment up to 9
//! inputs). Bitwise included: a true input fixes every bit of its code,
//! and every other input has a different code.
//!
//! `lazy` writes no clause at all: [`crate::Problem::encode_lazy`] records
//! the lines in [`crate::Encoding::lazy`] ([`crate::LazyLines`]) and a
//! solver-side propagator enforces them, arc consistent as well (a true
//! square falsifies every other square of its lines), explaining each step
//! with one binary clause of the pairwise encoding. Only a backend with an
//! external propagator (CaDiCaL) can solve such an encoding, and its CNF
//! alone is not the problem: [`crate::Problem::encode`], which promises the
//! whole problem as clauses (DIMACS, cube files, proofs, Python's
//! `encode`), refuses it.

use rustsat::{
    encodings::{
        am1::{Bimander, Bitwise, Commander, Encode, Ladder, Pairwise, TwoProduct},
        CollectClauses,
    },
    instances::ManageVars,
    types::Lit,
};

use crate::error::EncodeError;

crate::name_table! {
    /// An at-most-one encoding.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Amo {
        /// One binary clause per pair; no auxiliaries.
        Pairwise = "pairwise",
        /// Sequential (ladder) encoding: a chain of "some earlier input is true".
        Ladder = "ladder" | "sequential" | "seq",
        /// Binary (bitwise) encoding: inputs imply their index in binary.
        Bitwise = "bitwise" | "binary",
        /// Commander encoding over groups of 4.
        Commander = "commander",
        /// Two-product encoding: inputs on a √n × √n grid.
        Product = "product" | "two-product" | "twoproduct",
        /// Bimander encoding over groups of 4.
        Bimander = "bimander",
        /// Per line: pairwise on short lines, product on long ones (the
        /// default).
        #[default]
        Auto = "auto",
        /// No clauses: the lines are left to a propagator inside the solver
        /// (see the module docs and [`crate::LazyLines`]).
        Lazy = "lazy",
    }
    parse_error: EncodeError = |name: &str| {
        if crate::card::Card::from_name(name).is_some() {
            EncodeError::NotAnAmo(name.to_string())
        } else {
            EncodeError::UnknownEncoding {
                name: name.to_string(),
                expected: Amo::NAMES.join(", "),
            }
        }
    };
}

/// The longest line `auto` encodes pairwise; longer lines get the product
/// encoding. Chosen on first N-queens solutions: pairwise lines stop paying
/// off once their quadratic clause count dominates (BENCHMARKS.md,
/// "Per-line AMO choice").
pub const AUTO_PAIRWISE_MAX: usize = 16;

impl Amo {
    /// Every AMO encoding that writes clauses: all but [`Amo::Lazy`].
    pub const EAGER: [Amo; 7] = [
        Amo::Pairwise,
        Amo::Ladder,
        Amo::Bitwise,
        Amo::Commander,
        Amo::Product,
        Amo::Bimander,
        Amo::Auto,
    ];

    /// Whether this choice leaves the lines to a propagator.
    #[must_use]
    pub const fn is_lazy(self) -> bool {
        matches!(self, Amo::Lazy)
    }

    /// The encoding that puts the same constraints into clauses: itself,
    /// and [`Amo::Auto`] for [`Amo::Lazy`] (what a proof, which needs every
    /// constraint as a clause it can cite, encodes instead).
    #[must_use]
    pub const fn in_clauses(self) -> Amo {
        match self {
            Amo::Lazy => Amo::Auto,
            other => other,
        }
    }

    /// The encoding `self` uses for a line of `len` literals (itself, except
    /// for `auto`).
    #[must_use]
    pub const fn for_len(self, len: usize) -> Amo {
        match self {
            Amo::Auto if len <= AUTO_PAIRWISE_MAX => Amo::Pairwise,
            Amo::Auto => Amo::Product,
            other => other,
        }
    }

    /// Adds "at most one of `lits` is true" to `sink`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfMemory`] when the sink cannot grow;
    /// [`EncodeError::LazyAmo`] for [`Amo::Lazy`] on two or more literals,
    /// which has no clauses to add (only [`crate::Problem::encode_lazy`]
    /// can leave lines to a propagator).
    pub fn encode<C: CollectClauses>(
        self,
        lits: &[Lit],
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), EncodeError> {
        if lits.len() <= 1 {
            return Ok(());
        }
        let lits = lits.to_vec();
        match self.for_len(lits.len()) {
            Amo::Pairwise => Pairwise::from(lits).encode(sink, vars),
            Amo::Ladder => Ladder::from(lits).encode(sink, vars),
            Amo::Bitwise => Bitwise::from(lits).encode(sink, vars),
            Amo::Commander => Commander::<4, Pairwise>::from(lits).encode(sink, vars),
            Amo::Product => TwoProduct::<Pairwise>::from(lits).encode(sink, vars),
            Amo::Bimander => Bimander::<4, Pairwise>::from(lits).encode(sink, vars),
            // `for_len` never returns `Auto`.
            Amo::Auto => Pairwise::from(lits).encode(sink, vars),
            Amo::Lazy => return Err(EncodeError::LazyAmo),
        }?;
        Ok(())
    }

    /// Adds "at most `k` of `lits` are true", which an AMO encoding can only
    /// express for `k ≤ 1`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::AmoBound`] for `k > 1` (use a cardinality encoding).
    pub fn encode_at_most<C: CollectClauses>(
        self,
        lits: &[Lit],
        k: usize,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), EncodeError> {
        match k {
            0 => {
                sink.extend_clauses(lits.iter().map(|&l| rustsat::clause![!l]))?;
                Ok(())
            }
            1 => self.encode(lits, sink, vars),
            _ if k >= lits.len() => Ok(()),
            _ => Err(EncodeError::AmoBound {
                encoding: self.name(),
                k,
            }),
        }
    }
}
