# A miss compiles but never stores the module: every request compiles again.
# expect: task 5: a miss compiles and stores
s|if (result == NVRTC_SUCCESS && write_text_file(path, \*image) != 0)|if (0)|
