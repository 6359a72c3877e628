"""What the results scripts (result-json.py, results-table.py,
cube-costs.py) share: bad input answered as the binary answers it — one
line on stderr starting with "error:", exit 2 (1 for a result that is not
verified), never a traceback — and the readers that say which file is
wrong and how."""
import json
import os
import stat
import sys


class Refused(Exception):
    """Bad input: one line on stderr, exit 2 (or `code`)."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


def fail(message, code=2):
    raise Refused(message, code)


def read_text(path, what):
    """The text of `path`, which must be a regular file: `what` names it."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        fail(f"{path}: cannot read {what}: {(e.strerror or str(e)).lower()}")
    if not stat.S_ISREG(mode):
        fail(f"{path}: {what} is not a regular file")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read {what}: {e}")


def read_json(path, what):
    """The JSON object in `path`."""
    text = read_text(path, what)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{path}: {what} is not JSON ({e.msg}, line {e.lineno})")
    if not isinstance(value, dict):
        fail(f"{path}: {what} is not a JSON object")
    return value


def field(obj, key, where, *kinds):
    """`obj[key]`, of one of `kinds` when given (a number is never a
    boolean); `where` names the file."""
    if key not in obj:
        fail(f"{where}: no '{key}'")
    value = obj[key]
    if kinds and (not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds):
        fail(f"{where}: '{key}' is not {' or '.join(k.__name__ for k in kinds)}: {value!r}")
    return value


def split_manifest(split, family=None):
    """An exported split's MANIFEST (`split` its directory, or the file):
    its spec (`key=value` words), whether its jobs prove their counts,
    their proof format and compression, its budget and max depth, and its
    cubes' descriptions in order; with `family`, a split of that family."""
    path = os.path.join(split, "MANIFEST") if os.path.isdir(split) else split
    if not os.path.exists(path):
        fail(f"{split}: not a split directory (no MANIFEST written by 'boardsat cubes')")
    kind = f"{family} split" if family else "split"
    text = read_text(path, "the split's MANIFEST")
    if not text.startswith("# boardsat cubes MANIFEST"):
        fail(f"{path}: not the MANIFEST of an exported {kind} (written by 'boardsat cubes')")
    found = {"spec": None, "proofs": False, "format": None, "compression": None,
             "budget": None, "max_depth": None, "cubes": []}
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["#", "spec"]:
            pairs = [w.split("=", 1) for w in words[2:]]
            if not all(len(p) == 2 for p in pairs):
                fail(f"{path}: '{line}' is not a spec line")
            found["spec"] = dict(pairs)
        elif words[:3] == ["#", "proofs", "proofs"]:
            found["proofs"] = True
        elif words[:2] == ["#", "proof-format"] and len(words) == 3:
            found["format"] = words[2]
        elif words[:2] == ["#", "proof-compression"] and len(words) == 3:
            found["compression"] = words[2]
        elif words[:2] == ["#", "budget"] and len(words) >= 3:
            found["budget"] = words[2]
            if words[3:4] == ["max-depth"] and len(words) == 5:
                found["max_depth"] = words[4]
        elif words and not words[0].startswith("#") and len(words) >= 3:
            found["cubes"].append(words[2])
    if found["spec"] is None:
        fail(f"{path}: no '# spec' line (a split written by an older boardsat?)")
    if family and found["spec"].get("family") != family:
        fail(f"{path}: not the MANIFEST of an exported {kind}")
    return found


def run(main):
    """Runs `main`, its bad input answered in one line with its exit code."""
    try:
        main()
    except Refused as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(e.code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`| head`): what it read stands, the rest is
        # not wanted. Point stdout at /dev/null so the exit's flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except Exception as e:  # a bug of the script: still one line, never a traceback
        print(f"error: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(2)
