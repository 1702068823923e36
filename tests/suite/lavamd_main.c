// lavamd: the host program, in C. Built by nvcc as a .c file, it gets the host compiler's own
// default dialect (gnu17 for gcc), in which <sys/time.h> declares struct timeval and
// gettimeofday, as the program it imitates uses them to time itself. The potential is checked
// against the CPU. Prints one PASS or FAIL line.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "lavamd.h"

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec * 1e-6;
}

int main(void) {
  Particle *particles = malloc(PARTICLES * sizeof(Particle));
  float *potential = malloc(PARTICLES * sizeof(float));
  unsigned seed = 5u;
  for (int i = 0; i < PARTICLES; i++) {
    float v[4];
    for (int k = 0; k < 4; k++) {
      seed = seed * 1664525u + 1013904223u;
      v[k] = (float)(seed >> 8) / 16777216.0f;
    }
    particles[i] = (Particle){v[0] * 2, v[1] * 2, v[2] * 2, v[3] - 0.5f};
  }
  double start = seconds();
  if (lavamd_gpu(particles, potential) != 0) return 1;
  double elapsed = seconds() - start;

  int wrong = 0;
  double worst = 0;
  for (int box = 0; box < BOXES; box++) {
    for (int t = 0; t < PER_BOX; t++) {
      Particle me = particles[box * PER_BOX + t];
      double sum = 0, scale = 0;
      for (int nb = box - 1; nb <= box + 1; nb++) {
        if (nb < 0 || nb >= BOXES) continue;
        for (int j = 0; j < PER_BOX; j++) {
          Particle b = particles[nb * PER_BOX + j];
          double dx = me.x - b.x, dy = me.y - b.y, dz = me.z - b.z;
          double term = b.q * exp(-ALPHA * (dx * dx + dy * dy + dz * dz));
          sum += term;
          scale += fabs(term);
        }
      }
      double error = fabs(potential[box * PER_BOX + t] - sum) / scale;
      if (error > worst) worst = error;
      if (error > 1e-5) wrong++;
    }
  }
  if (wrong == 0) {
    printf("PASS lavamd: %d potentials as the CPU's (worst relative error %.1e)\n", PARTICLES,
           worst);
  } else {
    printf("FAIL lavamd: %d of %d potentials differ from the CPU's (worst %.2e)\n", wrong,
           PARTICLES, worst);
  }
  (void)elapsed;
  free(particles);
  free(potential);
  return wrong == 0 ? 0 : 1;
}
