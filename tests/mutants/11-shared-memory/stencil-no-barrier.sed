# The stencil without its barrier (task 2): each thread reads its neighbours' cells of the window
# before they are stored. The simulator reports the race at the store (task 1's line); the check
# must still name task 2 and the barrier, not the halos.
# expect: FAIL: task 2: .*__syncthreads
/__syncthreads(); \/\* the whole window is loaded/d
