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
} // namespace nvrtc
} // namespace cusim
