# The radius baked in one too large: the specialized filter adds two neighbours too many.
# expect: task 4: the specialized filter must use the radius given
s|snprintf(option, size, "-DRADIUS=%d", radius);|snprintf(option, size, "-DRADIUS=%d", radius + 1);|
