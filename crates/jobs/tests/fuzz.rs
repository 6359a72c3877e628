//! Fuzzing `merge`, which reads the cube MANIFEST and the jobs' results
//! that any scheduler left behind: arbitrary lines and near misses; the
//! property is "no panic", and "nothing is summed that the manifest does
//! not list whole".
//!
//! CI runs 2,000 cases per property; set `PROPTEST_CASES` for a longer run.

use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2_000),
        // Failure persistence files would be written next to the sources.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A MANIFEST line and its near misses.
fn manifest_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u8..4, 0u64..4).prop_map(|(i, w)| format!("cube-0000{i} {w} 0,1 cube-0000{i}.cnf d{i}")),
        1 => (0u8..4, 0u8..4).prop_map(|(i, j)| format!("cube-0000{i} 1 - cubes.icnf {j} d")),
        1 => (0usize..5).prop_map(|n| format!("# cubes {n}")),
        1 => Just("# split s".to_string()),
        1 => Just("# split".to_string()),
        1 => Just("cube-00000 18446744073709551615 - f d".to_string()),
        1 => Just("cube-00000 -1 - f d".to_string()),
        1 => Just("garbage".to_string()),
        1 => Just("".to_string()),
        1 => "[ -~]{0,30}".prop_map(|s| s),
    ]
}

/// A result file and its near misses.
fn result_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..5, any::<bool>(), 0u8..4).prop_map(|(count, complete, i)| format!(
            r#"{{"command":"count-dimacs","file":"f","cube":null,"count":{count},"complete":{complete},"projected_vars":2,"stopped":null,"backend":"b","digest":"d{i}","split":"s","cube_id":"cube-0000{i}"}}"#
        )),
        Just(r#"{"count":18446744073709551615,"complete":true,"split":"s","digest":"d0","cube_id":"cube-00000"}"#.to_string()),
        Just("{".to_string()),
        "[ -~]{0,30}".prop_map(|s| s),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn merge_survives_hostile_manifests_and_results(
        manifest in prop::collection::vec(manifest_line(), 0..8),
        results in prop::collection::vec(result_text(), 4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("MANIFEST"), manifest.join("\n")).unwrap();
        std::fs::create_dir(dir.path().join("results")).unwrap();
        for (i, text) in results.iter().enumerate() {
            std::fs::write(dir.path().join(format!("results/cube-0000{i}.json")), text).unwrap();
        }
        if let Ok(merged) = boardsat_jobs::merge(dir.path()) {
            // Only a manifest with its split, its count and whole lines is
            // merged, and then every listed cube had a matching answer.
            let listed = manifest.iter().filter(|l| l.starts_with("cube-")).count();
            prop_assert_eq!(merged.cubes, listed);
            prop_assert!(manifest.iter().any(|l| l == "# split s"));
        }
    }

}
