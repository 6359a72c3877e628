//! The split MANIFEST reader on arbitrary text: never a panic, and what
//! it accepts is whole — as many cubes as declared (at least one), ids
//! unique and no piece's, weights positive, no cube counted twice, a
//! budget only with a domination spec — and its spec and budget lines
//! read back as they are.
#![no_main]

use std::collections::BTreeSet;

use boardsat_jobs::{parse_manifest, split::SplitSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(manifest) = parse_manifest(text, std::path::Path::new("fuzz")) else {
        return;
    };
    assert!(!manifest.entries.is_empty());
    let ids: BTreeSet<&str> = manifest.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), manifest.entries.len(), "an id twice");
    let cubes: BTreeSet<(&str, Option<usize>)> = manifest
        .entries
        .iter()
        .map(|e| (e.file.as_str(), e.index))
        .collect();
    assert_eq!(cubes.len(), manifest.entries.len(), "a cube twice");
    for entry in &manifest.entries {
        assert!(entry.weight > 0);
        assert!(boardsat_jobs::layout::parent_of(&entry.id).is_none());
    }
    let declared = text
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words.as_slice() {
                ["#", "cubes", n] => n.parse::<usize>().ok(),
                _ => None,
            }
        })
        .last();
    assert_eq!(declared, Some(manifest.entries.len()));
    if let Some(spec) = manifest.spec {
        assert_eq!(SplitSpec::parse(&spec.line()).ok(), Some(spec), "{}", spec.line());
    }
    if let Some(budget) = manifest.budget {
        let spec = manifest.spec.expect("a budget without a spec was accepted");
        assert_eq!(spec.family, boardsat_encode::Family::Domination);
        assert!(budget.time.as_secs_f64() > 0.0);
    }
});
