/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The UAPI header (include/uapi/linux/cxprm.h) for every side: the C shim,
 * hosted C++ (tests, tools) and the freestanding C++ core, so the ioctl
 * payloads are defined once and the facade (capi.h) takes them as they are.
 *
 * The UAPI needs only <linux/types.h> (__u8 .. __u64, __s32) and
 * <linux/ioctl.h> (_IOR/_IOW/_IOWR).  Hosted code and the kernel's C have
 * them; the freestanding C++ core includes no system or kernel header, so
 * there this header stands in for both (their include guards set, the
 * types from the compiler's predefined macros, the generic _IOC encoding
 * that x86 and arm64 use).  ioctl.cpp checks the encoding against the real
 * <linux/ioctl.h> in the hosted build.
 */
#ifndef CXPRM_UAPI_COMPAT_H
#define CXPRM_UAPI_COMPAT_H

/* asm-generic/ioctl.h: nr 8 bits, type 8, size 14, dir 2 (1 write, 2 read). */
#define CXPRM_IOC_ENCODE(dir, type, nr, size) \
	(((dir) << 30) | ((size) << 16) | ((type) << 8) | (nr))

#if defined(__cplusplus) && !__STDC_HOSTED__
#define _LINUX_TYPES_H
#define _UAPI_LINUX_TYPES_H
#define _LINUX_IOCTL_H
#define _UAPI_LINUX_IOCTL_H
typedef __UINT8_TYPE__ __u8;
typedef __UINT16_TYPE__ __u16;
typedef __UINT32_TYPE__ __u32;
typedef __UINT64_TYPE__ __u64;
typedef __INT32_TYPE__ __s32;
#define _IOR(type, nr, T) CXPRM_IOC_ENCODE(2U, (type), (nr), sizeof(T))
#define _IOW(type, nr, T) CXPRM_IOC_ENCODE(1U, (type), (nr), sizeof(T))
#define _IOWR(type, nr, T) CXPRM_IOC_ENCODE(3U, (type), (nr), sizeof(T))
#define _IOC_TYPE(cmd) (((cmd) >> 8) & 0xffU)
#define _IOC_SIZE(cmd) (((cmd) >> 16) & 0x3fffU)
#endif

#include <uapi/linux/cxprm.h>

#endif /* CXPRM_UAPI_COMPAT_H */
