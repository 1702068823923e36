#line 1 "inline_ptx.cu"
# 1 "inline_ptx.cu"
// Preprocessed input (the linemarker above): inline PTX in device code becomes a call of
// ::cusim::ptx::run() whose lambda does what the statements do; the C operands stay in place, so
// a shift inside one is still hooked. Host code's asm is the host's and is left alone.
__global__ void k(unsigned *out, unsigned a, int s) {
  unsigned lane, x;
  ::cusim::ptx::run([]([[maybe_unused]] auto &cusim_p0) { namespace cusim_ptx = ::cusim::ptx; cusim_ptx::set(cusim_p0, cusim_ptx::get<cusim_ptx::u32>(cusim_ptx::sreg_laneid())); }, ::cusim::ptx::out<'r'>((lane)));
  ::cusim::ptx::run([]([[maybe_unused]] auto &cusim_p0, [[maybe_unused]] auto &cusim_p1, [[maybe_unused]] auto &cusim_p2) { namespace cusim_ptx = ::cusim::ptx; {[[maybe_unused]] cusim_ptx::u32 cusim_v0_0{};[[maybe_unused]] cusim_ptx::u32 cusim_v0_1{};cusim_ptx::set(cusim_v0_0, cusim_ptx::add(cusim_ptx::get<cusim_ptx::u32>(cusim_p1), cusim_ptx::get<cusim_ptx::u32>(cusim_p2)));cusim_ptx::set(cusim_p0, cusim_ptx::shl(cusim_ptx::get<cusim_ptx::u32>(cusim_v0_0), cusim_ptx::get<cusim_ptx::u32>(cusim_ptx::imm_value{1ULL})));} }, ::cusim::ptx::out<'r'>(

                     (x)), ::cusim::ptx::in<'r'>(
                    (a << ::cusim::dev::shift_site{__FILE__, __LINE__} << s)), ::cusim::ptx::in_n(::std::integral_constant<long long, (3)>{}));
  ::cusim::ptx::run([]([[maybe_unused]] auto &cusim_p0, [[maybe_unused]] auto &cusim_p1) { namespace cusim_ptx = ::cusim::ptx; {[[maybe_unused]] cusim_ptx::p1 cusim_v0_0{};cusim_v0_0 = (cusim_ptx::get<cusim_ptx::s32>(cusim_p1) < cusim_ptx::get<cusim_ptx::s32>(cusim_ptx::imm_value{0ULL}));if (!cusim_v0_0) {cusim_ptx::set(cusim_p0, cusim_ptx::add(cusim_ptx::get<cusim_ptx::u32>(cusim_p0), cusim_ptx::get<cusim_ptx::u32>(cusim_ptx::imm_value{1ULL})));}} }, ::cusim::ptx::inout<'r'>((x)), ::cusim::ptx::in<'r'>((s)));
  ::cusim::ptx::run([]() { namespace cusim_ptx = ::cusim::ptx; cusim_ptx::fence(); });
  ::cusim::ptx::run([]([[maybe_unused]] auto &cusim_p0, [[maybe_unused]] auto &cusim_p1) { namespace cusim_ptx = ::cusim::ptx; cusim_ptx::set(cusim_p0, cusim_ptx::add(cusim_ptx::get<cusim_ptx::u32>(cusim_p0), cusim_ptx::get<cusim_ptx::u32>(cusim_p1))); }, ::cusim::ptx::inout<'r'>((x)), ::cusim::ptx::in<'r'>((::cusim::detail::builtin_thread_idx().x)));
  out[lane] = x;
} static const ::cusim::kernel_registration cusim_kernel_registration_2(static_cast<void (*)(unsigned *out, unsigned a, int s)>(&k), "k");
void host_side(void) { asm volatile("nop"); }
