# Task 3 with the two numbers swapped: <<<256, blocks>>>, 256 blocks of ceil(n / 256) threads.
# It covers n, but a block is no longer 256 threads, and from n = 262145 on it is too big to run.
# expect: FAIL: copy_many_blocks failed \(task 3: <<<blocks >= 1, COPY_BLOCK_SIZE>>>
s|  copy_kernel<<<blocks, COPY_BLOCK_SIZE>>>(d_in, d_out, n);|  copy_kernel<<<COPY_BLOCK_SIZE, blocks>>>(d_in, d_out, n);|
