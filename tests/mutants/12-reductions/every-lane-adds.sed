# Task 4 lets every lane add the tile's sum: cg::reduce returns it to all 32 lanes, so the total
# counts 32 times over.
# expect: FAIL: the cooperative groups sum is wrong \(task 4
s|  if (tile.thread_rank() == 0) atomicAdd(total, sum);|  atomicAdd(total, sum);|
