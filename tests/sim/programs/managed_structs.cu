// Unified (managed) memory: an array of structs and a linked list built on the host, updated by
// kernels through the same pointers, read back on the host after cudaDeviceSynchronize.
#include <cuda_runtime.h>
#include <stdio.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(err_));                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

struct particle {
  float position[3];
  float velocity[3];
  int steps;
};

struct node {
  int value;
  struct node *next;
};

__global__ void move_particles(struct particle *particles, int count, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    for (int axis = 0; axis < 3; ++axis) {
      particles[i].position[axis] += particles[i].velocity[axis] * dt;
    }
    particles[i].steps++;
  }
}

// One thread walks the list: the pointers were written on the host and are valid on the device.
__global__ void double_list(struct node *head, int *length) {
  int count = 0;
  for (struct node *p = head; p != NULL; p = p->next) {
    p->value *= 2;
    ++count;
  }
  *length = count;
}

int main(void) {
  const int count = 1000;
  struct particle *particles;
  CHECK(cudaMallocManaged(&particles, count * sizeof(struct particle)));
  for (int i = 0; i < count; ++i) {
    for (int axis = 0; axis < 3; ++axis) {
      particles[i].position[axis] = (float)i;
      particles[i].velocity[axis] = (float)(axis + 1);
    }
    particles[i].steps = 0;
  }
  for (int step = 0; step < 4; ++step) {
    move_particles<<<(count + 127) / 128, 128>>>(particles, count, 0.25f);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  const int nodes = 50;
  struct node *list;
  int *length;
  CHECK(cudaMallocManaged(&list, nodes * sizeof(struct node)));
  CHECK(cudaMallocManaged(&length, sizeof(int)));
  for (int i = 0; i < nodes; ++i) {
    list[i].value = i;
    list[i].next = i + 1 < nodes ? &list[i + 1] : NULL;
  }
  double_list<<<1, 1>>>(list, length);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int wrong = 0;
  for (int i = 0; i < count; ++i) {
    for (int axis = 0; axis < 3; ++axis) {
      wrong += particles[i].position[axis] != (float)i + (float)(axis + 1); // 4 steps of 0.25
    }
    wrong += particles[i].steps != 4;
  }
  for (int i = 0; i < nodes; ++i) {
    wrong += list[i].value != 2 * i;
  }
  wrong += *length != nodes;
  CHECK(cudaFree(particles));
  CHECK(cudaFree(list));
  CHECK(cudaFree(length));
  if (wrong != 0) {
    printf("FAIL managed_structs: %d wrong\n", wrong);
    return 1;
  }
  printf("PASS managed_structs\n");
  return 0;
}
