// prim: fused CPU primitives. The one header to include.
#pragma once
#include "prim/attr.hpp"
#include "prim/binary.hpp"
#include "prim/convolution.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/eltwise.hpp"
#include "prim/error.hpp"
#include "prim/inner_product.hpp"
#include "prim/kernel_cache.hpp"
#include "prim/memory.hpp"
#include "prim/normalization.hpp"
#include "prim/primitive.hpp"
#include "prim/reorder.hpp"
