# Task 2 computes the index with nx and ny swapped (NumPy's shape is (nz, ny, nx), x last): the
# array is not square, so some elements are visited twice and others never.
# expect: add_two_serial wrote past the end of out.*task 2
# args: --n 17
0,/size_t i = (z \* shape.ny + y) \* shape.nx + x;/s|size_t i = (z \* shape.ny + y) \* shape.nx + x;|size_t i = (z * shape.nx + y) * shape.ny + x;|
