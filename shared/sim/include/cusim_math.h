/* Placeholder: math functions and integer intrinsics for sim builds (owned by the curand/cg/math work). */
#pragma once
