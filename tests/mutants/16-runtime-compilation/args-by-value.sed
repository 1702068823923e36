# The kernel's arguments passed as values, not as their addresses: cuLaunchKernel reads each
# entry of the array as a pointer to the argument, so the kernel gets garbage for a and b.
# expect: task 3
s|void \*args\[\] = {&a, &b, &n};|void *args[] = {(void *)a, (void *)b, \&n};|
