# Task 3 makes one chunk per stream (as DeviceNDArray.split(stream_count) would): the loop stops
# after stream_count chunks and the rest of the array is never copied or computed.
# expect: FAIL: 1 of 4 ways failed; the first: wrong \(task 3\)
# args: --n 1000
s|first < n \&\& status == cudaSuccess; first += chunk, ++c)|first < n \&\& c < stream_count \&\& status == cudaSuccess; first += chunk, ++c)|
