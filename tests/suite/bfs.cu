// Breadth-first search, level by level (the style of a GPU graph benchmark): one kernel finds the
// next frontier, a second commits it, and the host repeats while a flag says something changed.
// The frontier, visited and updating flags are `bool` arrays: neighbouring threads write
// neighbouring bytes of one word, which is not a race (each thread writes only its own node).
// Checked against a queue-based BFS on the CPU. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define NODES 6000
#define MAX_DEGREE 5
#define BLOCK 256

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL bfs: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);             \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

typedef struct {
  int first; // index of the node's first edge
  int count; // how many edges
} Node;

// Pull style: an unvisited node joins the next level when one of its neighbours is in the
// frontier. It writes only its own cost and its own updating flag.
__global__ void find_next(const Node *nodes, const int *edges, const bool *frontier,
                          const bool *visited, bool *updating, int *cost, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n || visited[id]) return;
  Node node = nodes[id];
  for (int e = node.first; e < node.first + node.count; e++) {
    int other = edges[e];
    if (frontier[other]) {
      cost[id] = cost[other] + 1;
      updating[id] = true;
      break;
    }
  }
}

__global__ void commit_next(bool *frontier, bool *visited, bool *updating, int *changed, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  frontier[id] = false;
  if (updating[id]) {
    frontier[id] = true;
    visited[id] = true;
    updating[id] = false;
    atomicOr(changed, 1);
  }
}

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return *seed >> 8;
}

int main(void) {
  // An undirected graph: each node links to a few random others, both ways.
  int *degree = (int *)calloc(NODES, sizeof(int));
  int pairs = 0;
  unsigned seed = 2026;
  int *pair_a = (int *)malloc(NODES * MAX_DEGREE * sizeof(int));
  int *pair_b = (int *)malloc(NODES * MAX_DEGREE * sizeof(int));
  for (int i = 0; i < NODES; i++) {
    int k = 1 + (int)(next_random(&seed) % 2);
    for (int j = 0; j < k; j++) {
      int other = (int)(next_random(&seed) % NODES);
      if (other == i) continue;
      pair_a[pairs] = i;
      pair_b[pairs] = other;
      pairs++;
      degree[i]++;
      degree[other]++;
    }
  }
  Node *nodes = (Node *)malloc(NODES * sizeof(Node));
  int total = 0;
  for (int i = 0; i < NODES; i++) {
    nodes[i].first = total;
    nodes[i].count = 0;
    total += degree[i];
  }
  int *edges = (int *)malloc(total * sizeof(int));
  for (int p = 0; p < pairs; p++) {
    Node *a = &nodes[pair_a[p]], *b = &nodes[pair_b[p]];
    edges[a->first + a->count++] = pair_b[p];
    edges[b->first + b->count++] = pair_a[p];
  }

  // CPU reference: a queue.
  int *expected = (int *)malloc(NODES * sizeof(int));
  int *queue = (int *)malloc(NODES * sizeof(int));
  for (int i = 0; i < NODES; i++) expected[i] = -1;
  int head = 0, tail = 0;
  expected[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int v = queue[head++];
    for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++) {
      if (expected[edges[e]] < 0) {
        expected[edges[e]] = expected[v] + 1;
        queue[tail++] = edges[e];
      }
    }
  }

  bool *h_frontier = (bool *)calloc(NODES, sizeof(bool));
  bool *h_visited = (bool *)calloc(NODES, sizeof(bool));
  int *h_cost = (int *)malloc(NODES * sizeof(int));
  for (int i = 0; i < NODES; i++) h_cost[i] = -1;
  h_frontier[0] = h_visited[0] = true;
  h_cost[0] = 0;

  Node *d_nodes;
  int *d_edges, *d_cost, *d_changed;
  bool *d_frontier, *d_visited, *d_updating;
  CHECK(cudaMalloc((void **)&d_nodes, NODES * sizeof(Node)));
  CHECK(cudaMalloc((void **)&d_edges, total * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_cost, NODES * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_changed, sizeof(int)));
  CHECK(cudaMalloc((void **)&d_frontier, NODES * sizeof(bool)));
  CHECK(cudaMalloc((void **)&d_visited, NODES * sizeof(bool)));
  CHECK(cudaMalloc((void **)&d_updating, NODES * sizeof(bool)));
  CHECK(cudaMemcpy(d_nodes, nodes, NODES * sizeof(Node), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_edges, edges, total * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost, h_cost, NODES * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_frontier, h_frontier, NODES * sizeof(bool), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_visited, h_visited, NODES * sizeof(bool), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_updating, 0, NODES * sizeof(bool)));

  int blocks = (NODES + BLOCK - 1) / BLOCK, levels = 0, changed;
  do {
    changed = 0;
    CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
    find_next<<<blocks, BLOCK>>>(d_nodes, d_edges, d_frontier, d_visited, d_updating, d_cost,
                                 NODES);
    CHECK(cudaGetLastError());
    commit_next<<<blocks, BLOCK>>>(d_frontier, d_visited, d_updating, d_changed, NODES);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    levels++;
  } while (changed);
  CHECK(cudaMemcpy(h_cost, d_cost, NODES * sizeof(int), cudaMemcpyDeviceToHost));

  int wrong = 0, reached = 0;
  for (int i = 0; i < NODES; i++) {
    if (h_cost[i] != expected[i]) wrong++;
    if (expected[i] >= 0) reached++;
  }
  if (wrong == 0) {
    printf("PASS bfs: %d nodes, %d reached in %d levels, every cost as the CPU's\n", NODES, reached,
           levels - 1);
  } else {
    printf("FAIL bfs: %d of %d costs differ from the CPU's\n", wrong, NODES);
  }
  cudaFree(d_nodes);
  cudaFree(d_edges);
  cudaFree(d_cost);
  cudaFree(d_changed);
  cudaFree(d_frontier);
  cudaFree(d_visited);
  cudaFree(d_updating);
  free(degree);
  free(pair_a);
  free(pair_b);
  free(nodes);
  free(edges);
  free(expected);
  free(queue);
  free(h_frontier);
  free(h_visited);
  free(h_cost);
  return wrong == 0 ? 0 : 1;
}
