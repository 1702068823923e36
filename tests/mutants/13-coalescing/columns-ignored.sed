# The records never read: the structure-of-arrays kernel writes its own thread's warp * 32 + lane
# (threadIdx.x), which is the answer for the shipped records, made by a launch like its own. It
# passes every shipped size; a run with a seed of its own checks records of a later, not
# block-aligned part of a launch, and the made-up answer fails there.
# passes: shipped
# args: --n 100 --seed 4242
# expect: FAIL: the structure of arrays is wrong \(task 3: warp \* 32 \+ lane\)
s|  if (i < n) out\[i\] = columns.warp\[i\] \* 32 + columns.lane\[i\];|  if (i < n) out[i] = (int)threadIdx.x;|
