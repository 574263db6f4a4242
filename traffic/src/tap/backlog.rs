//! [`Backlog`]: the queue from the relay threads to the checking thread, bounded in bytes,
//! whose producers never wait.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};

/// A queue bounded by the bytes it holds: [`Backlog::offer`] never blocks (it refuses what
/// does not fit), [`Backlog::take`] waits for the next item. What the relay of a tap hands its
/// checking thread (the stdio tap's, and the HTTP tap's of the `toolcall` package).
///
/// ```
/// use toolcall_traffic::tap::Backlog;
///
/// let backlog = Backlog::new(10);
/// assert_eq!(backlog.offer("chunk", 6), Ok(()));
/// assert_eq!(backlog.offer("too much", 5), Err("too much"));
/// assert_eq!(backlog.take(), "chunk");
/// ```
#[derive(Debug)]
pub struct Backlog<T> {
    state: Mutex<State<T>>,
    ready: Condvar,
    budget: usize,
}

#[derive(Debug)]
struct State<T> {
    items: VecDeque<(T, usize)>,
    bytes: usize,
}

impl<T> Backlog<T> {
    /// An empty queue holding at most `budget` bytes of items.
    pub fn new(budget: usize) -> Self {
        Self {
            state: Mutex::new(State {
                items: VecDeque::new(),
                bytes: 0,
            }),
            ready: Condvar::new(),
            budget,
        }
    }

    /// Queues `item` weighing `bytes` if it fits in the budget; hands it back otherwise. An item
    /// of 0 bytes (a control message) always fits.
    ///
    /// # Errors
    /// `item`, when it does not fit.
    pub fn offer(&self, item: T, bytes: usize) -> Result<(), T> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if bytes > 0 && state.bytes + bytes > self.budget {
            return Err(item);
        }
        state.bytes += bytes;
        state.items.push_back((item, bytes));
        drop(state);
        self.ready.notify_one();
        Ok(())
    }

    /// Waits for the oldest item and takes it.
    pub fn take(&self) -> T {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some((item, bytes)) = state.items.pop_front() {
                state.bytes -= bytes;
                return item;
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::thread;

    use super::*;

    #[test]
    fn offers_over_the_budget_come_back_and_control_items_always_fit() {
        let backlog = Backlog::new(10);
        assert_eq!(backlog.offer("a", 6), Ok(()));
        assert_eq!(backlog.offer("b", 5), Err("b"));
        assert_eq!(backlog.offer("end", 0), Ok(()));
        assert_eq!(backlog.take(), "a");
        assert_eq!(backlog.offer("b", 5), Ok(()));
        assert_eq!(backlog.take(), "end");
        assert_eq!(backlog.take(), "b");
    }

    #[test]
    fn take_waits_for_an_item() {
        let backlog = Arc::new(Backlog::new(4));
        let producer = Arc::clone(&backlog);
        let handle = thread::spawn(move || producer.offer(7_u8, 1));
        assert_eq!(backlog.take(), 7);
        assert_eq!(handle.join().expect("thread"), Ok(()));
    }
}
