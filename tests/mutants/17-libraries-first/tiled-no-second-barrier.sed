# The tiled loop without its second barrier: a fast thread loads the next tiles over these while
# others still multiply with them. The simulator's race check finds it every time.
# expect: task 1
/__syncthreads(); \/\* nobody still reads them/d
