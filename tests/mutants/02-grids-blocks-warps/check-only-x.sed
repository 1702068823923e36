# Task 2 checks only x: threads below the last row (2D) or behind the last layer (3D) write
# past the end of the data, into the driver's fence.
# expect: FAIL: a thread outside the data wrote \(task 2: check x, y AND z\)
s/if (x >= data.x || y >= data.y || z >= data.z) return;/if (x >= data.x) return;/
