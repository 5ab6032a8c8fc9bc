/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test control page of cxprm-emud: a window in the ivshmem BAR through
 * which guest-side tests talk to the emulator running behind QEMU (the
 * guest cannot reach host files).  Plain C, usable from the daemon (C++),
 * the KUnit shim and the guest's client tools/emulator/emuctl (/bin/emuctl),
 * which takes its command-line names from the X-lists below.  See
 * tools/emulator/daemon/README.md.
 *
 * Where: the last 4 KiB page of the BAR, CXPRM_EMUD_CTRL_OFFSET(bar_size):
 * 0xff000 for the default 1 MiB BAR.  The emulated device only sees the
 * BAR below it (init segment at 0, UAR pages from 0x10000); it never
 * writes the control page, not even when it is "gone" (device_gone fills
 * the device part with 0xff, the control page stays usable).
 *
 * Byte order: every control dword is LITTLE-endian (a plain 32-bit load
 * or store on x86, ioread32/iowrite32), unlike the
 * big-endian init segment.  Access with aligned 32-bit loads/stores.
 *
 * Protocol (one client at a time):
 *   1. read ACK; seq = ACK + 1 (skip 0)
 *   2. write the ARG dwords the command needs, then CMD
 *   3. write SEQ = seq (this is the doorbell: the daemon acts when SEQ
 *      differs from the last sequence it answered)
 *   4. poll ACK until it reads seq (the daemon answers within ~0.1 ms of
 *      seeing SEQ, a DEVICE_GONE fault within ~1 s); then STATUS and
 *      RESULT_LO/HI are valid (the daemon writes them before ACK)
 */
#ifndef CXPRM_EMUD_CONTROL_H
#define CXPRM_EMUD_CONTROL_H

#define CXPRM_EMUD_CTRL_SIZE		0x1000u
#define CXPRM_EMUD_CTRL_OFFSET(bar_size) ((bar_size) - CXPRM_EMUD_CTRL_SIZE)
#define CXPRM_EMUD_CTRL_OFFSET_1M	0xff000u	/* for the default 1 MiB BAR */

/* Dword offsets inside the control page. */
#define CXPRM_EMUD_CTRL_MAGIC		0x000	/* daemon: CXPRM_EMUD_MAGIC while it runs */
#define CXPRM_EMUD_CTRL_VERSION		0x004	/* daemon: CXPRM_EMUD_VERSION */
#define CXPRM_EMUD_CTRL_HEARTBEAT	0x008	/* daemon: counts ms, written every <= 10 ms */
#define CXPRM_EMUD_CTRL_PID		0x00c	/* daemon: its host process id */
#define CXPRM_EMUD_CTRL_SEQ		0x010	/* client: sequence number, written last */
#define CXPRM_EMUD_CTRL_CMD		0x014	/* client: CXPRM_EMUD_CMD_* */
#define CXPRM_EMUD_CTRL_ACK		0x018	/* daemon: = SEQ once the command is done */
#define CXPRM_EMUD_CTRL_STATUS		0x01c	/* daemon: CXPRM_EMUD_ST_* */
#define CXPRM_EMUD_CTRL_RESULT_LO	0x020	/* daemon: result bits 31..0 */
#define CXPRM_EMUD_CTRL_RESULT_HI	0x024	/* daemon: result bits 63..32 */
#define CXPRM_EMUD_CTRL_DEVICE_ID	0x028	/* daemon: profile PCI device id (0x1017 cx5, 0x1021 cx7,
							 * 0xa2dc bf3, 0x101e cx7vf) */
#define CXPRM_EMUD_CTRL_FW_REV		0x02c	/* daemon: major << 24 | minor << 16 | subminor */
#define CXPRM_EMUD_CTRL_DONE		0x030	/* daemon: commands answered so far */
#define CXPRM_EMUD_CTRL_ARG(i)		(0x040 + 4 * (i))	/* client: argument i */
#define CXPRM_EMUD_CTRL_NARGS		16

#define CXPRM_EMUD_MAGIC		0x4d455843u	/* "CXEM" as little-endian bytes */
#define CXPRM_EMUD_VERSION		1u

/* Commands (CMD). Arguments are unsigned 32-bit unless noted. */
#define CXPRM_EMUD_CMD_NOP		0x00	/* result = CXPRM_EMUD_VERSION */
#define CXPRM_EMUD_CMD_SET_NUM_VFS	0x01	/* arg0 n: Emulator::set_num_vfs -> ESW_FUNCTIONS_CHANGED */
#define CXPRM_EMUD_CMD_NVMF_IO		0x02	/* arg0 xrqn, arg1 nsid, arg2 reads, arg3 writes,
						 * arg4 blocks per I/O (0 = 8): simulate_nvmf_io */
#define CXPRM_EMUD_CMD_REQUEST_PAGES	0x03	/* arg0 n (signed): PAGE_REQUEST event */
#define CXPRM_EMUD_CMD_POST_EVENT	0x04	/* arg0 type, arg1 sub_type, arg2..arg8 the 28 data
						 * bytes, each arg big-endian (arg2 = bytes 0..3);
						 * result = EQs that got it */
#define CXPRM_EMUD_CMD_FN_PAGES	0x05	/* arg0 n (signed), arg1 function_id, arg2 ec_function,
						 * arg3 release_all: PAGE_REQUEST naming that function
						 * (Emulator::request_pages(n, id, ec), or with arg3 = 1
						 * release_all_pages(id, ec), n ignored) */
#define CXPRM_EMUD_CMD_NVME_QUEUE	0x06	/* arg0 qid: the emulated SSD's I/O queue pair qid,
						 * created afresh as its driver hands it to a peer
						 * (Emulator::nvme_take_queue); result = its SQ bus
						 * address (the rest: CXPRM_EMUD_Q_NVME_QUEUE) */
#define CXPRM_EMUD_CMD_NVMF_AUTO_IO	0x07	/* arg0 1 = run, 0 = pause the namespaces'
						 * automatic I/O tick (nvmf.auto_io_ms); result =
						 * 1 if it was running (Emulator::set_nvmf_auto_io) */
#define CXPRM_EMUD_CMD_FAULT		0x10	/* arg0 CXPRM_EMUD_FAULT_*, arg1 value, arg2 value 2;
						 * result = previous value */
#define CXPRM_EMUD_CMD_FAULT_CLEAR	0x11	/* Faults::clear_command_faults (not crash/gone) */
#define CXPRM_EMUD_CMD_FUNCTION_RESET	0x12	/* Emulator::function_reset: crash/gone/stall end,
						 * HCA DISABLED, pages and objects dropped */
#define CXPRM_EMUD_CMD_FW_RESTART	0x13	/* arg0 init_ms (0 = the profile's fw_reset_ms):
						 * Emulator::firmware_restart, the firmware resets as
						 * after an assert (state lost, crash/stall end,
						 * nic_interface DISABLED, 'initializing' for init_ms);
						 * REFUSED when the device is gone */
#define CXPRM_EMUD_CMD_QUERY		0x20	/* arg0 CXPRM_EMUD_Q_*, arg1.. parameters */
#define CXPRM_EMUD_CMD_MARK		0x30	/* arg0 a number: the daemon logs "guest mark N" */

/*
 * The X-lists: X(NAME, value[, kind]) gives the constant CXPRM_EMUD_<LIST>_NAME
 * (the enums below) and the client's command-line name, NAME in lower
 * case with '-' for '_' (emuctl fault never-complete, emuctl pages-held,
 * emuctl counter eq-overruns, emuctl nvmf-counter X N read-cmds).
 *
 * Fault knobs (CXPRM_EMUD_CMD_FAULT arg0), see cxprm::emu::Faults.  kind:
 * how the client reads the value: BOOL (on|off, default on), TARGET
 * (entry|blocks|both|off, default entry), NUM (a number, required),
 * SYNDROME (a number, default 0x10), OPCODE (a name or number, or any),
 * CRASH ([int-err|off]).
 */
#define CXPRM_EMUD_FAULTS(X) \
	X(NEVER_COMPLETE, 1, BOOL)	/* value 0/1 */ \
	X(CORRUPT_SIGNATURE, 2, TARGET)	/* value: 1 entry, 2 first output block, 3 both */ \
	X(WRONG_TOKEN, 3, TARGET)	/* value: 1 entry, 2 output blocks, 3 both */ \
	X(DELIVERY_STATUS, 4, NUM)	/* value status (0 off), value 2 count (0 = 1) */ \
	X(OUTPUT_LENGTH_LIE, 5, NUM)	/* value: bytes added to output_length */ \
	X(BROKEN_CHAIN, 6, BOOL)	/* value 0/1 */ \
	X(SLOW_MS, 7, NUM)		/* value: ms per command */ \
	X(CRASH, 8, CRASH)		/* value 1 (sticky); value 2 != 0: answer INT_ERR */ \
	X(DEVICE_GONE, 9, BOOL)		/* value 1 (sticky); waits until the BAR reads 0xff */ \
	X(ONLY_OPCODE, 10, OPCODE)	/* value opcode, 0xffffffff = every opcode */ \
	X(ONCE, 11, BOOL)		/* value 0/1 */ \
	X(CRASH_INT_ERR, 12, BOOL)	/* value 0/1: crashed firmware answers INT_ERR */ \
	X(HEALTH_STALL, 13, BOOL)	/* value 0/1: the health counter stops (no syndrome) */ \
	X(HEALTH_SYNDROME, 14, SYNDROME) /* value: syndrome without rfr (0x10 HIGH_TEMP), 0 clears */ \
	X(SW_RESET, 15, BOOL)		/* value 1 (sticky until function reset): nic_interface 7 */ \
	X(NO_RESTART, 16, BOOL)		/* value 0/1: a crashed firmware ignores the driver's SW_RESET */

/* Queries (CXPRM_EMUD_CMD_QUERY arg0); result is 64-bit. */
#define CXPRM_EMUD_QUERIES(X) \
	X(PAGES_HELD, 1)	/* Emulator::pages_held */ \
	X(COMMANDS, 2)		/* commands_processed */ \
	X(HCA_STATE, 3)		/* CXPRM_EMUD_HCA_* */ \
	X(NUM_VFS, 4) \
	X(ISSI, 5)		/* current ISSI */ \
	X(INITIALIZING, 6) \
	X(CRASHED, 7) \
	X(GONE, 8) \
	X(HEALTH_COUNTER, 9) \
	X(PAGES_GIVEN, 10)	/* pages_given_total */ \
	X(PAGES_TAKEN, 11)	/* pages_taken_total */ \
	X(PAGES_WANTED, 12)	/* arg1 op_mod (1 boot, 2 init, 3 regular), signed */ \
	X(OPCODE_COUNT, 13)	/* arg1 opcode */ \
	X(LAST_STATUS, 14)	/* lo: last cmd_out.status, hi: its syndrome */ \
	X(LAST_DELIVERY, 15)	/* last delivery status */ \
	X(UARS, 16) \
	X(EQS, 17) \
	X(DCTS, 18) \
	X(NVMF_NAMESPACES, 19) \
	X(COUNTER, 20)		/* arg1 CXPRM_EMUD_COUNTER_* */ \
	X(FAULTS_FIRED, 21)	/* Faults::fired */ \
	X(CHECKSUMS, 22)	/* CUR cmdif_checksum != 0 */ \
	X(NVMF_COUNTER, 23)	/* arg1 xrqn, arg2 nsid, arg3 CXPRM_EMUD_NVMF_* */ \
	X(SW_RESET, 24)		/* Emulator::sw_resetting */ \
	X(OBJECTS, 25)		/* PDs, CQs, SRQs, XRQs, QPs, NVMF backends alive */ \
	X(CHECK_REFS, 26)	/* 1: strict object model (BAD_RES for made-up numbers) */ \
	X(NVME_QUEUE, 27)	/* arg1 qid, arg2 CXPRM_EMUD_NVMEQ_*: the SSD's queue pair */ \
	X(NVME_STAT, 28)	/* arg1 CXPRM_EMUD_NVME_*: what the emulated SSD did */ \
	X(FN_PAGES_HELD, 40)	/* arg1 function_id, arg2 ec_function: pages_held(id, ec) */ \
	X(FN_ENABLED, 41)	/* arg1 function_id, arg2 ec_function: 1 enabled, 0 not (an
				 * ECPF's host PF: 0 = still 'initializing') */

/* CXPRM_EMUD_Q_COUNTER selectors (cxprm::emu::Counters). */
#define CXPRM_EMUD_COUNTERS(X) \
	X(COMMANDS_PROCESSED, 0) \
	X(COMMANDS_EXECUTED, 1) \
	X(DELIVERY_ERRORS, 2) \
	X(IGNORED_DOORBELLS, 3) \
	X(UNREACHABLE_ENTRIES, 4) \
	X(EQES_WRITTEN, 5) \
	X(EQ_OVERRUNS, 6) \
	X(EQE_DMA_ERRORS, 7) \
	X(BAD_EQ_DOORBELLS, 8) \
	X(IRQS_RAISED, 9) \
	X(PAGES_LEAKED, 10) \
	X(OBJECTS_LEAKED, 11) \
	X(DMA_REFUSED, 12)	/* daemon: DMA outside guest RAM */ \
	X(FW_RESTARTS, 13)	/* firmware restarts (fw-restart, driver SW_RESET) */

/* CXPRM_EMUD_Q_NVMF_COUNTER selectors (cxprm::emu::NvmfCounters). */
#define CXPRM_EMUD_NVMF_FIELDS(X) \
	X(READ_CMDS, 0) \
	X(READ_BLOCKS, 1) \
	X(WRITE_CMDS, 2) \
	X(WRITE_BLOCKS, 3) \
	X(FLUSH_CMDS, 4) \
	X(ERROR_CMDS, 5) \
	X(BACKEND_ERROR_CMDS, 6) \
	X(WRITE_INLINE_CMDS, 7)

/* CXPRM_EMUD_Q_NVME_QUEUE fields (cxprm::emu::NvmeQueueInfo). */
#define CXPRM_EMUD_NVMEQ_FIELDS(X) \
	X(SQ_ADDR, 0) \
	X(CQ_ADDR, 1) \
	X(SQ_DOORBELL, 2) \
	X(DB_STRIDE, 3) \
	X(DEPTH, 4)

/* CXPRM_EMUD_Q_NVME_STAT selectors (cxprm::emu::NvmeSsdStats). */
#define CXPRM_EMUD_NVME_STATS(X) \
	X(COMMANDS, 0) \
	X(READS, 1) \
	X(WRITES, 2) \
	X(FLUSHES, 3) \
	X(ERRORS, 4) \
	X(SQ_DOORBELLS, 5) \
	X(BAD_DOORBELLS, 6)

/* CXPRM_EMUD_Q_HCA_STATE values. */
#define CXPRM_EMUD_HCA_STATES(X) \
	X(DISABLED, 0) \
	X(ENABLED, 1) \
	X(INITIALIZED, 2) \
	X(TORN_DOWN, 3)

#define CXPRM_EMUD_FAULT_(n, v, kind) CXPRM_EMUD_FAULT_##n = v,
#define CXPRM_EMUD_Q_(n, v) CXPRM_EMUD_Q_##n = v,
#define CXPRM_EMUD_COUNTER_(n, v) CXPRM_EMUD_COUNTER_##n = v,
#define CXPRM_EMUD_NVMF_(n, v) CXPRM_EMUD_NVMF_##n = v,
#define CXPRM_EMUD_HCA_(n, v) CXPRM_EMUD_HCA_##n = v,
#define CXPRM_EMUD_NVMEQ_(n, v) CXPRM_EMUD_NVMEQ_##n = v,
#define CXPRM_EMUD_NVME_(n, v) CXPRM_EMUD_NVME_##n = v,
enum { CXPRM_EMUD_NVMEQ_FIELDS(CXPRM_EMUD_NVMEQ_) };
enum { CXPRM_EMUD_NVME_STATS(CXPRM_EMUD_NVME_) };
#undef CXPRM_EMUD_NVMEQ_
#undef CXPRM_EMUD_NVME_
enum { CXPRM_EMUD_FAULTS(CXPRM_EMUD_FAULT_) };
enum { CXPRM_EMUD_QUERIES(CXPRM_EMUD_Q_) };
enum { CXPRM_EMUD_COUNTERS(CXPRM_EMUD_COUNTER_) };
enum { CXPRM_EMUD_NVMF_FIELDS(CXPRM_EMUD_NVMF_) };
enum { CXPRM_EMUD_HCA_STATES(CXPRM_EMUD_HCA_) };
#undef CXPRM_EMUD_FAULT_
#undef CXPRM_EMUD_Q_
#undef CXPRM_EMUD_COUNTER_
#undef CXPRM_EMUD_NVMF_
#undef CXPRM_EMUD_HCA_

/* STATUS values. */
#define CXPRM_EMUD_ST_OK		0
#define CXPRM_EMUD_ST_UNKNOWN_CMD	1	/* no such command / knob / query */
#define CXPRM_EMUD_ST_BAD_ARG		2	/* an argument out of range */
#define CXPRM_EMUD_ST_REFUSED		3	/* the emulator said no (e.g. n > total_vfs,
						 * no such namespace, not INITIALIZED) */
#define CXPRM_EMUD_ST_TIMEOUT		4	/* DEVICE_GONE: the emulator did not react */

#endif /* CXPRM_EMUD_CONTROL_H */
