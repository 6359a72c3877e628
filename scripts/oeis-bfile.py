#!/usr/bin/env python3
"""Writes OEIS b-files for A002564 and A002563 from the published terms and boardsat's certified results.

    scripts/oeis-bfile.py -o DIR [--prefer certified] [--results DIR] [--published FILE]

writes DIR/b002564.txt and DIR/b002563.txt, each a comment line (what the
terms come from) and lines "n a(n)" from n = 1 to the last consecutive
term, and prints on stdout what it did and why each file ends where it
does. The terms come from two places:

- the OEIS data lines, kept in docs/results/oeis/published.json with
  their source (boardsat computes none of them);
- boardsat's certified results, docs/results/*.json of sequence A002564:
  its `value` is A002564(n) and its `orbits` A002563(n). A file is used
  only when its `verify` line says "verified: …", its placements are
  `value` distinct sets and their classes under the board's 8 symmetries,
  recomputed here, are `orbits`.

OEIS takes terms only consecutively, so a file stops at its first missing
n: certified terms past it are held back, and the report names every n
missing before them. Where a certified result and the OEIS term
disagree, the report says so with the argument (a count of orbits below
A002564(n)/8 is impossible: an orbit holds at most 8 sets), and the file
stops before that n unless `--prefer certified` asks for the certified
value, which it then marks as a correction. Terms boardsat certified by a
run whose results file was never written (published.json's optional
`certified_without_file`, empty since A002564(17..19) got their files)
are reported as needing a results file; they are not written.

Exit codes: 0 the b-files are written; 1 a results file's result is not
verified; 2 bad input (a file missing, unreadable, not JSON, or not what
it should be; a results file whose placements are not its value or whose
orbits are not its placements'; an output directory that does not
exist), one line on stderr starting with "error:" and nothing written.
"""
import argparse
import glob
import os

from results_io import fail, field, read_json, run

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# Each b-file's sequence, and the field of an A002564 results file that holds its term.
SEQUENCES = (("A002564", "value"), ("A002563", "orbits"))
SYMMETRIES = 8


def canonical(n, placement):
    """The least of a placement's images under the board's 8 symmetries."""
    maps = (
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    )
    return min(tuple(sorted(f(r, c) for r, c in placement)) for f in maps)


def placements(r, path, n):
    """The file's placements as sets of squares on the n x n board."""
    out = []
    for p in field(r, "placements", path, list):
        if not isinstance(p, list) or not all(
            isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) and 0 <= x < n for x in s) for s in p
        ):
            fail(f"{path}: a placement that is not a list of [row, col] on the {n}x{n} board: {p!r}")
        out.append(tuple(sorted(map(tuple, p))))
    return out


def certified(results):
    """{sequence: {n: (term, file)}} from the verified A002564 results files
    in `results`, each checked: its placements distinct and `value` of
    them, its `orbits` their classes under the 8 symmetries."""
    found = {sequence: {} for sequence, _ in SEQUENCES}
    for path in sorted(glob.glob(os.path.join(results, "*.json"))):
        r = read_json(path, "a results file")
        if r.get("sequence") != "A002564":
            continue
        verify = field(r, "verify", path, str)
        if not verify.startswith("verified: "):
            fail(f"{path}: the result is not verified: {verify}", 1)
        n = field(r, "n", path, int)
        value = field(r, "value", path, int)
        orbits = field(r, "orbits", path, int)
        sets = placements(r, path, n)
        if len(set(sets)) != len(sets) or len(sets) != value:
            fail(f"{path}: {len(set(sets))} distinct placements of {len(sets)}, its value says {value}")
        classes = len({canonical(n, p) for p in sets})
        if classes != orbits:
            fail(f"{path}: its placements fall into {classes} classes under the 8 symmetries, its orbits say {orbits}")
        name = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(os.path.abspath(ROOT)) else path
        for sequence, key in SEQUENCES:
            if n in found[sequence]:
                fail(f"{path}: a second results file of A002564({n}) (the first: {found[sequence][n][1]})")
            found[sequence][n] = (r[key], name)
    return found


def published(path):
    """{sequence: {n: term}} of the OEIS data lines, their source, and the
    terms certified by runs without a results file."""
    data = read_json(path, "the published OEIS terms")
    field(data, "source", path, str)
    terms = {}
    for sequence, _ in SEQUENCES:
        entry = field(data, sequence, path, dict)
        offset = field(entry, "offset", path, int)
        values = field(entry, "terms", path, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            fail(f"{path}: {sequence}'s terms are not all counts")
        terms[sequence] = {offset + i: v for i, v in enumerate(values)}
    loose = data.get("certified_without_file", {})
    without = {}
    for sequence, _ in SEQUENCES:
        entry = loose.get(sequence, {})
        if not isinstance(entry, dict) or not all(k.isdigit() and isinstance(v, int) for k, v in entry.items()):
            fail(f"{path}: 'certified_without_file.{sequence}' is not an object of n: term")
        without[sequence] = {int(k): v for k, v in entry.items()}
    return terms, without


def bound(n, count, count_file, orbits, where):
    """Why `orbits` classes cannot hold A002564(n) = `count` sets, or None
    when they can."""
    low = -(-count // SYMMETRIES)
    if low <= orbits <= count:
        return None
    if orbits > count:
        return (f"{where} = {orbits} exceeds A002564({n}) = {count} ({count_file}): "
                f"every orbit holds at least one set")
    return (f"A002564({n}) = {count} distinct minimum dominating sets ({count_file}), and an orbit under the "
            f"board's 8 symmetries holds at most 8 of them, so A002563({n}) >= ceil({count}/8) = {low} > "
            f"{orbits} = {where}")


def sequence_terms(sequence, oeis, cert, without, prefer, counts):
    """The b-file's terms (n, a(n)), what each rests on, and the report:
    why the file ends where it does, every disagreement, what is held back
    and what needs a results file."""
    report, lines, notes = [], [], []
    stop = None
    last = max([*oeis, *cert, *without])
    for n in range(1, last + 1):
        o, c = oeis.get(n), cert.get(n)
        if o is not None and c is not None and o != c[0]:
            why = None
            if sequence == "A002563" and n in counts:
                why = bound(n, counts[n][0], counts[n][1], o, f"OEIS's A002563({n})")
            argument = f": {why}" if why else ""
            flagged = (f"disagreement: {sequence}({n}): OEIS has {o}, boardsat certified {c[0]} "
                       f"({c[1]}){argument}")
            if prefer == "certified":
                report.append(f"correction: {sequence}({n}) = {c[0]} written, not OEIS's {o} "
                              f"(--prefer certified); {flagged}")
                notes.append(f"a({n}) = {c[0]} corrects OEIS's {o} ({c[1]})")
                lines.append((n, c[0]))
                continue
            report.append(flagged)
            stop = (n, f"a({n}) stops it: OEIS and the certified result disagree "
                       f"(write the certified value with --prefer certified)")
            break
        if o is None and c is None:
            earlier = " (certified by an earlier run: it needs a results file)" if n in without else ""
            stop = (n, f"a({n}) is missing{earlier}")
            break
        if o is not None and sequence == "A002563" and n in counts and c is None:
            why = bound(n, counts[n][0], counts[n][1], o, f"OEIS's A002563({n})")
            if why:
                report.append(f"disagreement: {sequence}({n}): OEIS's own terms are inconsistent: {why}")
                stop = (n, f"a({n}) stops it: OEIS's term is impossible")
                break
        lines.append((n, o if o is not None else c[0]))
    if stop:
        n = stop[0]
        held = sorted(k for k in cert if k > n)
        missing = [k for k in range(n, max(held, default=n) + 1) if k not in oeis and k not in cert]
        report.append(f"{sequence}: ends at n = {n - 1}: {stop[1]}")
        if held:
            report.append(
                f"{sequence}: held back (OEIS takes terms only consecutively): "
                + ", ".join(f"a({k}) = {cert[k][0]} ({cert[k][1]})" for k in held)
                + (f"; missing: {', '.join(f'a({k})' for k in missing)}" if missing else "")
            )
    for n in sorted(without):
        if n in cert:
            if cert[n][0] != without[n]:
                report.append(f"disagreement: {sequence}({n}): certified {cert[n][0]} ({cert[n][1]}), "
                              f"an earlier certified run {without[n]}")
            continue
        where = ("OEIS has it too" if oeis.get(n) == without[n]
                 else f"OEIS has {oeis[n]}" if n in oeis else "OEIS has none")
        next_one = " (the next term of this b-file)" if stop and stop[0] == n else ""
        report.append(f"needs a results file: {sequence}({n}) = {without[n]}, certified by an earlier run "
                      f"without one; {where}{next_one}")
    return lines, notes, report


def header(sequence, lines, notes, oeis, cert):
    """The b-file's comment line: where its terms come from."""
    parts = []
    if any(n in oeis for n, _ in lines):
        parts.append("the OEIS data (docs/results/oeis/published.json)")
    both = [f"a({n})" for n, v in lines if cert.get(n, (None,))[0] == v]
    if both:
        parts.append("certified by boardsat (docs/results/A002564-N.json): " + ", ".join(both))
    head = f"# {sequence}, n = 1..{lines[-1][0] if lines else 0}: " + "; ".join(parts)
    return head + "".join(f"; {note}" for note in notes)


def write(folder, sequence, head, lines):
    path = os.path.join(folder, f"b{sequence[1:]}.txt")
    text = head + "\n" + "".join(f"{n} {v}\n" for n, v in lines)
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as e:
        fail(f"{path}: cannot write: {(e.strerror or str(e)).lower()}")


class Parser(argparse.ArgumentParser):
    """Command-line errors as one line, exit 2, as the binary's."""

    def error(self, message):
        fail(message)


def main():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True, help="the directory the b-files are written in")
    ap.add_argument("--prefer", choices=["certified"],
                    help="where a certified result and OEIS disagree, write the certified value (flagged)")
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results"))
    ap.add_argument("--published", default=os.path.join(ROOT, "docs", "results", "oeis", "published.json"))
    a = ap.parse_args()
    if not os.path.isdir(a.output):
        fail(f"{a.output}: the output directory does not exist")
    if not os.path.isdir(a.results):
        fail(f"{a.results}: not a directory of results files")
    oeis, without = published(a.published)
    cert = certified(a.results)
    # A002563's terms are checked against the counts they classify.
    counts = {n: (v, f) for n, (v, f) in cert["A002564"].items()}
    for n, v in oeis["A002564"].items():
        counts.setdefault(n, (v, "OEIS"))
    # Every file and its report first: bad input writes nothing.
    out = []
    for sequence, _ in SEQUENCES:
        lines, notes, report = sequence_terms(
            sequence, oeis[sequence], cert[sequence], without[sequence], a.prefer, counts)
        from_oeis = sum(1 for n, v in lines if oeis[sequence].get(n) == v)
        checked = sum(1 for n, v in lines if cert[sequence].get(n, (None,))[0] == v)
        summary = (f"b{sequence[1:]}.txt: n = 1..{lines[-1][0] if lines else 0} ({from_oeis} from OEIS, "
                   f"{checked} certified by boardsat's results files)")
        out.append((sequence, header(sequence, lines, notes, oeis[sequence], cert[sequence]), lines,
                    [summary, *report]))
    for sequence, head, lines, report in out:
        write(a.output, sequence, head, lines)
        for line in report:
            print(line)


if __name__ == "__main__":
    run(main)
