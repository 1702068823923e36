# The kilobyte of shared memory the system reserves per block forgotten (a block without shared
# memory then has no shared-memory limit at all).
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|                  sm->shared_reserved; /\* whole units, and the reserved kilobyte \*/|                  0;|
s|  int by_shared = sm->shared_per_sm / per_block;|  int by_shared = per_block ? sm->shared_per_sm / per_block : blocks;|
