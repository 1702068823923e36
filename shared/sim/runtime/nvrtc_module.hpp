// What NVRTC (nvrtc.cpp) writes and the driver API (driver.cpp) loads: a module is the shared
// object the host compiler made, as base64 text behind a header:
//
//   // cusim module BYTES
//   // cusim-abi DATE TIME        (the build of the simulator that compiled it)
//   // program "NAME": ...
//   BASE64 LINES
#pragma once

namespace cusim {
namespace nvrtc {
constexpr const char module_header[] = "// cusim module";
const char *module_abi(); // "cusim-abi DATE TIME" of this build
// The built-in settings of this build (nvrtc_build.cpp), each overridden by its environment
// variable:
const char *built_in_rewriter(); // CUSIM_REWRITER: the rewriter's path
const char *built_in_include();  // CUSIM_INCLUDE_DIR: the simulator's headers
const char *built_in_cxx();      // CUSIM_CXX: the host compiler
const char *built_in_flags();    // CUSIM_NVRTC_FLAGS: the checker's or sanitizer's flags
} // namespace nvrtc
} // namespace cusim
