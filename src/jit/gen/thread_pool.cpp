// The pool behind run_chunks() (thread_pool.hpp): chunks are claimed from one atomic counter,
// pool threads join a call only while it still has seats, and the caller waits only for the
// pool threads that joined.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <omp.h>
#include <strings.h>

#include "jit/gen/thread_pool.hpp"

namespace prim {
namespace jit {
namespace {

using chunk_fn = std::function<void(int64_t)>;

struct call {
    const chunk_fn *fn = nullptr;
    int64_t n = 0;
    std::atomic<int64_t> next {0}; // the next unclaimed chunk
    int seats = 0;                 // pool threads that may still join (under the pool's mutex)
    std::atomic<int> running {0};  // pool threads running its chunks
    std::mutex failure_mutex;
    std::exception_ptr failure;    // the first exception a chunk threw, rethrown by the caller
};

thread_local bool running_chunks = false; // a nested call runs on its thread alone

// Claims and runs chunks until none is left; returns how many it ran. A chunk that throws
// (std::bad_alloc) ends the call: the exception is kept for the caller and no chunk is claimed
// after it, on any thread.
int64_t run_claimed(call &c) {
    running_chunks = true;
    int64_t ran = 0;
    try {
        for (int64_t i; (i = c.next.fetch_add(1, std::memory_order_relaxed)) < c.n; ++ran) (*c.fn)(i);
    } catch (...) {
        c.next.store(c.n, std::memory_order_relaxed);
        std::lock_guard<std::mutex> lock(c.failure_mutex);
        if (!c.failure) c.failure = std::current_exception();
    }
    running_chunks = false;
    return ran;
}

using steady = std::chrono::steady_clock;

// The longest a pool thread watches for the next call: past a few wake-ups (8-50 us) watching
// saves little, and a passive policy asks for idle threads to leave the processor.
constexpr std::chrono::microseconds max_watch {200};

class thread_pool {
public:
    // Never destroyed: its threads sleep on the condition variable until the process exits.
    static thread_pool &instance() {
        static thread_pool *pool = new thread_pool();
        return *pool;
    }

    // False, having run nothing, when another call holds the pool.
    bool try_run(int64_t n, int threads, const chunk_fn &fn) {
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        call c;
        c.fn = &fn;
        c.n = n;
        c.seats = threads - 1;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            while (static_cast<int>(threads_.size()) < threads - 1)
                threads_.emplace_back([this] { serve(); });
            current_ = &c;
            ++generation_;
            published_.store(generation_, std::memory_order_release);
        }
        wake_.notify_all();
        const auto start = steady::now();
        const int64_t ran = run_claimed(c);
        // Every chunk is claimed. A pool thread still running one finishes within about a
        // chunk's time: watch for that long (yielding the core) rather than sleep, which would
        // add a wake-up (8-50 us) to the call. Then close the call to late threads and wait
        // for the ones that joined.
        const auto now = steady::now();
        const auto until = now + (now - start) / std::max<int64_t>(1, ran);
        while (c.running.load(std::memory_order_acquire) > 0 && steady::now() < until)
            std::this_thread::yield();
        std::unique_lock<std::mutex> lock(mutex_);
        current_ = nullptr;
        idle_.wait(lock, [this] { return joined_ == 0; });
        lock.unlock();
        if (c.failure) std::rethrow_exception(c.failure);
        return true;
    }

private:
    void serve() {
        uint64_t seen = 0;
        steady::duration chunk_time {0}; // of this thread's last chunk
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            // A graph's next primitive usually calls within microseconds: watch for it about as
            // long as a chunk took (yielding the core) before sleeping, which would cost the
            // next call a wake-up of 8-50 us (MobileNet v2 mb1: 4.6 -> 4.2 ms on quiet rounds).
            if (chunk_time.count() > 0 && !(current_ && generation_ != seen)) {
                lock.unlock();
                const auto until = steady::now() + std::min<steady::duration>(chunk_time, max_watch);
                while (published_.load(std::memory_order_acquire) == seen && steady::now() < until)
                    std::this_thread::yield();
                lock.lock();
            }
            wake_.wait(lock, [&] { return current_ && generation_ != seen; });
            seen = generation_;
            call &c = *current_;
            if (c.seats == 0) continue;
            --c.seats;
            ++joined_;
            c.running.fetch_add(1, std::memory_order_relaxed);
            lock.unlock();
            const auto start = steady::now();
            const int64_t ran = run_claimed(c);
            if (ran > 0) chunk_time = (steady::now() - start) / ran;
            c.running.fetch_sub(1, std::memory_order_release);
            lock.lock();
            if (--joined_ == 0) idle_.notify_all();
        }
    }

    std::mutex busy_;  // held by the call using the pool
    std::mutex mutex_; // guards everything below
    std::condition_variable wake_, idle_;
    std::vector<std::thread> threads_;
    call *current_ = nullptr; // the open call, if any
    uint64_t generation_ = 0; // counts calls, so a thread joins each at most once
    int joined_ = 0;          // pool threads inside the current call
    std::atomic<uint64_t> published_ {0}; // generation_, read without the mutex
};

// OMP_WAIT_POLICY=passive, read once (case-insensitive, as libgomp reads it).
bool passive_wait() {
    static const bool passive = [] {
        const char *policy = std::getenv("OMP_WAIT_POLICY");
        return policy && strcasecmp(policy, "passive") == 0;
    }();
    return passive;
}

} // namespace

void run_chunks(int64_t n_chunks, int threads, const chunk_fn &chunk) {
    if (threads <= 1 || n_chunks <= 1 || running_chunks || omp_in_parallel()) {
        for (int64_t i = 0; i < n_chunks; ++i) chunk(i);
        return;
    }
    if (!passive_wait()) {
        // OpenMP's threads spin between regions, so its join is cheap, and a second set of
        // threads would compete with them for the cores.
        // An exception may not leave an OpenMP region: it is kept and rethrown after it.
        std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int64_t i = 0; i < n_chunks; ++i) {
            try {
                chunk(i);
            } catch (...) {
#pragma omp critical(prim_run_chunks_failure)
                if (!failure) failure = std::current_exception();
            }
        }
        if (failure) std::rethrow_exception(failure);
        return;
    }
    if (!thread_pool::instance().try_run(n_chunks, threads, chunk))
        for (int64_t i = 0; i < n_chunks; ++i) chunk(i);
}

} // namespace jit
} // namespace prim
