/* cusim_switch.h: the switch between two fibers of the simulator (x86-64), inline where a CUDA
   thread parks: the runtime's barrier and warp functions, and __syncthreads() itself in a program
   built without the memory checker (cusim_device.h).

   A fiber that was left is its saved stack pointer, which points at the address it resumes at.
   The switch steps over the red zone of the code around it, saves the frame pointer, and calls
   its own tail: that pushes the resume address, stores the stack pointer in *SAVE, loads TO and
   returns into the other fiber. Every other register is declared clobbered, so the compiler
   keeps across the switch only what it must, in the parked thread's own frame; an out-of-line
   switch saved all six callee-saved registers again on every crossing. The call and its return
   pair up, so the return-stack predictor stays right when both fibers parked at the same place
   (the common case: every thread of a block waits at one __syncthreads()). No floating-point
   control state is saved: a GPU thread's code never changes it, and all fibers of a worker
   share it. */
#ifndef CUSIM_SWITCH_H
#define CUSIM_SWITCH_H
#pragma GCC system_header

#if defined(__x86_64__)
#define CUSIM_SWITCH_CLOBBERS                                                                      \
  "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1",       \
      "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",   \
      "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)",       \
      "st(7)", "cc", "memory"

/* Leaves the running fiber (its context stored in *save) for the context `to`, handing it
   CARRY: returns what the fiber that switched back to this one handed over (the simulator hands
   the worker's block, so that a resumed thread finds it in a register, not on its stack). */
__attribute__((always_inline)) static inline void *cusim_switch(void **save, void *to,
                                                                void *carry) {
  __asm__ volatile("leaq -128(%%rsp), %%rsp\n\t"
                   "pushq %%rbp\n\t"
                   "call 1f\n\t"
                   "popq %%rbp\n\t" /* resumed here, by the return below on another fiber */
                   "leaq 128(%%rsp), %%rsp\n\t"
                   "jmp 2f\n"
                   "1:\n\t"
                   "movq %%rsp, (%0)\n\t"
                   "movq %1, %%rsp\n\t"
                   "ret\n"
                   "2:"
                   : "+D"(save), "+S"(to), "+a"(carry)
                   :
                   : CUSIM_SWITCH_CLOBBERS);
  return carry;
}
#endif

#endif
