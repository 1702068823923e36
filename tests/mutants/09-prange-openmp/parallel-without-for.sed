# Task 1 writes #pragma omp parallel with the reduction but without "for": every thread of the
# team runs the whole loop, so the count is the right one times the number of threads.
# expect: every thread ran the whole loop.*task 1
# args: --n 17;--n 33 --threads 3
s|#pragma omp parallel for reduction(+ : hits)|#pragma omp parallel reduction(+ : hits)|
