// The detached weights (model_file) copied into f32 vectors, started before ONNX's checker and
// shape inference: those are one thread's work (8 ms of ResNet-50's load), during which a helper
// thread copies; the caller then joins the copy with the other threads. Most of a copy's time is
// the first touch of its new memory, which each thread pays for its own pages.
#pragma once
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "model_file.hpp"

namespace prim {
namespace onnx_impl {

class weight_copies {
public:
    // Starts the helper when more than one thread is allowed (OpenMP's thread count).
    explicit weight_copies(std::vector<detached_tensor> tensors);
    // Stops the helper after its current tensor (a load refused by the checker waits no longer).
    ~weight_copies();
    weight_copies(const weight_copies &) = delete;
    weight_copies &operator=(const weight_copies &) = delete;

    const std::vector<detached_tensor> &tensors() const { return tensors_; }
    // Copies what is left on the caller's threads, waits for the helper, and returns the values
    // (values[i] of tensors()[i]); rethrows a copy's failure. Once only.
    std::vector<std::vector<float>> take();

private:
    void copy_claimed(); // claims tensors one at a time until none is left or stop_
    std::vector<detached_tensor> tensors_;
    std::vector<std::vector<float>> values_;
    std::atomic<size_t> next_{0};
    std::atomic<bool> stop_{false};
    std::mutex failure_mutex_;
    std::exception_ptr failure_;
    std::thread helper_;
};

} // namespace onnx_impl
} // namespace prim
