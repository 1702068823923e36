# The kernel's arguments passed as values, not as their addresses: cuLaunchKernel copies each
# argument from the address in the array, so on a GPU the host crashes inside the call (device
# memory is not the host's). The simulator refuses the launch and names the entry.
# expect: FAIL: task 3: kernelParams holds each argument.s address
s|void \*args\[\] = {&a, &b, &n};|void *args[] = {(void *)a, (void *)b, \&n};|
