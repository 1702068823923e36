/* Not simulated: see README.md in this folder. */
#error "cusim: <thrust/execution_policy.h> is not simulated (Thrust)"
