// Running a primitive's chunks of work on several threads without waiting for a thread that has
// not started. An OpenMP parallel region ends with a join: the calling thread waits until every
// thread of the team has arrived, even one that the OS had not yet run (its core busy with
// another process) and that finds no work left. Under OMP_WAIT_POLICY=passive each region pays
// that wake-up: 8 us on a quiet 2-core Zen 5 guest, 35-50 us when another process holds a
// core -- MobileNet v2's ~50 regions per mb1 run cost about 2 ms so.
//
// run_chunks(n, threads, fn) calls fn(0) ... fn(n-1), each once, on the calling thread and up
// to threads - 1 pool threads that claim chunks one at a time; it returns when every chunk has
// run, waiting only for pool threads that claimed one. A pool thread that wakes late finds no
// chunk left and sleeps again. Which thread runs a chunk never changes what the chunk computes.
// A chunk that throws ends the call: chunks not yet claimed are skipped, and the first exception
// reaches run_chunks' caller once every thread has left the call.
//
// The pool serves OMP_WAIT_POLICY=passive, the policy for a shared machine: its threads start
// on first use and sleep on a condition variable between calls. Waits are bounded by the work's
// own granularity: a pool thread watches for the next call, and the caller for a pool thread's
// last chunk, for about one chunk's time (a pool thread at most 0.2 ms), yielding the core,
// before sleeping. One call uses the pool at a time: a call made while it is busy (another user
// thread's primitive), or from inside a chunk or an OpenMP region, runs its chunks on the
// calling thread alone. Under any other wait policy OpenMP's threads spin between regions, its
// join costs little, and a second set of threads would only compete with them: the chunks then
// run as an OpenMP loop.
#pragma once
#include <cstdint>
#include <functional>

namespace prim {
namespace jit {

void run_chunks(int64_t n_chunks, int threads, const std::function<void(int64_t)> &chunk);

} // namespace jit
} // namespace prim
