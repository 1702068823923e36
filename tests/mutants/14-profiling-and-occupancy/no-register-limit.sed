# No register limit at all: only warps, blocks and shared memory decide.
# expect: task 1: [0-9]+ of 21 rows of the table wrong
/  if (by_registers < blocks) blocks = by_registers;/d
