# A mask of 16 lanes while all 32 call the shuffle: undefined on a GPU. Lanes 0-15 arrive first and
# lane 0 reads lane 16, outside the mask: the simulator stops there and names the call and the
# mask (its file and line point into task 3).
# expect: reads lane 16 with __shfl_down_sync .*lane 16 is not in the mask \(mask 0x0000ffff\)
s|#define FULL_WARP 0xffffffffu|#define FULL_WARP 0x0000ffffu|
