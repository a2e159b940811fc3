//! `janggun match report IN.json... --out REPORT.html`: one self-contained
//! page (inline SVG drawn by plotters, inline CSS, no script, nothing
//! fetched) that shows a match as it went: the score and Elo with their
//! 95% band over the games, the LLR between its bounds, the end reasons,
//! and each engine's time and depth per move. Several inputs are merged
//! first, as `match merge` would; unfinished ones may be shown.

use super::merge::{self, Merged};
use super::out;
use super::record::Record;
use super::report::GameEntry;
use super::stats::{self, Penta};
use crate::util::outfile::{check_existing, write_whole, Existing, Files};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

// `janggun match report IN.json... --out REPORT.html`.
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct ReportArgs {
    /// The JSON reports: shards of one match, merged as `match merge` would
    /// (unfinished ones are shown as they stand).
    #[arg(value_name = "IN.json")]
    pub inputs: Vec<PathBuf>,
    /// The page written (it may replace a page of ours, nothing else).
    #[arg(long, value_name = "REPORT.html", action = clap::ArgAction::Append)]
    pub out: Vec<PathBuf>,
    #[command(flatten)]
    pub common: merge::CommonArgs,
}

/// Width and height of every plot, in SVG units (scaled to the page).
const SIZE: (u32, u32) = (640, 400);
/// At most this many points a line: a long match is sampled evenly.
const POINTS: usize = 400;
const FONT: &str = "sans-serif";

/// Text for HTML.
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Pair counts at which a running statistic is drawn: evenly spaced, the
/// last one always.
fn samples(pairs: usize) -> Vec<usize> {
    if pairs == 0 {
        return Vec::new();
    }
    let step = pairs.div_ceil(POINTS).max(1);
    let mut v: Vec<usize> = (1..=pairs).filter(|p| p % step == 0).collect();
    if v.last() != Some(&pairs) {
        v.push(pairs);
    }
    v
}

/// The first engine's pentanomial after each whole pair, in game order.
fn running_penta(records: &BTreeMap<usize, Record>) -> Vec<Penta> {
    let mut out = Vec::new();
    let mut p = [0u64; 5];
    for (i, r) in records {
        if i % 2 == 1 {
            continue;
        }
        let Some(other) = records.get(&(i + 1)) else {
            continue;
        };
        if let (Some(a), Some(b)) = (r.half_points(0), other.half_points(0)) {
            p[(a + b) as usize] += 1;
            out.push(p);
        }
    }
    out
}

/// Y range with a margin, never empty.
fn range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return -1.0..1.0;
    }
    let pad = ((hi - lo) * 0.08).max(1.0);
    lo - pad..hi + pad
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Draws one plot into an SVG string: `draw` adds the series to a chart
/// with the given axes.
/// What a plot shows besides its series.
#[derive(Clone, Copy, PartialEq)]
enum Frame {
    /// Numbers on both axes and a legend of the series' labels.
    Full,
    /// No numbers on the y axis (bars labelled themselves) and no legend.
    Bars,
}

fn plot(
    title: &str,
    x: (&str, std::ops::Range<f64>),
    y: (&str, std::ops::Range<f64>),
    frame: Frame,
    draw: impl FnOnce(&mut Chart) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let e = |e: DrawingAreaErrorKind<std::io::Error>| format!("plot '{title}': {e}");
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 24))
            .margin(10)
            .x_label_area_size(48)
            .y_label_area_size(if frame == Frame::Bars { 10 } else { 64 })
            .build_cartesian_2d(x.1, y.1.clone())
            .map_err(e)?;
        // Whole numbers on the axes, but for a small range (the LLR).
        let fine = (y.1.end - y.1.start) < 10.0;
        let x_fmt = |v: &f64| format!("{v:.0}");
        let y_fmt = move |v: &f64| {
            if fine {
                format!("{v:.1}")
            } else {
                format!("{v:.0}")
            }
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .x_desc(x.0)
            .y_desc(y.0)
            .x_labels(6)
            .y_labels(6)
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 19))
            .light_line_style(WHITE.mix(0.0));
        if frame == Frame::Bars {
            mesh.disable_y_axis().disable_y_mesh();
        }
        mesh.draw().map_err(e)?;
        draw(&mut chart)?;
        if frame == Frame::Full {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.4))
                .label_font((FONT, 17))
                .position(SeriesLabelPosition::UpperLeft)
                .draw()
                .map_err(e)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

fn err<T>(r: Result<T, DrawingAreaErrorKind<std::io::Error>>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 6] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(23, 190, 207),
    ];
    C[i % C.len()]
}

/// Elo of the first engine with its 95% band, over the games.
fn elo_plot(m: &Merged, pentas: &[Penta]) -> Result<Option<String>, String> {
    if m.names.len() != 2 || pentas.is_empty() {
        return Ok(None);
    }
    let mut line = Vec::new();
    let mut band_hi = Vec::new();
    let mut band_lo = Vec::new();
    for p in samples(pentas.len()) {
        let Some(s) = stats::summarize(&pentas[p - 1]) else {
            continue;
        };
        let x = (2 * p) as f64;
        if s.elo.is_finite() {
            line.push((x, s.elo));
            if s.elo_error.is_finite() {
                band_hi.push((x, s.elo + s.elo_error));
                band_lo.push((x, s.elo - s.elo_error));
            }
        }
    }
    if line.is_empty() {
        return Ok(None);
    }
    let xr = 0.0..(2 * pentas.len()) as f64;
    let yr = range(line.iter().chain(&band_hi).chain(&band_lo).map(|p| p.1));
    let title = format!("Elo of {} against {}", m.names[0], m.names[1]);
    let svg = plot(
        &title,
        ("games", xr.clone()),
        ("Elo", yr),
        Frame::Full,
        |c| {
            let blue = color(0);
            let mut band = band_hi.clone();
            band.extend(band_lo.iter().rev());
            if band.len() >= 3 {
                err(c.draw_series(std::iter::once(Polygon::new(band, blue.mix(0.18)))))?
                    .label("95% interval")
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 18, y + 6)], blue.mix(0.18).filled())
                    });
            }
            err(c.draw_series(LineSeries::new(
                [(xr.start, 0.0), (xr.end, 0.0)],
                BLACK.mix(0.5),
            )))?;
            err(c.draw_series(LineSeries::new(line, blue.stroke_width(2))))?
                .label("Elo")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], blue.stroke_width(2))
                });
            Ok(())
        },
    )?;
    Ok(Some(svg))
}

/// Each engine's running score in percent, over the games.
fn score_plot(m: &Merged, records: &BTreeMap<usize, Record>) -> Result<Option<String>, String> {
    if records.is_empty() {
        return Ok(None);
    }
    let n = m.names.len();
    let mut points = vec![0u64; n];
    let mut games = vec![0u64; n];
    let mut lines: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
    let total = records.len();
    let step = total.div_ceil(POINTS).max(1);
    for (k, r) in records.values().enumerate() {
        for e in [r.slot.cho, r.slot.han] {
            if let Some(h) = r.half_points(e) {
                points[e] += u64::from(h);
                games[e] += 1;
            }
        }
        if (k + 1) % step == 0 || k + 1 == total {
            for e in 0..n {
                if games[e] > 0 {
                    let pct = 50.0 * points[e] as f64 / games[e] as f64;
                    lines[e].push(((k + 1) as f64, pct));
                }
            }
        }
    }
    let svg = plot(
        "Score over the match",
        ("games", 0.0..total as f64),
        ("score %", 0.0..100.0),
        Frame::Full,
        |c| {
            err(c.draw_series(LineSeries::new(
                [(0.0, 50.0), (total as f64, 50.0)],
                BLACK.mix(0.5),
            )))?;
            for (e, line) in lines.into_iter().enumerate() {
                let col = color(e);
                err(c.draw_series(LineSeries::new(line, col.stroke_width(2))))?
                    .label(m.names[e].clone())
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 18, y)], col.stroke_width(2))
                    });
            }
            Ok(())
        },
    )?;
    Ok(Some(svg))
}

/// The LLR after each pair against the SPRT's two bounds.
fn llr_plot(m: &Merged, pentas: &[Penta]) -> Result<Option<String>, String> {
    let Some((spec, s)) = &m.sprt else {
        return Ok(None);
    };
    if pentas.is_empty() {
        return Ok(None);
    }
    let line: Vec<(f64, f64)> = samples(pentas.len())
        .into_iter()
        .map(|p| {
            let llr = stats::llr_normalized(spec.elo0, spec.elo1, &pentas[p - 1]);
            ((2 * p) as f64, llr)
        })
        .collect();
    let xr = 0.0..(2 * pentas.len()) as f64;
    let yr = range(line.iter().map(|p| p.1).chain([s.lower, s.upper]));
    let title = format!(
        "SPRT [{}, {}]: LLR {:.2}, {}",
        spec.elo0, spec.elo1, s.llr, s.state
    );
    let svg = plot(
        &title,
        ("games", xr.clone()),
        ("LLR", yr),
        Frame::Full,
        |c| {
            for (bound, name, col) in [
                (s.upper, "H1 bound", color(2)),
                (s.lower, "H0 bound", color(1)),
            ] {
                err(c.draw_series(LineSeries::new(
                    [(xr.start, bound), (xr.end, bound)],
                    col.stroke_width(2),
                )))?
                .label(format!("{name} {bound:.2}"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], col.stroke_width(2)));
            }
            let blue = color(0);
            err(c.draw_series(LineSeries::new(line, blue.stroke_width(2))))?
                .label("LLR")
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], blue.stroke_width(2))
                });
            Ok(())
        },
    )?;
    Ok(Some(svg))
}

/// How the games ended: one bar per reason that occurred.
fn reasons_plot(m: &Merged) -> Result<Option<String>, String> {
    let bars: Vec<(String, u64)> = m
        .totals
        .reasons
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(k, &n)| (k.name().to_string(), n))
        .collect();
    if bars.is_empty() {
        return Ok(None);
    }
    let most = bars.iter().map(|b| b.1).max().unwrap_or(1) as f64;
    let k = bars.len() as f64;
    let svg = plot(
        "How the games ended",
        ("games", 0.0..most * 1.25),
        ("", 0.0..k),
        Frame::Bars,
        |c| {
            for (i, (name, n)) in bars.iter().enumerate() {
                let y = k - i as f64;
                let col = color(i);
                err(c.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y - 0.8), (*n as f64, y - 0.2)],
                    col.mix(0.8).filled(),
                ))))?;
                err(c.draw_series(std::iter::once(Text::new(
                    format!("{name} {n}"),
                    (*n as f64 + most * 0.02, y - 0.35),
                    (FONT, 18).into_font(),
                ))))?;
            }
            Ok(())
        },
    )?;
    Ok(Some(svg))
}

/// The engine that made each move after the opening of game `g`.
fn movers(g: &GameEntry, names: &[String]) -> Option<Vec<usize>> {
    let cho = names.iter().position(|n| *n == g.cho)?;
    let han = names.iter().position(|n| *n == g.han)?;
    let han_first = g.fen.split_whitespace().nth(1) == Some("b");
    let book = g.book_plies? as usize;
    Some(
        (0..g.time_ms.len())
            .map(|i| {
                if ((book + i) % 2 == 1) != han_first {
                    han
                } else {
                    cho
                }
            })
            .collect(),
    )
}

/// Mean time (ms) and depth at each engine's n-th move, over the games
/// where it made that many.
fn per_move(m: &Merged) -> Vec<[Vec<(f64, f64)>; 2]> {
    let n = m.names.len();
    // [engine][move] -> (count, ms sum, depth sum)
    let mut acc: Vec<Vec<(u64, f64, f64)>> = vec![Vec::new(); n];
    for g in &m.report.games {
        let Some(who) = movers(g, &m.names) else {
            continue;
        };
        let mut count = vec![0usize; n];
        for (i, &e) in who.iter().enumerate() {
            let k = count[e];
            count[e] += 1;
            if acc[e].len() <= k {
                acc[e].resize(k + 1, (0, 0.0, 0.0));
            }
            let a = &mut acc[e][k];
            a.0 += 1;
            a.1 += g.time_ms[i] as f64;
            a.2 += f64::from(*g.depth.get(i).unwrap_or(&0));
        }
    }
    acc.into_iter()
        .map(|moves| {
            // Late moves of a few long games say little: stop where fewer
            // than a tenth of the games (at least 2) still go on.
            let first = moves.first().map_or(0, |a| a.0);
            let enough = (first / 10).max(2).min(first);
            let kept: Vec<(usize, &(u64, f64, f64))> = moves
                .iter()
                .enumerate()
                .take_while(|(_, a)| a.0 >= enough)
                .collect();
            let ms = kept
                .iter()
                .map(|(k, a)| ((k + 1) as f64, a.1 / a.0 as f64))
                .collect();
            let depth = kept
                .iter()
                .map(|(k, a)| ((k + 1) as f64, a.2 / a.0 as f64))
                .collect();
            [ms, depth]
        })
        .collect()
}

fn per_move_plot(
    m: &Merged,
    series: &[[Vec<(f64, f64)>; 2]],
    which: usize,
) -> Result<Option<String>, String> {
    if series.iter().all(|s| s[which].is_empty()) {
        return Ok(None);
    }
    let xmax = series
        .iter()
        .filter_map(|s| s[which].last().map(|p| p.0))
        .fold(1.0, f64::max);
    let ymax = series
        .iter()
        .flat_map(|s| s[which].iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let (title, unit) = if which == 0 {
        ("Time per move", "ms (mean)")
    } else {
        ("Depth per move", "depth (mean)")
    };
    let svg = plot(
        title,
        ("the engine's move number", 0.0..xmax + 1.0),
        (unit, 0.0..ymax * 1.1),
        Frame::Full,
        |c| {
            for (e, s) in series.iter().enumerate() {
                let col = color(e);
                err(c.draw_series(LineSeries::new(s[which].clone(), col.stroke_width(2))))?
                    .label(m.names[e].clone())
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 18, y)], col.stroke_width(2))
                    });
            }
            Ok(())
        },
    )?;
    Ok(Some(svg))
}

fn fmt(x: Option<f64>, digits: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or("-".into(), |v| format!("{v:.digits$}"))
}

/// The page around the plots.
pub fn page(m: &Merged, records: &BTreeMap<usize, Record>) -> Result<String, String> {
    let pentas = running_penta(records);
    let per = per_move(m);
    let mut figures = Vec::new();
    for svg in [
        elo_plot(m, &pentas)?,
        score_plot(m, records)?,
        llr_plot(m, &pentas)?,
        reasons_plot(m)?,
        per_move_plot(m, &per, 0)?,
        per_move_plot(m, &per, 1)?,
    ]
    .into_iter()
    .flatten()
    {
        figures.push(svg);
    }
    let r = &m.report;
    let title = m.names.join(" vs ");
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <link rel=\"icon\" href=\"data:,\">\n{MARKER}{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
        esc(&title),
        CSS
    );
    let _ = writeln!(h, "<h1>{}</h1>", esc(&title));
    let _ = write!(
        h,
        "<p>{} games{}",
        m.totals.games,
        if r.interrupted { ", unfinished" } else { "" }
    );
    if let Some((_, s)) = &m.sprt {
        let _ = write!(
            h,
            "; SPRT: LLR {:.2} ({:.2}, {:.2}), {}",
            s.llr, s.lower, s.upper, s.state
        );
    }
    h.push_str("</p>\n<div class=\"wide\"><table>\n<tr><th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo (95%)</th><th>LOS</th><th>pentanomial</th><th>faults</th></tr>\n");
    for e in &r.engines {
        let s = e.summary.as_ref();
        let elo = match s.map(|s| (s.elo, s.elo_error95)) {
            Some((Some(x), Some(err))) => format!("{x:+.1} &plusmn; {err:.1}"),
            Some((Some(x), None)) => format!("{x:+.1}"),
            _ => "-".into(),
        };
        let faults = e.illegal_moves + e.crashes + e.time_losses + e.no_move;
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}%</td><td>{elo}</td><td>{}%</td><td>{:?}</td><td>{faults}</td></tr>",
            esc(&e.name),
            e.games,
            e.wins,
            e.draws,
            e.losses,
            fmt(s.and_then(|s| s.score).map(|x| 100.0 * x), 1),
            fmt(s.and_then(|s| s.los).map(|x| 100.0 * x), 1),
            e.pentanomial,
        );
    }
    h.push_str("</table></div>\n");
    for svg in &figures {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    h.push_str("<h2>Conditions</h2>\n<div class=\"wide\"><table class=\"cond\">\n");
    for (k, v) in &r.conditions.0 .0 {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
    }
    for e in &r.engines {
        let line = super::resume::engine_line(e).unwrap_or_else(|| format!("cmd={}", e.cmd));
        let _ = writeln!(
            h,
            "<tr><th>{}</th><td>{}</td></tr>",
            esc(&e.name),
            esc(&line)
        );
    }
    if let Some(shards) = &r.shards {
        let seeds: Vec<&str> = shards.iter().map(|s| s.seed.as_str()).collect();
        let _ = writeln!(
            h,
            "<tr><th>shards</th><td>{} (seeds {})</td></tr>",
            shards.len(),
            esc(&seeds.join(" "))
        );
    }
    h.push_str("</table></div>\n</body>\n</html>\n");
    Ok(h)
}

const CSS: &str =
    "body{font-family:system-ui,sans-serif;color:#222;margin:0 auto;max-width:960px;padding:8px}
h1{font-size:1.4em}h2{font-size:1.15em}
figure{margin:12px 0}figure svg{display:block;width:100%;height:auto}
.wide{overflow-x:auto}
table{border-collapse:collapse;font-size:14px}
th,td{padding:3px 6px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
table.cond th,table.cond td{text-align:left}
table.cond td{white-space:normal;overflow-wrap:anywhere}
";

/// `janggun match report`.
/// The start of every page's title, near the top of the file: what tells
/// a report of ours (which `--out` may replace) from any other page.
const MARKER: &str = "<title>janggun match: ";

/// How much of an existing `--out` file is searched for the marker.
const HEAD: u64 = 4096;

/// What `--out` may replace: a page this command wrote.
fn our_page_at(path: &Path) -> Result<(), String> {
    let (f, _) = crate::util::file::open_regular(path)?;
    let mut head = Vec::new();
    f.take(HEAD)
        .read_to_end(&mut head)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let head = String::from_utf8_lossy(&head);
    if head.trim_start().starts_with("<!DOCTYPE html>") && head.contains(MARKER) {
        Ok(())
    } else {
        Err(format!(
            "{}: exists and is not a report of janggun match report",
            path.display()
        ))
    }
}

pub fn main(a: ReportArgs) -> Result<(), String> {
    let sprt = a.common.sprt()?;
    let Some(out_path) = super::cli::once("--out", a.out)? else {
        return Err("--out REPORT.html is needed (see janggun match report --help)".into());
    };
    let out_path = out_path.as_path();
    if a.inputs.is_empty() {
        return Err("give the IN.json reports (see janggun match report --help)".into());
    }
    // The page must replace no input, and nothing but a page of ours.
    let mut check = Files::new();
    for p in &a.inputs {
        check.input("input", p);
    }
    check.output("--out", out_path);
    check.check()?;
    let ours = Existing::Check(&our_page_at);
    check_existing(out_path, &ours)?;
    let (m, records) = merge::combine_for_report(&a.inputs, sprt)?;
    let html = page(&m, &records)?;
    write_whole(out_path, &ours, html.as_bytes())?;
    if !a.common.flags.quiet {
        out::line(&format!(
            "{}: {} games, {} plots",
            out_path.display(),
            m.totals.games,
            html.matches("<figure>").count()
        ));
    }
    Ok(())
}
