/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shim's kernel compatibility: what the feature probes of
 * drivers/compat/ found (HAVE_*, generated at build time by
 * drivers/compat/conftest.sh), turned into one spelling the shim uses.
 */
#ifndef CXPRM_COMPAT_H
#define CXPRM_COMPAT_H

#include <linux/pci.h>

#include "cxprm_compat_probes.h"

/*
 * Bound through driver_override only.  Since 5.14 every id entry is
 * override_only (PCI_DEVICE_DRIVER_OVERRIDE, flag PCI_ID_F_VFIO_DRIVER_OVERRIDE);
 * before, the driver registers no id table at all: driver_override then
 * matches with pci_match_device()'s dummy id, and the probe looks its
 * entry up in the table itself (pci_match_id).
 */
#ifdef HAVE_PCI_DEVICE_DRIVER_OVERRIDE
#define CXPRM_PCI_ID(vend, dev)		PCI_DEVICE_DRIVER_OVERRIDE(vend, dev, 1)
#define CXPRM_PCI_ID_TABLE(ids)		(ids)
#define CXPRM_PCI_ID_MATCHED(ids, pdev, id)	(id)
#else
#define CXPRM_PCI_ID(vend, dev)		PCI_DEVICE(vend, dev)
#define CXPRM_PCI_ID_TABLE(ids)		NULL
#define CXPRM_PCI_ID_MATCHED(ids, pdev, id)	pci_match_id(ids, pdev)
#endif

/*
 * A raw write taints the kernel as fwctl's write scopes do: TAINT_FWCTL
 * where the kernel has it (7.x), else TAINT_USER ('U', "userspace has done
 * something the kernel cannot vouch for"), the closest older flag
 * (Documentation/security.rst, "Raw writes").
 */
#ifdef HAVE_TAINT_FWCTL
#define CXPRM_TAINT_RAW_WRITE		TAINT_FWCTL
#define CXPRM_TAINT_RAW_WRITE_NAME	"TAINT_FWCTL"
#else
#define CXPRM_TAINT_RAW_WRITE		TAINT_USER
#define CXPRM_TAINT_RAW_WRITE_NAME	"TAINT_USER"
#endif

#endif /* CXPRM_COMPAT_H */
