// One execute's copies of its kernels' constant tables, with the chain's runtime parameters
// written in (const_table.hpp). A kernel that reads a runtime table gets the copy's address in its
// call arguments; the others get null and read their own. Made once per execute, shared by every
// thread's calls: a few hundred bytes per kernel.
#pragma once
#include <cstdlib>
#include <memory>
#include <vector>

#include "jit/gen/jit_generator.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {

class runtime_tables {
public:
    // values: the runtime parameters by slot (exec_ptrs::runtime_params; empty when none).
    runtime_tables(const std::vector<const jit_generator *> &kernels, const std::vector<float> &values) {
        size_t bytes = 0;
        for (const jit_generator *k : kernels)
            if (k && k->reads_runtime_table()) bytes += (k->table().bytes() + 63) / 64 * 64;
        if (bytes == 0) return;
        buffer_.reset(static_cast<char *>(std::aligned_alloc(64, bytes)));
        if (!buffer_) throw error(status::out_of_memory, "cannot allocate a kernel's runtime table");
        size_t off = 0;
        for (const jit_generator *k : kernels) {
            if (!k || !k->reads_runtime_table()) continue;
            k->table().write_with_values(buffer_.get() + off, values);
            tables_.push_back({k, buffer_.get() + off});
            off += (k->table().bytes() + 63) / 64 * 64;
        }
    }
    // The table kernel k reads in this execute, or null for its own.
    const void *of(const jit_generator *k) const {
        for (const auto &t : tables_)
            if (t.kernel == k) return t.table;
        return nullptr;
    }

private:
    struct free_deleter {
        void operator()(char *p) const { std::free(p); }
    };
    struct entry {
        const jit_generator *kernel;
        const void *table;
    };
    std::unique_ptr<char, free_deleter> buffer_;
    std::vector<entry> tables_;
};

} // namespace jit
} // namespace prim
