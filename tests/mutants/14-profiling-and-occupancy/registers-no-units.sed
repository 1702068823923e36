# Registers per thread times threads, without whole warps or the 256-register allocation unit:
# 36 registers counted as 1,152 a warp (1,280 allocated), 100 threads as 100 (4 warps, 128).
# expect: task 1: [0-9]+ of 21 rows of the table wrong
s|int by_registers = per_warp > 0 ? sm->registers_per_sm / per_warp / warps : blocks;|int by_registers = registers > 0 ? sm->registers_per_sm / (registers * threads) : blocks;|
