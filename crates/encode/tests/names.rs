//! Runtime choices round-trip through their names, and misuse is an error.

mod common;

use boardsat_encode::{Amo, Card, EncodeError, Formulation, Kind, Piece};
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
    for kind in Kind::ALL {
        assert_eq!(Kind::from_name(&kind.to_string()), Some(kind));
    }
    assert_eq!(Card::NAMES, Card::ALL.map(Card::name));
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
fn aliases_are_accepted_in_any_case() {
    let amo = [
        ("sequential", Amo::Ladder),
        ("SEQ", Amo::Ladder),
        ("binary", Amo::Bitwise),
        ("two-product", Amo::Product),
        ("TwoProduct", Amo::Product),
    ];
    for (name, want) in amo {
        assert_eq!(name.parse::<Amo>(), Ok(want), "{name}");
    }
    let card = [
        ("sequential-counter", Card::SequentialCounter),
        ("seqc", Card::SequentialCounter),
        ("Sinz", Card::SequentialCounter),
        ("tot", Card::Totalizer),
        ("modulo-totalizer", Card::ModuloTotalizer),
        ("mtot", Card::ModuloTotalizer),
        ("kmtotalizer", Card::ModuloTotalizer),
        ("cardinality-network", Card::CardinalityNetwork),
        ("cardnet", Card::CardinalityNetwork),
        ("SORTNETWRK", Card::CardinalityNetwork),
    ];
    for (name, want) in card {
        assert_eq!(name.parse::<Card>(), Ok(want), "{name}");
    }
    assert_eq!("Lines".parse::<Formulation>(), Ok(Formulation::Lines));
    assert_eq!("KNIGHT".parse::<Piece>(), Ok(Piece::Knight));
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
    // An alias of the other kind is recognised as that kind too.
    assert_eq!(
        "seq".parse::<Card>(),
        Err(EncodeError::NotACardinality("seq".to_string()))
    );
    assert_eq!(
        "mtot".parse::<Amo>(),
        Err(EncodeError::NotAnAmo("mtot".to_string()))
    );
    assert_eq!(
        "nonsense".parse::<Card>(),
        Err(EncodeError::UnknownEncoding {
            name: "nonsense".to_string(),
            expected: "seqcounter, totalizer, mtotalizer, cardnetwork".to_string()
        })
    );
    assert!(matches!(
        "nonsense".parse::<Amo>(),
        Err(EncodeError::UnknownEncoding { .. })
    ));
    assert_eq!(
        "rows".parse::<Formulation>().map_err(|e| e.to_string()),
        Err("unknown encoding 'rows' (expected one of: lines, cardinality)".to_string())
    );
    assert_eq!(
        "pawn".parse::<Piece>().map_err(|e| e.to_string()),
        Err(
            "unknown piece 'pawn' (expected one of: queen, rook, bishop, knight, king)".to_string()
        )
    );
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
                    encoding: amo.name(),
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
