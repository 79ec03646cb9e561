//! Solvers of the N-turn truncated game: plain backward induction and a pruned solver.
