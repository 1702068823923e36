# Task 1 stores only the tile: no thread stores the halos, and the edge threads read cells nobody
# wrote. The simulator reports the read (task 2's line); the check must name task 1.
# expect: FAIL: task 1: .*halo
/if (threadIdx.x < RADIUS) {/,/^  }/d
