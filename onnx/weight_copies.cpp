#include "weight_copies.hpp"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tensor_proto.hpp"

namespace prim {
namespace onnx_impl {

namespace {
int allowed_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
} // namespace

weight_copies::weight_copies(std::vector<detached_tensor> tensors)
    : tensors_(std::move(tensors)), values_(tensors_.size()) {
    if (allowed_threads() > 1 && !tensors_.empty()) helper_ = std::thread([this] { copy_claimed(); });
}

weight_copies::~weight_copies() {
    stop_ = true;
    if (helper_.joinable()) helper_.join();
}

void weight_copies::copy_claimed() {
    while (!stop_) {
        const size_t i = next_++;
        if (i >= tensors_.size()) return;
        try {
            const detached_tensor &t = tensors_[i];
            const size_t element_bytes = t.elem_type == ::onnx::TensorProto::FLOAT ? sizeof(float) : 1;
            values_[i] = f32_from_bytes(t.bytes, t.size / element_bytes, t.elem_type);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex_);
            failure_ = std::current_exception();
            stop_ = true;
        }
    }
}

std::vector<std::vector<float>> weight_copies::take() {
    // The helper is one of the allowed threads: the caller's team makes up the rest.
    const int team = std::max(1, allowed_threads() - (helper_.joinable() ? 1 : 0));
#pragma omp parallel num_threads(team)
    copy_claimed();
    if (helper_.joinable()) helper_.join();
    if (failure_) std::rethrow_exception(failure_);
    return std::move(values_);
}

} // namespace onnx_impl
} // namespace prim
