// prim: the one exception type every public call throws.
#pragma once
#include <stdexcept>
#include <string>

#include "prim/api.hpp"

namespace prim {

enum class status {
    success,
    invalid_arguments,  // shapes, layouts, parameters or data pointers that make no sense
    unimplemented,      // a valid request no implementation takes (or strict mode refused a fallback)
    out_of_memory,
    runtime_error,      // anything else that went wrong while running
};

PRIM_API const char *status_name(status s);

class PRIM_API error : public std::runtime_error {
public:
    error(prim::status s, const std::string &message)
        : std::runtime_error(message), status_(s) {}
    prim::status get_status() const { return status_; }

private:
    prim::status status_;
};

} // namespace prim
