# The generator made and seeded but never given the stream: cuRAND works on the default stream,
# out of order with the program's stream. cuRAND has no call that tells a generator's stream, so
# only the simulator can check it (its driver asks the simulator, #ifdef CUSIM).
# expect: FAIL: task 4: the generator's stream must be the one given \(curandSetStream\)
s|^  if (status == CURAND_STATUS_SUCCESS) status = curandSetStream(\*generator, stream);|  (void)stream;|
