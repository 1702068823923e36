# Task 4 returns without destroying its generator: every call leaks one.
# expect: task 4: a cuRAND generator made on line [0-9]+ is never destroyed
s|  curandStatus_t destroyed = curandDestroyGenerator(generator);|  curandStatus_t destroyed = CURAND_STATUS_SUCCESS;|
