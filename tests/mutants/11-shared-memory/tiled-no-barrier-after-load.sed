# The tiled multiply reads the tiles before the other threads have loaded them.
# expect: task 3.*__syncthreads
/__syncthreads(); \/\* both tiles are loaded/d
