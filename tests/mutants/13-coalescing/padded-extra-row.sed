# The padding on the wrong side: a 33rd row instead of a 33rd column. tile[r][c] is still word
# 32 r + c, in bank c, so a column of the tile is still one bank.
# expect: task 2: the padded transpose has [0-9]+ bank conflicts
s|__shared__ float tile\[TILE\]\[TILE + 1\]; /\* one column of padding \*/|__shared__ float tile[TILE + 1][TILE];|
