// SPDX-License-Identifier: GPL-2.0
/*
 * WQ_PERCPU (6.17): a workqueue says whether it is per-CPU or unbound;
 * 7.x warns at alloc_workqueue() when it says neither.
 */
#include <linux/workqueue.h>

const unsigned int cxprm_probe_wq_flags = WQ_PERCPU;
