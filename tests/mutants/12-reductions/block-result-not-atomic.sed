# Each block adds its result with a plain read-add-write: blocks that finish together overwrite
# each other's additions. The simulator's race checker finds it on every run.
# expect: data race at .*blocks run in no fixed order.*atomic
s|if (lane == 0) atomicAdd(total, sum); /\* one atomic per block \*/|if (lane == 0) *total += sum;|
