# The stencil without its barrier: each thread reads its neighbours' cells of the window before
# they are stored. On the simulator those cells still hold the 0xFF fill (NaN).
# expect: task.*2.*__syncthreads
/__syncthreads(); \/\* the whole window is loaded/d
