# A mask of 16 lanes while all 32 call the shuffle: undefined on a GPU; the simulator stops at the
# first lane outside the mask and names the call (its file and line point into task 3).
# expect: __shfl_down_sync .*mask 0x0000ffff, which does not include its own lane
s|#define FULL_WARP 0xffffffffu|#define FULL_WARP 0x0000ffffu|
