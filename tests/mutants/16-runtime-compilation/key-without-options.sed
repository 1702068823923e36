# The cache keyed by the source alone: the specialized compile (other options) gets the generic
# module from the cache, which has no box_fixed.
# expect: task 5: the key must cover the options too
s|(unsigned long long)module_key(source, count, options)|(unsigned long long)module_key(source, 0, options)|
