// The int8 GEMM primitive (int8_gemm.hpp): creation checks, the blocking, the per-call
// preparation of weights and per-oc values, and the threaded walk over tiles.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include <omp.h>

#include "common/internal_reorder.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "common/weight_sums.hpp"
#include "jit/int8/int8_gemm.hpp"
#include "jit/int8/ip_int8_kernel.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/gen/scratch.hpp"
#include "jit/gen/thread_pool.hpp"
#include "jit/gen/uarch.hpp"
#include "jit/gen/work_threads.hpp"

namespace prim {
namespace impl {
namespace {

using dt = memory::data_type;
using jit::int8_gemm_shape;
using jit::ip_int8_args;
using jit::ip_int8_conf;
using jit::ip_int8_kernel;

// The register tile and the walk: mr rows x nr oc blocks per kernel call, oc in panels of nr
// blocks. Rows go in lines, a tile never crossing one: a convolution's lines are its output
// rows (ow pixels, whose taps are lda apart); pixels that map one to one onto the src form one
// line split in chunks. Lines go in chunks whose src stays in L2 while a thread's panels pass
// over it.
struct int8_blocking {
    // Lines are runs of pixels, cut anywhere (pixels that map one to one onto the src form, or
    // tiles that span rows); else they are output rows.
    bool pixel_lines = false;
    bool spans_rows = false;  // tiles_span_rows
    int mr = 1, nr = 1;
    int64_t oc_blocks = 1, oc_tail = 0;
    int64_t line_len = 1, lines = 1;   // rows per line (the last one may be shorter), lines
    int64_t chunk_lines = 1, chunks = 1;
    int8_gemm_shape shape;
};

// Tile rows at most: 8 x 3 on AVX-512, 3 x 3 on AVX2 (init_blocking).
int max_tile_rows(cpu_isa isa) { return isa == cpu_isa::avx512 ? 8 : 3; }

// A strided 1x1 convolution reading the user's src in place (VNNI, u8): its output pixels are
// runs of GEMM rows as one-to-one pixels are, a tile that crosses into the next output row
// reading that row's pixels from a second base (ip_int8_conf::row_split): 8-row tiles where
// ResNet's 7- and 14-pixel output rows made 7-row ones (+3-9%). Only for rows shorter than two
// tiles: on 28-pixel rows (tiles of 6, 6, 6, 6, 4 either way) spanning them was 6% slower. A
// tile spans two output rows at most.
bool tiles_span_rows(const int8_gemm_request &req, const jit::int8_src_form &form, cpu_isa isa) {
    const jit::int8_conv_geometry &g = req.geom;
    return !form.copy && g.taps() == 1 && !req.depthwise && !req.lines_are_rows && !form.pixels_one_to_one(g)
           && g.o[2] >= max_tile_rows(isa) - 1 && g.o[2] < 2 * max_tile_rows(isa);
}

// Few items: fewer than 4 a range (run's ranges: chunks_per_thread per thread).
bool few_items(int64_t items, int64_t ranges) { return items < 4 * ranges; }

// The chunks of a walk of `chunks` at least (and `most` at most), `items_per_chunk` items each:
// few items whose count the threads' ranges, or the threads, do not divide leave one thread an
// item more than the other, the call's time (mb2 56x56 3x3 64->64: 14 items in 8 ranges, 81% of
// the exact peak, 16 items 94-95%; res5a_branch2a's 1x1 s2: 11 items). Rounded up to whole
// rounds of the ranges, or else of the threads, where that at most doubles the chunks (each
// chunk reads its panels' weights again).
int64_t whole_rounds(int64_t chunks, int64_t most, int64_t items_per_chunk, int64_t ranges, int64_t threads) {
    if (!few_items(chunks * items_per_chunk, ranges)) return chunks;
    for (const int64_t unit : {ranges, threads}) {
        const int64_t step = unit / std::gcd(unit, items_per_chunk);
        const int64_t rounded = (chunks + step - 1) / step * step;
        if (rounded <= std::min(most, 2 * chunks)) return rounded;
    }
    return chunks;
}

// 8 x 3 on AVX-512 (24 accumulators + 3 weights + 2 broadcasts, or + 1 broadcast and 2 product
// temporaries for vpmaddwd), or 6 x 4 where that leaves fewer accumulator lanes idle: oc 64 is
// one panel of 4 blocks, not 3 + a 1-block panel that is all broadcasts; but a 7-pixel output
// row is one 7-row tile of 8, not 4 + 3 of 6. 3 x 3 on AVX2's 16 registers (9 + 3 + 1 + 2).
// Fewer rows when the chain needs more spares than the tile leaves; a convolution's lines in
// tiles of equal rows (ow 28: 4 x 7, not 3 x 8 + 4). "" or why not.
std::string init_blocking(int8_blocking &b, const int8_gemm_request &req,
                          const jit::int8_src_form &form, cpu_isa isa, bool vnni, int spares,
                          int64_t min_items, int threads) {
    const bool avx512 = isa == cpu_isa::avx512;
    const int simd_w = jit::simd_w_of(isa), n_vregs = jit::n_vregs_of(isa);
    int8_gemm_shape &s = b.shape;
    s.mb = req.geom.out_pixels();
    s.oc = req.ocg;
    s.groups = req.geom.groups;
    s.group = req.depthwise ? 1 : vnni ? 4 : 2;
    s.kp = req.depthwise ? req.geom.taps() : req.geom.taps() * form.cp;
    b.oc_blocks = (s.oc + simd_w - 1) / simd_w;
    b.oc_tail = s.oc % simd_w;
    // The share of a tile's accumulators that hold output, with nr blocks of mr rows at most.
    b.spans_rows = tiles_span_rows(req, form, isa);
    b.pixel_lines = (form.pixels_one_to_one(req.geom) && !req.lines_are_rows) || b.spans_rows;
    const int64_t line = b.pixel_lines ? std::max<int64_t>(s.mb, 1) : req.geom.o[2];
    const auto filled = [&](int64_t nr, int64_t mr) {
        const int64_t panels = (b.oc_blocks + nr - 1) / nr, tiles = (line + mr - 1) / mr;
        return static_cast<double>(b.oc_blocks * line) / static_cast<double>(panels * nr * tiles * mr);
    };
    const bool four = avx512 && filled(4, 6) > filled(3, 8);
    b.nr = static_cast<int>(std::min<int64_t>(four ? 4 : 3, b.oc_blocks));
    b.mr = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(four ? 6 : max_tile_rows(isa), s.mb)));
    const auto fits = [&] {
        return b.mr * b.nr + std::max(spares, ip_int8_kernel<cpu_isa::avx2>::loop_vregs(b.nr, vnni, req.depthwise))
               <= n_vregs;
    };
    while (!fits() && b.mr > 1) --b.mr;
    while (!fits() && b.nr > 1) --b.nr;
    if (!fits()) return "the post-ops chain needs more spare vector registers than any tile leaves";
    s.panel = static_cast<int64_t>(b.nr) * simd_w;
    s.panels = (b.oc_blocks + b.nr - 1) / b.nr;
    // Rows whose src (kp bytes, or 2 kp) fills at most 256 KiB of L2, in chunks of equal size
    // (whole tiles): items are split over the threads by count, so mb128 3072->768 in chunks of
    // 80 and 48 rows left one thread 5/8 of the work (0.83x oneDNN; 64 + 64 rows now).
    const int64_t row_bytes = s.kp * (vnni ? 1 : 2), rows = std::max<int64_t>(s.mb, 1);
    const int64_t max_chunk = std::max<int64_t>(1, (256 << 10) / std::max<int64_t>(1, row_bytes) / b.mr) * b.mr;
    // At least min_items items (group, chunk, panel) where the rows allow: the threads take
    // them dynamically, so a thread that wakes late finds the work done rather than the caller
    // waiting for its half.
    const int64_t want_chunks = (min_items + s.groups * s.panels - 1) / (s.groups * s.panels);
    if (b.pixel_lines) {
        const int64_t tiles = (rows + b.mr - 1) / b.mr;
        const int64_t n_chunks = whole_rounds(std::min(tiles, std::max((rows + max_chunk - 1) / max_chunk, want_chunks)),
                                              tiles, s.groups * s.panels, min_items, threads);
        b.line_len = (tiles + n_chunks - 1) / n_chunks * b.mr;
        b.lines = (rows + b.line_len - 1) / b.line_len;
        b.chunk_lines = 1;
    } else {
        b.line_len = req.geom.o[2];
        const int64_t tiles = (b.line_len + b.mr - 1) / b.mr;
        b.mr = static_cast<int>((b.line_len + tiles - 1) / tiles);
        b.lines = rows / b.line_len;
        const int64_t max_lines = std::max<int64_t>(1, max_chunk / b.line_len);
        const int64_t chunks = whole_rounds(std::max((b.lines + max_lines - 1) / max_lines, want_chunks),
                                            b.lines, s.groups * s.panels, min_items, threads);
        b.chunk_lines = std::max<int64_t>(1, (b.lines + chunks - 1) / chunks); // mb 0: no lines
    }
    b.chunks = (b.lines + b.chunk_lines - 1) / b.chunk_lines;
    return "";
}

// Chunks of items per thread (uarch.hpp): 4, or 16 for a short call (below 8 MFLOP per thread),
// whose second thread, waking late under OpenMP's passive wait, left the caller waiting for its
// half (MobileNet v2's 16 -> 96 1x1 at mb1, two threads: 0.044 ms at best, 0.55 on average).
int64_t chunks_per_thread(double flops, int threads) {
    const jit::uarch &u = jit::current_uarch();
    return flops / threads < u.conv_small_call_flops_per_thread ? u.conv_small_call_chunks_per_thread
                                                               : u.conv_chunks_per_thread;
}

// The kernel skips the taps that read padding, per line (kd, kh: the tap rows it is given) and
// per tile (kw: its rows' ranges in the code), where such a tap would add 0: no s8 shift and no
// src zero point (their compensation counts every tap), and at most max_kw_unroll taps along w.
// It then needs no padding in its src: a u8 channels-last src is read where it is, with no copy
// (ResNet-50's 3x3 layers at 7x7 read a fifth of their taps in the padding).
bool skips_padding(const int8_gemm_request &req, bool vnni) {
    const jit::int8_conv_geometry &g = req.geom;
    return !req.depthwise && g.taps() > 1 && g.reads_padding() && g.k[2] <= ip_int8_conf::max_kw_unroll
           && !(vnni && g.src_s8) && req.attr.get_quantization().src_zp_mask < 0;
}

// The kernels of a walk: per variant of a tile (its rows, the taps each row reads, where its
// rows cross into the next output row), full panels or the last one; a tile's key (the walk's
// tile_key) names its variant.
struct tile_kernels {
    std::vector<std::array<std::shared_ptr<const jit::jit_generator>, 2>> variants; // [.][last panel]
    std::vector<int> of_key; // -1: no tile has the key
    const jit::jit_generator &at(int64_t key, bool last_panel) const {
        const auto &v = variants[static_cast<size_t>(of_key[static_cast<size_t>(key)])];
        return *(last_panel && v[1] ? v[1] : v[0]);
    }
    std::vector<const jit::jit_generator *> all() const {
        std::vector<const jit::jit_generator *> v;
        for (const auto &k : variants)
            for (const auto &g : k) v.push_back(g.get());
        return v;
    }
};

// The K order the request's rows and the packed weights share.
jit::int8_k_map k_map_of(const int8_gemm_request &req, const jit::int8_src_form &f) {
    const jit::int8_conv_geometry &g = req.geom;
    if (req.depthwise) return jit::depthwise_k_map(g.taps());
    if (req.ip_spatial > 0) return jit::ip_k_map(g.cg / req.ip_spatial, req.ip_spatial, f.cp);
    return jit::conv_k_map(g.taps(), g.cg, f.cp);
}

template <cpu_isa isa>
class jit_int8_gemm : public int8_gemm_primitive {
public:
    // layouts: the primitive's, weights resolved (packed_md when they are the packed layout).
    jit_int8_gemm(const int8_gemm_request &req, const jit::int8_src_form &form, arg_layouts layouts,
                  const int8_blocking &blk, const post_ops &chain, bool vnni,
                  const memory::desc &packed_md)
        : int8_gemm_primitive(std::move(layouts)), req_(req), form_(form), k_map_(k_map_of(req, form)),
          blk_(blk), vnni_(vnni), skips_padding_(skips_padding(req, vnni)), chain_(chain),
          quant_(req.attr.get_quantization()), packed_md_(packed_md),
          kw_unroll_(req.geom.k[2] <= ip_int8_conf::max_kw_unroll ? req.geom.k[2] : 1),
          tap_rows_(form.tap_rows(req.geom, kw_unroll_)),
          fallback_(req.fallback ? req.fallback(this->layouts(), vnni) : nullptr) {
        const int8_gemm_shape &s = blk_.shape;
        const jit::int8_conv_geometry &g = req_.geom;
        repack_wei_ = packed_md_.is_zero() || wei_md().with_weight_sums(0) != packed_md_.with_weight_sums(0);
        // Without groups (depthwise runs as one), each thread converts the rows its chunk reads
        // into a buffer of its own, just before reading them: no pass of its own over memory,
        // no OpenMP region of its own. A chunk is converted once per run of items a thread
        // takes: a GEMM's panels all read the whole rows (converted again where a chunk's panels
        // go to several runs: cheap next to its K products per byte), a depthwise panel its own
        // channels alone, converted for it alone (whole rows per panel made MobileNet v2's 576
        // channels at 14x14 3x slower). Not for a grouped convolution (its items would convert
        // every group's channels once per group) nor where a GEMM's form pads the channels (a
        // first layer's 3, converted value by value: the halo rows converted twice cost more
        // than they save, ResNet-50's conv1 1.05-1.1x slower on one thread).
        rows_per_chunk_ = form_.copy && s.groups == 1 && (form_.cp == g.cg || req_.depthwise);
        // The weights' own sums give the compensation (a zero point per src channel does not
        // factor out of them but in depthwise, where a lane is one channel).
        comp_from_sums_ = !repack_wei_ && wei_md().weight_sums_dims() > 0
                && (quant_.src_zp_mask <= 0 || req_.depthwise);
        copy_src_ = src_md() != req_.src_cl_md && !req_.external_src;
        const int64_t oc_total = s.groups * s.oc;
        ip_int8_conf c;
        c.vnni = vnni_;
        c.lda = form_.lda(g);
        c.with_taps = req.depthwise || g.taps() > 1;
        // Few K groups per tap (a first layer's 3 channels: one): the kernel unrolls them.
        const int64_t tap_k_groups = req.depthwise ? 1 : form_.cp / std::max<int64_t>(1, s.group);
        c.tap_k_groups = c.with_taps && !req.depthwise && tap_k_groups <= 4 ? tap_k_groups : 0;
        c.depthwise = req.depthwise;
        c.src_s8 = g.src_s8;
        c.wei_k_step = s.panel * s.group;
        c.kw_unroll = kw_unroll_;
        c.kw_bytes = form_.kw_bytes(g);
        c.tap_wei_bytes = tap_k_groups * c.wei_k_step;
        c.dst_dt = static_cast<int64_t>(dst_md().get_data_type());
        c.ldc = req.dst_pixel_bytes ? req.dst_pixel_bytes
                                    : oc_total * static_cast<int64_t>(data_type_size(dst_md().get_data_type()));
        c.ld_op = oc_total;
        c.with_comp = form_.shift || quant_.src_zp_mask >= 0;
        c.with_pre = quant_.src_scale_mask >= 0 || quant_.wei_scale_mask >= 0;
        c.with_bias = req.with_bias;
        c.with_post = quant_.has_output_scales;
        c.with_dst_mul = quant_.dst_scale_mask >= 0;
        c.with_dst_zp = quant_.dst_zp_mask >= 0;
        // Two or more float steps, a scale among them, and no chain: one FMA (ip_int8_conf::folded).
        // Without a scale the steps are additions, which an s32 dst gets exactly (CONTRACT §6).
        c.folded = chain_.len() == 0 && (c.with_pre || c.with_post || c.with_dst_mul)
                && c.with_pre + c.with_bias + c.with_post + c.with_dst_mul + c.with_dst_zp >= 2;
        conf_ = c;
        make_kernels(c);
    }

    std::string name() const override {
        return std::string("jit:") + (vnni_ ? "avx512_vnni" : jit::isa_traits<isa>::name)
               + (repack_wei_ ? "+repack" : "");
    }

    // A call whose src zero point the form cannot hold runs the fallback (prepare): it says so.
    std::string call_name(const exec_ptrs &args) const override {
        std::vector<int16_t> pad;
        return form_.copy && !padding_values(args.quant, pad) ? fallback_->call_name(args) : name();
    }

    void execute(const exec_ptrs &args) const override {
        if (blk_.shape.mb == 0) return;
        const std::unique_ptr<int8_gemm_call> c = prepare(args);
        const call &d = static_cast<const call &>(*c);
        if (!d.src) return fallback_->execute(args);
        run(d);
    }

    std::unique_ptr<int8_gemm_call> prepare(const exec_ptrs &args) const override {
        const int8_gemm_shape &s = blk_.shape;
        const jit::int8_conv_geometry &g = req_.geom;
        const exec_ptrs::quant_values &q = args.quant;
        auto d = std::make_unique<call>(kernels_.all(), args);
        // The src channels-last, then in the kernel's form (whole, or by each thread per chunk).
        const void *src = args.src;
        if (copy_src_) {
            d->src_cl.resize(req_.src_cl_md.get_size());
            internal_reorder(src_md(), req_.src_cl_md)
                    .execute(memory(src_md(), const_cast<float *>(args.src)),
                             memory(req_.src_cl_md, d->src_cl.data()));
            src = d->src_cl.data();
        }
        // A src zero point the form cannot hold: no src, the fallback runs the call.
        if (form_.copy && !padding_values(q, d->pad)) return d;
        if (form_.copy && !rows_per_chunk_ && !req_.external_src) {
            d->src_form.resize(form_.bytes(g));
            jit::to_int8_src_form(g, form_, static_cast<const uint8_t *>(src), d->pad.data(), d->src_form.data());
            src = d->src_form.data();
        }
        d->src = static_cast<const uint8_t *>(src);
        d->wei = typed<int8_t>(args.wei);
        if (repack_wei_) {
            d->wei_copy.resize(static_cast<size_t>(s.groups * s.packed_bytes()));
            jit::pack_int8_weights(wei_md(), args.wei, s, k_map_, d->wei_copy.data());
            d->wei = d->wei_copy.data();
        }
        d->v = per_oc_values(q, args.bias, d->wei,
                             comp_from_sums_ ? weight_sums(wei_md(), args.wei) : nullptr);
        return d;
    }

    void run_lines(const int8_gemm_call &c, const int8_gemm_lines &where, int64_t line0,
                   int64_t line1, int64_t panel0, int64_t panel1) const override {
        const call &d = static_cast<const call &>(c);
        tile_scratch scratch;
        scratch.op_values.resize(d.ops.size());
        // What the caller leaves out is the call's own: its src, its dst.
        int8_gemm_lines io {where.src ? where.src : d.src, where.src ? where.src_first : 0,
                            where.dst ? where.dst : reinterpret_cast<char *>(d.dst),
                            where.dst ? where.dst_line_bytes : blk_.line_len * conf_.ldc};
        chunk_src rows;
        for (int64_t p = panel0; p < panel1; ++p) {
            if (!where.src && rows_per_chunk_) {
                convert_rows(line0, line1, p, d, rows);
                io.src = rows.rows;
                io.src_first = rows.first_byte;
            }
            run_tiles(d, io, 0, p, line0, line1, scratch);
        }
    }

    const jit::int8_src_form &src_form() const override { return form_; }
    int64_t panel_channels() const override { return blk_.shape.panel; }
    int64_t panels() const override { return blk_.shape.panels; }

private:
    // The key of the tile at row m of a line [m_line, m_end) (tile_kernels): a convolution line's
    // tiles by their place in it; lines of pixels by their rows and where they cross into the
    // next output row (row_split).
    int64_t tile_key(int64_t m, int64_t m_line, int64_t m_end) const {
        const int64_t mr = blk_.mr;
        if (!blk_.pixel_lines) return (m - m_line) / mr;
        const int64_t rows = std::min(mr, m_end - m);
        return (rows - 1) * mr + row_split(m, rows);
    }

    // Where the tile at row m (rows rows) reads its rows from a second base: 0, or its first row
    // of the next output row when its rows cross one and their pixels are not evenly spaced (a
    // strided 1x1 convolution reading the user's src in place).
    int64_t row_split(int64_t m, int64_t rows) const {
        if (!blk_.spans_rows) return 0;
        const int64_t split = req_.geom.o[2] - m % req_.geom.o[2];
        return split < rows ? split : 0;
    }

    // The conf of the tile at row m of a line [m_line, m_end): its rows, per tap of a tap row the
    // rows that read it inside the input, its row split.
    ip_int8_conf tile_conf(ip_int8_conf c, int64_t m, int64_t m_line, int64_t m_end) const {
        c.mr = std::min<int64_t>(blk_.mr, m_end - m);
        c.row_split = row_split(m, c.mr);
        const int64_t w0 = m - m_line; // a convolution line's first pixel has ow 0
        for (int64_t kw = 0; kw < c.kw_unroll; ++kw) {
            int64_t first = c.mr, last = 0; // the rows whose tap kw is inside
            for (int64_t r = 0; r < c.mr; ++r) {
                int64_t k0 = 0, k1 = req_.geom.k[2];
                if (skips_padding_) req_.geom.taps_inside(2, w0 + r, k0, k1);
                if (kw < k0 || kw >= k1) continue;
                first = std::min(first, r);
                last = r + 1;
            }
            c.kw_rows[kw][0] = first < last ? first : 0;
            c.kw_rows[kw][1] = first < last ? last : 0;
        }
        return c;
    }

    // The kernels (tile_kernels) of every tile's variant, for full panels and the last one.
    void make_kernels(const ip_int8_conf &c) {
        const int8_gemm_shape &s = blk_.shape;
        const int64_t last_nr = blk_.oc_blocks - (s.panels - 1) * blk_.nr;
        const bool last_differs = last_nr != blk_.nr || blk_.oc_tail != 0;
        std::vector<ip_int8_conf> seen;
        const auto variant_of = [&](const ip_int8_conf &v) {
            size_t i = 0;
            while (i < seen.size() && std::memcmp(&seen[i], &v, sizeof v) != 0) ++i;
            if (i < seen.size()) return static_cast<int>(i);
            seen.push_back(v);
            std::array<std::shared_ptr<const jit::jit_generator>, 2> k;
            for (int p = 0; p < (last_differs ? 2 : 1); ++p) {
                ip_int8_conf pc = v;
                pc.nr = p == 0 ? blk_.nr : last_nr;
                pc.tail = p == 0 ? 0 : blk_.oc_tail;
                k[p] = jit::kernel_cache::instance().get_or_create(
                        ip_int8_kernel<isa>::cache_key(pc, chain_),
                        [&] { return std::make_unique<ip_int8_kernel<isa>>(pc, chain_); });
            }
            kernels_.variants.push_back(k);
            return static_cast<int>(i);
        };
        kernels_.of_key.assign(static_cast<size_t>(std::max<int64_t>(blk_.mr * blk_.mr, blk_.line_len)), -1);
        for (int64_t line = 0; line < blk_.lines; ++line) {
            // Without row splits every line but the last has the first one's tiles.
            if (!blk_.spans_rows && line > 0 && line < blk_.lines - 1) continue;
            const int64_t m_line = line * blk_.line_len, m_end = std::min(s.mb, m_line + blk_.line_len);
            for (int64_t m = m_line; m < m_end; m += blk_.mr) {
                int &v = kernels_.of_key[static_cast<size_t>(tile_key(m, m_line, m_end))];
                if (v < 0) v = variant_of(tile_conf(c, m, m_line, m_end));
            }
        }
    }

    // The tap rows line `line` reads: all of them, or where the kernel skips the padding those of
    // its (kd, kh) inside the input, gathered into `scratch`.
    std::pair<const jit::int8_tap_row *, int64_t> line_tap_rows(int64_t line,
                                                                 std::vector<jit::int8_tap_row> &scratch) const {
        if (!skips_padding_) return {tap_rows_.data(), static_cast<int64_t>(tap_rows_.size())};
        const jit::int8_conv_geometry &g = req_.geom;
        const int64_t oh = line % g.o[1], od = line / g.o[1] % g.o[0]; // a line is an output row
        int64_t d0, d1, h0, h1;
        g.taps_inside(0, od, d0, d1);
        g.taps_inside(1, oh, h0, h1);
        scratch.clear();
        for (int64_t kd = d0; kd < d1; ++kd) // one row per (kd, kh): kw_unroll is kw
            for (int64_t kh = h0; kh < h1; ++kh) scratch.push_back(tap_rows_[static_cast<size_t>(kd * g.k[1] + kh)]);
        return {scratch.data(), static_cast<int64_t>(scratch.size())};
    }

    // Per group, per output channel over whole panels (padding lanes 0), so that the kernel
    // loads whole vectors.
    struct per_oc {
        std::vector<int32_t> comp;
        std::vector<float> pre, bias, post, dst_zp;
        float dst_mul = 1.f;
    };
    // One execute's data (prepare). src null: the fallback runs the call.
    struct call : int8_gemm_call {
        call(const std::vector<const jit::jit_generator *> &kernels, const exec_ptrs &args)
            : dst(args.dst), ops(args.post_op), tables(kernels, args.runtime_params) {}
        const uint8_t *src = nullptr; // in the kernel's form; the user's (channels-last) when
                                      // rows_per_chunk_ (external_src: given to run_lines)
        const int8_t *wei = nullptr;
        float *dst;
        std::vector<const float *> ops;
        std::vector<int16_t> pad; // each channel's padding value in the form (padding_values)
        per_oc v;
        jit::runtime_tables tables;
        std::vector<uint8_t> src_cl, src_form; // the copies src may point into
        std::vector<int8_t> wei_copy;
    };

    // sums: the weights' sums (weight_sums.hpp) when they give the compensation, else null.
    per_oc per_oc_values(const exec_ptrs::quant_values &q, const float *bias_ptr,
                         const int8_t *wei, const int32_t *sums) const {
        const int8_gemm_shape &s = blk_.shape;
        per_oc v;
        if (conf_.with_comp && sums) {
            // -(shift + zp) · sum of the channel's weights; padding lanes 0.
            v.comp.assign(static_cast<size_t>(s.groups * s.ocp()), 0);
            const int32_t shift = form_.shift ? 128 : 0;
            for (int64_t g = 0; g < s.groups; ++g)
                for (int64_t c = 0; c < s.oc; ++c) {
                    const int32_t *zp = q.src_zero_points;
                    const int32_t z = shift + (zp ? zp[quant_.src_zp_mask > 0 ? c : 0] : 0);
                    v.comp[static_cast<size_t>(g * s.ocp() + c)] = -z * sums[g * s.oc + c];
                }
        } else if (conf_.with_comp) {
            v.comp.resize(static_cast<size_t>(s.groups * s.ocp()));
            jit::int8_compensation(wei, s, k_map_, form_.shift ? 128 : 0,
                                   q.src_zero_points, quant_.src_zp_mask > 0, v.comp.data());
        }
        // value(c) for every output channel c of every group, at its padded place.
        const auto fill = [&](std::vector<float> &out, auto value) {
            out.assign(static_cast<size_t>(s.groups * s.ocp()), 0.f);
            for (int64_t g = 0; g < s.groups; ++g)
                for (int64_t c = 0; c < s.oc; ++c)
                    out[static_cast<size_t>(g * s.ocp() + c)] = value(g * s.oc + c);
        };
        if (conf_.with_pre) {
            // As the reference: src scale times the weights' scale, rounded to f32 once.
            const float src_scale = q.src_scales ? q.src_scales[0] : 1.f;
            fill(v.pre, [&](int64_t c) {
                const float w = q.wei_scales ? q.wei_scales[quant_.wei_scale_mask > 0 ? c : 0] : 1.f;
                return src_scale * w;
            });
        }
        if (conf_.with_bias) {
            const plain_buffer bias(bias_md(), bias_ptr, true); // s32 bias converted exactly
            fill(v.bias, [&](int64_t c) { return bias.get()[c]; });
        }
        if (conf_.with_post) {
            const float *values = q.output_scales ? q.output_scales : quant_.output_scales.data();
            fill(v.post, [&](int64_t c) { return values[quant_.output_scales_mask != 0 ? c : 0]; });
        }
        if (conf_.with_dst_zp)
            fill(v.dst_zp, [&](int64_t c) {
                return static_cast<float>(q.dst_zero_points[quant_.dst_zp_mask > 0 ? c : 0]);
            });
        v.dst_mul = conf_.with_dst_mul ? 1.f / q.dst_scales[0] : 1.f;
        if (conf_.folded) fold(v);
        return v;
    }

    // The float steps as x · scale + shift (ip_int8_conf::folded): scale = pre · post · dst_mul
    // in pre, shift = bias · post · dst_mul + dst_zp in bias, each step's absent factor 1 (0).
    void fold(per_oc &v) const {
        const size_t n = static_cast<size_t>(blk_.shape.groups * blk_.shape.ocp());
        const auto at = [](const std::vector<float> &a, size_t i, float none) { return a.empty() ? none : a[i]; };
        std::vector<float> scale(n), shift(n);
        for (size_t i = 0; i < n; ++i) {
            const float to_dst = at(v.post, i, 1.f) * v.dst_mul;
            scale[i] = at(v.pre, i, 1.f) * to_dst;
            shift[i] = at(v.bias, i, 0.f) * to_dst + at(v.dst_zp, i, 0.f);
        }
        v.pre = std::move(scale);
        v.bias = std::move(shift);
    }

    // pad = each src channel's padding value in the kernel's form: its zero point plus the s8
    // shift (int8_src_form.hpp). False when the form's u8 (or s16) cannot hold one: the
    // fallback runs the call (a request whose convolution reads padding with a src zero point
    // has one; no other can get here).
    bool padding_values(const exec_ptrs::quant_values &q, std::vector<int16_t> &pad) const {
        const jit::int8_conv_geometry &g = req_.geom;
        pad.assign(static_cast<size_t>(g.groups * g.cg), 0);
        if (!g.reads_padding()) return true;
        const int32_t shift = form_.shift ? 128 : 0;
        const bool s8_bytes = form_.elem == 1 && g.src_s8 && !form_.shift;
        const int32_t lo = form_.elem == 2 ? INT16_MIN : s8_bytes ? -128 : 0;
        const int32_t hi = form_.elem == 2 ? INT16_MAX : s8_bytes ? 127 : 255;
        for (size_t c = 0; c < pad.size(); ++c) {
            const int32_t zp = q.src_zero_points ? q.src_zero_points[quant_.src_zp_mask > 0 ? c : 0] : 0;
            const int64_t value = static_cast<int64_t>(zp) + shift;
            if (value < lo || value > hi) return false;
            pad[c] = static_cast<int16_t>(value);
        }
        return true;
    }

    // Items are (group, chunk of lines, panel), panels innermost so that consecutive items reuse
    // the same src; the threads take contiguous ranges of them dynamically, chunks_per_thread
    // each (as the f32 convolution). A dst value is computed by one item.
    void run(const call &d) const {
        const int8_gemm_shape &s = blk_.shape;
        const int64_t n_items = s.groups * blk_.chunks * s.panels;
        const int threads = jit::threads_for_work(req_.flops, n_items);
        const int64_t ranges = chunks_per_thread(req_.flops, threads) * threads;
        // Few items go one at a time, so the threads end at most one item apart; not where a
        // thread converts the src for its run of items (rows_per_chunk_), whose runs stay long.
        const int64_t n_chunks = few_items(n_items, ranges) && !rows_per_chunk_ ? n_items : std::min(n_items, ranges);
        const auto items = [&](int64_t first, int64_t last) {
            tile_scratch scratch;
            scratch.op_values.resize(d.ops.size());
            chunk_src rows;
            for (int64_t item = first; item < last; ++item) run_item(item, d, scratch, rows);
        };
        if (threads == 1) return items(0, n_items);
        jit::run_chunks(n_chunks, threads, [&](int64_t chunk) {
            items(n_items * chunk / n_chunks, n_items * (chunk + 1) / n_chunks);
        });
    }

    // What a thread's kernel calls fill before each call: the operands' addresses, a line's tap rows.
    struct tile_scratch {
        std::vector<int64_t> op_values;
        std::vector<jit::int8_tap_row> tap_rows;
    };

    // The src rows a thread converted (rows_per_chunk_): the form's rows from byte `first_byte`
    // on, for lines [line0, line1) (depthwise: of panel `panel`).
    struct chunk_src {
        int64_t line0 = -1, line1 = -1, panel = -1, first_byte = 0;
        const uint8_t *rows = nullptr;
    };

    // The form's bytes lines [line0, line1) read: from their first pixel's tap 0 to their last
    // pixel's last tap, in whole rows, converted into the thread's buffer unless it holds them
    // already. A depthwise panel reads its own channels alone: converted for it alone.
    void convert_rows(int64_t line0, int64_t line1, int64_t panel, const call &d, chunk_src &c) const {
        if (!req_.depthwise) panel = 0;
        if (c.line0 == line0 && c.line1 == line1 && c.panel == panel) return;
        const int8_gemm_shape &s = blk_.shape;
        const jit::int8_conv_geometry &g = req_.geom;
        const int64_t m0 = line0 * blk_.line_len, m1 = std::min(s.mb, line1 * blk_.line_len);
        const int64_t last_tap = form_.last_tap_offset(g);
        const int64_t row_bytes = form_.row_bytes(g);
        const int64_t row0 = form_.pixel_offset(g, m0, 0) / row_bytes;
        const int64_t row1 = (form_.pixel_offset(g, m1 - 1, 0) + last_tap + form_.pixel_bytes(g) + row_bytes - 1) / row_bytes;
        auto *buf = reinterpret_cast<uint8_t *>(jit::thread_buffer<jit::thread_slot::int8_src_rows>(
                static_cast<size_t>((row1 - row0) * row_bytes)));
        if (req_.depthwise)
            jit::to_int8_src_form_slice(g, form_, d.src, d.pad.data(), row0, row1, panel * s.panel,
                                        std::min(form_.cp, (panel + 1) * s.panel), buf);
        else
            jit::to_int8_src_form_rows(g, form_, d.src, d.pad.data(), row0, row1, buf);
        c = {line0, line1, panel, row0 * row_bytes, buf};
    }

    void run_item(int64_t item, const call &d, tile_scratch &scratch, chunk_src &rows) const {
        const int8_gemm_shape &s = blk_.shape;
        const int64_t p = item % s.panels, chunk = item / s.panels % blk_.chunks;
        const int64_t grp = item / s.panels / blk_.chunks;
        const int64_t line0 = chunk * blk_.chunk_lines;
        const int64_t line1 = std::min(blk_.lines, line0 + blk_.chunk_lines);
        if (rows_per_chunk_) convert_rows(line0, line1, p, d, rows);
        const int8_gemm_lines io {rows_per_chunk_ ? rows.rows : d.src, rows_per_chunk_ ? rows.first_byte : 0,
                                  reinterpret_cast<char *>(d.dst), blk_.line_len * conf_.ldc};
        run_tiles(d, io, grp, p, line0, line1, scratch);
    }

    // The kernel calls of lines [line0, line1) of group grp, panel p.
    void run_tiles(const call &d, const int8_gemm_lines &io, int64_t grp, int64_t p, int64_t line0,
                   int64_t line1, tile_scratch &scratch) const {
        const int8_gemm_shape &s = blk_.shape;
        const jit::int8_conv_geometry &g = req_.geom;
        const int64_t oc0 = grp * s.oc + p * s.panel; // over all groups
        const int64_t v0 = grp * s.ocp() + p * s.panel; // in the per-oc arrays
        const int64_t dst_size = static_cast<int64_t>(data_type_size(dst_md().get_data_type()));
        const auto at = [&](const auto &vec) { return vec.empty() ? nullptr : vec.data() + v0; };
        ip_int8_args a;
        a.wei = d.wei + grp * s.packed_bytes() + p * s.panel * s.kp;
        a.k_groups = req_.depthwise ? 1 : form_.cp / s.group; // per tap
        a.comp = at(d.v.comp);
        a.pre = at(d.v.pre);
        a.bias = at(d.v.bias);
        a.post = at(d.v.post);
        a.dst_zp = at(d.v.dst_zp);
        a.dst_mul = &d.v.dst_mul;
        a.post_op = scratch.op_values.data();
        const int64_t lda = conf_.lda;
        for (int64_t line = line0; line < line1; ++line) {
            const int64_t m_line = line * blk_.line_len;
            const int64_t m_end = std::min(s.mb, m_line + blk_.line_len);
            // The line's first output pixel; its row tiles follow lda apart (a convolution's line
            // is one output row; one-to-one pixels, any run). Depthwise: the panel's own channels
            // (the lanes); a GEMM's panels share their K.
            // (Where the kernel skips the padding, a line's tap 0 may lie before the user's src:
            // an address, never read.)
            const uint8_t *line_src = reinterpret_cast<const uint8_t *>(
                    reinterpret_cast<intptr_t>(io.src) + form_.pixel_offset(g, m_line, grp) - io.src_first
                    + (req_.depthwise ? p * s.panel : 0));
            std::tie(a.tap_rows, a.n_tap_rows) = line_tap_rows(line, scratch.tap_rows);
            char *line_dst = io.dst + line * io.dst_line_bytes + oc0 * dst_size;
            for (int64_t m = m_line; m < m_end; m += blk_.mr) {
                if (blk_.spans_rows) { // each tile at its own pixel, its split rows at theirs
                    const int64_t split = row_split(m, std::min<int64_t>(blk_.mr, m_end - m));
                    a.src = io.src + form_.pixel_offset(g, m, grp) - io.src_first;
                    a.src2 = io.src + form_.pixel_offset(g, m + split, grp) - io.src_first;
                } else {
                    a.src = line_src + (m - m_line) * lda;
                }
                a.dst = line_dst + (m - m_line) * conf_.ldc;
                if (!d.ops.empty()) operand_values(d.ops, m, oc0, scratch.op_values.data());
                const jit::jit_generator &k = kernels_.at(tile_key(m, m_line, m_end), p == s.panels - 1);
                a.table = d.tables.of(&k);
                k.entry_as<jit::ip_int8_fn>()(&a);
            }
        }
    }

    // Each operand's value for the tile at row m, output channel oc0 (ip_int8_args::post_op):
    // the address of its first value there, elements of the entry's type.
    void operand_values(const std::vector<const float *> &ops, int64_t m, int64_t oc0,
                        int64_t *out) const {
        using policy = post_ops::policy;
        for (size_t i = 0; i < ops.size(); ++i) {
            const post_ops::entry &e = chain_.entries()[i];
            const char *op = reinterpret_cast<const char *>(ops[i]);
            const int64_t size = static_cast<int64_t>(data_type_size(operand_type(e)));
            int64_t first = 0; // in elements
            switch (e.mask) {
            case policy::per_oc: first = oc0; break;
            case policy::per_mb_spatial: first = m; break;
            case policy::per_tensor: first = m * conf_.ld_op + oc0; break;
            default: break;
            }
            out[i] = reinterpret_cast<intptr_t>(op + first * size);
        }
    }

    int8_gemm_request req_;
    jit::int8_src_form form_;
    jit::int8_k_map k_map_;
    int8_blocking blk_;
    bool vnni_;
    bool skips_padding_; // the taps in the padding (skips_padding)
    post_ops chain_; // the kernel chain (kernel_chain_plan.hpp)
    quantization quant_;
    memory::desc packed_md_; // zero when the K order has no packed layout
    int64_t kw_unroll_; // taps of a tap row (ip_int8_conf::kw_unroll)
    std::vector<jit::int8_tap_row> tap_rows_; // all of them
    std::unique_ptr<primitive_impl> fallback_; // see int8_gemm_request::fallback
    bool repack_wei_ = false, copy_src_ = false, comp_from_sums_ = false, rows_per_chunk_ = false;
    ip_int8_conf conf_;
    tile_kernels kernels_; // ip_int8_kernel<isa>, cached
};

// True when md's elements sit at offsets 0, 1, 2, ... in row-major order of its dims: a
// per_oc operand (1 x C x 1 x 1) read as one vector along the channels, a per_mb_spatial one
// (N x 1 x H x W) as one value per GEMM row, whatever pattern names dims of size 1.
bool dense_row_major(const memory::desc &md) {
    memory::dims idx(static_cast<size_t>(md.ndims()), 0);
    const memory::dims &d = md.get_dims();
    memory::dim count = 1;
    for (memory::dim x : d) count *= x;
    for (memory::dim n = 0; n < count; ++n) {
        if (md.offset(idx.data()) != n) return false;
        for (int i = md.ndims() - 1; i >= 0 && ++idx[i] == d[i]; --i) idx[i] = 0;
    }
    return true;
}

// The kernel reads per_oc and per_mb_spatial operands dense row-major, per_tensor ones in dst's
// own layout, of any type; "" or why not. dst: the primitive's dst layout.
std::string operands_unreadable(const post_ops &user, const post_ops &kernel_chain,
                                const memory::desc &dst) {
    for (int i = 0; i < kernel_chain.len(); ++i) {
        const post_ops::entry &e = kernel_chain.entries()[i], &u = user.entries()[i];
        if (e.kind != post_ops::kind::binary && e.kind != post_ops::kind::prelu) continue;
        const memory::desc md = operand_desc(u, dst);
        if (e.mask == post_ops::policy::per_tensor
                && (md != memory::desc(dst.get_dims(), md.get_data_type(), dst.layout()) || !md.is_dense()))
            return operand_name(e, i) + ": the int8 kernel reads it in dst's layout";
        if ((e.mask == post_ops::policy::per_oc || e.mask == post_ops::policy::per_mb_spatial)
                && !dense_row_major(md))
            return operand_name(e, i) + ": the int8 kernel reads it dense, in row-major order";
    }
    return "";
}

template <cpu_isa isa>
std::unique_ptr<int8_gemm_primitive> create(const int8_gemm_request &req, bool vnni, std::string &why_not) {
    const jit::int8_src_form form = jit::make_int8_src_form(
            req.geom, req.depthwise ? jit::isa_traits<isa>::simd_w : vnni ? 4 : 2, req.depthwise,
            skips_padding(req, vnni));
    const memory::desc &dst = req.layouts.dst;
    jit::kernel_chain_needs needs;
    needs.operand_types = true;
    needs.operand_mask_spare = true; // AVX2 keeps a tail mask for the operand loads
    const jit::kernel_chain_plan plan = jit::plan_kernel_chain(isa, req.attr.get_post_ops(), dst, needs);
    PRIM_DISPATCH(why_not, plan.why_not.empty(), plan.why_not);
    const post_ops &chain = plan.chain;
    const std::string unread = operands_unreadable(req.attr.get_post_ops(), chain, dst);
    PRIM_DISPATCH(why_not, unread.empty(), unread);

    int8_blocking blk;
    const int threads = omp_get_max_threads();
    const std::string blocking_error = init_blocking(blk, req, form, isa, vnni, plan.aux_vecs,
                                                     chunks_per_thread(req.flops, threads) * threads, threads);
    PRIM_DISPATCH(why_not, blocking_error.empty(), blocking_error);
    const int8_gemm_shape &s = blk.shape;
    // The s32 accumulator holds K products of at most 255 · 128 without wrapping.
    PRIM_DISPATCH(why_not, s.kp <= INT32_MAX / (255 * 128),
                  "ic * kernel spatial above 65793: the s32 accumulator could wrap");
    const int64_t limit = INT32_MAX - 1024; // 32-bit displacements of rows in the kernel
    PRIM_DISPATCH(why_not, form.lda(req.geom) * blk.mr < limit
                           && s.groups * s.oc * 4 * blk.mr < limit
                           && form.kw_bytes(req.geom) * req.geom.k[2] < limit && s.kp * s.panel < limit,
                  "rows, taps or weights too far apart for the kernel's 32-bit offsets");
    // 'any' weights become the packed layout where the K order allows, else plain.
    const memory::dims &wdims = req.layouts.wei.get_dims();
    const memory::desc packed = !req.packable ? memory::desc()
            : req.depthwise ? jit::packed_depthwise_weights_desc(wdims, s.panel)
                            : jit::packed_int8_weights_desc(wdims, req.grouped_wei, s.panel, s.group);
    // The packed layout carries the weights' sums, which the reorder into it computes once.
    const memory::desc packed_sums = packed.is_zero() ? packed : packed.with_weight_sums(req.grouped_wei ? 2 : 1);
    arg_layouts layouts = req.layouts;
    if (layouts.wei.is_any()) layouts.wei = packed.is_zero() ? plain_if_any(layouts.wei) : packed_sums;
    return std::make_unique<jit_int8_gemm<isa>>(req, form, std::move(layouts), blk, chain, vnni, packed);
}

} // namespace

std::unique_ptr<int8_gemm_primitive> create_int8_gemm(const int8_gemm_request &req, cpu_isa isa,
                                                      std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const dt src = req.src_cl_md.get_data_type(), wei = req.layouts.wei.get_data_type();
    PRIM_DISPATCH(why_not, src == dt::u8 || src == dt::s8, "src is not int8 (the f32 kernels')");
    PRIM_DISPATCH(why_not, wei == dt::s8, "weights are not s8");
    if (isa >= cpu_isa::avx512) return create<cpu_isa::avx512>(req, isa >= cpu_isa::avx512_vnni, why_not);
    return create<cpu_isa::avx2>(req, false, why_not);
}

} // namespace impl
} // namespace prim
