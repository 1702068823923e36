// What NVRTC (nvrtc.cpp) takes from the build that made this copy of the simulator: the rewriter,
// the headers and the host compiler (absolute paths), the flags, and the build's identity
// (module_abi, from the time of the build); and the checkout's root, under which the programs of
// that build name their files relative to it (cusim.cmake, CUSIM_PATH_FLAGS; messages.cpp). Alone
// in this small file so that the rest of the runtime compiles the same in every copy of the tree:
// CI's ccache (issue 26) then finds it, where the paths and __DATE__/__TIME__ made every copy
// compile it again (about 4 s of CPU each for nvrtc.cpp).
#include "nvrtc_module.hpp"

#ifndef CUSIM_NVRTC_REWRITER
#define CUSIM_NVRTC_REWRITER "cusim-rewrite"
#endif
#ifndef CUSIM_NVRTC_INCLUDE
#define CUSIM_NVRTC_INCLUDE ""
#endif
#ifndef CUSIM_NVRTC_CXX
#define CUSIM_NVRTC_CXX "c++"
#endif
#ifndef CUSIM_NVRTC_FLAGS
#define CUSIM_NVRTC_FLAGS ""
#endif
#ifndef CUSIM_SOURCE_ROOT
#define CUSIM_SOURCE_ROOT "" // nvcc-sim's own build: its programs name their files as given
#endif

namespace cusim {
namespace nvrtc {

const char *module_abi() {
  // A module binds to the runtime's symbols by name; one from another build of the simulator
  // may not match them (driver.cpp refuses it). The build's time is the build's identity.
  return "cusim-abi " __DATE__ " " __TIME__;
}

const char *built_in_rewriter() {
  return CUSIM_NVRTC_REWRITER;
}
const char *built_in_include() {
  return CUSIM_NVRTC_INCLUDE;
}
const char *built_in_cxx() {
  return CUSIM_NVRTC_CXX;
}
const char *built_in_flags() {
  return CUSIM_NVRTC_FLAGS;
}

} // namespace nvrtc

namespace rt {
const char *built_in_source_root() {
  return CUSIM_SOURCE_ROOT;
}
} // namespace rt
} // namespace cusim
