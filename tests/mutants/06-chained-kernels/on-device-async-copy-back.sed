# Task 2 copies the result back with cudaMemcpyAsync on the default stream and returns: from
# pinned memory that copy only queues, and the host reads host_out before it has run.
# expect: not waited for \(task 2\)
# args: --n 1000
s|  return cudaMemcpy(host_out, d_data, bytes, cudaMemcpyDeviceToHost); /\* waits for the steps \*/|  return cudaMemcpyAsync(host_out, d_data, bytes, cudaMemcpyDeviceToHost, 0);|
