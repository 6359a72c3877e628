//! `boardsat_solve::plot`: the series a bench matrix is drawn as, the scale,
//! and the SVG itself (well-formed, a legend entry per series, a cross and
//! a legend entry for every cell without a value, never a zero for it).

use boardsat_bench::{
    plot::{self, Measure},
    report::{BenchReport, CellReport, SpreadReport},
    run::Meta,
};
use boardsat_tests::{xml_elements, XmlElement};

fn meta() -> Meta {
    Meta {
        command: "boardsat bench queens".to_string(),
        boardsat: "0.1.0",
        commit: "0123456789abcdef0123456789abcdef01234567-dirty",
        rustc: "rustc 1.95.0",
        cpu: "Test CPU 9000".to_string(),
        cores: 2,
        memory: "1.0 GiB".to_string(),
        date: "2026-01-01T00:00:00Z".to_string(),
        runs: 3,
        cell_time_limit: 30.0,
    }
}

/// An N-queens count cell; `seconds: None` is a timeout.
fn cell(n: usize, amo: &'static str, solver: &'static str, seconds: Option<f64>) -> CellReport {
    CellReport {
        problem: "independence",
        piece: "queen",
        task: "count",
        n,
        k: Some(n),
        formulation: Some("lines"),
        amo: Some(amo),
        card: None,
        solver,
        vars: Some(u32::try_from(n * n).unwrap()),
        aux_vars: Some(0),
        clauses: Some(n * n * n + if amo == "ladder" { 1 } else { 0 }),
        lits: Some(0),
        encode_s: Some(SpreadReport {
            median: 1e-4,
            min: 1e-4,
            max: 1e-4,
        }),
        solve_s: seconds.map(|s| SpreadReport {
            median: s,
            min: s,
            max: s,
        }),
        runs: if seconds.is_some() { 3 } else { 0 },
        status: if seconds.is_some() { "ok" } else { "timeout" }.to_string(),
        error: None,
        satisfiable: None,
        count: None,
        optimum: None,
    }
}

fn report() -> BenchReport {
    let mut cells = Vec::new();
    for n in [8, 10, 12] {
        for amo in ["pairwise", "ladder"] {
            for solver in ["cadical", "varisat"] {
                // varisat with ladder times out at 12.
                let t = (amo, solver, n) != ("ladder", "varisat", 12);
                #[allow(clippy::cast_precision_loss)]
                let secs = 1e-3 * (n as f64).powi(3);
                cells.push(cell(n, amo, solver, t.then_some(secs)));
            }
        }
    }
    BenchReport {
        meta: meta(),
        cells,
    }
}

fn texts(elements: &[XmlElement]) -> Vec<String> {
    elements
        .iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text.trim().to_string())
        .collect()
}

#[test]
fn series_are_the_varying_choices() {
    let r = report();
    let (series, fixed) = plot::series(&r.cells, Measure::Time);
    let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "pairwise · cadical",
            "pairwise · varisat",
            "ladder · cadical",
            "ladder · varisat"
        ]
    );
    assert_eq!(fixed, ["formulation lines"]);
    let ladder_varisat = &series[3].points;
    assert_eq!(
        ladder_varisat.iter().map(|p| p.0).collect::<Vec<_>>(),
        [8, 10, 12]
    );
    assert!(ladder_varisat[2].1.is_none(), "a timeout has no value");
    assert!(ladder_varisat[..2].iter().all(|p| p.1.is_some()));

    // Clauses do not depend on the solver: one series per AMO encoding, with
    // the timed-out cell's clause count (the encoding was built).
    let (series, fixed) = plot::series(&r.cells, Measure::Clauses);
    let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["pairwise", "ladder"]);
    assert_eq!(fixed, ["formulation lines"]);
    assert_eq!(series[1].points[2], (12, Some(1729.0)));
}

#[test]
fn equal_series_of_sizes_are_drawn_once() {
    // Two AMO encodings with the same clause counts at every n.
    let cells: Vec<CellReport> = [8, 9]
        .into_iter()
        .flat_map(|n| {
            ["pairwise", "bitwise"].map(|amo| {
                let mut c = cell(n, amo, "cadical", Some(0.1));
                c.clauses = Some(n * 10);
                c
            })
        })
        .collect();
    let (series, _) = plot::series(&cells, Measure::Clauses);
    assert_eq!(series.len(), 1);
    assert_eq!(series[0].label, "pairwise/bitwise");
    let (series, _) = plot::series(&cells, Measure::Time);
    assert_eq!(series.len(), 2);
}

#[test]
fn a_single_series_is_named_by_its_choices() {
    let cells = vec![
        cell(8, "pairwise", "cadical", Some(0.1)),
        cell(9, "pairwise", "cadical", Some(0.2)),
    ];
    let (series, _) = plot::series(&cells, Measure::Time);
    assert_eq!(series.len(), 1);
    assert_eq!(series[0].label, "lines · pairwise · cadical");
}

#[test]
fn log_scale_from_two_decades() {
    assert!(!plot::log_scale(&[1.0, 99.0]));
    assert!(plot::log_scale(&[1.0, 100.0]));
    assert!(plot::log_scale(&[0.0, 1e-4, 0.5]));
    assert!(!plot::log_scale(&[]));
    assert!(!plot::log_scale(&[0.0, 5.0]));
}

#[test]
fn the_figure_is_well_formed_with_legend_and_provenance() {
    let r = report();
    for measure in Measure::ALL {
        let svg = plot::svg(&r, measure).unwrap();
        let elements = xml_elements(&svg).unwrap_or_else(|e| panic!("{measure}: {e}"));
        assert_eq!(elements[0].name, "svg");
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{measure}");
        let texts = texts(&elements);
        let (series, _) = plot::series(&r.cells, measure);
        for s in &series {
            assert!(
                texts.contains(&s.label),
                "{measure}: no legend for {}",
                s.label
            );
        }
        let title = &texts[0];
        assert!(title.starts_with("queens: count"), "{title}");
        let subtitle = &texts[1];
        assert!(
            subtitle.contains("0123456789ab-dirty") && subtitle.contains("Test CPU 9000"),
            "{subtitle}"
        );
        let no_value = texts.iter().any(|t| t.starts_with("no value:"));
        match measure {
            Measure::Time => {
                assert!(title.contains("median of 3 runs"), "{title}");
                assert!(texts.contains(&"no value: timeout (> 30 s)".to_string()));
                assert!(texts.contains(&"time limit 30 s".to_string()));
            }
            Measure::Clauses => assert!(!no_value, "every cell has its clauses"),
        }
    }
}

/// The polylines in the plotting area: series lines and crosses.
fn polylines(elements: &[XmlElement]) -> Vec<&XmlElement> {
    elements.iter().filter(|e| e.name == "polyline").collect()
}

#[test]
fn a_timeout_is_a_cross_not_a_zero() {
    let mut with = report();
    let mut without = report();
    for c in &mut without.cells {
        c.status = "ok".to_string();
        c.solve_s = Some(SpreadReport {
            median: 1.0,
            min: 1.0,
            max: 1.0,
        });
    }
    let circles = |r: &BenchReport| {
        let svg = plot::svg(r, Measure::Time).unwrap();
        let elements = xml_elements(&svg).unwrap();
        elements.iter().filter(|e| e.name == "circle").count()
    };
    let (circles_with, circles_without) = (circles(&with), circles(&without));
    // One point marker less for the timed-out cell.
    assert_eq!(circles_with + 1, circles_without);
    // Its cross (two lines in the series' colour, the fourth of the
    // palette) stands on the dashed line of the time limit.
    let svg = plot::svg(&with, Measure::Time).unwrap();
    let elements = xml_elements(&svg).unwrap();
    let number = |e: &XmlElement, a: &str| -> f64 { e.attribute(a).unwrap().parse().unwrap() };
    let cross: Vec<f64> = elements
        .iter()
        .filter(|e| e.name == "line" && e.attribute("stroke") == Some("#CC79A7"))
        .map(|e| (number(e, "y1") + number(e, "y2")) / 2.0)
        .collect();
    assert_eq!(cross.len(), 2);
    let limit_line: Vec<f64> = polylines(&elements)
        .iter()
        .filter(|e| e.attribute("stroke") == Some("#969696"))
        .flat_map(|e| {
            e.attribute("points")
                .unwrap()
                .split_whitespace()
                .map(|p| p.split_once(',').unwrap().1.parse::<f64>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!limit_line.is_empty());
    assert!(limit_line.iter().all(|&y| (y - cross[0]).abs() < 1.0));
    assert!(cross.iter().all(|&y| (y - cross[0]).abs() < 1.0));
    // All cells timed out: nothing to put on a scale, still a figure.
    for c in &mut with.cells {
        c.status = "timeout".to_string();
        c.solve_s = None;
    }
    let svg = plot::svg(&with, Measure::Time).unwrap();
    xml_elements(&svg).unwrap();
    with.cells.clear();
    assert_eq!(
        plot::svg(&with, Measure::Time),
        Err(plot::PlotError::NoCells)
    );
}
