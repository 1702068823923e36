# Task 4 trims to the release threshold, reading cudaMemPoolTrimTo's second argument as "down
# to the limit": it is the memory to keep, so nothing below the threshold is given back.
# expect: trim_pool left memory in the pool \(task 4
# args: --n 1000
s|  return cudaMemPoolTrimTo(pool, 0);|  unsigned long long threshold = 0;\n  status = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, \&threshold);\n  if (status != cudaSuccess) return status;\n  return cudaMemPoolTrimTo(pool, (size_t)threshold);|
