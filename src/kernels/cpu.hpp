#pragma once
// CPU tile kernels: StarPU cpu_funcs, one per operation, for T = float or double.
#include "../codelets.hpp"

namespace grain::detail::cpu {

template <typename T> void gemm(void* buffers[], void* cl_arg);
template <typename T> void trsm(void* buffers[], void* cl_arg);
template <typename T> void syrk(void* buffers[], void* cl_arg);
template <typename T> void potrf(void* buffers[], void* cl_arg);
template <typename T> void getrf_nopiv(void* buffers[], void* cl_arg);
template <typename T> void scale(void* buffers[], void* cl_arg);

}  // namespace grain::detail::cpu
