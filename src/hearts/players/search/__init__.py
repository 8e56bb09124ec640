"""The search player (levels ``hard`` and ``expert``): sampled worlds, Numba playouts."""
