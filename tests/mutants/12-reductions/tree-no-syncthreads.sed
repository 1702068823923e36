# The tree without its block-wide barrier: thread 0 runs ahead and adds cells that other warps
# have not finished yet.
# expect: task 2.*__syncthreads
s|__syncthreads(); /\* the next level|{} /* the next level|
