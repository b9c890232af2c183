#include "prim/error.hpp"

namespace prim {

const char *status_name(status s) {
    switch (s) {
    case status::success: return "success";
    case status::invalid_arguments: return "invalid_arguments";
    case status::unimplemented: return "unimplemented";
    case status::out_of_memory: return "out_of_memory";
    case status::runtime_error: return "runtime_error";
    }
    return "unknown";
}

} // namespace prim
