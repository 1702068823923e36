// lavamd: the pair interaction, in its own file (a __device__ function that kernel.cu calls
// across files, so the build needs -rdc=true and a device link).
#include "lavamd.h"

__device__ float pair_potential(Particle a, Particle b) {
  float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  float r2 = dx * dx + dy * dy + dz * dz;
  return b.q * expf(-ALPHA * r2);
}
