#pragma once
// grain: tiled dense linear algebra on the StarPU task runtime.
#include "distribution.hpp"
#include "errors.hpp"
#include "matrix.hpp"
#include "pinned.hpp"
#include "pivots.hpp"
#include "qr.hpp"
#include "request.hpp"
#include "routines.hpp"
#include "runtime.hpp"
#include "statistics.hpp"
#include "types.hpp"
