# The last five levels of the tree without __syncwarp: "the warp runs in lockstep" has not been
# true since Volta (independent thread scheduling); lane 0 reads lane 16's cell too early.
# expect: task 2.*__syncwarp
s|__syncwarp(); /\* from here on|{} /* from here on|
