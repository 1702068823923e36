// Every atomic in its three scopes: atomicOp (the device), atomicOp_block (one block's threads)
// and atomicOp_system (the device, the host and other devices). Scope narrows what the atomic
// promises to whom; on one device each one's result is the same, so each scope's counters must
// end equal. 256 threads in 4 blocks apply each operation once.
#include <cuda_runtime.h>
#include <stdio.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

enum { ADD, SUB, EXCH, MIN, MAX, CAS, AND, OR, XOR, INC, DEC, OPS };
#define THREADS 256

// counters[scope * OPS + op]; scope 0 device, 1 block, 2 system.
__global__ void apply_all(unsigned int *counters) {
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int bit = 1u << (t % 32);
  unsigned int *d = counters, *b = counters + OPS, *s = counters + 2 * OPS;
  atomicAdd(&d[ADD], t), atomicAdd_block(&b[ADD], t), atomicAdd_system(&s[ADD], t);
  atomicSub(&d[SUB], 1u), atomicSub_block(&b[SUB], 1u), atomicSub_system(&s[SUB], 1u);
  atomicMin(&d[MIN], t + 7), atomicMin_block(&b[MIN], t + 7), atomicMin_system(&s[MIN], t + 7);
  atomicMax(&d[MAX], t), atomicMax_block(&b[MAX], t), atomicMax_system(&s[MAX], t);
  atomicAnd(&d[AND], ~bit), atomicAnd_block(&b[AND], ~bit), atomicAnd_system(&s[AND], ~bit);
  atomicOr(&d[OR], bit), atomicOr_block(&b[OR], bit), atomicOr_system(&s[OR], bit);
  atomicXor(&d[XOR], t), atomicXor_block(&b[XOR], t), atomicXor_system(&s[XOR], t);
  atomicInc(&d[INC], 99u), atomicInc_block(&b[INC], 99u), atomicInc_system(&s[INC], 99u);
  atomicDec(&d[DEC], 99u), atomicDec_block(&b[DEC], 99u), atomicDec_system(&s[DEC], 99u);
  if (t == 5) { // one thread swaps; a CAS that finds the value it expects succeeds once
    atomicExch(&d[EXCH], 5u), atomicExch_block(&b[EXCH], 5u), atomicExch_system(&s[EXCH], 5u);
  }
  atomicCAS(&d[CAS], 0u, t + 1), atomicCAS_block(&b[CAS], 0u, t + 1);
  atomicCAS_system(&s[CAS], 0u, t + 1);
}

int main(void) {
  const unsigned int n = 4 * THREADS;
  unsigned int start[OPS] = {0};
  start[SUB] = 5000, start[MIN] = 1000000, start[AND] = 0xffffffffu, start[DEC] = 10;
  unsigned int host[3 * OPS];
  for (int scope = 0; scope < 3; scope++) {
    for (int op = 0; op < OPS; op++) {
      host[scope * OPS + op] = start[op];
    }
  }
  unsigned int *counters;
  CHECK(cudaMalloc(&counters, sizeof host));
  CHECK(cudaMemcpy(counters, host, sizeof host, cudaMemcpyHostToDevice));
  apply_all<<<n / THREADS, THREADS>>>(counters);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(counters));

  // What any order of the n operations leaves: sums and bit masks are order-free; 1024 increments
  // that wrap at 99 leave 1024 % 100; 1024 decrements from 10 that wrap to 99 leave (10 - 1024)
  // mod 100 = 86; the CAS leaves whichever thread came first, a value in 1..n.
  unsigned int want[OPS] = {0};
  want[ADD] = n * (n - 1) / 2, want[SUB] = 5000 - n, want[EXCH] = 5, want[MIN] = 7;
  want[MAX] = n - 1, want[AND] = 0, want[OR] = 0xffffffffu, want[XOR] = 0;
  want[INC] = n % 100, want[DEC] = 86;
  int wrong = 0;
  const char *scopes[3] = {"", "_block", "_system"};
  for (int scope = 0; scope < 3; scope++) {
    for (int op = 0; op < OPS; op++) {
      unsigned int got = host[scope * OPS + op];
      int ok = op == CAS ? got >= 1 && got <= n : got == want[op];
      if (!ok) {
        printf("FAIL op %d%s: got %u, want %u\n", op, scopes[scope], got, want[op]);
        wrong++;
      }
    }
  }
  if (wrong == 0) {
    printf("PASS scoped_atomics: 11 operations in 3 scopes\n");
  }
  return wrong != 0;
}
