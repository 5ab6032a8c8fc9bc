# Cross toolchain for the arm64 guest programs (the static cxprm CLI for a
# busybox initramfs without shared libraries; tools/qemu/build-static.sh
# --arch arm64, Documentation/kernel-module.rst).  Bookworm's cross
# compilers: gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu (make deps).
#
#   cmake -S . -B B -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
#
# CMAKE_CROSSCOMPILING makes the top CMakeLists.txt configure the guest
# programs only (no tests, no generators: see there).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

# The versioned names, as the kernel cross-build uses (tools/kernel/build-arm64.sh):
# the unversioned aarch64-linux-gnu-gcc is only a symlink package away.
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc-12)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++-12)

# Headers and libraries from the arm64 multiarch-cross root only, so that
# nothing of the host's amd64 /usr/lib (GTest, ...) is ever picked up;
# programs (help2man, ...) are the host's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Static: the guest has no arm64 libc.so / libstdc++.so.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

