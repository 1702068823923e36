# Task 1 starts every step of the round trip from the original input: only the last step is
# applied.
# expect: FAIL: 1 of 4 ways failed; the first: wrong \(task 1\)
# args: --n 1000
s|const double \*source = step == 0 ? host_in : host_out;|const double *source = host_in;|
