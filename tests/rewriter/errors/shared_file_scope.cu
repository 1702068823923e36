// CUDA allows __shared__ at file scope; the simulator does not (the arena is per block).
__shared__ float table[256];
namespace ns {
__shared__ int counter;
}
// expect-error: 2:1: __shared__ variable 'table' outside a function is not supported by the simulator; declare it inside the kernel
// expect-error: 4:1: __shared__ variable 'counter' outside a function is not supported by the simulator; declare it inside the kernel
