#pragma once
// Every GRAIN_* (and STARPU_*) setting grain reads goes through here: an option the
// caller gave wins, else the first variable set (non-empty), else a default. A variable
// that does not hold a valid value throws grain::invalid_argument naming it; none is
// silently read as 0.
#include <initializer_list>
#include <optional>
#include <string>

namespace grain::detail {

// A value and where it came from (an option's or a variable's name), for messages.
template <typename V>
struct Setting {
    V value;
    std::string source;
};

// The first of `variables` set, as an integer in [min, max]; none if no variable is
// set. Else throws invalid_argument(who, variable, its text, ...) saying the range, and
// `why` (what the value means) if not empty.
std::optional<Setting<long>> env_integer(const char* who, std::initializer_list<const char*> variables, long min,
                                         long max, const std::string& why);

// The first of `variables` set, as text; none if no variable is set.
std::optional<Setting<std::string>> env_text(std::initializer_list<const char*> variables);

// `option` if given (>= 0), else the first variable set as an integer in [0, 2^20],
// else `fallback`; sourced to `option_name`, or to the variable.
Setting<int> resolve_count(const char* who, int option, const char* option_name,
                           std::initializer_list<const char*> variables, int fallback);

// `option` if not empty, else the first variable set, else `fallback`.
Setting<std::string> resolve_text(const std::string& option, const char* option_name,
                                  std::initializer_list<const char*> variables, const std::string& fallback);

}  // namespace grain::detail
