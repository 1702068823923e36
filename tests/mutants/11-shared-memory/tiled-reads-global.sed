# The tiled loop loads the tiles and then multiplies from global memory anyway: the result is
# right, but every product still reads A and B from global memory, as the naive kernel does. The
# profiler counts the load requests (check 4): about as many as the naive kernel's, not TILE
# times fewer.
# expect: task 3: the tiled kernel reads A and B from global memory, not shared
s|for (int i = 0; i < TILE; ++i) sum += a_tile\[threadIdx.y\]\[i\] \* b_tile\[i\]\[threadIdx.x\];|for (int i = 0; i < TILE \&\& start + i < k; ++i) sum += row < m \&\& col < n ? a[row * k + start + i] * b[(start + i) * n + col] : 0.0f;|
