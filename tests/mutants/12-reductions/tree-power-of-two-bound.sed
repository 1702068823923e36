# Halving the active cells rounded down: right for 256 threads a block, but with 96 a level of
# 3 cells drops the last one.
# expect: right with 256 threads a block, not with 96
s|int half = (active + 1) / 2;|int half = active / 2;|
