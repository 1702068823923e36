# The handle made but never given the stream: cuBLAS works on the default stream.
# expect: task 2: the handle's stream must be the one given
s|^  status = cublasSetStream(\*handle, stream);|  (void)stream;|
