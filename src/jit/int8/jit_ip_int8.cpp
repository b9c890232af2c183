// The JIT int8 inner product: the int8 GEMM (int8_gemm.hpp) on its src rows, one pixel each.
#include "common/plain_layout.hpp"
#include "jit/int8/int8_gemm.hpp"
#include "jit/int8/jit_ip_int8.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_jit_ip_int8(const ip_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    PRIM_DISPATCH(why_not, req.dst.is_any() || is_plain(req.dst), "dst is not plain (nc)");
    const ip_problem &p = req.prb;
    const memory::desc src = plain_if_any(req.src);
    int8_gemm_request g;
    g.geom.mb = p.mb;
    g.geom.c_total = g.geom.cg = p.ic * p.spatial();
    g.geom.src_s8 = src.get_data_type() == memory::data_type::s8;
    g.ip_spatial = p.spatial();
    g.ocg = p.oc;
    g.flops = p.flops();
    g.with_bias = req.with_bias;
    g.src_cl_md = is_plain(src) ? src : plain_desc(src.get_dims(), src.get_data_type());
    g.layouts = arg_layouts(src, req.wei, req.with_bias ? plain_if_any(req.bias) : memory::desc(),
                            plain_if_any(req.dst));
    g.packable = req.wei.get_dims().size() == 2; // with spatial dims, K is ic-major
    g.attr = req.attr;
    return create_int8_gemm(g, isa, why_not);
}

} // namespace impl
} // namespace prim
