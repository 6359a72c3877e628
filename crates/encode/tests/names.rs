//! Runtime choices round-trip through their names, and misuse is an error.

mod common;

use boardsat_encode::{Amo, Card, EncodeError, Formulation, Piece};
use common::inputs;
use rustsat::instances::Cnf;

#[test]
fn every_choice_round_trips_through_its_name() {
    for amo in Amo::ALL {
        assert_eq!(amo.to_string().parse::<Amo>(), Ok(amo));
        assert_eq!(amo.to_string().to_uppercase().parse::<Amo>(), Ok(amo));
    }
    for card in Card::ALL {
        assert_eq!(card.to_string().parse::<Card>(), Ok(card));
    }
    for formulation in Formulation::ALL {
        assert_eq!(
            formulation.to_string().parse::<Formulation>(),
            Ok(formulation)
        );
    }
    for piece in Piece::ALL {
        assert_eq!(piece.to_string().parse::<Piece>(), Ok(piece));
    }
    let names: Vec<String> = Amo::ALL
        .iter()
        .map(ToString::to_string)
        .chain(Card::ALL.iter().map(ToString::to_string))
        .collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "names collide: {names:?}");
}

#[test]
fn wrong_kinds_of_encoding_are_named_errors() {
    assert_eq!(
        "pairwise".parse::<Card>(),
        Err(EncodeError::NotACardinality("pairwise".to_string()))
    );
    assert_eq!(
        "totalizer".parse::<Amo>(),
        Err(EncodeError::NotAnAmo("totalizer".to_string()))
    );
    assert!(matches!(
        "nonsense".parse::<Card>(),
        Err(EncodeError::UnknownEncoding { .. })
    ));
    assert!(matches!(
        "nonsense".parse::<Amo>(),
        Err(EncodeError::UnknownEncoding { .. })
    ));
    assert!("nonsense".parse::<Formulation>().is_err());
    assert!("pawn".parse::<Piece>().is_err());
}

#[test]
fn amo_encodings_refuse_bounds_above_one() {
    for amo in Amo::ALL {
        for n in 3..6 {
            let (lits, mut vars) = inputs(n);
            let mut cnf = Cnf::new();
            assert_eq!(
                amo.encode_at_most(&lits, 2, &mut cnf, &mut vars),
                Err(EncodeError::AmoBound {
                    encoding: amo,
                    k: 2
                })
            );
            assert_eq!(cnf.len(), 0, "{amo}: nothing added on error");
            // At most n needs nothing; at most 0 is one unit per literal.
            amo.encode_at_most(&lits, n, &mut cnf, &mut vars).unwrap();
            assert_eq!(cnf.len(), 0);
            amo.encode_at_most(&lits, 0, &mut cnf, &mut vars).unwrap();
            assert_eq!(cnf.len(), n);
        }
    }
}
