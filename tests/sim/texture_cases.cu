// Texture objects used wrongly (issue 18): each case prints what the simulator said.
// Usage: sim_texture_cases destroyed|linear_int|fetch_array|bad_format
#include <cstdio>
#include <cstring>

__global__ void read(cudaTextureObject_t tex, float *out) {
  out[threadIdx.x] = tex2D<float>(tex, threadIdx.x + 0.5f, 0.5f);
}
__global__ void fetch(cudaTextureObject_t tex, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(tex, (int)threadIdx.x);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  float *out = NULL;
  cudaMallocManaged((void **)&out, 32 * sizeof(float));
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t array = NULL;
  cudaMallocArray(&array, &fdesc, 8, 2);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc = {};
  desc.filterMode = cudaFilterModePoint;
  cudaTextureObject_t tex = 0;
  if (!std::strcmp(c, "destroyed")) {
    cudaCreateTextureObject(&tex, &res, &desc, NULL);
    cudaDestroyTextureObject(tex);
    read<<<1, 4>>>(tex, out);
    printf("destroyed: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(c, "linear_int")) {
    cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
    cudaArray_t ints = NULL;
    cudaMallocArray(&ints, &idesc, 8);
    res.res.array.array = ints;
    desc.filterMode = cudaFilterModeLinear;
    printf("linear_int: %s\n", cudaGetErrorName(cudaCreateTextureObject(&tex, &res, &desc, NULL)));
  } else if (!std::strcmp(c, "fetch_array")) {
    cudaCreateTextureObject(&tex, &res, &desc, NULL);
    fetch<<<1, 4>>>(tex, out);
    printf("fetch_array: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(c, "bad_format")) {
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    cudaArray_t a3 = NULL;
    printf("bad_format: %s\n", cudaGetErrorName(cudaMallocArray(&a3, &three, 8)));
  } else {
    printf("usage: sim_texture_cases destroyed|linear_int|fetch_array|bad_format\n");
    return 2;
  }
  return 0;
}
