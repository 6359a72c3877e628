"""Known answers from OEIS (never from boardsat's own output)."""

# A000170: the number of ways to place n non-attacking queens on an n x n board, n = 1..10.
QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
# A002562: the same up to rotations and reflections (fundamental solutions), n = 1..10.
FUNDAMENTAL = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]
# A075458: the queen domination number gamma(Q_n), n = 1..9.
GAMMA = [1, 1, 1, 2, 3, 3, 4, 5, 5]
# A002564: the number of minimum dominating sets of queens on Q_n, n = 1..8.
MINIMUM_DOMINATING_SETS = [1, 4, 1, 12, 186, 4, 86, 4860]
# A002563: the same up to rotations and reflections, n = 1..8.
MINIMUM_DOMINATING_ORBITS = [1, 1, 1, 3, 37, 1, 13, 638]
# A075324: the independent domination number of the queen graph i(Q_n), n = 1..8.
INDEPENDENT_GAMMA = [1, 1, 1, 3, 3, 4, 4, 5]
# A030978: the most non-attacking knights on an n x n board, n = 1..8.
KNIGHTS = [1, 4, 5, 8, 13, 18, 25, 32]
