#pragma once
// A call on distributed matrices is collective. Every process checks its arguments; then,
// before the first task, they agree: a process whose check threw takes part as it unwinds
// (the destructor), so one process's bad argument ends the call with an error on every
// process instead of leaving the others waiting for its messages. The processes also
// compare a fingerprint of the call (routine, operands' shapes and ladders, scalars). The call
// alive on this thread is the one the routines' submission agrees for.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "grain/matrix.hpp"

namespace grain::detail {

class Collective {
public:
    // A call that is distributed or not; add() the rest of its fingerprint.
    Collective(const char* routine, bool distributed);
    // A tiled call on `operands`, with its enum `arguments`. An operand whose distribution
    // differs from the others' throws, and (the object being made) the destructor agrees.
    template <typename T>
    Collective(const char* routine, std::initializer_list<const Matrix<T>*> operands,
               std::initializer_list<int64_t> arguments = {});
    ~Collective();
    Collective(const Collective&) = delete;
    Collective& operator=(const Collective&) = delete;

    bool distributed() const { return distributed_; }
    // Before the call's first task; throws on every process if one failed or differs.
    void agree();

    static Collective* active();
    void add(int64_t v);
    // The call's scalars (alpha, beta), by their bits: processes that scale by different
    // values would compute tiles of different products. -0 counts as 0.
    template <typename... S>
    void add_scalars(S... values) {
        (add_bits(values == S(0) ? S(0) : values), ...);
    }

private:
    template <typename T>
    static bool any_distributed(std::initializer_list<const Matrix<T>*> operands) {
        for (const Matrix<T>* M : operands)
            if (M->distributed()) return true;
        return false;
    }
    template <typename T>
    void add_operand(const char* routine, const Matrix<T>& M);
    template <typename S>
    void add_bits(const S& value) {
        static_assert(std::is_trivially_copyable_v<S> && sizeof(S) % sizeof(uint32_t) == 0);
        for (size_t at = 0; at < sizeof(S); at += sizeof(uint32_t)) {
            uint32_t word = 0;
            std::memcpy(&word, reinterpret_cast<const unsigned char*>(&value) + at, sizeof word);
            add(word);
        }
    }

    const char* routine_;
    bool distributed_, agreed_ = false;
    uint64_t fingerprint_;
    Collective* outer_;
};

template <typename T>
Collective::Collective(const char* routine, std::initializer_list<const Matrix<T>*> operands,
                       std::initializer_list<int64_t> arguments)
    : Collective(routine, any_distributed(operands)) {
    for (int64_t v : arguments) add(v);
    for (const Matrix<T>* M : operands) add_operand(routine, *M);
}

}  // namespace grain::detail
