/* nvrtc.h for the CPU simulator: NVRTC, CUDA C compiled from a string at run time.

   The simulator compiles the string as its build compiles a .cu file (the preprocessor with the
   simulator's headers, cusim-rewrite, the host C++ compiler) into a shared object. What
   nvrtcGetPTX and nvrtcGetCUBIN return is that object as text ("// cusim module" and base64),
   not PTX: cuModuleLoadData of the simulator loads it, a GPU cannot, and the simulator cannot
   load real PTX. Compile errors come back as NVRTC's log does, at the string's own lines:
   "NAME(LINE): error: MESSAGE". Runtime: shared/sim/runtime/nvrtc.cpp. */
#ifndef CUSIM_NVRTC_H
#define CUSIM_NVRTC_H
/* The toolkit's own guard name. */
#define __NVRTC_H__
#pragma GCC system_header

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  NVRTC_ERROR_INTERNAL_ERROR = 11
} nvrtcResult;

typedef struct _nvrtcProgram *nvrtcProgram;

const char *nvrtcGetErrorString(nvrtcResult result);
nvrtcResult nvrtcVersion(int *major, int *minor);
nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
                               int numHeaders, const char *const *headers,
                               const char *const *includeNames);
nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog);
nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options);
nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx);
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet);
nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin);
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet);
nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log);
nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression);
nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression,
                                const char **lowered_name);

#ifdef __cplusplus
}
#endif

#endif
