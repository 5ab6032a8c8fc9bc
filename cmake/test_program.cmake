# cxprm_test_program(TARGET): what every GoogleTest program shares.
#
# Line tables only (-g1) in a RelWithDebInfo build: a test file's full
# debug information (gtest's templates, every local of every TEST) is a
# third of its g++ 12 time, and the test files are most of what a cold
# `make userspace` compiles (bringup_test.cpp: 11.0 s at -O2 -g, 7.4 s
# at -O2 -g1).  Backtraces and gdb still have files, lines and functions;
# the code under test keeps full -g.  A later -g option overrides the
# build type's -g.
function(cxprm_test_program target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-g1>)
endfunction()
