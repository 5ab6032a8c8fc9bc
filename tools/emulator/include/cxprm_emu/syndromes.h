// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator's command syndromes: one distinct 32-bit value per error
// site, returned in cmd_out.syndrome together with a non-OK cmd_out.status.
// Real firmware syndromes are opaque 32-bit numbers; ours are 0xE3AAnnnn,
// AA = area (00 generic, 01 HCA/ISSI/caps, 02 pages, 03 EQ/UAR, 04 DCT,
// 05 eswitch, 06 NVMF and XRQs, 07 ACCESS_REG, 08 PD/CQ/SRQ, 09 QP, 0a RoCE/NIC vport, 0b user contexts and uids), nnnn = site.  README.md carries the same table
// (syndrome_table_test holds it to this list and prints it).
// The X-list is plain C (the guest selftests build their constants from it,
// selftests/cxprm/cxprm_prm.h); the rest is C++.
#pragma once

// X(name, value, status, "when")
#define CXPRM_EMU_SYNDROMES(X)                                                                      \
	/* generic dispatcher */                                                                       \
	X(BAD_OPCODE, 0xE3000001, BAD_OP_ERR, "opcode not implemented by the emulator")             \
	X(INLEN_TOO_SHORT, 0xE3000002, BAD_INP_LEN_ERR, "input shorter than the command's *_in layout") \
	X(OUTLEN_TOO_SHORT, 0xE3000003, BAD_OUTP_LEN_ERR, "output shorter than the command's *_out layout") \
	X(HDR_RESERVED, 0xE3000004, BAD_PARAM_ERR, "reserved bits of the command header (dw0-1) set") \
	X(IN_RESERVED, 0xE3000005, BAD_PARAM_ERR, "reserved bits of the command's *_in layout set")  \
	X(BAD_UID, 0xE3000006, BAD_PARAM_ERR, "uid in the command header nonzero and naming no live user context (CREATE_UCTX)")      \
	X(WRONG_STATE, 0xE3000007, BAD_SYS_STATE_ERR, "the HCA is not in a state that runs this opcode") \
	X(FEATURE_OFF, 0xE3000008, BAD_OP_ERR, "the capability behind this opcode is off")          \
	X(FW_CRASHED, 0xE3000009, INT_ERR, "firmware crashed (Faults::crash_answers_int_err)")      \
	X(BAD_OP_MOD, 0xE300000a, BAD_PARAM_ERR, "op_mod not defined for this opcode")             \
	/* HCA, ISSI, capabilities */                                                                \
	X(ENABLE_BAD_FUNCTION, 0xE3010001, BAD_PARAM_ERR, "ENABLE_HCA for a function that does not exist (function_id, embedded_cpu_function)") \
	X(DISABLE_BAD_FUNCTION, 0xE3010002, BAD_PARAM_ERR, "DISABLE_HCA for a function that does not exist (function_id, embedded_cpu_function)") \
	X(SET_ISSI_UNSUPPORTED, 0xE3010003, BAD_PARAM_ERR, "SET_ISSI to an ISSI not in supported_issi") \
	X(INIT_ISSI_NOT_SET, 0xE3010004, BAD_SYS_STATE_ERR, "INIT_HCA before SET_ISSI(1) on an ISSI-1 device") \
	X(INIT_BOOT_PAGES_MISSING, 0xE3010005, BAD_SYS_STATE_ERR, "INIT_HCA while boot pages are still owed") \
	X(INIT_INIT_PAGES_MISSING, 0xE3010006, BAD_SYS_STATE_ERR, "INIT_HCA while init pages are still owed") \
	X(TEARDOWN_BAD_PROFILE, 0xE3010007, BAD_PARAM_ERR, "TEARDOWN_HCA profile not 0, 1 or 2")  \
	X(QUERY_CAP_BAD_TYPE, 0xE3010008, BAD_PARAM_ERR, "QUERY_HCA_CAP for a capability type the profile lacks") \
	X(QUERY_CAP_BAD_FUNCTION, 0xE3010009, BAD_PARAM_ERR, "QUERY_HCA_CAP other_function for a function that does not exist") \
	X(SET_CAP_BAD_TYPE, 0xE301000a, BAD_PARAM_ERR, "SET_HCA_CAP for a capability type the profile lacks") \
	X(SET_CAP_OTHER_FUNCTION, 0xE301000b, BAD_PARAM_ERR, "SET_HCA_CAP other_function/function_id (not emulated)") \
	X(SET_CAP_ABOVE_MAX, 0xE301000c, BAD_PARAM_ERR, "SET_HCA_CAP settable field above its MAX value") \
	X(SET_CAP_BAD_CHECKSUM, 0xE301000d, BAD_PARAM_ERR, "SET_HCA_CAP cmdif_checksum neither 0 nor MAX") \
	X(INIT_BAD_SW_OWNER, 0xE301000e, BAD_PARAM_ERR, "INIT_HCA sw_owner_id set while cap sw_owner_id is 0") \
	X(SET_CAP_UAR_4K_SMALL_PAGE, 0xE3010010, BAD_PARAM_ERR, "SET_HCA_CAP uar_4k with log_uar_page_sz 0 (Profile::strict_uar_page_size)") \
	X(SET_CAP_UAR_PAGE_NOT_MODELLED, 0xE3010011, BAD_PARAM_ERR, "SET_HCA_CAP log_uar_page_sz > 0 without uar_4k (UAR pages over 4 KiB are not emulated)") \
	X(TEARDOWN_FAST_UNSUPPORTED, 0xE301000f, BAD_PARAM_ERR, "TEARDOWN_HCA PREPARE_FAST_TEARDOWN while cap fast_teardown is 0") \
	X(FUNCTION_MANAGER_DOWN, 0xE3010020, BAD_SYS_STATE_ERR, "ENABLE/DISABLE_HCA of another function while this one is not INITIALIZED") \
	X(FUNCTION_STATE, 0xE3010021, BAD_SYS_STATE_ERR, "ENABLE_HCA of an enabled function or DISABLE_HCA of a disabled one") \
	/* pages */                                                                                    \
	X(QUERY_PAGES_BAD_OPMOD, 0xE3020001, BAD_PARAM_ERR, "QUERY_PAGES op_mod not 1, 2 or 3")     \
	X(QUERY_PAGES_BAD_FUNCTION, 0xE3020002, BAD_PARAM_ERR, "QUERY_PAGES for a function that does not exist (function_id, embedded_cpu_function)") \
	X(MANAGE_PAGES_BAD_OPMOD, 0xE3020003, BAD_PARAM_ERR, "MANAGE_PAGES op_mod not 0, 1 or 2")   \
	X(MANAGE_PAGES_BAD_FUNCTION, 0xE3020004, BAD_PARAM_ERR, "MANAGE_PAGES for a function that does not exist (function_id, embedded_cpu_function)") \
	X(GIVE_INLEN, 0xE3020005, BAD_INP_LEN_ERR, "MANAGE_PAGES GIVE: input_num_entries beyond input_length") \
	X(GIVE_UNALIGNED, 0xE3020006, BAD_PARAM_ERR, "MANAGE_PAGES GIVE: a page address not 4 KiB aligned") \
	X(GIVE_UNREACHABLE, 0xE3020007, BAD_PARAM_ERR, "MANAGE_PAGES GIVE: a page the device cannot DMA") \
	X(GIVE_DUPLICATE, 0xE3020008, BAD_PARAM_ERR, "MANAGE_PAGES GIVE: a page already held (or twice in one command)") \
	X(GIVE_TORN_DOWN, 0xE3020009, BAD_SYS_STATE_ERR, "MANAGE_PAGES GIVE after TEARDOWN_HCA")     \
	X(TAKE_OUTLEN, 0xE302000a, BAD_OUTP_LEN_ERR, "MANAGE_PAGES TAKE: output too short for the pages returned") \
	X(GIVE_TOO_MANY, 0xE302000b, BAD_PARAM_ERR, "MANAGE_PAGES GIVE: more entries than the emulator accepts at once") \
	X(GIVE_FUNCTION_DOWN, 0xE3020020, BAD_SYS_STATE_ERR, "MANAGE_PAGES GIVE for another function that is not enabled, or before this one is INITIALIZED") \
	/* EQ / UAR */                                                                                 \
	X(EQ_BAD_LOG_SIZE, 0xE3030001, BAD_PARAM_ERR, "CREATE_EQ log_eq_size above cap log_max_eq_sz") \
	X(EQ_BAD_UAR, 0xE3030002, BAD_PARAM_ERR, "CREATE_EQ uar_page not allocated by ALLOC_UAR")  \
	X(EQ_BAD_INTR, 0xE3030003, BAD_PARAM_ERR, "CREATE_EQ intr beyond the MSI-X vectors")       \
	X(EQ_BAD_PAGE_OFFSET, 0xE3030004, BAD_PARAM_ERR, "CREATE_EQ page_offset not 0 (not emulated)") \
	X(EQ_BAD_LOG_PAGE_SIZE, 0xE3030005, BAD_PARAM_ERR, "CREATE_EQ log_page_size too large")     \
	X(EQ_PAS_UNALIGNED, 0xE3030006, BAD_PARAM_ERR, "CREATE_EQ a pas entry not aligned to the page size") \
	X(EQ_PAS_INLEN, 0xE3030007, BAD_INP_LEN_ERR, "CREATE_EQ input too short for the pas the ring needs") \
	X(EQ_NO_EQN, 0xE3030008, NO_RES_ERR, "CREATE_EQ: all EQ numbers in use")                    \
	X(EQC_RESERVED, 0xE3030009, BAD_PARAM_ERR, "CREATE_EQ reserved bits of eqc set")            \
	X(EQ_UNKNOWN_DESTROY, 0xE303000a, BAD_RES_ERR, "DESTROY_EQ of an EQ that does not exist")   \
	X(EQ_UNKNOWN_QUERY, 0xE303000b, BAD_RES_ERR, "QUERY_EQ of an EQ that does not exist")       \
	X(UAR_EXHAUSTED, 0xE303000c, NO_RES_ERR, "ALLOC_UAR: no free UAR page in the BAR")          \
	X(UAR_UNKNOWN, 0xE303000d, BAD_RES_ERR, "DEALLOC_UAR of a UAR not allocated")               \
	X(UAR_IN_USE, 0xE303000e, BAD_RES_STATE_ERR, "DEALLOC_UAR of a UAR an EQ or CQ still uses")  \
	X(EQ_BAD_UID, 0xE303000f, BAD_PARAM_ERR, "CREATE_EQ uid neither 0 nor SHARED_RESOURCE_UID")  \
	X(EQ_IN_USE, 0xE3030010, BAD_RES_STATE_ERR, "DESTROY_EQ of an EQ a CQ still reports to")      \
	/* DCT */                                                                                      \
	X(DCT_BAD_PD, 0xE3040001, BAD_PARAM_ERR, "CREATE_DCT dctc.pd is 0")                         \
	X(DCT_BAD_CQN, 0xE3040002, BAD_PARAM_ERR, "CREATE_DCT dctc.cqn is 0")                       \
	X(DCT_BAD_SRQN, 0xE3040003, BAD_PARAM_ERR, "CREATE_DCT dctc.srqn_xrqn is 0")                \
	X(DCT_BAD_MTU, 0xE3040004, BAD_PARAM_ERR, "CREATE_DCT dctc.mtu not 1..5")                   \
	X(DCT_BAD_PORT, 0xE3040005, BAD_PARAM_ERR, "CREATE_DCT dctc.port not 1..num_ports")        \
	X(DCTC_RESERVED, 0xE3040006, BAD_PARAM_ERR, "CREATE_DCT reserved bits of dctc set")         \
	X(DCT_BAD_STATE_IN, 0xE3040007, BAD_PARAM_ERR, "CREATE_DCT dctc.state not 0")               \
	X(DCT_EXHAUSTED, 0xE3040008, NO_RES_ERR, "CREATE_DCT: the profile's DCT range is used up")  \
	X(DCT_UNKNOWN_DESTROY, 0xE3040009, BAD_RES_ERR, "DESTROY_DCT of a DCT that does not exist") \
	X(DCT_UNKNOWN_DRAIN, 0xE304000a, BAD_RES_ERR, "DRAIN_DCT of a DCT that does not exist")     \
	X(DCT_UNKNOWN_QUERY, 0xE304000b, BAD_RES_ERR, "QUERY_DCT of a DCT that does not exist")     \
	X(DCT_DRAIN_NOT_ACTIVE, 0xE304000c, BAD_RES_STATE_ERR, "DRAIN_DCT of a DCT already draining/drained") \
	X(DCT_UNKNOWN_ARM, 0xE304000d, BAD_RES_ERR, "ARM_DCT_FOR_KEY_VIOLATION of an unknown DCT")  \
	X(DCT_NOT_DRAINED, 0xE304000e, BAD_RES_STATE_ERR, "DESTROY_DCT of a DCT not DRAINED (strict)") \
	X(DCT_NO_PD, 0xE304000f, BAD_RES_ERR, "CREATE_DCT dctc.pd names no PD (strict object model)")   \
	X(DCT_NO_CQ, 0xE3040010, BAD_RES_ERR, "CREATE_DCT dctc.cqn names no CQ (strict object model)")  \
	X(DCT_NO_SRQ, 0xE3040011, BAD_RES_ERR, "CREATE_DCT dctc.srqn_xrqn names no SRQ or XRQ (strict object model)") \
	/* eswitch */                                                                                  \
	X(ESW_NOT_MANAGER, 0xE3050001, BAD_OP_ERR, "QUERY_ESW_FUNCTIONS without eswitch_manager/esw_functions_changed") \
	X(ESW_NOT_ECPF, 0xE3050020, BAD_OP_ERR, "QUERY_ESW_FUNCTIONS on a function that is not an ECPF (EswProfile::ecpf_only)") \
	/* NVMF */                                                                                     \
	X(NVMF_BAD_XRQN, 0xE3060001, BAD_RES_ERR, "NVMF command for an xrqn that names no XRQ (lenient: outside the profile's XRQ range)") \
	X(NVMF_BAD_NSID, 0xE3060002, BAD_PARAM_ERR, "ATTACH_NVMF_NAMESPACE frontend/backend nsid 0 or 0xffffffff") \
	X(NVMF_NS_EXISTS, 0xE3060003, BAD_PARAM_ERR, "ATTACH_NVMF_NAMESPACE: nsid already attached on this XRQ") \
	X(NVMF_NS_LIMIT, 0xE3060004, NO_RES_ERR, "ATTACH_NVMF_NAMESPACE: namespace table full")     \
	X(NVMF_NS_UNKNOWN_DETACH, 0xE3060005, BAD_RES_ERR, "DETACH_NVMF_NAMESPACE of a namespace not attached") \
	X(NVMF_NS_UNKNOWN_QUERY, 0xE3060006, BAD_RES_ERR, "QUERY_NVMF_NAMESPACE_CONTEXT of a namespace not attached") \
	X(NVMF_BAD_LBA_SIZE, 0xE3060007, BAD_PARAM_ERR, "ATTACH_NVMF_NAMESPACE lba_data_size (bytes) not a power of two from 512 to 32768 (lenient: only 0)") \
	X(NVMF_XRQN_IS_SRQ, 0xE3060008, BAD_RES_ERR, "NVMF command whose xrqn names an SRQ, not an XRQ (strict object model)") \
	X(XRQ_BAD_OFFLOAD, 0xE3060009, BAD_PARAM_ERR, "CREATE_XRQ xrqc.offload not NVMF (2): other XRQs are not emulated") \
	X(XRQ_NO_PD, 0xE306000a, BAD_RES_ERR, "CREATE_XRQ wq.pd names no PD")                        \
	X(XRQ_NO_CQ, 0xE306000b, BAD_RES_ERR, "CREATE_XRQ xrqc.cqn names no CQ")                     \
	X(XRQ_PAS_INLEN, 0xE306000c, BAD_INP_LEN_ERR, "CREATE_XRQ input too short for the pas the queue needs") \
	X(XRQ_EXHAUSTED, 0xE306000d, NO_RES_ERR, "CREATE_XRQ: the profile's XRQ range is used up")  \
	X(XRQ_UNKNOWN_DESTROY, 0xE306000e, BAD_RES_ERR, "DESTROY_XRQ of an XRQ that does not exist") \
	X(XRQ_IN_USE, 0xE306000f, BAD_RES_STATE_ERR, "DESTROY_XRQ while a backend controller, namespace or DCT names it") \
	X(NVMF_BE_EXHAUSTED, 0xE3060010, NO_RES_ERR, "CREATE_NVMF_BACKEND_CTRL: no free controller id on the XRQ") \
	X(NVMF_BE_UNKNOWN, 0xE3060011, BAD_RES_ERR, "DESTROY_NVMF_BACKEND_CTRL of a controller not created on that XRQ") \
	X(NVMF_BE_IN_USE, 0xE3060012, BAD_RES_STATE_ERR, "DESTROY_NVMF_BACKEND_CTRL while a namespace names it") \
	X(NVMF_NS_NO_BACKEND, 0xE3060013, BAD_RES_ERR, "ATTACH_NVMF_NAMESPACE backend_controller_id names no controller on the XRQ (strict object model)") \
	X(NVMF_BE_PAS_INLEN, 0xE3060014, BAD_INP_LEN_ERR, "CREATE_NVMF_BACKEND_CTRL input without its 128-byte address list (CQ at +0, SQ at +64)") \
	X(XRQ_BAD_STRIDE, 0xE3060015, BAD_PARAM_ERR, "CREATE_XRQ wq.log_wq_stride (log2 bytes) below 16 B (strict: 32 B) or above cap max_wqe_sz_rq") \
	X(XRQ_NOT_LINKED_LIST, 0xE3060016, BAD_PARAM_ERR, "CREATE_XRQ wq.wq_type not LINKED_LIST (strict; lenient: CYCLIC taken)") \
	X(XRQ_NO_STAGING, 0xE3060017, BAD_PARAM_ERR, "CREATE_XRQ NVMF staging_buffer_number_of_pages 0 (strict; lenient: taken)") \
	X(XRQ_STAGING_INLEN, 0xE3060018, BAD_INP_LEN_ERR, "CREATE_XRQ input too short for the staging buffer's pas after the queue's (both padded to 64 bytes)") \
	X(XRQ_BAD_OFFLOAD_TYPE, 0xE3060019, BAD_PARAM_ERR, "CREATE_XRQ nvmf_offload_type not 4, read/write/flush (lenient: 1..4)") \
	X(NVMF_BE_BAD_DOORBELL, 0xE306001a, BAD_PARAM_ERR, "CREATE_NVMF_BACKEND_CTRL sqt/cqh doorbell address 0 or not 4-byte aligned (an NVMe doorbell register)") \
	X(NVMF_BE_QUEUE_SIZE, 0xE306001b, BAD_PARAM_ERR, "CREATE_NVMF_BACKEND_CTRL sq/cq_log_page_size too small for the XRQ's nvme_queue_size entries (64 / 16 bytes), or nvme_queue_size < 2 (lenient: only the latter)") \
	/* ACCESS_REG */                                                                               \
	X(REG_UNKNOWN, 0xE3070001, BAD_PARAM_ERR, "ACCESS_REG of a register the emulator does not model") \
	X(REG_NOT_ADVERTISED, 0xE3070002, BAD_PARAM_ERR, "ACCESS_REG of a register its capability bit (pcam_reg, mcam_reg, qcam_reg, dtor) does not advertise") \
	X(REG_INLEN, 0xE3070003, BAD_INP_LEN_ERR, "ACCESS_REG input not 16 bytes + the register's size") \
	X(REG_OUTLEN, 0xE3070004, BAD_OUTP_LEN_ERR, "ACCESS_REG output not 16 bytes + the register's size") \
	X(REG_READ_ONLY, 0xE3070005, BAD_PARAM_ERR, "ACCESS_REG write of a read-only register (PCAM, MCAM, QCAM, DTOR, MGIR) or of MCIA (the emulated module's EEPROM is read-only)") \
	X(REG_BAD_ARGUMENT, 0xE3070006, BAD_PARAM_ERR, "ACCESS_REG argument not 0 for a register that takes none") \
	X(REG_BAD_GROUP, 0xE3070007, BAD_PARAM_ERR, "PCAM/MCAM/QCAM feature_group or access_reg_group not modelled") \
	X(REG_RESERVED, 0xE3070008, BAD_PARAM_ERR, "ACCESS_REG reserved bits of the register data set") \
	X(REG_VF_HOST_ENDIANNESS, 0xE3070009, BAD_PARAM_ERR, "ACCESS_REG HOST_ENDIANNESS from a VF (a PF's register; Linux writes it from a PF only)") \
	X(REG_BAD_PORT, 0xE307000a, BAD_PARAM_ERR, "ACCESS_REG local_port not 1..num_ports (PAOS, PTYS, PMTU, PPCNT) or MCIA module not 0..num_ports-1") \
	X(REG_BAD_VALUE, 0xE307000b, BAD_PARAM_ERR, "ACCESS_REG field value the register does not take (swid, pnat, prio_tc, ee not 0; PAOS admin_status not 1/2; PTYS proto_mask not 4, admin modes outside the capability; PMTU admin_mtu outside min..max)") \
	X(REG_BAD_COUNTER_GROUP, 0xE307000c, BAD_PARAM_ERR, "PPCNT grp other than 0 (IEEE 802.3, the only group modelled)") \
	X(REG_MCIA_BAD_ACCESS, 0xE307000d, BAD_PARAM_ERR, "MCIA other than i2c address 0x50, page 0, size 1..48, device_address + size <= 256, l 0") \
	X(REG_VF_PORT_WRITE, 0xE307000e, BAD_PARAM_ERR, "ACCESS_REG write of PAOS, PTYS, PMTU, PPCNT or MTRC_CAP from a VF (the physical port and the tracer are the PF's)") \
	/* PD, CQ, SRQ */                                                                              \
	X(PD_EXHAUSTED, 0xE3080001, NO_RES_ERR, "ALLOC_PD: the profile's PD limit is reached")        \
	X(PD_UNKNOWN, 0xE3080002, BAD_RES_ERR, "DEALLOC_PD of a PD not allocated")                   \
	X(PD_IN_USE, 0xE3080003, BAD_RES_STATE_ERR, "DEALLOC_PD of a PD an SRQ, XRQ, QP or DCT still names") \
	X(CQ_BAD_LOG_SIZE, 0xE3080010, BAD_PARAM_ERR, "CREATE_CQ log_cq_size above cap log_max_cq_sz") \
	X(CQ_BAD_UAR, 0xE3080011, BAD_PARAM_ERR, "CREATE_CQ uar_page not allocated by ALLOC_UAR")   \
	X(CQ_NO_EQ, 0xE3080012, BAD_RES_ERR, "CREATE_CQ c_eqn_or_apu_element names no EQ")          \
	X(CQ_PAS_INLEN, 0xE3080013, BAD_INP_LEN_ERR, "CREATE_CQ input too short for the pas the queue needs") \
	X(CQ_EXHAUSTED, 0xE3080014, NO_RES_ERR, "CREATE_CQ: the profile's CQ limit is reached")     \
	X(CQ_UNKNOWN_DESTROY, 0xE3080015, BAD_RES_ERR, "DESTROY_CQ of a CQ that does not exist")     \
	X(CQ_UNKNOWN_QUERY, 0xE3080016, BAD_RES_ERR, "QUERY_CQ of a CQ that does not exist")         \
	X(CQ_IN_USE, 0xE3080017, BAD_RES_STATE_ERR, "DESTROY_CQ of a CQ an SRQ, XRQ, QP or DCT still names") \
	X(QUEUE_BAD_DBR, 0xE3080018, BAD_PARAM_ERR, "CREATE_CQ/SRQ/QP/XRQ doorbell record address 0 or not 8-byte aligned") \
	X(CQ_ON_ASYNC_EQ, 0xE3080019, BAD_PARAM_ERR, "CREATE_CQ on an EQ subscribed to async events (not a completion EQ)") \
	X(SRQ_NO_PD, 0xE3080020, BAD_RES_ERR, "CREATE_SRQ srqc.pd names no PD")                      \
	X(SRQ_NO_CQ, 0xE3080021, BAD_RES_ERR, "CREATE_SRQ srqc.cqn nonzero and names no CQ")         \
	X(SRQ_PAS_INLEN, 0xE3080022, BAD_INP_LEN_ERR, "CREATE_SRQ input too short for the pas the queue needs") \
	X(SRQ_EXHAUSTED, 0xE3080023, NO_RES_ERR, "CREATE_SRQ: the profile's SRQ limit is reached")  \
	X(SRQ_UNKNOWN_DESTROY, 0xE3080024, BAD_RES_ERR, "DESTROY_SRQ of an SRQ that does not exist") \
	X(SRQ_UNKNOWN_QUERY, 0xE3080025, BAD_RES_ERR, "QUERY_SRQ of an SRQ that does not exist")     \
	X(SRQ_IN_USE, 0xE3080026, BAD_RES_STATE_ERR, "DESTROY_SRQ of an SRQ a QP or DCT still names") \
	X(RMP_ISSI_0, 0xE3080030, BAD_OP_ERR, "CREATE_RMP while the function runs ISSI 0 (RMPs are ISSI 1 objects)") \
	X(RMP_BAD_STATE, 0xE3080031, BAD_PARAM_ERR, "CREATE_RMP rmpc.state not RDY") \
	X(RMP_BAD_WQ_TYPE, 0xE3080032, BAD_PARAM_ERR, "CREATE_RMP wq.wq_type not linked list (0)") \
	X(RMP_BAD_STRIDE, 0xE3080033, BAD_PARAM_ERR, "CREATE_RMP wq.log_wq_stride below 4 (a stride under 16 bytes)") \
	X(RMP_UNKNOWN, 0xE3080034, BAD_RES_ERR, "DESTROY/QUERY_RMP of an RMP that does not exist (an SRQ is not one)") \
	/* QP */                                                                                       \
	X(QP_BAD_ST, 0xE3090001, BAD_PARAM_ERR, "CREATE_QP qpc.st not RC (others are not emulated)") \
	X(QP_NO_PD, 0xE3090002, BAD_RES_ERR, "CREATE_QP qpc.pd names no PD")                         \
	X(QP_NO_CQ, 0xE3090003, BAD_RES_ERR, "CREATE_QP qpc.cqn_snd or cqn_rcv names no CQ")         \
	X(QP_NO_SRQ, 0xE3090004, BAD_RES_ERR, "CREATE_QP rq_type SRQ and srqn_rmpn_xrqn names no SRQ") \
	X(QP_SRQ_WRONG_TYPE, 0xE3090005, BAD_RES_ERR, "CREATE_QP rq_type SRQ and srqn_rmpn_xrqn names an XRQ") \
	X(QP_BAD_RQ_TYPE, 0xE3090006, BAD_PARAM_ERR, "CREATE_QP rq_type not regular, SRQ or zero-size") \
	X(QP_PAS_INLEN, 0xE3090007, BAD_INP_LEN_ERR, "CREATE_QP input too short for the pas the queues need") \
	X(QP_EXHAUSTED, 0xE3090008, NO_RES_ERR, "CREATE_QP: the profile's QP limit is reached")     \
	X(QP_UNKNOWN, 0xE3090009, BAD_RES_ERR, "a QP transition or 2RST_QP of a QP that does not exist") \
	X(QP_UNKNOWN_DESTROY, 0xE309000a, BAD_RES_ERR, "DESTROY_QP of a QP that does not exist")     \
	X(QP_BAD_TRANSITION, 0xE309000b, BAD_RES_STATE_ERR, "RST2INIT/INIT2RTR/RTR2RTS from a state other than RST/INIT/RTR") \
	X(QP_BAD_PORT, 0xE309000c, BAD_PARAM_ERR, "RST2INIT_QP vhca_port_num not 1..num_ports")     \
	X(QP_BAD_MTU, 0xE309000d, BAD_PARAM_ERR, "INIT2RTR_QP qpc.mtu not 1..5")                     \
	X(QP_BAD_TS_FORMAT, 0xE309000e, BAD_PARAM_ERR, "CREATE_QP qpc.ts_format not supported by the ts_format capability (roce_cap.qp_ts_format on a RoCE port, else sq_ts_format: FREE_RUNNING on a real-time-clock-only adapter, REAL_TIME on a free-running-only one, or 3)") \
	X(QP_BAD_LOG_MSG_MAX, 0xE309000f, BAD_PARAM_ERR, "INIT2RTR_QP qpc.log_msg_max above cap log_max_msg") \
	/* RoCE: NIC vport and GID table */                                                          \
	X(ROCE_DISABLED, 0xE30a0001, BAD_PARAM_ERR, "INIT2RTR_QP or CREATE_DCT on an Ethernet port while the function's roce_en is 0 (strict)") \
	X(ROCE_GID_EMPTY, 0xE30a0002, BAD_PARAM_ERR, "INIT2RTR_QP src_addr_index or CREATE_DCT my_addr_index names an empty GID entry (strict)") \
	X(ROCE_GID_INDEX, 0xE30a0003, BAD_PARAM_ERR, "SET_ROCE_ADDRESS roce_address_index beyond the GID table") \
	X(ROCE_BAD_PORT, 0xE30a0004, BAD_PARAM_ERR, "SET_ROCE_ADDRESS vhca_port_num not 0 (own port) or 1..num_ports") \
	X(ROCE_NOT_ETH, 0xE30a0005, BAD_OP_ERR, "SET_ROCE_ADDRESS on a port that is not Ethernet (cap port_type)") \
	X(VPORT_OTHER, 0xE30a0006, BAD_PARAM_ERR, "QUERY/MODIFY_NIC_VPORT_CONTEXT of another vport (not emulated)") \
	X(VPORT_FIELD, 0xE30a0007, BAD_PARAM_ERR, "MODIFY_NIC_VPORT_CONTEXT field_select other than roce_en (not emulated)") \
	X(ROCE_BAD_VERSION, 0xE30a0008, BAD_PARAM_ERR, "SET_ROCE_ADDRESS roce_version not 0 (v1) or 2 (v2), or roce_l3_type above 1") \
	/* user contexts (uid) */                                                                     \
	X(UCTX_BAD_CAP, 0xE30b0001, BAD_PARAM_ERR, "CREATE_UCTX uctx.cap has a bit cap uctx_cap lacks") \
	X(UCTX_EXHAUSTED, 0xE30b0002, NO_RES_ERR, "CREATE_UCTX: 2^log_max_uctx contexts exist")          \
	X(UCTX_UNKNOWN, 0xE30b0003, BAD_PARAM_ERR, "DESTROY_UCTX of a uid that names no live context")   \
	X(UCTX_IN_USE, 0xE30b0004, BAD_RES_STATE_ERR, "DESTROY_UCTX of a context that still owns objects (strict; ObjectProfile::uctx_destroy_requires_empty)") \
	X(UID_NOT_PERMITTED, 0xE30b0005, BAD_PARAM_ERR, "a kernel-only command with a nonzero uid (bring-up, pages, EQ, UAR, uctx, vport/GID writes), ACCESS_REG from a uid without TOOLS_RESOURCES, SET_HCA_CAP other than other_function from a TOOLS_RESOURCES uid") \
	X(OBJ_NOT_OWNED, 0xE30b0006, BAD_RES_ERR, "a command naming an object another uid created (a QUERY from a TOOLS_RESOURCES uid excepted; ObjectProfile::uid0_acts_on_any)")

#ifdef __cplusplus
#include <cstdint>

namespace cxprm::emu {

namespace synd {
#define CXPRM_EMU_SYND_ENUM_(n, v, s, t) n = v,
enum : uint32_t { CXPRM_EMU_SYNDROMES(CXPRM_EMU_SYND_ENUM_) };
#undef CXPRM_EMU_SYND_ENUM_
} // namespace synd

// "GIVE_DUPLICATE" for its value; nullptr when not ours.
const char *syndrome_name(uint32_t syndrome);
const char *syndrome_text(uint32_t syndrome);

} // namespace cxprm::emu
#endif // __cplusplus
