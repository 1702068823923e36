# The loop steps by one block, not the whole grid: every block redoes the next blocks' elements,
# a race between blocks that the simulator reports.
# expect: data race at [^ ]+:[0-9]+ \(task 3\)|saxpy's results are wrong \(task 3
s|  int stride = gridDim.x \* blockDim.x;|  int stride = blockDim.x;|
