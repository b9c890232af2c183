// run_chunks (src/jit/gen/thread_pool.hpp): every chunk runs exactly once for any chunk and thread
// count, from one user thread or several at once, nested inside a chunk, and inside an OpenMP
// region; the calls after a busy one still use the pool; an exception in a chunk reaches the
// caller.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <omp.h>

#include "jit/gen/thread_pool.hpp"

using prim::jit::run_chunks;

namespace {

// Runs n chunks on `threads` threads; every chunk must have run exactly once.
void check_each_once(int64_t n, int threads) {
    std::vector<std::atomic<int>> runs(static_cast<size_t>(n));
    for (auto &r : runs) r = 0;
    run_chunks(n, threads, [&](int64_t i) { runs[static_cast<size_t>(i)]++; });
    for (int64_t i = 0; i < n; ++i) {
        INFO("chunk " << i << " of " << n << ", threads " << threads);
        REQUIRE(runs[static_cast<size_t>(i)] == 1);
    }
}

} // namespace

TEST_CASE("run_chunks runs every chunk once", "[thread_pool]") {
    for (int threads : {1, 2, 3, 8})
        for (int64_t n : {0, 1, 2, 3, 7, 64, 1000}) check_each_once(n, threads);
}

TEST_CASE("run_chunks: a thread that runs chunks is the calling one or a pool thread", "[thread_pool]") {
    // With more chunks than threads the pool's threads may take some; at most threads distinct
    // threads ever run chunks of one call.
    std::mutex m;
    std::vector<std::thread::id> seen;
    run_chunks(200, 2, [&](int64_t) {
        std::lock_guard<std::mutex> lock(m);
        if (std::find(seen.begin(), seen.end(), std::this_thread::get_id()) == seen.end())
            seen.push_back(std::this_thread::get_id());
    });
    CHECK(seen.size() >= 1);
    CHECK(seen.size() <= 2);
}

TEST_CASE("run_chunks nested in a chunk runs on that chunk's thread", "[thread_pool]") {
    std::atomic<int> inner {0};
    std::atomic<bool> same_thread {true};
    run_chunks(4, 2, [&](int64_t) {
        const std::thread::id me = std::this_thread::get_id();
        run_chunks(5, 2, [&](int64_t) {
            if (std::this_thread::get_id() != me) same_thread = false;
            inner++;
        });
    });
    CHECK(inner == 20);
    CHECK(same_thread);
}

TEST_CASE("run_chunks inside an OpenMP region runs on the calling thread", "[thread_pool]") {
    std::atomic<int> total {0}, foreign {0}, team {0};
#pragma omp parallel num_threads(2)
    {
        team++;
        const std::thread::id me = std::this_thread::get_id();
        run_chunks(10, 2, [&](int64_t) {
            if (std::this_thread::get_id() != me) foreign++;
            total++;
        });
    }
    CHECK(total == 10 * team);
    CHECK(foreign == 0);
}

TEST_CASE("run_chunks from several user threads at once", "[thread_pool]") {
    // Calls that find the pool busy run alone; all complete with every chunk once.
    std::vector<std::thread> users;
    std::atomic<int> failures {0};
    for (int u = 0; u < 4; ++u)
        users.emplace_back([&] {
            for (int rep = 0; rep < 50; ++rep) {
                std::vector<std::atomic<int>> runs(97);
                for (auto &r : runs) r = 0;
                run_chunks(97, 2, [&](int64_t i) { runs[static_cast<size_t>(i)]++; });
                for (auto &r : runs)
                    if (r != 1) failures++;
            }
        });
    for (auto &t : users) t.join();
    CHECK(failures == 0);
    check_each_once(33, 2); // the pool is free again afterwards
}

TEST_CASE("run_chunks: a chunk that throws reaches the caller, and the next call runs", "[thread_pool]") {
    for (int threads : {1, 2, 3}) {
        INFO("threads " << threads);
        std::atomic<int> ran {0};
        CHECK_THROWS_AS(run_chunks(64, threads,
                                   [&](int64_t i) {
                                       ++ran;
                                       if (i == 5) throw std::runtime_error("chunk 5");
                                   }),
                        std::runtime_error);
        CHECK(ran >= 6); // chunk 5 ran; some after it may have been claimed before it threw
        check_each_once(100, threads);
    }
}
