// cuRAND's host API refuses what a GPU would fault on, with a message. Each line printed is
// "CASE: STATUS". Usage: curand_host_cases
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <curand.h>

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // lines in order with the simulator's on stderr
  float *d = nullptr;
  cudaMalloc(&d, 256 * sizeof(float));
  float host[256];
  curandGenerator_t gen, host_gen, sobol = nullptr;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_XORWOW);
  curandCreateGeneratorHost(&host_gen, CURAND_RNG_PSEUDO_DEFAULT);
  std::printf("device generator, host output: %d\n", (int)curandGenerateUniform(gen, host, 256));
  std::printf("host generator, device output: %d\n", (int)curandGenerateUniform(host_gen, d, 256));
  std::printf("past the end: %d\n", (int)curandGenerateUniform(gen, d + 128, 256));
  std::printf("odd normal count: %d\n", (int)curandGenerateNormal(gen, d, 255, 0.0f, 1.0f));
  std::printf("sobol: %d\n", (int)curandCreateGenerator(&sobol, CURAND_RNG_QUASI_SOBOL32));
  // Generated on one stream, copied on another with nothing ordering the two: a stream race.
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  curandSetStream(gen, a);
  std::printf("generate on a: %d\n", (int)curandGenerateUniform(gen, d, 256));
  cudaError_t e = cudaMemcpyAsync(host, d, sizeof host, cudaMemcpyDeviceToHost, b);
  std::printf("copy on b: %s\n", cudaGetErrorName(e));
  curandDestroyGenerator(gen);
  std::printf("destroyed: %d\n", (int)curandGenerateUniform(gen, d, 256));
  curandDestroyGenerator(host_gen);
  return 0;
}
