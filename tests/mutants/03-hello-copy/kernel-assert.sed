# A kernel assert that fails: it fires in a learner's (Release) build, as on a GPU built without
# NDEBUG, with CUDA's device-assert line, and the launch fails with cudaErrorAssert. (<assert.h>
# included, as nvcc needs: the simulator's prelude would lend assert without it.)
# expect: Assertion `i < 0` failed
# args: --n 1000
1i #include <assert.h>
s|  if (i < n) out\[i\] = in\[i\];|  if (i < n) out[i] = in[i];\n  assert(i < 0);|
