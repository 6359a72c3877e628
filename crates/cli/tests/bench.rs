//! End-to-end tests of `boardsat bench`: the three output formats on a tiny
//! matrix, the machine metadata, the skipping of choices that do not change
//! the CNF, and a cell that reaches its time limit.

mod common;

use common::{ok, run};

/// Queens n = 4, 5 × pairwise, ladder × varisat, cadical: 8 cells.
const TINY: &[&str] = &[
    "bench",
    "queens",
    "--n",
    "4,5",
    "--task",
    "count",
    "--amo",
    "pairwise,ladder",
    "--solver",
    "varisat,cadical",
    "--runs",
    "1",
];

fn tiny(extra: &[&str]) -> String {
    let mut args = TINY.to_vec();
    args.extend_from_slice(extra);
    ok(&args)
}

/// The expected count for a row's n.
fn queens_count(n: usize) -> u64 {
    match n {
        4 => 2,
        5 => 10,
        _ => panic!("no n = {n} in the tiny matrix"),
    }
}

#[test]
fn markdown_table_has_one_row_per_cell_with_the_right_counts() {
    let text = tiny(&[]);
    for field in [
        "commit ",
        "rustc ",
        "core",
        "memory",
        "median (min–max) of 1 run; cell time limit",
    ] {
        assert!(text.contains(field), "no {field:?} in:\n{text}");
    }
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("| queens |"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 8, "{text}");
    let header: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("| problem |"))
        .expect("a header row")
        .split('|')
        .map(str::trim)
        .collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for row in &rows {
        let n: usize = row[col("n")].parse().unwrap();
        assert_eq!(row[col("result")], queens_count(n).to_string(), "{row:?}");
        // Lines formulation: the cardinality encoding plays no part.
        assert_eq!(row[col("card")], "-", "{row:?}");
        assert_eq!(row[col("formulation")], "lines", "{row:?}");
    }
    let amos: Vec<&str> = rows.iter().map(|r| r[col("amo")]).collect();
    assert_eq!(amos.iter().filter(|a| **a == "ladder").count(), 4);
    // Pairwise has no auxiliaries; ladder has some.
    for row in &rows {
        let aux: u32 = row[col("aux")].parse().unwrap();
        assert_eq!(aux == 0, row[col("amo")] == "pairwise", "{row:?}");
    }
}

#[test]
fn csv_has_a_header_and_one_row_per_cell_with_metadata() {
    let text = tiny(&["--format", "csv"]);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 8, "{text}");
    for row in rows {
        // The CPU model may contain commas and is quoted: split only the
        // fields before it.
        let fields: Vec<&str> = row.splitn(col("cpu") + 1, ',').collect();
        let n: usize = fields[col("n")].parse().unwrap();
        assert_eq!(fields[col("status")], "ok", "{row}");
        assert_eq!(fields[col("result")], queens_count(n).to_string(), "{row}");
        assert!(!fields[col("commit")].is_empty(), "{row}");
        assert!(fields[col("rustc")].starts_with("rustc "), "{row}");
        let solve: f64 = fields[col("solve_median_s")].parse().unwrap();
        assert!(solve >= 0.0);
    }
}

#[test]
fn json_has_meta_and_cells() {
    let text = tiny(&["--json"]);
    let value: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    let meta = &value["meta"];
    for field in [
        "commit", "rustc", "cpu", "cores", "date", "memory", "command",
    ] {
        assert!(!meta[field].is_null(), "no meta.{field} in {meta}");
    }
    assert!(meta["cores"].as_u64().unwrap() >= 1);
    assert!(meta["date"].as_str().unwrap().ends_with('Z'));
    let cells = value["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8);
    for cell in cells {
        let n = cell["n"].as_u64().unwrap() as usize;
        assert_eq!(cell["status"], "ok", "{cell}");
        assert_eq!(cell["count"].as_u64(), Some(queens_count(n)), "{cell}");
        assert!(cell["solve_s"]["median"].as_f64().is_some(), "{cell}");
        assert!(cell["vars"].as_u64().unwrap() >= (n * n) as u64);
    }
}

#[test]
fn a_cell_that_reaches_its_time_limit_is_reported_as_timeout() {
    let args = [
        "bench",
        "queens",
        "--n",
        "14",
        "--task",
        "count",
        "--runs",
        "3",
        "--cell-time-limit",
        "0.5",
        "--solver",
        "varisat,cadical",
    ];
    let start = std::time::Instant::now();
    let text = ok(&args);
    // Two cells, each stopped after its first run.
    assert!(start.elapsed().as_secs_f64() < 10.0);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| queens")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert!(row.contains("timeout"), "{row}");
    }
    let mut json_args = args[..args.len() - 2].to_vec();
    json_args.extend(["--solver", "cadical", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&ok(&json_args)).unwrap();
    let cells = value["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 1);
    assert_eq!(cells[0]["status"], "timeout");
    assert!(cells[0]["count"].is_null());
}

/// The CSV rows of a domination optimum bench on 4×4 over every
/// cardinality encoding and formulation, with `extra` arguments.
fn domination_optimum_rows(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["bench", "domination", "--n", "4", "--task", "optimum"];
    args.extend(extra);
    args.extend([
        "--card",
        "all",
        "--formulation",
        "all",
        "--solver",
        "cadical",
        "--runs",
        "1",
        "--format",
        "csv",
    ]);
    ok(&args).lines().skip(1).map(str::to_string).collect()
}

#[test]
fn choices_that_do_not_change_the_cnf_are_run_once() {
    // Queen domination has no AMO choice; the optimum is one cell per
    // cardinality encoding and formulation.
    let rows = domination_optimum_rows(&["--amo", "all"]);
    assert_eq!(rows.len(), 8, "{rows:#?}");
    for formulation in ["lines", "cardinality"] {
        let n = rows
            .iter()
            .filter(|r| r.contains(&format!(",{formulation},")))
            .count();
        assert_eq!(n, 4, "{formulation}: {rows:#?}");
    }
    for row in rows {
        assert!(
            row.contains(",ok,2,"),
            "the domination number of 4x4 is 2: {row}"
        );
    }
    // Kings have no lines: the formulation changes nothing, one cell per
    // cardinality encoding.
    let rows = domination_optimum_rows(&["--piece", "king"]);
    assert_eq!(rows.len(), 4, "{rows:#?}");
    for row in rows {
        assert!(row.contains(",ok,4,"), "kings dominate 4x4 with 4: {row}");
    }
}

#[test]
fn bad_lists_are_rejected() {
    let o = run(&["bench", "queens", "--amo", "pairwise,nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope"));
    let o = run(&["bench", "domination", "--task", "first"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs -k"));
}

#[test]
fn plot_writes_an_svg_figure_of_the_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fig.svg");
    let path = file.to_str().unwrap();
    for y in ["time", "clauses"] {
        tiny(&["--plot", path, "--plot-y", y]);
        let svg = std::fs::read_to_string(&file).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("queens: count"), "{y}");
        // Clauses do not depend on the backend: one line per AMO encoding.
        let legend = if y == "time" {
            "pairwise · varisat"
        } else {
            "pairwise"
        };
        assert!(svg.contains(&format!("\n{legend}\n")), "{y}: {legend}");
    }
    // --plot-y alone, and a path that cannot be written, fail before any run.
    let o = run(&["bench", "queens", "--plot-y", "clauses"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["bench", "queens", "--n", "4", "--plot", "/etc/passwd/x.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write to /etc/passwd/x.svg"));
}

/// The stderr of a bench that must fail with one line and exit 2, having
/// run no cell (no table, no `c` summary).
fn refused(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    err.trim_end().to_string()
}

/// D22: a matrix with no cell to run says why and exits 2 — the lazy AMO
/// without CaDiCaL — instead of an empty table; the lazy AMO where no AMO
/// is used (domination) is no reason to drop a backend.
#[test]
fn an_empty_plan_says_why() {
    assert_eq!(
        refused(&["bench", "queens", "--n", "8", "--runs", "1", "--amo", "lazy", "--solver", "varisat"]),
        "error: nothing to run: --amo lazy runs with --solver cadical only (CaDiCaL propagates the lines), and the matrix has varisat"
    );
    let table = ok(&[
        "bench",
        "domination",
        "--n",
        "4",
        "--task",
        "optimum",
        "--amo",
        "lazy",
        "--solver",
        "varisat",
        "--runs",
        "1",
        "--format",
        "csv",
    ]);
    assert_eq!(table.lines().count(), 2, "a header and one cell: {table}");
    assert!(table.contains("varisat"), "{table}");
}

/// D23: `-o` and `--plot` naming one file — as typed, through `./`, or
/// through a symbolic link, existing or not — are refused before any run:
/// the chart would overwrite the table.
#[test]
fn the_table_and_the_chart_cannot_share_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path();
    let bench = |table: &str, chart: &str| {
        let o = common::run_in(
            t,
            &[
                "bench", "queens", "--n", "4", "--runs", "1", "-o", table, "--plot", chart,
            ],
        );
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    #[cfg(unix)]
    std::os::unix::fs::symlink("b.out", t.join("link")).unwrap();
    let mut pairs = vec![
        ("b.out", "b.out"),
        ("b.out", "./b.out"),
        ("./sub/../b.out", "b.out"),
    ];
    if cfg!(unix) {
        pairs.push(("b.out", "link"));
    }
    std::fs::create_dir(t.join("sub")).unwrap();
    for (table, chart) in pairs {
        let (code, err) = bench(table, chart);
        assert_eq!(code, Some(2), "{table} {chart}: {err}");
        assert_eq!(
            err.trim_end(),
            format!("error: -o {table} and --plot {chart} are the same file: the chart would overwrite the table")
        );
        assert!(!t.join("b.out").exists(), "nothing written");
    }
    // Two files: both written.
    let (code, err) = bench("b.out", "b.svg");
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::read_to_string(t.join("b.out"))
        .unwrap()
        .contains("| queens |"));
    assert!(std::fs::read_to_string(t.join("b.svg"))
        .unwrap()
        .starts_with("<svg"));
}
