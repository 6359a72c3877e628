//! Benchmark figures: a bench matrix ([`BenchReport`]) drawn as an SVG
//! line chart, what `boardsat bench --plot FILE.svg` writes.
//!
//! - x is the board side n; y is the median solve time or the clause count
//!   ([`Measure`]), on a log scale when the values span two decades or more
//!   ([`log_scale`]).
//! - One series per combination of the choices that vary across the cells
//!   (task, formulation, AMO, cardinality encoding, backend; the backend is
//!   left out for clauses, which do not depend on it). The choices that are
//!   the same in every cell go into the title.
//! - A cell without a value (a timeout, an error, an interrupted run) is
//!   never drawn as zero: its series line breaks there and a cross in the
//!   series' colour stands at the top of the plot (for times, on the dashed
//!   line of the cell time limit, since the time is above it); the legend
//!   says so.
//! - The title names the problem, the task and the measure; the subtitle
//!   the commit, the machine, the date and the runs per cell (from
//!   [`Meta`]).
//!
//! plotters draws with its SVG backend only: text is written as SVG text
//! for the viewer to render, so no font crate is built.

use plotters::{
    coord::Shift,
    element::DashedPathElement,
    prelude::{
        ChartBuilder, Circle, Cross, DrawingArea, EmptyElement, IntoDrawingArea, IntoLogRange,
        PathElement, RGBColor, Rectangle, SVGBackend, Text, TriangleMarker, BLACK, WHITE,
    },
    style::{
        text_anchor::{HPos, Pos, VPos},
        Color, IntoFont, ShapeStyle, TextStyle,
    },
};

use boardsat_encode::words::plural;

use crate::{
    report::{BenchReport, CellReport},
    run::Meta,
};

boardsat_encode::name_table! {
    /// What the y axis shows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Measure {
        /// The median solve time of the cell's runs, in seconds.
        #[default]
        Time = "time",
        /// The encoding's clause count.
        Clauses = "clauses",
    }
}

/// Why no figure was drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// The matrix has no cells.
    #[error("the benchmark has no cells to plot")]
    NoCells,
    /// plotters failed to draw.
    #[error("drawing the figure failed: {0}")]
    Draw(String),
}

/// The figure's width and height in pixels.
const SIZE: (u32, u32) = (960, 560);
/// The height of the title band.
const HEADER: u32 = 56;

/// Okabe and Ito's colour-blind-safe palette (without its black, which the
/// axes use), then a few darker tones.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(170, 150, 0),
    RGBColor(120, 60, 20),
    RGBColor(90, 90, 90),
    RGBColor(120, 40, 140),
];

/// The choices a series may differ in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Problem,
    Task,
    Formulation,
    Amo,
    Card,
    Solver,
}

impl Choice {
    /// In label order.
    const ALL: [Choice; 6] = [
        Choice::Problem,
        Choice::Task,
        Choice::Formulation,
        Choice::Amo,
        Choice::Card,
        Choice::Solver,
    ];

    /// The name in the title's list of fixed choices.
    fn name(self) -> &'static str {
        match self {
            Choice::Problem => "problem",
            Choice::Task => "task",
            Choice::Formulation => "formulation",
            Choice::Amo => "amo",
            Choice::Card => "card",
            Choice::Solver => "solver",
        }
    }

    /// Whether it can change `measure`: clauses do not depend on the backend.
    fn matters(self, measure: Measure) -> bool {
        !(measure == Measure::Clauses && self == Choice::Solver)
    }

    /// The title names the problem and task itself.
    fn in_title_list(self) -> bool {
        !matches!(self, Choice::Problem | Choice::Task)
    }

    /// The cell's value, `None` where the choice does not apply.
    fn of(self, cell: &CellReport) -> Option<String> {
        match self {
            Choice::Problem => Some(problem_name(cell)),
            Choice::Task => Some(cell.task.to_string()),
            Choice::Formulation => cell.formulation.map(str::to_string),
            Choice::Amo => cell.amo.map(str::to_string),
            Choice::Card => cell.card.map(str::to_string),
            Choice::Solver => Some(cell.solver.to_string()),
        }
    }
}

/// `queens` for N-queens, else the kind and piece.
fn problem_name(cell: &CellReport) -> String {
    if cell.problem == "independence" && cell.piece == "queen" && cell.k == Some(cell.n) {
        "queens".to_string()
    } else {
        format!("{} {}", cell.problem, cell.piece)
    }
}

/// One line of the figure: its label and `(n, value)` points in order of
/// n, `None` where the cell has no value.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's text: the choices that vary, joined by ` · `.
    pub label: String,
    /// `(n, value)`, sorted by n.
    pub points: Vec<(usize, Option<f64>)>,
}

/// The value `measure` takes in `cell`: the median solve time of a cell
/// that answered every run, the clause count when known.
#[must_use]
pub fn value(cell: &CellReport, measure: Measure) -> Option<f64> {
    let v = match measure {
        Measure::Time if cell.status == "ok" => cell.solve_s.map(|s| s.median),
        Measure::Time => None,
        // Exact up to 2^53 clauses.
        #[allow(clippy::cast_precision_loss)]
        Measure::Clauses => cell.clauses.map(|c| c as f64),
    };
    v.filter(|v| v.is_finite() && *v >= 0.0)
}

/// The series of `cells` for `measure`, and the title's fixed choices
/// (`name value` pairs of the choices every cell shares).
#[must_use]
pub fn series(cells: &[CellReport], measure: Measure) -> (Vec<Series>, Vec<String>) {
    let keyed: Vec<Choice> = Choice::ALL
        .into_iter()
        .filter(|c| c.matters(measure))
        .collect();
    let varies = |c: Choice| {
        let first = cells.first().and_then(|cell| c.of(cell));
        cells.iter().any(|cell| c.of(cell) != first)
    };
    let varying: Vec<Choice> = keyed.iter().copied().filter(|&c| varies(c)).collect();
    let fixed: Vec<String> = keyed
        .iter()
        .filter(|c| !varying.contains(c) && c.in_title_list())
        .filter_map(|c| {
            cells
                .first()
                .and_then(|cell| c.of(cell))
                .map(|v| format!("{} {v}", c.name()))
        })
        .collect();
    // Each series as its varying choices (one list per position, so that
    // merged series can name every value) and its points.
    type Group = (Vec<Vec<String>>, Vec<(usize, Option<f64>)>);
    let mut groups: Vec<Group> = Vec::new();
    for cell in cells {
        let parts: Vec<Vec<String>> = if varying.is_empty() {
            // One series: name it by what it is.
            keyed
                .iter()
                .filter(|c| c.in_title_list())
                .filter_map(|c| c.of(cell))
                .map(|v| vec![v])
                .collect()
        } else {
            varying
                .iter()
                .map(|c| vec![c.of(cell).unwrap_or_else(|| "-".to_string())])
                .collect()
        };
        let index = match groups.iter().position(|g| g.0 == parts) {
            Some(i) => i,
            None => {
                groups.push((parts, Vec::new()));
                groups.len() - 1
            }
        };
        let points = &mut groups[index].1;
        // A size seen twice in one series (the solver left out for clauses)
        // keeps its first value.
        if !points.iter().any(|&(n, _)| n == cell.n) {
            points.push((cell.n, value(cell, measure)));
        }
    }
    for g in &mut groups {
        g.1.sort_by_key(|&(n, _)| n);
    }
    // Sizes do not depend on the task or the solver alone: counting the
    // optimal placements builds the optimum's encoding. Series with the
    // same points are drawn once, named by all their values.
    if measure == Measure::Clauses {
        let mut merged: Vec<Group> = Vec::new();
        for (parts, points) in groups {
            match merged.iter_mut().find(|g| g.1 == points) {
                Some(g) => {
                    for (into, from) in g.0.iter_mut().zip(parts) {
                        for v in from {
                            if !into.contains(&v) {
                                into.push(v);
                            }
                        }
                    }
                }
                None => merged.push((parts, points)),
            }
        }
        groups = merged;
    }
    let out = groups
        .into_iter()
        .map(|(parts, points)| Series {
            label: parts
                .iter()
                .map(|values| values.join("/"))
                .collect::<Vec<_>>()
                .join(" · "),
            points,
        })
        .collect();
    (out, fixed)
}

/// Whether values this far apart need a log scale: the largest is at least
/// 100 times the smallest positive one.
#[must_use]
pub fn log_scale(values: &[f64]) -> bool {
    let positive = values.iter().copied().filter(|v| *v > 0.0);
    let min = positive.clone().fold(f64::INFINITY, f64::min);
    let max = positive.fold(0.0, f64::max);
    min.is_finite() && max >= 100.0 * min
}

/// Seconds as an axis label: `50 µs`, `2 ms`, `1.5 s`.
fn seconds_label(v: f64) -> String {
    let (scaled, unit) = if v < 1e-3 {
        (v * 1e6, "µs")
    } else if v < 1.0 {
        (v * 1e3, "ms")
    } else {
        (v, "s")
    };
    let digits = if scaled >= 10.0 || scaled.fract().abs() < 1e-9 {
        0
    } else {
        1
    };
    format!("{scaled:.digits$} {unit}")
}

/// A count as an axis label: `950`, `12k`, `1.5M`.
fn count_label(v: f64) -> String {
    let (scaled, unit) = if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let digits = if scaled >= 10.0 || scaled.fract().abs() < 1e-9 {
        0
    } else {
        1
    };
    format!("{scaled:.digits$}{unit}")
}

fn err(e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw(e.to_string())
}

/// The short form of a commit: 12 hex digits, and `-dirty` if marked.
fn short_commit(commit: &str) -> String {
    let dirty = commit.ends_with("-dirty");
    let hash: String = commit.trim_end_matches("-dirty").chars().take(12).collect();
    if dirty {
        format!("{hash}-dirty")
    } else {
        hash
    }
}

/// The title and subtitle of `report`'s figure.
fn titles(report: &BenchReport, measure: Measure, fixed: &[String]) -> (String, String) {
    let mut problems: Vec<String> = Vec::new();
    let mut tasks: Vec<&str> = Vec::new();
    for c in &report.cells {
        let p = problem_name(c);
        if !problems.contains(&p) {
            problems.push(p);
        }
        if !tasks.contains(&c.task) {
            tasks.push(c.task);
        }
    }
    let what = match measure {
        Measure::Time if report.meta.runs == 1 => "solve time, one run".to_string(),
        Measure::Time => format!("solve time, median of {} runs", report.meta.runs),
        Measure::Clauses => "clauses".to_string(),
    };
    let mut title = format!("{}: {} — {what}", problems.join(", "), tasks.join(", "));
    if !fixed.is_empty() {
        title.push_str(&format!(" ({})", fixed.join(", ")));
    }
    let m: &Meta = &report.meta;
    let subtitle = format!(
        "boardsat {} commit {} · {}, {}, {} · {}",
        m.boardsat,
        short_commit(m.commit),
        m.cpu,
        plural(m.cores, "core", "cores"),
        m.memory,
        m.date
    );
    (title, subtitle)
}

/// Draws `report` as an SVG figure of `measure` over n; see the module
/// docs for what is drawn.
///
/// # Errors
///
/// [`PlotError::NoCells`] for an empty matrix, [`PlotError::Draw`] when
/// plotters fails.
pub fn svg(report: &BenchReport, measure: Measure) -> Result<String, PlotError> {
    if report.cells.is_empty() {
        return Err(PlotError::NoCells);
    }
    let (series, fixed) = series(&report.cells, measure);
    let (title, subtitle) = titles(report, measure, &fixed);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (header, body) = root.split_vertically(HEADER);
        header
            .draw(&Text::new(title, (16, 8), ("sans-serif", 21).into_font()))
            .map_err(err)?;
        header
            .draw(&Text::new(
                subtitle,
                (16, 32),
                ("sans-serif", 15).into_font().color(&RGBColor(80, 80, 80)),
            ))
            .map_err(err)?;
        draw_body(&body, report, measure, &series)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// The marker shape of series `i`: circles for the first colours, then
/// squares, then triangles.
fn shape(i: usize) -> usize {
    i / PALETTE.len() % 3
}

fn draw_body(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    report: &BenchReport,
    measure: Measure,
    series: &[Series],
) -> Result<(), PlotError> {
    let values: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|p| p.1))
        .collect();
    let missing = series
        .iter()
        .any(|s| s.points.iter().any(|p| p.1.is_none()));
    let no_value = missing_text(report, measure);
    let width = legend_width(series, missing.then_some(no_value.as_str()));
    let (chart_area, legend_area) = area.split_horizontally(SIZE.0 - width);
    let limit = (measure == Measure::Time && report.meta.cell_time_limit.is_finite())
        .then_some(report.meta.cell_time_limit)
        .filter(|l| *l > 0.0);
    let v_max = values.iter().copied().fold(0.0, f64::max);
    let v_min = values
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    // Where a missing value is drawn: the time limit when there is one,
    // else just above the largest value.
    let ceiling_of = |top: f64| match limit {
        Some(l) if missing => l,
        _ => top,
    };
    let mut builder = ChartBuilder::on(&chart_area);
    builder
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72);
    let styles: Vec<ShapeStyle> = (0..series.len())
        .map(|i| PALETTE[i % PALETTE.len()].stroke_width(2))
        .collect();
    let lines = Lines {
        series,
        styles: &styles,
        limit: limit.filter(|_| missing),
        x: x_range(series),
        measure,
    };
    let top = ceiling_of(v_max).max(v_max);
    if log_scale(&values) {
        let (lo, hi) = (v_min / 2.0, top * 3.0);
        let mut chart = builder
            .build_cartesian_2d(lines.x.0..lines.x.1, (lo..hi).log_scale())
            .map_err(err)?;
        lines.draw(&mut chart, ceiling_of(v_max * 1.8))?;
    } else {
        let hi = if top > 0.0 { top * 1.15 } else { 1.0 };
        let mut chart = builder
            .build_cartesian_2d(lines.x.0..lines.x.1, 0.0..hi)
            .map_err(err)?;
        lines.draw(&mut chart, ceiling_of(hi / 1.15 * 1.07))?;
    }
    draw_legend(
        &legend_area,
        series,
        &styles,
        missing.then_some(no_value.as_str()),
    )
}

/// The legend's width: as wide as its longest label (plotters' estimate
/// of sans-serif is 0.45 em per character at 12 px), the line for
/// missing values included.
fn legend_width(series: &[Series], no_value: Option<&str>) -> u32 {
    let longest = series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    let widest = longest.max(no_value.map_or(0, |t| t.chars().count()));
    u32::try_from(widest * 7 + 60)
        .unwrap_or(400)
        .clamp(150, 420)
}

/// The x range of the series: whole-number sizes as f64, padded so the
/// end points are not on the frame.
#[allow(clippy::cast_precision_loss)]
fn x_range(series: &[Series]) -> (f64, f64) {
    let ns: Vec<usize> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let (n_min, n_max) = (
        ns.iter().copied().min().unwrap_or(0),
        ns.iter().copied().max().unwrap_or(1),
    );
    let pad = ((n_max - n_min) as f64 * 0.05).max(0.5);
    (n_min as f64 - pad, n_max as f64 + pad)
}

/// What a chart body draws, on a linear or a log y axis.
struct Lines<'a> {
    series: &'a [Series],
    styles: &'a [ShapeStyle],
    /// The time limit, drawn where some value is missing.
    limit: Option<f64>,
    x: (f64, f64),
    measure: Measure,
}

impl Lines<'_> {
    /// The mesh with its labels, then the lines (missing values at
    /// `ceiling`).
    fn draw<Y>(
        &self,
        chart: &mut plotters::chart::ChartContext<
            '_,
            SVGBackend<'_>,
            plotters::coord::cartesian::Cartesian2d<plotters::coord::types::RangedCoordf64, Y>,
        >,
        ceiling: f64,
    ) -> Result<(), PlotError>
    where
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>
            + plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let measure = self.measure;
        let y_format = move |v: &f64| match measure {
            Measure::Time => seconds_label(*v),
            Measure::Clauses => count_label(*v),
        };
        let x_format = |v: &f64| {
            if v.fract().abs() < 1e-9 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        };
        let label_style = ("sans-serif", 16).into_font();
        chart
            .configure_mesh()
            .x_desc("n (board side)")
            .y_desc(match measure {
                Measure::Time => "solve time",
                Measure::Clauses => "clauses",
            })
            .x_label_formatter(&x_format)
            .y_label_formatter(&y_format)
            .label_style(label_style.clone())
            .axis_desc_style(label_style)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        draw_lines(chart, self.series, self.styles, ceiling, self.limit, self.x)
    }
}

/// The legend's text for the crosses.
fn missing_text(report: &BenchReport, measure: Measure) -> String {
    let mut why: Vec<String> = Vec::new();
    for c in &report.cells {
        if value(c, measure).is_some() {
            continue;
        }
        let reason = match c.status.as_str() {
            "timeout" => format!("timeout (> {} s)", report.meta.cell_time_limit),
            "ok" => "not measured".to_string(),
            other => other.to_string(),
        };
        if !why.contains(&reason) {
            why.push(reason);
        }
    }
    format!("no value: {}", why.join(", "))
}

fn draw_lines<Y>(
    chart: &mut plotters::chart::ChartContext<
        '_,
        SVGBackend<'_>,
        plotters::coord::cartesian::Cartesian2d<plotters::coord::types::RangedCoordf64, Y>,
    >,
    series: &[Series],
    styles: &[ShapeStyle],
    ceiling: f64,
    limit: Option<f64>,
    (x0, x1): (f64, f64),
) -> Result<(), PlotError>
where
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    if let Some(l) = limit {
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(x0, l), (x1, l)],
                6,
                4,
                RGBColor(150, 150, 150).stroke_width(1),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("time limit {}", seconds_label(l)),
                // At the left, where times are short: the crosses of the
                // largest sizes stand on the right.
                (x0, l),
                TextStyle::from(("sans-serif", 13).into_font())
                    .color(&RGBColor(110, 110, 110))
                    .pos(Pos::new(HPos::Left, VPos::Bottom)),
            )))
            .map_err(err)?;
    }
    #[allow(clippy::cast_precision_loss)]
    for (i, (s, &style)) in series.iter().zip(styles).enumerate() {
        // Unbroken runs of values, each drawn as one path.
        let mut run: Vec<(f64, f64)> = Vec::new();
        let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
        for &(n, v) in &s.points {
            match v {
                Some(v) => run.push((n as f64, v)),
                None => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for r in runs.into_iter().filter(|r| !r.is_empty()) {
            let fill = style.filled();
            match shape(i) {
                0 => chart.draw_series(r.iter().map(|&p| Circle::new(p, 4, fill))),
                1 => chart.draw_series(
                    r.iter()
                        .map(|&p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], fill)),
                ),
                _ => chart.draw_series(r.iter().map(|&p| TriangleMarker::new(p, 5, fill))),
            }
            .map_err(err)?;
            chart
                .draw_series(std::iter::once(PathElement::new(r, style)))
                .map_err(err)?;
        }
        // Side by side where several series have no value at one n.
        let dx = (i as f64 - (series.len() as f64 - 1.0) / 2.0) * (x1 - x0) * 0.006;
        let gaps: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| p.1.is_none())
            .map(|&(n, _)| (n as f64 + dx, ceiling))
            .collect();
        chart
            .draw_series(gaps.into_iter().map(|p| Cross::new(p, 6, style)))
            .map_err(err)?;
    }
    Ok(())
}

fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    series: &[Series],
    styles: &[ShapeStyle],
    missing: Option<&str>,
) -> Result<(), PlotError> {
    let font = ("sans-serif", 15).into_font();
    let row = 22;
    let mut y = 20;
    for (i, (s, &style)) in series.iter().zip(styles).enumerate() {
        area.draw(&PathElement::new(vec![(6, y), (34, y)], style))
            .map_err(err)?;
        let at = (20.0, f64::from(y));
        // The legend area has pixel coordinates; the marker wants f64s.
        let pixel = |p: (f64, f64)| {
            #[allow(clippy::cast_possible_truncation)]
            ((p.0.round() as i32), (p.1.round() as i32))
        };
        match shape(i) {
            0 => area.draw(&Circle::new(pixel(at), 4, style.filled())),
            1 => area.draw(&Rectangle::new([(16, y - 4), (24, y + 4)], style.filled())),
            _ => area.draw(&TriangleMarker::new(pixel(at), 5, style.filled())),
        }
        .map_err(err)?;
        area.draw(&Text::new(s.label.clone(), (42, y - 7), font.clone()))
            .map_err(err)?;
        y += row;
    }
    if let Some(text) = missing {
        y += 6;
        area.draw(&Cross::new((20, y), 6, BLACK.stroke_width(2)))
            .map_err(err)?;
        area.draw(&Text::new(text.to_string(), (42, y - 7), font))
            .map_err(err)?;
    }
    Ok(())
}
