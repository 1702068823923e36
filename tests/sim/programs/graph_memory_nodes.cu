// CUDA graph memory nodes: a graph that allocates a scratch array, fills it, uses it and frees
// it, built node by node and captured from a stream (cudaMallocAsync and cudaFreeAsync), each
// launched several times with new input and checked against the CPU; an allocation the graph
// does not free, used after the launch and freed outside the graph (by cudaFreeAsync, then by a
// second graph's free node) before the graph runs again; and the footprint attributes.
// With an argument, a misuse the simulator stops with one line:
//   use-after-free   a kernel writes graph memory after the graph's free node ran
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define N 2048
#define THREADS 256
#define LAUNCHES 3

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL graph_memory_nodes: %s at line %d: %s\n", #call, __LINE__,                      \
             cudaGetErrorName(err_));                                                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
__global__ void add_one(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}

static void fill(float *x, int round) {
  for (int i = 0; i < N; i++) x[i] = (float)(i % 13 - 6 + round);
}
// How many of out[0..N) differ from f(in[i]) (square, then plus one when plus is set).
static int wrong(const float *in, const float *out, int plus) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = in[i] * in[i] + (plus ? 1.0f : 0.0f);
    if (out[i] != want) bad++;
  }
  return bad;
}

static struct cudaMemAllocNodeParams alloc_params(size_t bytes) {
  struct cudaMemAllocNodeParams p;
  memset(&p, 0, sizeof p);
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

// A graph that frees its own scratch: in -> scratch (copy) -> out = scratch^2 (kernel) -> free.
static int explicit_graph(float *h_in, float *h_out, float *d_out, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphNode_t alloc, copy, kernel, freed;
  CHECK(cudaGraphCreate(&g, 0));
  struct cudaMemAllocNodeParams p = alloc_params(N * sizeof(float));
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &p));
  float *scratch = (float *)p.dptr;
  struct cudaMemAllocNodeParams back;
  CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
  if (back.dptr != p.dptr || back.bytesize != N * sizeof(float)) {
    printf("FAIL graph_memory_nodes: the allocation node's parameters read back differ\n");
    return 1;
  }
  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &alloc, 1, scratch, h_in, N * sizeof(float),
                                 cudaMemcpyHostToDevice));
  struct cudaKernelNodeParams k;
  memset(&k, 0, sizeof k);
  int n = N;
  void *args[3] = {&scratch, &d_out, &n};
  k.func = (void *)square;
  k.gridDim = dim3(N / THREADS);
  k.blockDim = dim3(THREADS);
  k.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kernel, g, &copy, 1, &k));
  CHECK(cudaGraphAddMemFreeNode(&freed, g, &kernel, 1, scratch));
  void *named = NULL;
  CHECK(cudaGraphMemFreeNodeGetParams(freed, &named));
  if (named != scratch) {
    printf("FAIL graph_memory_nodes: the free node names %p, not %p\n", named, (void *)scratch);
    return 1;
  }
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int round = 0; round < LAUNCHES; round++) {
    fill(h_in, round);
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = wrong(h_in, h_out, 0);
    if (bad) {
      printf("FAIL graph_memory_nodes: explicit graph, launch %d: %d wrong values\n", round, bad);
      return 1;
    }
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  printf("explicit graph: %d launches right\n", LAUNCHES);
  return 0;
}

// The same work captured from a stream: cudaMallocAsync and cudaFreeAsync become memory nodes.
static int captured_graph(float *h_in, float *h_out, float *d_out, cudaStream_t s) {
  cudaGraph_t g;
  float *scratch = NULL, *squares = NULL;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync((void **)&scratch, N * sizeof(float), s));
  CHECK(cudaMallocAsync((void **)&squares, N * sizeof(float), s));
  CHECK(cudaMemcpyAsync(scratch, h_in, N * sizeof(float), cudaMemcpyHostToDevice, s));
  square<<<N / THREADS, THREADS, 0, s>>>(scratch, squares, N);
  CHECK(cudaFreeAsync(scratch, s));
  add_one<<<N / THREADS, THREADS, 0, s>>>(squares, d_out, N);
  CHECK(cudaFreeAsync(squares, s));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  CHECK(cudaGraphGetNodes(g, nodes, &count));
  enum cudaGraphNodeType first, last;
  CHECK(cudaGraphNodeGetType(nodes[0], &first));
  CHECK(cudaGraphNodeGetType(nodes[count - 1], &last));
  if (count != 7 || first != cudaGraphNodeTypeMemAlloc || last != cudaGraphNodeTypeMemFree) {
    printf("FAIL graph_memory_nodes: the capture made %zu nodes (types %d ... %d), not 7 from an "
           "allocation to a free\n",
           count, (int)first, (int)last);
    return 1;
  }
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int round = 0; round < LAUNCHES; round++) {
    fill(h_in, 10 + round);
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = wrong(h_in, h_out, 1);
    if (bad) {
      printf("FAIL graph_memory_nodes: captured graph, launch %d: %d wrong values\n", round, bad);
      return 1;
    }
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  printf("captured graph: %d launches right\n", LAUNCHES);
  return 0;
}

// An allocation the graph leaves allocated: the program uses it after the launch and frees it,
// once with cudaFreeAsync and once with a second graph's free node, before each next launch.
static int unfreed_allocation(float *h_in, float *h_out, float *d_out, cudaStream_t s) {
  cudaGraph_t g, free_graph;
  cudaGraphNode_t alloc, copy, freed;
  CHECK(cudaGraphCreate(&g, 0));
  struct cudaMemAllocNodeParams p = alloc_params(N * sizeof(float));
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &p));
  float *kept = (float *)p.dptr;
  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &alloc, 1, kept, h_in, N * sizeof(float),
                                 cudaMemcpyHostToDevice));
  CHECK(cudaGraphCreate(&free_graph, 0));
  CHECK(cudaGraphAddMemFreeNode(&freed, free_graph, NULL, 0, kept));
  cudaGraphExec_t x, free_x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphInstantiate(&free_x, free_graph, 0));
  for (int round = 0; round < 2; round++) {
    fill(h_in, 20 + round);
    CHECK(cudaGraphLaunch(x, s));
    square<<<N / THREADS, THREADS, 0, s>>>(kept, d_out, N); // after the launch, outside it
    if (round == 0)
      CHECK(cudaFreeAsync(kept, s));
    else
      CHECK(cudaGraphLaunch(free_x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = wrong(h_in, h_out, 0);
    if (bad) {
      printf("FAIL graph_memory_nodes: unfreed allocation, launch %d: %d wrong values\n", round,
             bad);
      return 1;
    }
  }
  CHECK(cudaGraphExecDestroy(free_x));
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(free_graph));
  CHECK(cudaGraphDestroy(g));
  printf("unfreed allocation: used after the launch, freed outside the graph\n");
  return 0;
}

// The footprint: nothing after a trim; a launch that allocates and frees within itself holds
// that much, in whole 32 MiB granules (an H100 reported 33554432 bytes for these 8 KiB); the
// high watermark resets to zero only.
static int footprint(float *h_in, float *d_out, cudaStream_t s) {
  unsigned long long used = 1, high = 0;
  unsigned long long zero = 0;
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  if (used != 0) {
    printf("FAIL graph_memory_nodes: %llu bytes of graph memory after a trim, not 0\n", used);
    return 1;
  }
  cudaGraph_t g;
  float *scratch = NULL;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync((void **)&scratch, N * sizeof(float), s));
  CHECK(cudaMemcpyAsync(scratch, h_in, N * sizeof(float), cudaMemcpyHostToDevice, s));
  square<<<N / THREADS, THREADS, 0, s>>>(scratch, d_out, N);
  CHECK(cudaFreeAsync(scratch, s));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaGraphLaunch(x, s)); // the same stream: the memory is reused
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
  const unsigned long long granule = 32ull << 20,
                           held = (N * sizeof(float) + granule - 1) / granule * granule;
  if (used != held || high != used) {
    printf("FAIL graph_memory_nodes: footprint %llu bytes (high %llu), not %llu\n", used, high,
           held);
    return 1;
  }
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
  if (used != 0 || high != 0) {
    printf("FAIL graph_memory_nodes: after a trim and a reset, %llu bytes (high %llu)\n", used,
           high);
    return 1;
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  printf("footprint: %llu bytes while launched (%zu allocated), 0 after a trim\n", held,
         N * sizeof(float));
  return 0;
}

// A kernel that writes graph memory after the graph freed it: stopped by the memory checker.
static int use_after_free(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphNode_t alloc, freed;
  CHECK(cudaGraphCreate(&g, 0));
  struct cudaMemAllocNodeParams p = alloc_params(N * sizeof(float));
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &p));
  float *scratch = (float *)p.dptr;
  CHECK(cudaGraphAddMemFreeNode(&freed, g, &alloc, 1, scratch));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphLaunch(x, s));
  add_one<<<N / THREADS, THREADS, 0, s>>>(scratch, scratch, N);
  cudaError_t e = cudaStreamSynchronize(s);
  printf("use after free: %s\n", cudaGetErrorName(e));
  return 0;
}

int main(int argc, char **argv) {
  cudaStream_t s;
  float *h_in, *h_out, *d_out;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  if (argc > 1 && strcmp(argv[1], "use-after-free") == 0) return use_after_free(s);
  CHECK(cudaMallocHost((void **)&h_in, N * sizeof(float)));
  CHECK(cudaMallocHost((void **)&h_out, N * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, N * sizeof(float)));
  if (explicit_graph(h_in, h_out, d_out, s) || captured_graph(h_in, h_out, d_out, s) ||
      unfreed_allocation(h_in, h_out, d_out, s) || footprint(h_in, d_out, s))
    return 1;
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaStreamDestroy(s));
  printf("PASS graph_memory_nodes\n");
  return 0;
}
