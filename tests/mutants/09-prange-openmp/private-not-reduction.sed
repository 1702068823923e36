# Task 1 makes hits private instead of a reduction: every thread counts into its own copy,
# which starts undefined and is thrown away at the end; the hits the function returns stay 0.
# expect: FAIL: pi_count_parallel counted no hits at all \(task 1\)
# args: --n 17
s|#pragma omp parallel for reduction(+ : hits)|#pragma omp parallel for private(hits)|
