/* libgrain_lapack's own entry points, beside LAPACK's and BLAS's symbols (C and C++). */
#ifndef GRAIN_LAPACK_H
#define GRAIN_LAPACK_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keeps the array [a, a + bytes) pinned (registered with the GPUs' driver) until
 * grain_lapack_unpin(a), so that the LAPACK calls on it (or on a part of it) go through
 * grain without pinning it each time. The session's Runtime starts if it has not. Returns 1
 * when the array is pinned, 0 when not: no GPU, the session could not start, or the
 * driver refused. The array must stay allocated until grain_lapack_unpin; the pin also
 * ends when the session's Runtime does (at exit, or when the program starts its own). */
int grain_lapack_pin(const void* a, size_t bytes);
void grain_lapack_unpin(const void* a);

#ifdef __cplusplus
}
#endif
#endif
