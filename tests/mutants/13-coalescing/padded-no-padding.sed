# The padded transpose without its extra column: the right result, coalesced, but every warp
# that reads a column of the tile finds all 32 words in one bank.
# expect: task 2: the padded transpose has [0-9]+ bank conflicts
s|__shared__ float tile\[TILE\]\[TILE + 1\]; /\* one column of padding \*/|__shared__ float tile[TILE][TILE];|
