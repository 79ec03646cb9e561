//! Apocalypse: the 5x5 simultaneous-move game and its solvers.
