/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the C++ objects of cxprm.ko may call without declaring it: the few
 * C++ ABI and libgcc helpers the compiler emits on its own.
 */
#ifndef CXPRM_CXXRT_H
#define CXPRM_CXXRT_H

#include <linux/types.h>

/* C++ ABI: the vtable slot of a pure virtual function. */
void __cxa_pure_virtual(void);

/*
 * libgcc: __builtin_popcount{,l,ll}() without -mpopcnt (the kernel never
 * assumes POPCNT).  The argument is 64 bits wide for all three.
 */
int __popcountdi2(u64 x);

#endif /* CXPRM_CXXRT_H */
