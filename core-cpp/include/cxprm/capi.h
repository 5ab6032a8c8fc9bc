/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The C facade of the cxprm core: what C code (the kernel shim in drivers/)
 * calls.  Kernel headers are not C++-safe and the core's headers are not C,
 * so this header is the whole boundary: plain C, types from the compiler's
 * predefined macros (like host.h), one opaque object per device.  The
 * ioctl payloads are the UAPI's own structs (cxprm/uapi.h): the facade
 * takes and returns them, it has no copies of its own.
 *
 * Implemented in core-cpp/src/capi*.cpp (C++, extern "C") on top of
 * cxprm::Device, cxprm::Events and the typed commands.  It builds hosted
 * too (core-cpp/tests/capi_test.cpp drives it against the emulator).
 *
 * Return values are 0 or a negative Linux errno (cxprm::Err): -EREMOTEIO
 * means the firmware ran the command and answered a bad status (the result
 * says which); anything else negative is a transport or argument error.
 *
 * Threads: create/destroy, bringup/teardown and events_start/stop from one
 * context, with nothing else running.  Between them, commands (queries,
 * DCT, raw), snapshots and text may run from many threads at once;
 * events_poll from one context at a time (it may race with commands),
 * events_service from one context at a time.  Everything may sleep except
 * the getters marked "no sleep".
 */
#ifndef CXPRM_CAPI_H
#define CXPRM_CAPI_H

#include "cmd_result.h"
#include "host.h"
#include "uapi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef __UINT16_TYPE__ cxprm_u16;
typedef __INT32_TYPE__ cxprm_s32;
typedef __INT64_TYPE__ cxprm_s64;

struct cxprm_core;

/* The same values as enum cxprm_state of the UAPI (asserted in ioctl.cpp). */
enum cxprm_core_state {
	CXPRM_CORE_DOWN = 0,  /* not brought up, or torn down */
	CXPRM_CORE_UP = 1,    /* INIT_HCA done */
	CXPRM_CORE_ERROR = 2, /* bring-up failed, firmware dead, pages stranded */
	CXPRM_CORE_GONE = 3,  /* fw_rev reads all ones */
};

#define CXPRM_CORE_CAP_BYTES 4096u
#define CXPRM_CORE_EQE_DATA 28u
#define CXPRM_CORE_MAX_OPCODES 64u /* per-opcode statistics entries */
#define CXPRM_CORE_LAST_CMDS 64u   /* ring of the last commands */

/* Bring-up parameters; 0 everywhere = the core's defaults. */
/* cxprm_core_config.flags */
#define CXPRM_CORE_CFG_CHECKSUM (1u << 0) /* ask for command checksums (cmdif_checksum) */

struct cxprm_core_config {
	cxprm_u64 cmd_timeout_ns;     /* per command (0: the device's cmd_exec_to, else 60 s) */
	cxprm_u64 init_timeout_ns;    /* initializing bit (120 s) */
	cxprm_u64 reclaim_timeout_ns; /* page reclaim without progress (5 s) */
	cxprm_u32 max_msg_bytes;      /* per direction (16 + 256 * 512) */
	cxprm_u32 pages_per_command;  /* MANAGE_PAGES chunk (as many as fit) */
	cxprm_u32 health_stall_polls; /* health counter stalled this many polls = warning (3) */
	cxprm_u32 flags;              /* CXPRM_CORE_CFG_* */
};

/* cxprm_core_config.flags */
#define CXPRM_CORE_CFG_VF (1u << 1) /* a virtual function: no ACCESS_REG HOST_ENDIANNESS */
#define CXPRM_CORE_CFG_CACHE_LINE_128 (1u << 2) /* the host's cache line is >= 128 bytes */

struct cxprm_core_info {
	cxprm_u16 fw_major;
	cxprm_u16 fw_minor;
	cxprm_u16 fw_subminor;
	cxprm_u16 cmdif_rev;
	cxprm_u32 state;          /* enum cxprm_core_state */
	cxprm_u32 cmdq_entries;   /* 0 while the queue is down */
	cxprm_u32 cmdq_log_stride;
	cxprm_u32 issi;
	cxprm_u32 health_syndrome; /* health buffer synd (0x1010[31:24] is never read) */
	cxprm_u32 health_counter;
	cxprm_u32 async_eqn;      /* ~0 when events are not running */
	cxprm_u32 comp_eqn;       /* ~0 until the first CQ made the completion EQ */
	cxprm_u32 events_running;
	cxprm_u32 command_events; /* command completion by CMD events */
	cxprm_u32 cmds_in_flight;
	cxprm_u64 pages_given;    /* this bring-up (kept after teardown) */
	cxprm_u64 pages_reclaimed;
	cxprm_u64 pages_live;
	cxprm_u64 commands;       /* completed, any result */
	cxprm_s32 failed_err;     /* 0, or -EHOSTDOWN / -ENODEV: the device was marked failed */
	cxprm_u32 health_stalled_polls; /* health polls in a row without the counter moving */
	cxprm_u64 health_polls;   /* health polls (cxprm_core_health_poll/check) this bring-up */
	cxprm_u64 cmds_refused;   /* commands failed at once because the device had failed */
	cxprm_u32 health_rfr;     /* health buffer rfr (reset required) */
	cxprm_u32 nic_interface;  /* cmdq_addr_l_sz bits 10:8 (0 full, 1 disabled, 7 sw reset) */
	cxprm_u32 health_sensor;  /* CXPRM_HEALTH_SENSOR_*: the fatal one, 0 none */
	cxprm_u32 reserved2;
	cxprm_u64 health_stall_reports; /* counter reached health_stall_polls misses (warnings) */
	cxprm_u64 health_synd_reports;  /* new syndromes without rfr (warnings, not fatal) */
	cxprm_u32 ecpf;           /* init segment embedded_cpu was set at bring-up */
	cxprm_u32 page_functions; /* functions the driver holds firmware pages for */
	cxprm_u64 cmd_timeout_ns; /* the command timeout in use (cmd_exec_to or configured) */
	cxprm_u32 cmd_checksum;   /* 1: command checksums on (CUR cmdif_checksum != 0), verified */
	cxprm_u32 reserved_cs;
	cxprm_u32 recoveries;     /* automatic recoveries that brought the device back */
	cxprm_u32 recovery;       /* enum cxprm_recovery (UAPI) of the last fatal error */
	cxprm_s32 recovery_err;   /* the failing step's errno, or 0 */
	cxprm_u32 recovery_attempts;
};

/* cxprm_core_info.health_sensor (= cxprm::HealthSensor) */
enum cxprm_health_sensor {
	CXPRM_HEALTH_SENSOR_NONE = 0,
	CXPRM_HEALTH_SENSOR_PCI_COMM_ERR = 1, /* reads all ones */
	CXPRM_HEALTH_SENSOR_NIC_DISABLED = 2,
	CXPRM_HEALTH_SENSOR_NIC_SW_RESET = 3,
	CXPRM_HEALTH_SENSOR_FW_SYND_RFR = 4,
};

/* Page accounting of a teardown. */
struct cxprm_core_teardown_report {
	cxprm_u64 pages_given;     /* over the whole bring-up */
	cxprm_u64 pages_reclaimed; /* firmware returned them (MANAGE_PAGES TAKE) */
	cxprm_u64 pages_freed;     /* freed after DISABLE_HCA / device gone, never returned */
	cxprm_u64 pages_stranded;  /* still lent: see cxprm_core_release_stranded() */
	cxprm_u32 cmdq_stranded;   /* queue DMA buffers kept for a command firmware
				    * still owns (timed out), and after a failed
				    * teardown the queues of objects whose destroy
				    * failed (cxprm_core_objs_destroy): same release */
	cxprm_s32 err;             /* first teardown step that failed, or 0 */
	cxprm_u32 steps;           /* trace records the teardown added */
	const char *failed_step;   /* its name ("TEARDOWN_GRACEFUL"...), or "" */
};

/* Which privileges a raw command needs (cxprm_core_raw_scope). */
enum cxprm_core_raw_scope {
	CXPRM_RAW_SCOPE_QUERY = 0,     /* read-only query (QUERY_*, ACCESS_REG read) */
	CXPRM_RAW_SCOPE_WRITE = 1,     /* may change device state */
	CXPRM_RAW_SCOPE_FORBIDDEN = 2, /* would break the driver's own state */
};

struct cxprm_core_cmd_record {
	cxprm_u64 seq;
	cxprm_u64 time_ns;
	cxprm_u64 latency_ns;
	cxprm_u16 opcode;
	cxprm_u16 op_mod;
	cxprm_u8 slot;
	cxprm_u8 token;
	cxprm_u8 delivery;
	cxprm_u8 status;
	cxprm_u32 syndrome;
	cxprm_s32 err;
	cxprm_u32 inlen;
	cxprm_u32 outlen;
	cxprm_u8 in[16];
	cxprm_u8 out[16];
};

/*
 * Called for every event the async EQ delivers (from events_poll's
 * context), data = eqe.event_data (28 bytes).
 */
typedef void (*cxprm_core_event_fn)(void *ctx, cxprm_u8 type, cxprm_u8 sub_type,
				    const cxprm_u8 *data);

/* The EQ doorbell is in UAR page uar at BAR offset uar * 4096. */
struct cxprm_core_events_config {
	cxprm_u16 intr;           /* MSI-X vector of the EQ */
	cxprm_u8 log_eq_size;     /* 0: default (12, 4096 entries; events.h) */
	cxprm_u8 command_events;  /* complete commands by CMD events */
	cxprm_u64 extra_mask[4];  /* more event types to subscribe */
	cxprm_core_event_fn listener;
	void *listener_ctx;
};

struct cxprm_core_event_stats {
	cxprm_u64 total;
	cxprm_u64 by_type[64];
	cxprm_u64 page_requests;
	cxprm_s64 pages_requested;
	cxprm_u64 page_request_errors;
	cxprm_u64 cmd_completions;
	cxprm_u64 subscribed[4];
	cxprm_u32 running;
	cxprm_u32 eqn;
	cxprm_u32 uar;
	cxprm_u32 log_size;
	cxprm_u32 consumer_index;
	cxprm_u32 phase;
};

/* Texts for debugfs (cxprm_core_format). */
enum cxprm_core_text {
	CXPRM_TEXT_CAPS = 0,      /* decoded general caps, CUR and MAX */
	CXPRM_TEXT_CMD_STATS = 1, /* per-opcode statistics */
	CXPRM_TEXT_CMDQ = 2,      /* every queue slot, decoded and dumped */
	CXPRM_TEXT_LAST_CMDS = 3, /* the last commands */
	CXPRM_TEXT_EQ = 4,        /* the async EQ and event counters */
	CXPRM_TEXT_PAGES = 5,     /* page accounting */
	CXPRM_TEXT_HEALTH = 6,    /* fw_rev, health, bring-up/teardown trace */
	CXPRM_TEXT_COUNT = 7,
};

/* --- life cycle --- */

/* Allocates the object with host->ops->mem_alloc; the host must outlive it. */
int cxprm_core_create(const struct cxprm_host *host, struct cxprm_core **out);
/* Frees it; tear down (and stop events) first. */
void cxprm_core_destroy(struct cxprm_core *core);

/* The PRM bring-up (device.h); cfg may be NULL (defaults). */
int cxprm_core_bringup(struct cxprm_core *core, const struct cxprm_core_config *cfg);
/* TEARDOWN_HCA, page reclaim, DISABLE_HCA, queue freed; rep may be NULL. */
void cxprm_core_teardown(struct cxprm_core *core, struct cxprm_core_teardown_report *rep);
/*
 * Reboot, poweroff, kexec (the PCI shutdown callback), as Linux's
 * shutdown(): mlx5_try_fast_unload before anything else.  When the device
 * has cap fast_teardown: TEARDOWN_HCA PREPARE_FAST_TEARDOWN, then
 * nic_interface DISABLED read back within 3 s.  Returns 0 when that
 * worked: firmware has let go of the function, its objects and every
 * page, and the queue is closed, so every later command fails at once
 * without reaching the device (the caller's object sweeps, DCT destroys
 * and events stop cost nothing).  Else (E_NOTSUP, E_HOSTDOWN, the command's
 * error) nothing changed unless the command timed out (then the queue is
 * closed too): the caller runs its normal stop path.  Events may run
 * meanwhile: the EQ stays (Linux leaves it to firmware as well).
 */
int cxprm_core_fast_unload(struct cxprm_core *core);
/*
 * cxprm_core_fast_unload, then events stopped and the teardown above (after
 * a fast teardown it sends nothing).  Returns the fast unload's result.
 * Either way rep says what is left: after a fast teardown every page is
 * stranded (firmware released them, but only the host's turning bus
 * mastering off makes freeing them safe): cxprm_core_release_stranded()
 * then.  Bounded: one command and 3 s, or the teardown's commands; when
 * the fast teardown's command times out no further one is sent.
 */
int cxprm_core_shutdown(struct cxprm_core *core, struct cxprm_core_teardown_report *rep);
/*
 * After a teardown that left pages lent (pages_stranded) or command queue
 * memory kept (cmdq_stranded; also object queues and the EQ ring whose
 * destroy failed) for a function the host has since reset (FLR),
 * or whose bus mastering it turned off, or that is gone: frees them; returns
 * how many pages.
 */
cxprm_u64 cxprm_core_release_stranded(struct cxprm_core *core);

void cxprm_core_get_info(struct cxprm_core *core, struct cxprm_core_info *info);

/*
 * Probe's first look, before a core exists: the init segment's two
 * revision dwords as read (all ones: the device is gone) and their fields
 * (prm::initial_seg).  The command doorbell's byte offset there, for a
 * host that must recognise the doorbell write (the emulated device's).
 */
struct cxprm_core_iseg_rev {
	cxprm_u32 fw_rev;    /* dword 0: fw_rev_minor, fw_rev_major */
	cxprm_u32 cmdif_rev; /* dword 1: cmd_interface_rev, fw_rev_subminor */
	cxprm_u32 major, minor, subminor, cmd_interface_rev;
};
void cxprm_core_read_iseg_rev(const struct cxprm_host *host, struct cxprm_core_iseg_rev *rev);
cxprm_u32 cxprm_core_iseg_doorbell_offset(void);
/* enum cxprm_core_state (reads the init segment). */
int cxprm_core_state(struct cxprm_core *core);

/*
 * The health poller (the device's Health, health_monitor.h): the host
 * calls this periodically while the device is up (the kernel: a delayed
 * work item every health_poll_ms), from one context at a time and never
 * concurrently with bringup/teardown.  A fatal sensor as Linux's health.c
 * has them (reads all ones; nic_interface DISABLED or SW_RESET; health
 * buffer rfr && synd) marks the device failed: commands waiting are woken
 * and fail, later ones fail at once, with -EHOSTDOWN (dead firmware) or
 * -ENODEV (device gone); the host's health_changed op hears of it once.  A
 * syndrome without rfr and the counter unchanged for health_stall_polls
 * polls only count (cxprm_core_info.health_synd_reports /
 * health_stall_reports) for the host to report; the device keeps working.
 * Returns 0 while not failed (or when the queue is down), else that errno.
 */
int cxprm_core_health_poll(struct cxprm_core *core);

/* cxprm_core_health_check() *found: what this poll found new. */
enum {
	CXPRM_CORE_HEALTH_FAILED = 1u << 0,   /* it failed the device */
	CXPRM_CORE_HEALTH_SYNDROME = 1u << 1, /* a new syndrome without rfr */
	CXPRM_CORE_HEALTH_STALL = 1u << 2,    /* the counter just reached health_stall_polls misses */
};
/*
 * cxprm_core_health_poll(), also telling what is new (CXPRM_CORE_HEALTH_*
 * in *found, 0 when nothing): each warning is reported once, when the
 * core finds it, so the host need not compare counters.
 */
int cxprm_core_health_check(struct cxprm_core *core, cxprm_u32 *found);
/*
 * 0, or the errno commands fail with because the device was marked failed
 * (by the health poller, or by a command that found the firmware dead or
 * the device gone).  No lock, no sleep, no device access.
 */
int cxprm_core_failed(struct cxprm_core *core);

/* --- typed commands (0, -EREMOTEIO with res->status, or -errno) --- */

/* QUERY_HCA_CAP of cap_type, MAX (max != 0) or CUR, into image (4096 bytes). */
int cxprm_core_query_caps(struct cxprm_core *core, cxprm_u16 cap_type, int max,
			  cxprm_u8 *image, struct cxprm_core_result *res);
/* In: ns->xrqn, ns->nsid; out: the counters (zero on failure) and ns->st. */
int cxprm_core_query_nvmf_ns(struct cxprm_core *core, struct cxprm_nvmf_ns *ns,
			     struct cxprm_core_result *res);
/*
 * The function is an ECPF (init segment embedded_cpu) and CUR eswitch_manager
 * is set: Linux's mlx5_core_is_ecpf_esw_manager, the only function that
 * queries the eswitch functions and subscribes ESW_FUNCTIONS_CHANGED.
 */
int cxprm_core_is_ecpf_esw_manager(struct cxprm_core *core);
/*
 * E_NOTSUP unless cxprm_core_is_ecpf_esw_manager().  Fills all of *esw (zero
 * on failure, st included), with the first sf_words (at most
 * CXPRM_ESW_MAX_SF_WORDS) host_sf_enable bitmap words.
 */
int cxprm_core_query_esw(struct cxprm_core *core, struct cxprm_esw_functions *esw,
			 cxprm_u32 sf_words, struct cxprm_core_result *res);
/*
 * The input fields of ctx (state and key_violations are output only);
 * -EINVAL (nothing sent) when a field does not fit its dctc field.
 */
int cxprm_core_dct_create(struct cxprm_core *core, const struct cxprm_dctc *ctx,
			  cxprm_u32 *dctn, struct cxprm_core_result *res);
int cxprm_core_dct_query(struct cxprm_core *core, cxprm_u32 dctn,
			 struct cxprm_dctc *ctx, struct cxprm_core_result *res);
int cxprm_core_dct_drain(struct cxprm_core *core, cxprm_u32 dctn,
			 struct cxprm_core_result *res);
/* DESTROY as Linux: DRAIN_DCT, wait (bounded) for DRAINED, then DESTROY_DCT; res is the failing command's. */
int cxprm_core_dct_destroy(struct cxprm_core *core, cxprm_u32 dctn,
			   struct cxprm_core_result *res);

/*
 * A raw command: in (inlen >= 16) to out (outlen >= 16); cap (optional)
 * receives what went over the wire.  No policy here: the caller checks
 * cxprm_core_raw_scope() first.
 */
int cxprm_core_raw(struct cxprm_core *core, const void *in, cxprm_u32 inlen, void *out,
		   cxprm_u32 outlen, struct cxprm_core_result *res,
		   struct cxprm_core_capture *cap);
/*
 * enum cxprm_core_raw_scope of a command (no sleep): by opcode, and by
 * op_mod where the opcode's op_mod decides (ACCESS_REG: 1 reads the
 * register, a query; 0 writes it), the R/W column of CXPRM_OPCODES.
 */
int cxprm_core_raw_scope(cxprm_u16 opcode, cxprm_u16 op_mod);
/* The same for a command input (>= 8 bytes: its opcode and op_mod). */
int cxprm_core_raw_scope_in(const void *in);
/* The opcode of a command input (first two bytes, big-endian; no sleep). */
cxprm_u16 cxprm_core_in_opcode(const void *in);
/* The op_mod of a command input (bytes 6-7, big-endian; no sleep). */
cxprm_u16 cxprm_core_in_op_mod(const void *in);

#include "capi_ioctl.h"
#include "capi_recover.h"

/* --- statistics --- */

/* Up to max per-opcode entries, sorted by opcode; *total = commands. */
cxprm_u32 cxprm_core_stats(struct cxprm_core *core, struct cxprm_opcode_stats *out,
			   cxprm_u32 max, cxprm_u64 *total);
/* The last up-to-max commands, oldest first. */
cxprm_u32 cxprm_core_last_cmds(struct cxprm_core *core, struct cxprm_core_cmd_record *out,
			       cxprm_u32 max);

/* --- events --- */

int cxprm_core_events_start(struct cxprm_core *core,
			    const struct cxprm_core_events_config *cfg);
void cxprm_core_events_stop(struct cxprm_core *core);
/* Handles up to budget EQEs and re-arms; returns how many (0 if not running). */
cxprm_u32 cxprm_core_events_poll(struct cxprm_core *core, cxprm_u32 budget);
/* Runs queued page requests (0 if none or not running). */
int cxprm_core_events_service(struct cxprm_core *core);
int cxprm_core_events_pending(struct cxprm_core *core);
void cxprm_core_events_stats(struct cxprm_core *core, struct cxprm_core_event_stats *st);

/* --- text --- */

/*
 * Writes text 'which' (enum cxprm_core_text) into buf (NUL-terminated,
 * cut at cap); returns its length; *truncated (optional) = 1 when cut.
 */
cxprm_size cxprm_core_format(struct cxprm_core *core, int which, char *buf, cxprm_size cap,
			     int *truncated);

/* Names for logs (never NULL: "UNKNOWN" / "E?"; no sleep). */
const char *cxprm_core_opcode_name(cxprm_u16 opcode);
const char *cxprm_core_err_name(int err);
const char *cxprm_core_status_name(cxprm_u8 status);
const char *cxprm_core_event_name(cxprm_u8 type);

#ifdef __cplusplus
}
#endif

#endif /* CXPRM_CAPI_H */
