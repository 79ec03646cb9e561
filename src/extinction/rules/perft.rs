//! Perft: counting leaf nodes of the move tree, the standard move-generator test.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::position::Position;
use super::types::{Move, MoveList};

/// Number of leaf nodes `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                let undo = pos.do_move(m);
                nodes += perft(pos, depth - 1);
                pos.undo_move(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by root move: `(move, nodes)` in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.iter()
        .map(|&m| {
            let undo = pos.do_move(m);
            let n = perft(pos, depth - 1);
            pos.undo_move(m, undo);
            (m, n)
        })
        .collect()
}

/// [`perft`] that gives up, returning `None`, soon after `stop` is set (checked at every node
/// above the last ply, so a stop takes effect within microseconds).
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.do_move(m);
        let below = perft_until(pos, depth - 1, stop);
        pos.undo_move(m, undo);
        nodes += below?;
    }
    Some(nodes)
}

/// [`divide`] that gives up, returning `None`, soon after `stop` is set.
pub fn divide_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut rows = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let undo = pos.do_move(m);
        let nodes = perft_until(pos, depth - 1, stop);
        pos.undo_move(m, undo);
        rows.push((m, nodes?));
    }
    Some(rows)
}

/// Each move of `pos` with the position after it, in generation order.
fn children(pos: &Position) -> Vec<(Move, Position)> {
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.iter().map(|&m| (m, pos.after(m))).collect()
}

/// [`divide`] with root moves spread over the current rayon thread pool.
pub fn divide_parallel(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth <= 1 {
        return divide(&mut pos.clone(), depth);
    }
    children(pos)
        .into_par_iter()
        .map(|(m, mut child)| {
            // From depth 3 on, split one level deeper too so both threads stay busy to the end.
            let n = if depth >= 3 {
                children(&child)
                    .into_par_iter()
                    .map(|(_, mut grandchild)| perft(&mut grandchild, depth - 2))
                    .sum()
            } else {
                perft(&mut child, depth - 1)
            };
            (m, n)
        })
        .collect()
}

/// Perft using `threads` worker threads (1 = plain single-threaded [`perft`]).
pub fn perft_threaded(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| divide_parallel(pos, depth).iter().map(|&(_, n)| n).sum()),
        Err(_) => perft(&mut pos.clone(), depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stoppable_perft_counts_the_same_or_gives_up() {
        let pos = Position::startpos();
        let running = AtomicBool::new(false);
        assert_eq!(
            divide_until(&mut pos.clone(), 3, &running),
            Some(divide(&mut pos.clone(), 3))
        );
        assert_eq!(
            perft_until(&mut pos.clone(), 3, &running),
            Some(perft(&mut pos.clone(), 3))
        );
        let stopped = AtomicBool::new(true);
        assert_eq!(divide_until(&mut pos.clone(), 3, &stopped), None);
        // Depth 1 needs no interior node: it is counted whatever the flag says.
        assert_eq!(
            divide_until(&mut pos.clone(), 1, &stopped),
            Some(divide(&mut pos.clone(), 1))
        );
    }
}
