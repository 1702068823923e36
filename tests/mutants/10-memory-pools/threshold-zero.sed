# Task 3 leaves the release threshold at 0: any synchronization between two allocations then
# empties the pool, and cudaMallocAsync is as slow as cudaMalloc.
# expect: FAIL: the pool.s release threshold was not set \(task 3\)
# args: --n 1000
s|  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);|  unsigned long long zero = 0; /* "0 is the default anyway" */\n  (void)bytes;\n  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, \&zero);|
