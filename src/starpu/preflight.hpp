#pragma once
// What StarPU 1.3 aborts the process on while it starts, checked before starpu_init so
// that a grain::Runtime that cannot start throws grain::runtime_error instead: the
// directories it keeps its performance models in, and its worker threads (with the
// memory each needs once it runs kernels).
namespace grain::detail {

// Throws grain::runtime_error saying what is missing, and what to change.
// `threads`: the threads StarPU will start; `blas_threads`: those of them that run CPU
// kernels; `opencl`: whether it starts OpenCL workers (they keep compiled kernels in
// a directory of their own).
void check_starpu_can_start(int threads, int blas_threads, bool opencl);

}  // namespace grain::detail
