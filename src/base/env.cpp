#include "env.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "grain/errors.hpp"

namespace grain::detail {

namespace {

// What a valid value is, with its real limits.
std::string expected(long min, long max, const std::string& why) {
    std::string text = max == std::numeric_limits<long>::max()
                           ? "must be an integer >= " + std::to_string(min)
                           : "must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
    return why.empty() ? text : text + " (" + why + ")";
}

}  // namespace

std::optional<Setting<long>> env_integer(const char* who, std::initializer_list<const char*> variables, long min,
                                         long max, const std::string& why) {
    for (const char* name : variables) {
        const char* text = std::getenv(name);
        if (!text || !*text) continue;
        char* end = nullptr;
        errno = 0;
        const long value = std::strtol(text, &end, 10);
        if (*end != '\0' || errno != 0 || value < min || value > max)
            throw invalid_argument(who, name, text, expected(min, max, why));
        return Setting<long>{value, name};
    }
    return std::nullopt;
}

std::optional<Setting<std::string>> env_text(std::initializer_list<const char*> variables) {
    for (const char* name : variables) {
        const char* text = std::getenv(name);
        if (text && *text) return Setting<std::string>{text, name};
    }
    return std::nullopt;
}

Setting<int> resolve_count(const char* who, int option, const char* option_name,
                           std::initializer_list<const char*> variables, int fallback) {
    if (option >= 0) return {option, option_name};
    if (const auto v = env_integer(who, variables, 0, 1 << 20, ""))
        return {int(v->value), v->source};
    return {fallback, option_name};
}

Setting<std::string> resolve_text(const std::string& option, const char* option_name,
                                  std::initializer_list<const char*> variables, const std::string& fallback) {
    if (!option.empty()) return {option, option_name};
    if (auto v = env_text(variables)) return *v;
    return {fallback, option_name};
}

}  // namespace grain::detail
