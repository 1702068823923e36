/* NVRTC's --gpu-architecture (-arch) values: which it accepts, which it rejects and with what log.
 * Built twice: against the simulator's NVRTC (sim_nvrtc_arch_options) and, with the toolkit,
 * against NVIDIA's libnvrtc (nvrtc_arch_options_real), which compiles on the CPU without a GPU.
 * unit.sim.nvrtc.arch_options_match_nvrtc requires the two outputs to be equal line for line: the
 * real NVRTC 13 is the oracle of runtime/nvrtc.cpp's check_arch. Plain C, NVRTC calls only. */
#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>

static const char *const source = "extern \"C\" __global__ void k(float *a) { a[0] = 1.0f; }\n";

/* Each case: up to three options. */
static const char *const cases[][3] = {
    {"--gpu-architecture=compute_90"},
    {"-arch=sm_90"},
    {"-arch", "compute_75"},
    {"--gpu-architecture=compute_120"},
    {"-arch=compute_121f"},
    {"-arch=sm_100a"},
    {"-arch=compute_90a"},
    {"-arch=compute_103"},
    {"-arch=compute_110"},
    {"--gpu-architecture=compute_999"},
    {"-arch=compute_70"},
    {"-arch=sm_101"},
    {"-arch=compute_91"},
    {"-arch=compute90"},
    {"-arch=native"},
    {"-arch=compute_86a"},
    {"-arch=compute_90f"},
    {"-arch=compute_90", "-arch=compute_120"},
    {"-arch=sm_80", "-arch=compute_90a"},
    {"-arch=compute_90", "-arch=sm_90"},
};

int main(void) {
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    int count = 0;
    while (count < 3 && cases[c][count]) ++count;
    nvrtcProgram program;
    if (nvrtcCreateProgram(&program, source, "k.cu", 0, NULL, NULL) != NVRTC_SUCCESS) return 1;
    nvrtcResult result = nvrtcCompileProgram(program, count, cases[c]);
    size_t size = 0;
    char *log = NULL;
    if (nvrtcGetProgramLogSize(program, &size) == NVRTC_SUCCESS) log = malloc(size);
    if (!log || nvrtcGetProgramLog(program, log) != NVRTC_SUCCESS) return 1;
    for (int i = 0; i < count; ++i) printf("%s%s", i ? " " : "", cases[c][i]);
    printf(" -> %s\n", nvrtcGetErrorString(result));
    for (char *line = log; *line;) { /* the log, each line marked */
      char *end = line;
      while (*end && *end != '\n') ++end;
      printf("  | %.*s\n", (int)(end - line), line);
      line = *end ? end + 1 : end;
    }
    free(log);
    if (nvrtcDestroyProgram(&program) != NVRTC_SUCCESS) return 1;
  }
  return 0;
}
