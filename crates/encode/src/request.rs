//! What a user asks for, in the words of the command line and the Python
//! package, turned into a [`Problem`] once, with every check in one place.
//!
//! A [`Family`] is the puzzle as users name it; a [`Kind`] is the
//! constraint the encoder builds. `queens` is independence of n queens on
//! an n × n board (the exact k is n); `independence` and `domination` take
//! any piece, board and k, and `--independent` turns domination into
//! independent domination.

use crate::{
    board::Board,
    error::{EncodeError, RequestError},
    piece::Piece,
    problem::Config,
    problem::Kind,
    problem::Problem,
    size,
};

crate::name_table! {
    /// The puzzle families users ask for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Family {
        /// n queens on an n × n board, no two attacking.
        #[default]
        Queens = "queens",
        /// k pieces, no two attacking (without k: the maximum).
        Independence = "independence",
        /// At most k pieces covering every square (without k: the minimum).
        Domination = "domination",
    }
    parse_error: EncodeError = |name: &str| EncodeError::Request(RequestError::UnknownFamily {
        name: name.to_string(),
        expected: Family::NAMES.join(", "),
    });
}

/// A problem as a user states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// The family.
    pub family: Family,
    /// Rows (and columns unless `cols` is given).
    pub n: usize,
    /// Columns, for a rectangular board.
    pub cols: Option<usize>,
    /// The piece (queens always places queens; default queen).
    pub piece: Option<Piece>,
    /// The number of pieces: exactly k for independence, at most k for
    /// domination; `None` asks for the optimum.
    pub k: Option<usize>,
    /// Independent domination.
    pub independent: bool,
}

impl Request {
    /// A request for `family` on an n × n board, everything else default.
    #[must_use]
    pub const fn new(family: Family, n: usize) -> Self {
        Request {
            family,
            n,
            cols: None,
            piece: None,
            k: None,
            independent: false,
        }
    }

    /// The problem and its fixed k (`None`: the optimum), after checking
    /// that the request makes sense.
    ///
    /// # Errors
    ///
    /// [`EncodeError::EmptyBoard`], [`EncodeError::BoardTooLarge`], and
    /// [`EncodeError::Request`] for a request that contradicts itself.
    pub fn problem(&self) -> Result<(Problem, Option<usize>), EncodeError> {
        let invalid = |e: RequestError| Err(EncodeError::Request(e));
        let board = Board::new(self.n, self.cols.unwrap_or(self.n))?;
        let piece = self.piece.unwrap_or_default();
        if self.independent && self.family != Family::Domination {
            return invalid(RequestError::IndependentNotDomination);
        }
        let (problem, k) = match self.family {
            Family::Queens => {
                if piece != Piece::Queen {
                    return invalid(RequestError::QueensPiece(piece.name()));
                }
                if self.cols.is_some_and(|c| c != self.n) {
                    return invalid(RequestError::QueensSquare);
                }
                if self.k.is_some_and(|k| k != self.n) {
                    return invalid(RequestError::QueensPieces);
                }
                (
                    Problem::new(board, Piece::Queen, Kind::Independence),
                    Some(self.n),
                )
            }
            Family::Independence => (Problem::new(board, piece, Kind::Independence), self.k),
            Family::Domination => {
                let kind = if self.independent {
                    Kind::IndependentDomination
                } else {
                    Kind::Domination
                };
                (Problem::new(board, piece, kind), self.k)
            }
        };
        if let Some(k) = k {
            if k > board.n_squares() {
                return invalid(RequestError::TooManyPieces {
                    k,
                    board: board.to_string(),
                    squares: board.n_squares(),
                });
            }
        }
        Ok((problem, k))
    }

    /// As [`Request::problem`], and refuses an encoding estimated too large
    /// for memory ([`size::check_fits`]) unless `force`.
    ///
    /// # Errors
    ///
    /// As [`Request::problem`]; [`EncodeError::TooLarge`].
    pub fn checked_problem(
        &self,
        config: Config,
        force: bool,
    ) -> Result<(Problem, Option<usize>), EncodeError> {
        let (problem, k) = self.problem()?;
        if !force {
            size::check_fits(&problem, k, config)?;
        }
        Ok((problem, k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_become_problems() {
        let (p, k) = Request::new(Family::Queens, 8).problem().unwrap();
        assert_eq!(
            (p.kind, p.piece, k),
            (Kind::Independence, Piece::Queen, Some(8))
        );
        let request = Request {
            independent: true,
            ..Request::new(Family::Domination, 5)
        };
        let (p, k) = request.problem().unwrap();
        assert_eq!((p.kind, k), (Kind::IndependentDomination, None));
        let rook_queens = Request {
            piece: Some(Piece::Rook),
            ..Request::new(Family::Queens, 5)
        };
        assert!(rook_queens.problem().is_err());
        let too_many = Request {
            k: Some(10),
            ..Request::new(Family::Independence, 3)
        };
        assert!(too_many.problem().is_err());
    }
}
