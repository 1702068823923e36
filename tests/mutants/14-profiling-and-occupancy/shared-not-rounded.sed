# Shared memory counted to the byte: it is allocated in units of 128 bytes.
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int per_block = (shared_bytes + sm->shared_unit - 1) / sm->shared_unit \* sm->shared_unit +|int per_block = shared_bytes +|
