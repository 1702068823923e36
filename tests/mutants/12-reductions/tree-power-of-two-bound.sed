# Halving the active cells rounded down: right for 256 threads a block, but with 96 a level of
# 3 cells has half = 1, and threads 0 and 1 both work: thread 0 reads cell 1 while thread 1 adds
# onto it. The answer then depends on which runs first: a race, found at the level where it is.
# expect: data race at .*\(task 2\).*__syncwarp
s|int half = (active + 1) / 2;|int half = active / 2;|
