# The tiled multiply loads the next tiles while other threads still read these: a thread that
# finishes early overwrites its cells of a_tile and b_tile under the others (needs k > TILE).
# expect: task 3.*__syncthreads
/__syncthreads(); \/\* nobody still reads these tiles/d
