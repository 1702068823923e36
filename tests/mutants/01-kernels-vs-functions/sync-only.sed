# Task 3 checks only cudaDeviceSynchronize(): a launch that never started leaves nothing to wait
# for, so the refused launch (2048 threads a block) comes back as cudaSuccess.
# expect: failed launch was not reported \(task 3: .*cudaGetLastError
# args: --n 1000
/^  if (launch_status != cudaSuccess) return launch_status;/d
