# "RADIUS=7" without -D: NVRTC rejects the option, and box_fixed never exists.
# expect: task 4: the option must define RADIUS
s|"-DRADIUS=%d"|"RADIUS=%d"|
