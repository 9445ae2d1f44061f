// Keeps SystemC's banner (its version and copyright, printed on stderr when the kernel starts)
// out of every run's output: compiled into each program that links the platform (an interface
// source of tern_tb_platform), so it runs before main, as SystemC reads the variable before
// sc_main. SC_COPYRIGHT_MESSAGE=ENABLE in the environment brings the banner back.
#include <cstdlib>

namespace {

const bool kQuiet = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0) == 0;

}  // namespace
