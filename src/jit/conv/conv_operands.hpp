// How the JIT convolution hands each binary or prelu operand to its kernels (conv_operand.hpp
// says what the kernels read): the creation-time check of the operands' layouts, the per-call
// repack of a full-tensor operand whose layout is not the kernel's dst layout, and the per-call
// values of each work item.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/internal_reorder.hpp"
#include "jit/conv/conv_conf.hpp"

namespace prim {
namespace jit {

class conv_operands {
public:
    // "" when the kernels can read every operand of s.chain (a kernel chain) given in these
    // user descs (one per entry, zero for entries without an operand), else why not.
    static std::string check(const conv_setup &s, const std::vector<memory::desc> &mds);
    conv_operands(const conv_setup &s, const std::vector<memory::desc> &mds);

    bool any() const { return !entries_.empty(); }
    // Per entry, the operand as the kernels read it: the user's, or for a per_tensor one in
    // another layout, a copy in the kernel's dst layout made here into `copies`.
    std::vector<const float *> prepare(const std::vector<const float *> &user,
                                       std::vector<std::vector<float>> &copies) const;
    // The call's value for each entry (conv_call_args::post_op) at image n, group g, first
    // oc block ocb0, output depth od and row oh (kernel geometry).
    void values(const std::vector<const float *> &ops, const float *kdst, int64_t n, int64_t g,
                int64_t ocb0, int64_t od, int64_t oh, int64_t *out) const;

private:
    struct entry {
        bool present = false;                     // the entry has an operand
        int access = 0;                           // its access (a policy mask)
        std::unique_ptr<impl::internal_reorder> to_kdst; // per_tensor in another layout
        memory::desc user_md, kmd;                // the user's layout, the kernels'

        int64_t stride_n = 0;                     // elements per image, 0 with one image
    };
    const conv_conf &c_;
    std::vector<entry> entries_; // one per chain entry when the chain has operands, else none
};

} // namespace jit
} // namespace prim
