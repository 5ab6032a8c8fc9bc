// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Compiled with -Wpadded -Werror by the test uapi_no_padding: no struct of
 * the UAPI has a hole or a tail the compiler pads.  Structs the driver
 * fills from scratch are zeroed before they are copied out, but padding
 * need not survive a struct assignment; without padding there is nothing
 * uninitialised that could reach userspace.
 */
#include <linux/types.h>

#include "linux/cxprm.h"

struct cxprm_cmd_status t0;
struct cxprm_info t1;
struct cxprm_caps t2;
struct cxprm_nvmf_ns t3;
struct cxprm_esw_functions t4;
struct cxprm_dctc t5;
struct cxprm_dct t6;
struct cxprm_opcode_stats t7;
struct cxprm_stats t8;
struct cxprm_raw_cmd t9;
struct cxprm_raw_dump t10;
struct cxprm_subscribe t11;
struct cxprm_event t12;
