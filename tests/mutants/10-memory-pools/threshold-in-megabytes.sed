# Task 3 sets the threshold in megabytes (CuPy's set_limit takes a size= in bytes, but "64 MiB"
# reads as 64): the pool keeps almost nothing between synchronizations.
# expect: release threshold was not set \(task 3\)
# args: --n 1000
s|  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);|  unsigned long long megabytes = bytes >> 20;\n  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, \&megabytes);|
