// lavamd: what main.c (C) and kernel.cu (CUDA) share.
#ifndef LAVAMD_H
#define LAVAMD_H

#define BOXES 64
#define PER_BOX 32
#define PARTICLES (BOXES * PER_BOX)
#define ALPHA 0.5f

typedef struct {
  float x, y, z, q; // position and charge
} Particle;

#ifdef __cplusplus
extern "C" {
#endif
// Computes each particle's potential from its own box and the two next to it on the GPU;
// returns 0, or -1 after printing what failed.
int lavamd_gpu(const Particle *particles, float *potential);
#ifdef __cplusplus
}
#endif

#endif
