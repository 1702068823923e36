/* The simulator's wrapper (see ../../../README.md): Thrust's device system is its C++ one, whose
   algorithms run on the host over the simulator's device memory. */
#pragma once
#pragma GCC system_header
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include_next <thrust/detail/config/device_system.h>
#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP
#error                                                                                             \
    "cusim: THRUST_DEVICE_SYSTEM other than THRUST_DEVICE_SYSTEM_CPP is not simulated (Thrust runs on its C++ system here)"
#endif
