# The grid-stride loop runs to i <= n: the thread that reaches i == n reads and writes one element
# past the end of every array. A GPU seldom faults on 4 bytes past the end (the allocation is
# rounded up); the simulator's bounds checker stops at the first such access.
# expect: out-of-bounds (read|write) at .*bytes past the end
s|i < n; i += stride)|i <= n; i += stride)|
