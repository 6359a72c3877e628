"""Type stubs of the ``boardsat`` module (a compiled extension).

Chessboard placement puzzles as SAT: N-queens, independence and domination
for queens, rooks, bishops, knights and kings. Keyword arguments are the
``boardsat`` command line's options; ``solve`` and ``count`` return the
dicts its ``--json`` prints.
"""

import os
import types
from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, Union, final

__all__ = [
    "AMO_ENCODINGS",
    "CARD_ENCODINGS",
    "Encoding",
    "FAMILIES",
    "FORMULATIONS",
    "PIECES",
    "Placement",
    "Placements",
    "SOLVERS",
    "SolverError",
    "check",
    "count",
    "draw",
    "encode",
    "enumerate",
    "solve",
    "verify",
    "__version__",
    "jobs",
]

__version__: str

FAMILIES: Tuple[str, ...]
"""``("queens", "independence", "domination")``."""
PIECES: Tuple[str, ...]
"""``("queen", "rook", "bishop", "knight", "king")``."""
AMO_ENCODINGS: Tuple[str, ...]
"""At-most-one encodings accepted by ``amo=``."""
CARD_ENCODINGS: Tuple[str, ...]
"""Cardinality encodings accepted by ``card=``."""
FORMULATIONS: Tuple[str, ...]
"""Formulations accepted by ``formulation=``."""
SOLVERS: Tuple[str, ...]
"""Backends of this build accepted by ``solver=`` (``"external"`` needs ``solver_cmd``)."""

_Family = Literal["queens", "independence", "domination"]
_Square = Tuple[int, int]
"""A square as ``(row, col)``, from 0."""
_Path = Union[str, "os.PathLike[str]"]

class Placement(List[_Square]):
    """A placement: a list of ``(row, col)`` tuples, one per piece, that draws itself.

    In a notebook the board shows as a picture (``_repr_svg_``); ``svg()`` and
    ``text()`` give the picture and the text board as strings.
    """

    def __init__(self, squares: Iterable[Sequence[int]] = ()) -> None:
        """The squares, each made a ``(row, col)`` tuple."""
    def svg(self) -> str:
        """The board as an SVG picture: the pieces and, for domination, the squares they cover."""
    def text(self) -> str:
        """The board as text, one row a line."""
    def _repr_svg_(self) -> str: ...

class SolverError(RuntimeError):
    """A solver failed: it crashed, could not be started, or returned a wrong model."""

def solve(
    family: _Family,
    n: int,
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
    amo: Optional[str] = None,
    card: Optional[str] = None,
    formulation: Optional[str] = None,
    solver: Optional[str] = None,
    solver_cmd: Optional[str] = None,
    seed: Optional[int] = None,
    time_limit: Optional[float] = None,
    portfolio: bool = False,
    force: bool = False,
    proof: Optional[_Path] = None,
    replace: bool = False,
    resume: bool = False,
    proof_format: Optional[str] = None,
    proof_compression: Optional[str] = None,
) -> Dict[str, Any]:
    """One placement with ``k`` pieces, or without ``k`` the optimum with its proof.

    Returns the keys of ``boardsat solve --json``: ``command``, ``status``
    (``"sat"``, ``"unsat"``, ``"unknown"``), ``value``, ``optimal``,
    ``placement`` (a :class:`Placement`, which draws itself), ``backend``,
    ``elapsed``, ``calls``, ``stopped`` and ``proof`` (when present), and the encoding's
    ``problem``, ``rows``, ``cols``, ``piece``, ``amo``, ``card``,
    ``formulation``, ``vars``, ``aux_vars``, ``clauses``, ``lits``.

    ``amo``, ``card`` and ``formulation`` left at ``None`` are boardsat's
    choice, the command line's: lazy lines inside CaDiCaL for N-queens (and
    n rooks), ``"auto"`` elsewhere; ``"totalizer"``; ``"lines"``.

    With ``proof`` (a directory, new or empty unless ``replace``), every
    UNSAT answer the result rests on is proven into it, as ``boardsat solve
    --proof`` proves it; :func:`verify` checks it. ``resume=True`` writes
    into the directory of a run that stopped, as ``--resume`` does.
    ``proof_format`` (``"text"``, ``"binary"``) and ``proof_compression``
    (``"none"``, ``"zstd"``) write the traced proofs as ``--proof-format``
    and ``--proof-compression`` do.

    Raises ``ValueError`` (bad arguments), ``SolverError`` (a solver failed),
    ``KeyboardInterrupt`` (Ctrl-C; the solver is stopped).
    """

def count(
    family: _Family,
    n: int,
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
    amo: Optional[str] = None,
    card: Optional[str] = None,
    formulation: Optional[str] = None,
    solver: Optional[str] = None,
    solver_cmd: Optional[str] = None,
    seed: Optional[int] = None,
    time_limit: Optional[float] = None,
    limit: Optional[int] = None,
    depth: Optional[int] = None,
    threads: Optional[int] = None,
    no_symmetry: bool = False,
    halve: bool = False,
    cube_budget: Optional[float] = None,
    progress: Optional[Callable[[int, float], Any]] = None,
    force: bool = False,
    proof: Optional[_Path] = None,
    replace: bool = False,
    resume: bool = False,
    proof_format: Optional[str] = None,
    proof_compression: Optional[str] = None,
    stop_after_cubes: Optional[int] = None,
) -> Dict[str, Any]:
    """Counts the placements with ``k`` pieces, or without ``k`` the optimal ones.

    Returns the keys of ``boardsat count --json``: ``status``
    (``"complete"``, ``"limit"``, ``"unknown"``), ``count`` (the answer
    when ``complete`` is true, a lower bound otherwise), ``complete``,
    ``limit_reached``, ``stopped``, ``optimum``, ``backend``, ``elapsed``,
    for N-queens cube counts ``fundamental``, ``models``, ``cubes``,
    ``cubes_done``, ``depth``, ``threads``, ``symmetry``, ``halve``, and the
    encoding's keys as in :func:`solve`. With ``cube_budget`` (seconds), a
    domination cube that runs longer is split again by the next ring of
    rows and columns (the count stays exact). ``stop_after_cubes`` ends a
    split count, as an interrupt would, once that many cubes have their
    answer: a sitting measured in cubes (``resume=True`` goes on).

    ``progress(count, seconds)`` is called from a solver thread, at once and
    then at most every 0.1 s; an exception it raises stops the count and is
    raised here.

    With ``proof`` (a directory, new or empty unless ``replace``), the count is
    proven into it as ``boardsat count --proof`` proves it; :func:`verify`
    checks it. ``resume=True`` goes on with a count that stopped there
    (``boardsat count --resume``): the cubes it proved are kept as they are,
    the others counted. ``proof_format`` (``"text"``, ``"binary"``) and
    ``proof_compression`` (``"none"``, ``"zstd"``) write the traced proofs
    as ``--proof-format`` and ``--proof-compression`` do.
    """

def enumerate(
    family: _Family,
    n: int,
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
    amo: Optional[str] = None,
    card: Optional[str] = None,
    formulation: Optional[str] = None,
    solver: Optional[str] = None,
    solver_cmd: Optional[str] = None,
    seed: Optional[int] = None,
    time_limit: Optional[float] = None,
    limit: Optional[int] = None,
    force: bool = False,
) -> Placements:
    """A lazy iterator over the placements (without ``k``: the optimal ones).

    Nothing is solved before a placement is asked for; breaking out of the
    loop stops the search and frees the solver.
    """

def encode(
    family: _Family,
    n: int,
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
    amo: Optional[str] = None,
    card: Optional[str] = None,
    formulation: Optional[str] = None,
    force: bool = False,
) -> Encoding:
    """The clauses of a problem: with ``k`` (queens: n) its CNF, as ``boardsat dimacs`` writes it;
    without ``k`` the hard clauses of its optimum as a MaxSAT instance. The
    :class:`Encoding` writes the problem as DIMACS (with ``k``), WCNF (without ``k``), OPB and LP."""

def check(
    family: _Family,
    n: int,
    placement: Sequence[Union[Tuple[int, int], Sequence[int]]],
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
) -> bool:
    """Whether ``placement`` solves the problem, by the independent checker.

    With ``k``: exactly k pieces for independence and queens, at most k for
    domination; without ``k`` any number. Optimality is not checked.
    """

def draw(
    family: _Family,
    n: int,
    placement: Sequence[Union[Tuple[int, int], Sequence[int]]],
    *,
    cols: Optional[int] = None,
    piece: Optional[str] = None,
    k: Optional[int] = None,
    independent: bool = False,
    format: Literal["svg", "text"] = "svg",
) -> str:
    """The board with ``placement`` as an SVG picture, or as text (``format="text"``)."""

def verify(
    dir: _Path,
    *,
    checker: Optional[_Path] = ...,
    checker_timeout: Optional[float] = ...,
    record: Optional[_Path] = ...,
) -> Dict[str, Any]:
    """Checks a proof directory (``proof=``, ``--proof``, ``cubes --proof``) as ``boardsat verify DIR --json`` does.

    Returns ``verified`` (the whole result proven), ``claims`` (a verdict per
    claim, split and cover) and ``result`` (its ``sentence``, or the
    ``reason`` it is not proven). ``checker`` names an LRAT checker boardsat
    did not write (cake_lpr), run on every claim too, at most
    ``checker_timeout`` seconds a claim; ``external_checker`` then says which
    it was and how many proofs it accepted. ``record`` names a file
    (``--record``) that keeps every proof accepted and lends the next
    ``verify(..., record=...)`` the ones it holds, unchanged and with the same
    checkers; ``record`` in the report says how many came from it. Raises
    ``ValueError`` for a directory that is not a proof directory or a
    ``record`` that cannot be used.
    """

@final
class Encoding:
    """The clauses of a problem; square ``(r, c)`` is variable ``r * cols + c + 1``."""

    @property
    def clauses(self) -> List[List[int]]:
        """The clauses as lists of DIMACS literals (a new list on each access)."""
    @property
    def nvars(self) -> int:
        """Variables, auxiliary ones included (the ``p cnf`` count)."""
    @property
    def nclauses(self) -> int:
        """Clauses."""
    @property
    def board_vars(self) -> List[int]:
        """The board variables ``1 .. rows * cols``: the projection onto placements."""
    @property
    def k(self) -> Optional[int]:
        """The bound: exactly k pieces (independence) or at most k (domination); ``None``: the optimum."""
    @property
    def stats(self) -> Dict[str, Any]:
        """The keys of ``boardsat dimacs --json``: problem, sizes and encodings."""
    def to_dimacs(self) -> str:
        """DIMACS text with provenance comments and ``c p show`` / ``c ind`` projection lines (needs ``k``)."""
    def to_wcnf(self) -> str:
        """The optimum as WCNF (MaxSAT evaluation 2022 on): these clauses hard, a soft unit per square (no ``k``)."""
    def to_opb(self) -> str:
        """The linear model as OPB (pseudo-Boolean competition): the count with ``k``, else ``min:``."""
    def to_lp(self) -> str:
        """The linear model as a CPLEX LP integer program over the binaries ``x1 .. xN``."""
    def __len__(self) -> int: ...

@final
class Placements(Iterator[Placement]):
    """A lazy iterator of placements, made by :func:`enumerate`."""

    def __iter__(self) -> Placements: ...
    def __next__(self) -> Placement: ...
    def close(self) -> None:
        """Stops the enumeration and frees the solver."""
    def __enter__(self) -> Placements: ...
    def __exit__(self, *exc: object) -> None: ...
    @property
    def count(self) -> int:
        """Placements listed so far."""
    @property
    def complete(self) -> Optional[bool]:
        """``None`` while running; ``True`` when every placement was listed."""
    @property
    def limit_reached(self) -> bool:
        """Whether ``limit`` ended the listing."""
    @property
    def stopped(self) -> Optional[str]:
        """``"time limit"``, ``"interrupted"`` or ``None``."""
    @property
    def optimum(self) -> Optional[int]:
        """Without ``k``: the proven optimum whose placements are listed."""

# The job road (write_split, run_job, run_rounds, merge, RETRIES, DEPTH):
# a submodule of the extension, typed as a module until its own stub
# (a boardsat/ package stub with jobs.pyi) is written.
jobs: types.ModuleType
