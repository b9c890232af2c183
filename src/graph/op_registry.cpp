// The list of op families; one line per family.
#include "graph/op_registry.hpp"

#include <map>

namespace prim {
namespace graph {
namespace detail {

const op_def *find_op_def(const std::string &type) {
    static const std::map<std::string, op_def> table = [] {
        std::map<std::string, op_def> t;
        for (auto family : {conv_ops, gemm_ops, eltwise_ops, binary_ops, norm_ops, shape_ops,
                            pool_ops, softmax_concat_ops, expand_ops})
            for (auto &d : family()) t[d.type] = d;
        return t;
    }();
    auto it = table.find(type);
    return it == table.end() ? nullptr : &it->second;
}


} // namespace detail
} // namespace graph
} // namespace prim
