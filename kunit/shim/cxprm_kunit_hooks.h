/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test hooks of cxprm.ko for its KUnit module (kunit/), built
 * only into a kernel with CONFIG_KUNIT (kunit/shim/cxprm_kunit_hooks.c).
 * They give the suites the first bound device and run the core's calls on
 * it the way the ioctls do (under the device's rwsem, only while it is up).
 */
#ifndef CXPRM_KUNIT_HOOKS_H
#define CXPRM_KUNIT_HOOKS_H

#include "cxprm.h"

/* The first device bound to cxprm, with a reference; NULL if none. */
struct cxprm_dev *cxprm_kunit_get_dev(void);
void cxprm_kunit_put_dev(struct cxprm_dev *cx);

/* DMA buffers the host interface has handed out and not got back. */
unsigned long cxprm_kunit_dma_count(struct cxprm_dev *cx);

/* -ENODEV unless the device is up; else as cxprm_core_*(). */
int cxprm_kunit_raw(struct cxprm_dev *cx, const void *in, u32 inlen,
		    void *out, u32 outlen, struct cxprm_core_result *res);
int cxprm_kunit_info(struct cxprm_dev *cx, struct cxprm_core_info *info);
int cxprm_kunit_event_stats(struct cxprm_dev *cx,
			    struct cxprm_core_event_stats *st);

/* The PCI core's error recovery: error_detected; then slot_reset and resume. */
int cxprm_kunit_pci_error_detected(struct cxprm_dev *cx);
int cxprm_kunit_pci_slot_reset(struct cxprm_dev *cx);

#endif /* CXPRM_KUNIT_HOOKS_H */
