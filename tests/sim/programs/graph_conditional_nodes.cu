// CUDA graph conditional nodes: a WHILE loop whose body kernel counts and stops itself, an IF/ELSE
// whose value a kernel before it computes from device data, a SWITCH of three bodies (a value past
// the last runs none), and a WHILE body captured from a stream (cudaStreamBeginCaptureToGraph),
// each launched several times and checked (the last launch outlives its executable graph). With an
// argument, a misuse the simulator stops with one line:
//   no-value     a conditional node reads a handle that has no default and that no kernel set
//   two-execs    a second executable graph of a graph with conditional nodes
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL graph_conditional_nodes: %s at line %d: %s\n", #call, __LINE__,                 \
             cudaGetErrorName(err_));                                                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

// The loop's body: one more pass; the loop goes on while fewer than *limit passes were made.
__global__ void count_pass(int *passes, const int *limit, cudaGraphConditionalHandle handle) {
  int done = ++*passes;
  cudaGraphSetConditional(handle, done < *limit ? 1 : 0);
}
// The value of an IF or SWITCH node: what the host left in *choice.
__global__ void choose(const int *choice, cudaGraphConditionalHandle handle) {
  cudaGraphSetConditional(handle, (unsigned)*choice);
}
__global__ void mark(int *out, int value) {
  *out = value;
}

// A kernel node of one thread, for cudaGraphAddNode.
static struct cudaGraphNodeParams kernel_params(void *func, void **args) {
  struct cudaGraphNodeParams p = {cudaGraphNodeTypeKernel}; /* the rest zero, as CUDA asks */
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  return p;
}
static struct cudaGraphNodeParams conditional_params(cudaGraphConditionalHandle h,
                                                     enum cudaGraphConditionalNodeType type,
                                                     unsigned size) {
  struct cudaGraphNodeParams p = {cudaGraphNodeTypeConditional}; /* the rest zero, as CUDA asks */
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  return p;
}

static int read_int(const int *d, int *h) {
  CHECK(cudaMemcpy(h, d, sizeof *h, cudaMemcpyDeviceToHost));
  return 0;
}

// WHILE with a default of 1 (a do-while): the body runs until it has made *limit passes.
static int while_loop(int *d) {
  cudaGraph_t g;
  cudaGraphNode_t loop, body;
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  struct cudaGraphNodeParams c = conditional_params(h, cudaGraphCondTypeWhile, 1);
  CHECK(cudaGraphAddNode(&loop, g, NULL, NULL, 0, &c));
  int *passes = d, *limit = d + 1;
  void *args[3] = {&passes, &limit, &h};
  struct cudaGraphNodeParams k = kernel_params((void *)count_pass, args);
  CHECK(cudaGraphAddNode(&body, c.conditional.phGraph_out[0], NULL, NULL, 0, &k));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int want = 1; want <= 7; want += 3) {
    int init[2] = {0, want}, got = -1;
    CHECK(cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    if (read_int(passes, &got)) return 1;
    if (got != want) {
      printf("FAIL graph_conditional_nodes: the WHILE loop made %d passes, not %d\n", got, want);
      return 1;
    }
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  printf("while: 1, 4 and 7 passes\n");
  return 0;
}

// IF/ELSE and SWITCH after a kernel that sets the value: each body marks the output.
static int if_and_switch(int *d, enum cudaGraphConditionalNodeType type, unsigned bodies) {
  cudaGraph_t g;
  cudaGraphNode_t setter, node, marker;
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  int *choice = d, *out = d + 1;
  void *args[2] = {&choice, &h};
  struct cudaGraphNodeParams k = kernel_params((void *)choose, args);
  CHECK(cudaGraphAddNode(&setter, g, NULL, NULL, 0, &k));
  struct cudaGraphNodeParams c = conditional_params(h, type, bodies);
  CHECK(cudaGraphAddNode(&node, g, &setter, NULL, 1, &c));
  int values[4];
  for (unsigned b = 0; b < bodies; b++) {
    values[b] = 100 + (int)b;
    void *margs[2] = {&out, &values[b]};
    struct cudaGraphNodeParams m = kernel_params((void *)mark, margs);
    CHECK(cudaGraphAddNode(&marker, c.conditional.phGraph_out[b], NULL, NULL, 0, &m));
  }
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int v = 0; v <= (int)bodies; v++) {
    int init[2] = {v, -1}, got = 0;
    CHECK(cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    if (read_int(out, &got)) return 1;
    // IF: body 0 when the value is not zero, body 1 (the ELSE) when it is; SWITCH: body v.
    int want =
        type == cudaGraphCondTypeIf ? (v != 0 ? 100 : 101) : (v < (int)bodies ? 100 + v : -1);
    if (got != want) {
      printf("FAIL graph_conditional_nodes: %s with value %d ran the body that marks %d, not %d\n",
             type == cudaGraphCondTypeIf ? "IF/ELSE" : "SWITCH", v, got, want);
      return 1;
    }
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  printf("%s: each value ran its body\n", type == cudaGraphCondTypeIf ? "if/else" : "switch");
  return 0;
}

// A WHILE node added to a capture under way, its body captured into it afterwards.
static int captured_while(int *d) {
  cudaStream_t s;
  cudaGraph_t g = NULL, capturing = NULL;
  cudaGraphConditionalHandle h;
  enum cudaStreamCaptureStatus status;
  const cudaGraphNode_t *deps = NULL;
  size_t count = 0;
  int *passes = d, *limit = d + 1;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &capturing, &deps, NULL, &count));
  CHECK(cudaGraphConditionalHandleCreate(&h, capturing));
  count_pass<<<1, 1, 0, s>>>(passes, limit, h); // the first pass decides whether to loop
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &capturing, &deps, NULL, &count));
  cudaGraphNode_t loop;
  struct cudaGraphNodeParams c = conditional_params(h, cudaGraphCondTypeWhile, 1);
  CHECK(cudaGraphAddNode(&loop, capturing, deps, NULL, count, &c));
  CHECK(cudaStreamUpdateCaptureDependencies(s, &loop, NULL, 1, cudaStreamSetCaptureDependencies));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaStreamBeginCaptureToGraph(s, c.conditional.phGraph_out[0], NULL, NULL, 0,
                                      cudaStreamCaptureModeGlobal));
  count_pass<<<1, 1, 0, s>>>(passes, limit, h);
  CHECK(cudaStreamEndCapture(s, NULL));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int want = 1; want <= 5; want += 4) {
    int init[2] = {0, want}, got = -1;
    CHECK(cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(x, s));
    // The last launch outlives its executable graph (CUDA frees it when the launch is done).
    if (want == 5) CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaStreamSynchronize(s));
    if (read_int(passes, &got)) return 1;
    if (got != want) {
      printf("FAIL graph_conditional_nodes: the captured loop made %d passes, not %d\n", got, want);
      return 1;
    }
  }
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  printf("captured while: 1 and 5 passes\n");
  return 0;
}

// The misuses: an IF node whose handle nothing sets, and two executable graphs of one graph.
static int misuse(const char *which, int *d) {
  cudaGraph_t g;
  cudaGraphNode_t node;
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  struct cudaGraphNodeParams c = conditional_params(h, cudaGraphCondTypeIf, 1);
  CHECK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &c));
  int value = 1;
  void *margs[2] = {&d, &value};
  struct cudaGraphNodeParams m = kernel_params((void *)mark, margs);
  CHECK(cudaGraphAddNode(&node, c.conditional.phGraph_out[0], NULL, NULL, 0, &m));
  cudaGraphExec_t x, y;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  if (strcmp(which, "two-execs") == 0) {
    cudaError_t e = cudaGraphInstantiate(&y, g, 0);
    printf("two execs: %s\n", cudaGetErrorName(e));
    return 0;
  }
  CHECK(cudaGraphLaunch(x, 0));
  cudaError_t e = cudaDeviceSynchronize();
  printf("no value: %s\n", cudaGetErrorName(e));
  return 0;
}

int main(int argc, char **argv) {
  int *d;
  CHECK(cudaMalloc((void **)&d, 2 * sizeof(int)));
  if (argc > 1) return misuse(argv[1], d);
  if (while_loop(d) || if_and_switch(d, cudaGraphCondTypeIf, 2) ||
      if_and_switch(d, cudaGraphCondTypeSwitch, 3) || captured_while(d))
    return 1;
  CHECK(cudaFree(d));
  printf("PASS graph_conditional_nodes\n");
  return 0;
}
