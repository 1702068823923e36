# Task 3 copies the result back with cudaMemcpyHostToDevice: the kind names the direction, and
# this one says the destination is on the device.
# expect: FAIL: add_f32_from_host did not fill out \(task 3\)
# args: --n 1000
s|status = cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);|status = cudaMemcpy(out, d_out, bytes, cudaMemcpyHostToDevice);|
