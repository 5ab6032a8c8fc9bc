// SPDX-License-Identifier: GPL-2.0
/*
 * The little C++ runtime the C++ objects of cxprm.ko may need.
 *
 * The core avoids everything else on purpose (no exceptions, RTTI, global
 * constructors, function-local statics or heap new/delete): a reference to
 * anything not provided here or by the kernel fails modpost with an
 * undefined symbol.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/printk.h>

#include "cxprm_cxxrt.h"

/* Called through the vtable slot of a pure virtual function: a core bug. */
void __cxa_pure_virtual(void)
{
	pr_err("cxprm: pure virtual function called\n");
	BUG();
}

int __popcountdi2(u64 x)
{
	return hweight64(x);
}
