// What the tests of benchdnn_lite's option parser share: a parser state from option tokens, and
// the message an option is refused with.
#pragma once
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "parser.hpp"

namespace {

// The state after these options, each of which must be accepted.
inline bdl::parser_state state(std::initializer_list<const char *> tokens) {
    bdl::parser_state st;
    for (const char *t : tokens) {
        INFO(t);
        REQUIRE(bdl::apply_option(t, st));
    }
    return st;
}

// The message token is refused with, "" when it is accepted.
inline std::string error_of(const std::string &token, bdl::parser_state st = bdl::parser_state()) {
    try {
        bdl::apply_option(token, st);
    } catch (const bdl::option_error &e) {
        return e.what();
    }
    return "";
}

} // namespace
