/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test control page of cxprm-emud: a window in the ivshmem BAR through
 * which guest-side tests talk to the emulator running behind QEMU (the
 * guest cannot reach host files).  Plain C constants, usable from the
 * daemon (C++), guest-side C tools and, by value, shell scripts
 * (tools/qemu/guest/emuctl.sh mirrors them).  See
 * tools/emulator/daemon/README.md.
 *
 * Where: the last 4 KiB page of the BAR, CXPRM_EMUD_CTRL_OFFSET(bar_size):
 * 0xff000 for the default 1 MiB BAR.  The emulated device only sees the
 * BAR below it (init segment at 0, UAR pages from 0x10000); it never
 * writes the control page, not even when it is "gone" (device_gone fills
 * the device part with 0xff, the control page stays usable).
 *
 * Byte order: every control dword is LITTLE-endian (a plain 32-bit load
 * or store on x86, busybox devmem, ioread32/iowrite32), unlike the
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
#define CXPRM_EMUD_CTRL_HEARTBEAT	0x008	/* daemon: +1 about every millisecond */
#define CXPRM_EMUD_CTRL_PID		0x00c	/* daemon: its host process id */
#define CXPRM_EMUD_CTRL_SEQ		0x010	/* client: sequence number, written last */
#define CXPRM_EMUD_CTRL_CMD		0x014	/* client: CXPRM_EMUD_CMD_* */
#define CXPRM_EMUD_CTRL_ACK		0x018	/* daemon: = SEQ once the command is done */
#define CXPRM_EMUD_CTRL_STATUS		0x01c	/* daemon: CXPRM_EMUD_ST_* */
#define CXPRM_EMUD_CTRL_RESULT_LO	0x020	/* daemon: result bits 31..0 */
#define CXPRM_EMUD_CTRL_RESULT_HI	0x024	/* daemon: result bits 63..32 */
#define CXPRM_EMUD_CTRL_DEVICE_ID	0x028	/* daemon: profile PCI device id (0x1017 cx5, 0x1021 cx7,
							 * 0xa2dc bf3) */
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
#define CXPRM_EMUD_CMD_FAULT		0x10	/* arg0 CXPRM_EMUD_FAULT_*, arg1 value, arg2 value 2;
						 * result = previous value */
#define CXPRM_EMUD_CMD_FAULT_CLEAR	0x11	/* Faults::clear_command_faults (not crash/gone) */
#define CXPRM_EMUD_CMD_FUNCTION_RESET	0x12	/* Emulator::function_reset: crash/gone/stall end,
						 * HCA DISABLED, pages and objects dropped */
#define CXPRM_EMUD_CMD_QUERY		0x20	/* arg0 CXPRM_EMUD_Q_*, arg1.. parameters */
#define CXPRM_EMUD_CMD_MARK		0x30	/* arg0 a number: the daemon logs "guest mark N" */

/* Fault knobs (CXPRM_EMUD_CMD_FAULT arg0), see cxprm::emu::Faults. */
#define CXPRM_EMUD_FAULT_NEVER_COMPLETE		1	/* value 0/1 */
#define CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE	2	/* value: 1 entry, 2 first output block, 3 both */
#define CXPRM_EMUD_FAULT_WRONG_TOKEN		3	/* value: 1 entry, 2 output blocks, 3 both */
#define CXPRM_EMUD_FAULT_DELIVERY_STATUS	4	/* value status (0 off), value 2 count (0 = 1) */
#define CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE	5	/* value: bytes added to output_length */
#define CXPRM_EMUD_FAULT_BROKEN_CHAIN		6	/* value 0/1 */
#define CXPRM_EMUD_FAULT_SLOW_MS		7	/* value: ms per command */
#define CXPRM_EMUD_FAULT_CRASH			8	/* value 1 (sticky); value 2 != 0: answer INT_ERR */
#define CXPRM_EMUD_FAULT_DEVICE_GONE		9	/* value 1 (sticky); waits until the BAR reads 0xff */
#define CXPRM_EMUD_FAULT_ONLY_OPCODE		10	/* value opcode, 0xffffffff = every opcode */
#define CXPRM_EMUD_FAULT_ONCE			11	/* value 0/1 */
#define CXPRM_EMUD_FAULT_CRASH_INT_ERR		12	/* value 0/1: crashed firmware answers INT_ERR */
#define CXPRM_EMUD_FAULT_HEALTH_STALL		13	/* value 0/1: the health counter stops (no syndrome) */
#define CXPRM_EMUD_FAULT_HEALTH_SYNDROME	14	/* value: syndrome without rfr (0x10 HIGH_TEMP), 0 clears */
#define CXPRM_EMUD_FAULT_SW_RESET		15	/* value 1 (sticky until function reset): nic_interface 7 */

/* Queries (CXPRM_EMUD_CMD_QUERY arg0); result is 64-bit. */
#define CXPRM_EMUD_Q_PAGES_HELD		1	/* Emulator::pages_held */
#define CXPRM_EMUD_Q_COMMANDS		2	/* commands_processed */
#define CXPRM_EMUD_Q_HCA_STATE		3	/* 0 DISABLED, 1 ENABLED, 2 INITIALIZED, 3 TORN_DOWN */
#define CXPRM_EMUD_Q_NUM_VFS		4
#define CXPRM_EMUD_Q_ISSI		5	/* current ISSI */
#define CXPRM_EMUD_Q_INITIALIZING	6
#define CXPRM_EMUD_Q_CRASHED		7
#define CXPRM_EMUD_Q_GONE		8
#define CXPRM_EMUD_Q_HEALTH_COUNTER	9
#define CXPRM_EMUD_Q_PAGES_GIVEN	10	/* pages_given_total */
#define CXPRM_EMUD_Q_PAGES_TAKEN	11	/* pages_taken_total */
#define CXPRM_EMUD_Q_PAGES_WANTED	12	/* arg1 op_mod (1 boot, 2 init, 3 regular), signed */
#define CXPRM_EMUD_Q_FN_PAGES_HELD	40	/* arg1 function_id, arg2 ec_function: pages_held(id, ec) */
#define CXPRM_EMUD_Q_OPCODE_COUNT	13	/* arg1 opcode */
#define CXPRM_EMUD_Q_LAST_STATUS	14	/* lo: last cmd_out.status, hi: its syndrome */
#define CXPRM_EMUD_Q_LAST_DELIVERY	15	/* last delivery status */
#define CXPRM_EMUD_Q_UARS		16
#define CXPRM_EMUD_Q_EQS		17
#define CXPRM_EMUD_Q_DCTS		18
#define CXPRM_EMUD_Q_NVMF_NAMESPACES	19
#define CXPRM_EMUD_Q_COUNTER		20	/* arg1 CXPRM_EMUD_COUNTER_* */
#define CXPRM_EMUD_Q_FAULTS_FIRED	21	/* Faults::fired */
#define CXPRM_EMUD_Q_CHECKSUMS		22	/* CUR cmdif_checksum != 0 */
#define CXPRM_EMUD_Q_NVMF_COUNTER	23	/* arg1 xrqn, arg2 nsid, arg3 CXPRM_EMUD_NVMF_* */
#define CXPRM_EMUD_Q_SW_RESET		24	/* Emulator::sw_resetting */
#define CXPRM_EMUD_Q_OBJECTS		25	/* PDs, CQs, SRQs, XRQs, QPs, NVMF backends alive */
#define CXPRM_EMUD_Q_CHECK_REFS		26	/* 1: strict object model (BAD_RES for made-up numbers) */

/* CXPRM_EMUD_Q_COUNTER selectors (cxprm::emu::Counters). */
#define CXPRM_EMUD_COUNTER_COMMANDS_PROCESSED	0
#define CXPRM_EMUD_COUNTER_COMMANDS_EXECUTED	1
#define CXPRM_EMUD_COUNTER_DELIVERY_ERRORS	2
#define CXPRM_EMUD_COUNTER_IGNORED_DOORBELLS	3
#define CXPRM_EMUD_COUNTER_UNREACHABLE_ENTRIES	4
#define CXPRM_EMUD_COUNTER_EQES_WRITTEN		5
#define CXPRM_EMUD_COUNTER_EQ_OVERRUNS		6
#define CXPRM_EMUD_COUNTER_EQE_DMA_ERRORS	7
#define CXPRM_EMUD_COUNTER_BAD_EQ_DOORBELLS	8
#define CXPRM_EMUD_COUNTER_IRQS_RAISED		9
#define CXPRM_EMUD_COUNTER_PAGES_LEAKED		10
#define CXPRM_EMUD_COUNTER_OBJECTS_LEAKED	11
#define CXPRM_EMUD_COUNTER_DMA_REFUSED		12	/* daemon: DMA outside guest RAM */

/* CXPRM_EMUD_Q_NVMF_COUNTER selectors (cxprm::emu::NvmfCounters). */
#define CXPRM_EMUD_NVMF_READ_CMDS	0
#define CXPRM_EMUD_NVMF_READ_BLOCKS	1
#define CXPRM_EMUD_NVMF_WRITE_CMDS	2
#define CXPRM_EMUD_NVMF_WRITE_BLOCKS	3
#define CXPRM_EMUD_NVMF_FLUSH_CMDS	4
#define CXPRM_EMUD_NVMF_ERROR_CMDS	5

/* STATUS values. */
#define CXPRM_EMUD_ST_OK		0
#define CXPRM_EMUD_ST_UNKNOWN_CMD	1	/* no such command / knob / query */
#define CXPRM_EMUD_ST_BAD_ARG		2	/* an argument out of range */
#define CXPRM_EMUD_ST_REFUSED		3	/* the emulator said no (e.g. n > total_vfs,
						 * no such namespace, not INITIALIZED) */
#define CXPRM_EMUD_ST_TIMEOUT		4	/* DEVICE_GONE: the emulator did not react */

#endif /* CXPRM_EMUD_CONTROL_H */
