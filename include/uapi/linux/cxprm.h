/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR BSD-2-Clause */
/*
 * cxprm userspace interface: one misc character device per adapter,
 * /dev/cxprm/<pci-address> (e.g. /dev/cxprm/0000:00:03.0).
 *
 * Every ioctl argument is a fixed-size struct; reserved fields must be zero
 * on input (-EINVAL otherwise) and are zero on output.  Firmware results
 * come back in struct cxprm_cmd_status: an ioctl whose command reached the
 * firmware returns 0 even when the firmware answered a bad status (look at
 * status/syndrome), -EREMOTEIO is never used for that.  Transport failures
 * (timeout, bad signature, device gone...) are the ioctl's errno; a typed
 * ioctl's struct is then not copied back (RAW's 'st' is).
 *
 * Privileges:
 *   CXPRM_IOC_INFO                      anyone who can open the device
 *   typed queries, stats, DCT, objects, CAP_NET_ADMIN
 *   QP_MODIFY, events, batches          (a batch's ops: their own too)
 *   CXPRM_IOC_RAW  read-only queries    CAP_NET_ADMIN
 *     (QUERY_*, ACCESS_REG op_mod 1)
 *   CXPRM_IOC_RAW  anything else        CAP_SYS_RAWIO, module parameter
 *     (ACCESS_REG op_mod 0 too)         allow_raw_write=1 and a kernel not
 *                                       locked down; taints the kernel
 *   OBJ_CREATE of an NVMF backend       CAP_NET_ADMIN, CAP_SYS_RAWIO and
 *   (firmware DMA to given addresses)   allow_raw_write=1
 *
 * Recovery: after a fatal firmware error the driver recovers the function
 * by itself (module parameter recovery, Documentation/faults.rst).  Open
 * files survive it; meanwhile commands fail with -EHOSTDOWN.  Their DCTs
 * and objects are gone with the firmware's state: an ioctl naming one of
 * them gets -ESTALE once (DESTROY forgets it; a new object of the same
 * number replaces it).  Readers get CXPRM_EVENT_HEALTH records
 * CXPRM_HEALTH_RECOVERING, then _RECOVERED or _RECOVERY_FAILED.
 */
#ifndef _UAPI_LINUX_CXPRM_H
#define _UAPI_LINUX_CXPRM_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define CXPRM_IOC_MAGIC 0xC5

/* What happened to the firmware command behind an ioctl. */
struct cxprm_cmd_status {
	__u8 delivery;    /* cmd_queue_entry.status: 0 = delivered */
	__u8 status;      /* cmd_out.status: 0 = OK (MLX5_CMD_STAT_*) */
	__u16 opcode;
	__u32 syndrome;   /* cmd_out.syndrome */
	__u64 latency_ns; /* doorbell to ownership back */
};

enum cxprm_state {
	CXPRM_STATE_DOWN = 0,       /* not brought up (or torn down) */
	CXPRM_STATE_UP = 1,         /* INIT_HCA done, commands accepted */
	CXPRM_STATE_ERROR = 2,      /* bring-up failed or firmware died */
	CXPRM_STATE_GONE = 3,       /* device reads all ones */
};

#define CXPRM_INFO_EMULATED   (1U << 0) /* the QEMU ivshmem emulated device */
#define CXPRM_INFO_EVENT_MODE (1U << 1) /* command completion by CMD events */
#define CXPRM_INFO_IRQ        (1U << 2) /* EQ interrupts (else EQ polling) */
#define CXPRM_INFO_FAILED     (1U << 3) /* the driver gave the device up (firmware dead
					  * or device gone): every command fails at once */
#define CXPRM_INFO_ECPF       (1U << 4) /* an embedded CPU function (BlueField Arm
					  * side, init segment embedded_cpu): the
					  * driver's own commands carry
					  * embedded_cpu_function = 1 */
#define CXPRM_INFO_CMD_CHECKSUM (1U << 5) /* command checksums on: signatures verified */

struct cxprm_info {
	char pci_addr[32];   /* "0000:00:03.0" */
	char dev_name[32];   /* "cxprm/0000:00:03.0" */
	__u16 vendor_id;     /* PCI ids of the function */
	__u16 device_id;
	__u16 fw_major;
	__u16 fw_minor;
	__u16 fw_subminor;
	__u16 cmdif_rev;
	__u32 state;         /* enum cxprm_state */
	__u32 flags;         /* CXPRM_INFO_* */
	__u32 cmdq_entries;
	__u32 cmdq_log_stride;
	__u32 issi;
	__u32 health_syndrome;
	__u32 reserved0;
	__u64 pages_given;   /* firmware pages given / reclaimed so far */
	__u64 pages_reclaimed;
	__u64 commands;      /* commands completed (any result) */
	__u32 async_eqn;     /* the async EQ's number, or ~0 */
	__u32 comp_eqn;      /* the completion EQ's (CQs complete to it; made
			      * with the first CQ), or ~0 */
	__u32 recoveries;    /* automatic recoveries that brought the device back */
	__u32 recovery;      /* enum cxprm_recovery: the last one's outcome */
	__s32 recovery_err;  /* negative errno of the step that failed it, or 0 */
	__u32 recovery_attempts; /* attempts of the last recovery */
	__u32 reserved[10];
};

/* cxprm_info.recovery: what became of the last fatal error. */
enum cxprm_recovery {
	CXPRM_RECOVERY_NONE = 0,      /* no fatal error yet */
	CXPRM_RECOVERY_RUNNING = 1,   /* recovering now: commands fail with -EHOSTDOWN */
	CXPRM_RECOVERY_DONE = 2,      /* recovered: the device is up again */
	CXPRM_RECOVERY_OFF = 3,       /* not tried: module parameter recovery=0 */
	CXPRM_RECOVERY_GRACE = 4,     /* not tried: the error came back within the
				       * grace period of the last recovery */
	CXPRM_RECOVERY_GONE = 5,      /* not tried: the device is gone (reads all ones) */
	CXPRM_RECOVERY_NOT_READY = 6, /* failed: the device did not come back in time */
	CXPRM_RECOVERY_BRINGUP = 7,   /* failed: the bring-up after the reset failed */
	CXPRM_RECOVERY_AGAIN = 8,     /* failed: a fatal sensor fired again at once */
	CXPRM_RECOVERY_CANCELED = 9,  /* not run: remove, suspend or a PCI error
				       * took the device out of service first */
};

/* QUERY_HCA_CAP: the raw 4096-byte capability image of one type. */
struct cxprm_caps {
	__u16 cap_type;      /* in: MLX5_CAP_* (0 = general) */
	__u8 max;            /* in: 1 = MAX (what can be set), 0 = CUR */
	__u8 reserved0;
	__u32 reserved1;
	struct cxprm_cmd_status st;
	__u8 caps[4096];     /* out: query_hca_cap_out.capability */
};

/* QUERY_NVMF_NAMESPACE_CONTEXT counters of one frontend namespace. */
struct cxprm_nvmf_ns {
	__u32 xrqn;          /* in */
	__u32 nsid;          /* in: frontend namespace */
	struct cxprm_cmd_status st;
	__u64 read_cmds;
	__u64 read_blocks;
	__u64 write_cmds;
	__u64 write_blocks;
	__u64 write_inline_cmds;
	__u64 flush_cmds;
	__u64 error_cmds;
	__u64 backend_error_cmds;
	__u32 current_q_depth;
	__u32 last_read_latency;
	__u32 last_write_latency;
	__u32 reserved;
};

/* QUERY_ESW_FUNCTIONS: the external host's functions (ECPF eswitch). */
#define CXPRM_ESW_MAX_SF_WORDS 16
struct cxprm_esw_functions {
	struct cxprm_cmd_status st;
	__u8 host_number;
	__u8 host_pf_disabled;
	__u8 host_pf_not_exist;
	__u8 reserved0;
	__u16 host_num_of_vfs;
	__u16 host_total_vfs;
	__u16 host_pci_bus;
	__u16 host_pci_device;
	__u16 host_pci_function;
	__u16 reserved1;
	__u64 sf_enable[CXPRM_ESW_MAX_SF_WORDS]; /* host_sf_enable bitmap */
};

/* The DCT context (dctc) fields a user sets or reads. */
struct cxprm_dctc {
	__u32 pd;
	__u32 cqn;
	__u32 srqn_xrqn;
	__u32 user_index;
	__u64 dc_access_key;
	__u32 flow_label;
	__u16 pkey_index;
	__u8 mtu;            /* 1 = 256 ... 5 = 4096 */
	__u8 port;
	__u8 hop_limit;
	__u8 tclass;
	__u8 min_rnr_nak;
	__u8 my_addr_index;
	__u8 rre;            /* remote read enable */
	__u8 rwe;            /* remote write enable */
	__u8 rae;            /* remote atomic enable */
	__u8 atomic_mode;
	__u8 cs_res;
	__u8 counter_set_id;
	__u8 dscp;
	__u8 ecn;
	__u8 eth_prio;
	__u8 state;          /* out: 0 ACTIVE, 1 DRAINING, 2 DRAINED */
	__u16 reserved0;
	__u32 key_violations; /* out: dc_access_key_violation_count */
	__u32 reserved1[3];
};

/*
 * CREATE_DCT (dctn out), QUERY_DCT (ctx out), DRAIN_DCT, DESTROY_DCT.
 * DCTs are owned by the open file that created them: another file cannot
 * drain or destroy them (-ENOENT; any file may query them), closing the
 * file destroys them, and a file holds at most 64 (-ENOSPC).
 */
struct cxprm_dct {
	__u32 dctn;          /* out of CREATE, in for the others */
	__u32 reserved;
	struct cxprm_cmd_status st;
	struct cxprm_dctc ctx;
};

/*
 * Objects a DCT, a QP or the NVMe-oF target offload names: PD, CQ, SRQ,
 * QP, XRQ (with the NVMF offload context), NVMF backend controller, NVMF
 * namespace.  CXPRM_IOC_OBJ_CREATE runs the firmware's create command
 * (ALLOC_PD, CREATE_CQ, ..., ATTACH_NVMF_NAMESPACE) and returns the
 * number in 'id'; OBJ_QUERY runs the query command where the PRM has one
 * (CQ, SRQ; -EOPNOTSUPP for the others); OBJ_DESTROY the destroy command;
 * QP_MODIFY one QP state transition.
 *
 * Like DCTs, objects belong to the open file that created them: only that
 * file may modify or destroy them (-ENOENT for any other; any file may
 * query a CQ or SRQ), a file holds at most CXPRM_OBJ_MAX_PER_FILE
 * (-ENOSPC), and closing the file or removing the device destroys what is
 * left in dependency order: DCTs, then QPs (moved to reset first), NVMF
 * namespaces, backend controllers, XRQs, SRQs, CQs, PDs (one another
 * file's object still names goes once that one has gone, at the latest
 * when the device is removed).  Queue memory the device may still write
 * is freed only after its object is destroyed.
 *
 * The driver allocates every queue buffer, doorbell record and UAR page
 * itself: userspace never supplies an address, only sizes and the numbers
 * of other objects.  Those numbers go to the firmware as they are (the
 * firmware answers BAD_RES in st for one that names nothing): a file may
 * name objects it did not create.  Destroying an object that another one
 * still names is the firmware's BAD_RES_STATE, in st; the object stays.
 */
enum cxprm_obj_type {
	CXPRM_OBJ_PD = 1,            /* ALLOC_PD: id = pd */
	CXPRM_OBJ_CQ = 2,            /* CREATE_CQ on the completion EQ: id = cqn */
	CXPRM_OBJ_SRQ = 3,           /* CREATE_RMP (ISSI 1) or CREATE_SRQ: id = rmpn/srqn */
	CXPRM_OBJ_QP = 4,            /* CREATE_QP: id = qpn */
	CXPRM_OBJ_XRQ = 5,           /* CREATE_XRQ, NVMF offload: id = xrqn */
	CXPRM_OBJ_NVMF_BACKEND = 6,  /* CREATE_NVMF_BACKEND_CTRL: id = controller id,
				      * parent = xrqn */
	CXPRM_OBJ_NVMF_NS = 7,       /* ATTACH_NVMF_NAMESPACE: id = nsid (in),
				      * parent = xrqn */
};

#define CXPRM_OBJ_MAX_PER_FILE 256
/* Largest queue (log2 entries) a CQ, SRQ, QP or XRQ may ask for: the
 * driver's queue buffers are at most 1 MiB (256 pages, one pas[] list). */
#define CXPRM_OBJ_MAX_LOG_QUEUE 14

/* CQ of 2^log_size 64-byte CQEs; completion events go to the driver's EQ. */
struct cxprm_cq_attr {
	__u8 log_size;        /* in */
	__u8 status;          /* out (query): cqc.status */
	__u8 reserved0[2];
	__u32 eqn;            /* out: cqc.c_eqn */
	__u32 uar_page;       /* out: cqc.uar_page */
	__u32 consumer_counter; /* out (query) */
	__u32 producer_counter; /* out (query) */
	__u32 reserved[3];
};

/*
 * SRQ of 2^log_size WQEs of 16 << log_stride bytes.  From ISSI 1 it is an
 * RMP, as mlx5_ib makes it (CREATE/QUERY/DESTROY_RMP; st.opcode says
 * which): id = rmpn, state = rmpc.state (1 ready), cqn must be 0.
 */
struct cxprm_srq_attr {
	__u32 pd;             /* in */
	__u32 cqn;            /* in: ISSI 0 only (XRC), else 0 */
	__u8 log_size;        /* in */
	__u8 log_stride;      /* in: 16 << n bytes (srqc.log_rq_stride) */
	__u16 lwm;            /* in: limit watermark */
	__u8 state;           /* out (query): srqc.state */
	__u8 reserved0;
	__u16 wqe_cnt;        /* out (query) */
	__u32 reserved[4];
};

/*
 * QP (rq_type SRQ when srqn != 0, else a regular RQ of 2^log_rq_size) and
 * a send queue of 2^log_sq_size 64-byte WQEBBs.  st: 0 RC, 1 UC, 2 UD.
 */
struct cxprm_qp_attr {
	__u32 pd;             /* in */
	__u32 cqn_snd;        /* in */
	__u32 cqn_rcv;        /* in */
	__u32 srqn;           /* in: 0 = no SRQ */
	__u8 st;              /* in: qpc.st */
	__u8 log_sq_size;     /* in */
	__u8 log_rq_size;     /* in: regular RQ only */
	__u8 log_rq_stride;   /* in: regular RQ only */
	__u8 state;           /* out: the state after the last ioctl */
	__u8 reserved0[3];
	__u32 reserved[2];
};

/*
 * XRQ with xrqc.offload = NVMF (provisional layout, vendor driver): a
 * linked-list queue with read/write/flush offload and a staging buffer of
 * the driver's.
 */
#define CXPRM_XRQ_MIN_LOG_STRIDE 5       /* 32 bytes */
#define CXPRM_XRQ_MAX_LOG_STRIDE 15      /* wq.log_wq_stride: 4 bits */
#define CXPRM_XRQ_MAX_STAGING_PAGES 256  /* 1 MiB */
#define CXPRM_XRQ_DEFAULT_STAGING_PAGES 16

struct cxprm_xrq_attr {
	__u32 pd;             /* in */
	__u32 cqn;            /* in */
	__u8 log_size;        /* in: 2^n WQEs */
	__u8 log_stride;      /* in: 2^n bytes per WQE (wq.log_wq_stride), MIN..MAX_LOG_STRIDE */
	__u8 log_max_namespace; /* in */
	__u8 log_max_io_size; /* in */
	__u32 ioccsz;         /* in: in-capsule command size, 16-byte units */
	__u16 nvme_queue_size; /* in */
	__u16 staging_pages;  /* in: 4 KiB staging buffer pages, up to MAX; 0 = DEFAULT */
	__u32 reserved[3];
};

/*
 * Backend NVMe controller of an XRQ: one I/O queue pair of an NVMe device
 * that firmware drives peer to peer (what the vendor's nvmet offload gets
 * from nvme_peer_get_resource): the SQ (queue_depth x 64 bytes) and CQ
 * (queue_depth x 16 bytes), contiguous and 4 KiB aligned, and the SQ tail
 * doorbell register (SQyTDBL, BAR0 + 0x1000 + 2y * (4 << CAP.DSTRD)); the
 * CQ head doorbell is the next one, at + (4 << db_stride).  queue_depth
 * must equal the XRQ's nvme_queue_size.  Firmware writes NVMe commands to
 * these addresses, so creating one needs CAP_SYS_RAWIO and the module
 * parameter allow_raw_write=1, like a raw command that changes state.
 */
#define CXPRM_NVMF_BE_MAX_QUEUE_DEPTH 4096
#define CXPRM_NVMF_BE_MAX_DB_STRIDE 8
struct cxprm_nvmf_backend_attr {
	__u64 sq_bus;            /* in */
	__u64 cq_bus;            /* in */
	__u64 sqt_db_bus;        /* in: 4-byte aligned */
	__u16 queue_depth;       /* in: 2..MAX_QUEUE_DEPTH */
	__u8 db_stride;          /* in: CAP.DSTRD, 0..MAX_DB_STRIDE */
	__u8 log_cmd_timeout_us; /* in */
	__u32 reserved;
};

/* Frontend namespace id (obj.id) attached to a backend namespace. */
#define CXPRM_NVMF_MAX_LOG_LBA 15 /* the command's lba_data_size is 16 bits of bytes */
struct cxprm_nvmf_ns_attr {
	__u32 backend_namespace; /* in */
	__u16 backend_ctrl_id;   /* in: a CXPRM_OBJ_NVMF_BACKEND id */
	__u16 lba_data_size;     /* in: log2 bytes per block, 9..MAX_LOG_LBA (sent as bytes) */
	__u32 reserved[6];
};

struct cxprm_obj {
	__u32 type;           /* in: enum cxprm_obj_type */
	__u32 id;             /* out of CREATE (in for NVMF_NS); in for the others */
	__u32 parent;         /* in: xrqn for NVMF_BACKEND and NVMF_NS, else 0 */
	__u32 reserved;
	struct cxprm_cmd_status st;
	union {
		struct cxprm_cq_attr cq;
		struct cxprm_srq_attr srq;
		struct cxprm_qp_attr qp;
		struct cxprm_xrq_attr xrq;
		struct cxprm_nvmf_backend_attr backend;
		struct cxprm_nvmf_ns_attr ns;
		__u8 raw[32];
	} u;
};

/* QP state transitions (CXPRM_IOC_QP_MODIFY), as mlx5_ib drives RC over RoCE. */
enum cxprm_qp_transition {
	CXPRM_QP_RST2INIT = 1,  /* port, pkey_index, access */
	CXPRM_QP_INIT2RTR = 2,  /* path, mtu, remote_qpn, rq_psn */
	CXPRM_QP_RTR2RTS = 3,   /* sq_psn, retries, timeout */
	CXPRM_QP_2RST = 4,
};

struct cxprm_qp_modify {
	__u32 qpn;            /* in: a QP of this file */
	__u32 transition;     /* in: enum cxprm_qp_transition */
	struct cxprm_cmd_status st;
	__u8 port;
	__u8 mtu;             /* 1 = 256 ... 5 = 4096 */
	__u16 pkey_index;
	__u8 rre, rwe, rae;   /* remote read/write/atomic enable */
	__u8 hop_limit;
	__u32 remote_qpn;
	__u32 rq_psn;         /* next_rcv_psn */
	__u32 sq_psn;         /* next_send_psn */
	__u8 rgid[16];
	__u8 rmac[6];
	__u8 src_addr_index;
	__u8 min_rnr_nak;
	__u8 retry_count;
	__u8 rnr_retry;
	__u8 ack_timeout;
	__u8 state;           /* out: qpc state after the transition */
	/* INIT2RTR, as mlx5_set_path: rlid, and GRH only with a nonzero rgid,
	 * on an InfiniBand port; sl (eth_prio = sl & 7 on Ethernet), tclass
	 * and flow_label (20 bits; 0 = derived from the QP numbers for the
	 * RoCE v2 UDP source port) on both. */
	__u16 rlid;
	__u8 sl;
	__u8 tclass;
	__u32 flow_label;
	__u32 reserved[2];
};

/*
 * CXPRM_IOC_BATCH: up to CXPRM_BATCH_MAX typed or object ioctls
 * (QUERY_CAPS, NVMF_NS, ESW_FUNCTIONS, DCT_*, OBJ_*, QP_MODIFY) in one
 * call, their firmware commands in flight together (as many as the
 * command queue has slots).  The ops run in no defined order: put no two
 * on one object (the second gets -EBUSY while the first runs) and no op
 * that needs another's result in one batch.  Each op is what its own
 * ioctl would be (the same checks and privileges): its result is that
 * ioctl's return value, and its struct is copied back when that is 0.
 * The batch returns 0 once every op ran (done: how many returned 0),
 * -EINVAL for a bad count, flags or reserved field and -EFAULT for an
 * unreadable ops array (then no op ran).
 */
#define CXPRM_BATCH_MAX 256 /* as many as a file may hold objects (was 64) */
struct cxprm_batch_op {
	__u32 cmd;      /* in: the op's ioctl request, e.g. CXPRM_IOC_DCT_CREATE */
	__s32 result;   /* out: 0 or -errno, as that ioctl returns */
	__u64 arg;      /* in: address of its struct (copied back on 0) */
};

struct cxprm_batch {
	__u32 count;    /* in: ops, 1..CXPRM_BATCH_MAX */
	__u32 flags;    /* in: 0 */
	__u64 ops;      /* in: address of count struct cxprm_batch_op */
	__u32 done;     /* out: ops whose result is 0 */
	__u32 reserved; /* 0 */
};

struct cxprm_opcode_stats {
	__u16 opcode;
	__u8 last_status;
	__u8 last_delivery;
	__s32 last_errno;    /* negative errno of the last failure, 0 if none */
	__u32 last_syndrome;
	__u32 reserved;
	__u64 count;
	__u64 errors;
	__u64 lat_min_ns;
	__u64 lat_avg_ns;
	__u64 lat_max_ns;
};

/* Per-opcode command statistics. */
struct cxprm_stats {
	__u32 capacity;      /* in: entries at 'entries' */
	__u32 count;         /* out: entries filled */
	__u64 entries;       /* in: user pointer to struct cxprm_opcode_stats[] */
	__u64 total;         /* out: commands completed */
};

/*
 * A raw firmware command.  The driver builds the queue entry and the
 * mailboxes itself; userspace never supplies a DMA address.  The opcode
 * and op_mod are taken from 'in' (a PRM command input, starting with the
 * 16-byte header).  inlen: 16 .. CXPRM_RAW_MAX; outlen: 16 .. CXPRM_RAW_MAX.
 * With CXPRM_RAW_DUMP and a 'dump' buffer the driver copies out the bytes
 * that went over the wire: struct cxprm_raw_dump followed by the input
 * then the output mailbox blocks (576 bytes each), as far as dump_len allows.
 * 'st' and the dump are copied back even when the ioctl fails.  Commands
 * that would break the driver's own state are refused for everyone
 * (-EPERM): ENABLE/DISABLE/INIT/TEARDOWN_HCA, MANAGE_PAGES, SET_ISSI,
 * CREATE/DESTROY_EQ, DEALLOC_UAR.
 */
#define CXPRM_RAW_MAX (16 + 64 * 512)
#define CXPRM_RAW_DUMP (1U << 0)
#define CXPRM_MAILBOX_BYTES 576

struct cxprm_raw_dump {
	__u8 entry_posted[64];    /* the queue entry as rung */
	__u8 entry_completed[64]; /* the entry as firmware handed it back */
	__u32 in_blocks;          /* input blocks that follow */
	__u32 out_blocks;         /* output blocks that follow */
	__u32 slot;
	__u32 truncated;          /* 1: dump_len was too small for all blocks */
};

struct cxprm_raw_cmd {
	__u64 in;            /* user pointer */
	__u64 out;           /* user pointer */
	__u32 inlen;
	__u32 outlen;
	__u32 flags;         /* CXPRM_RAW_* */
	__u32 dump_len;      /* in: size of 'dump'; out: bytes written */
	__u64 dump;          /* user pointer, or 0 */
	struct cxprm_cmd_status st;
};

/*
 * Events: read() returns whole struct cxprm_event records (a buffer
 * smaller than one record is -EINVAL); poll()/select() report POLLIN when
 * one is queued.  Each open file has its own queue (CXPRM_EVENT_QUEUE
 * records; on overflow the oldest are dropped and 'dropped' says how many)
 * and its own subscription: by default ESW_FUNCTIONS_CHANGED (0x0e),
 * DCT_DRAINED (0x1c) and CXPRM_EVENT_HEALTH; CXPRM_IOC_SUBSCRIBE replaces
 * it (bit n of mask[n/64] = event type n).  Reading needs CAP_NET_ADMIN.
 */
#define CXPRM_EVENT_QUEUE 256

/*
 * type CXPRM_EVENT_HEALTH: not an EQE but the driver's own health report
 * (no MLX5_EVENT_TYPE_* uses 0xf0): a finding that does not fail the
 * device.  sub_type CXPRM_HEALTH_*; data (big-endian like an EQE):
 *   data[0]    health buffer synd     data[1]    rfr
 *   data[2..3] ext_synd               data[4..7] health counter
 *   data[8..11] polls the counter has not moved
 *   data[12]   nic_interface (cmdq_addr_l_sz bits 10:8)
 * A fatal finding is not an event: the device fails (reads return
 * -EHOSTDOWN or -ENODEV once it stays failed; while it recovers they wait
 * for the recovery's records).
 */
#define CXPRM_EVENT_HEALTH 0xf0
#define CXPRM_HEALTH_SYNDROME 1 /* a new syndrome without rfr (reset required) */
#define CXPRM_HEALTH_STALL    2 /* the counter missed health_stall_polls polls */
/*
 * Recovery (the device failed and the driver brings it back): data[0..3]
 * recoveries so far, data[4..7] enum cxprm_recovery, data[8..11] attempt,
 * data[12..15] the failing step's negative errno (big-endian).
 */
#define CXPRM_HEALTH_RECOVERING      3 /* started: firmware state is being lost */
#define CXPRM_HEALTH_RECOVERED       4 /* up again; the file's objects are gone */
#define CXPRM_HEALTH_RECOVERY_FAILED 5 /* the device stays failed (data[4..7] why) */
struct cxprm_event {
	__u64 timestamp_ns;  /* CLOCK_MONOTONIC when the EQE was seen */
	__u32 seq;           /* per-device event sequence number */
	__u8 type;           /* MLX5_EVENT_TYPE_* */
	__u8 sub_type;
	__u16 dropped;       /* records this file lost before this one */
	__u8 data[28];       /* eqe.event_data */
	__u32 reserved;
};

struct cxprm_subscribe {
	__u64 mask[4];
};

#define CXPRM_IOC_INFO          _IOR(CXPRM_IOC_MAGIC, 0x00, struct cxprm_info)
#define CXPRM_IOC_QUERY_CAPS    _IOWR(CXPRM_IOC_MAGIC, 0x01, struct cxprm_caps)
#define CXPRM_IOC_NVMF_NS       _IOWR(CXPRM_IOC_MAGIC, 0x02, struct cxprm_nvmf_ns)
#define CXPRM_IOC_ESW_FUNCTIONS _IOWR(CXPRM_IOC_MAGIC, 0x03, struct cxprm_esw_functions)
#define CXPRM_IOC_DCT_CREATE    _IOWR(CXPRM_IOC_MAGIC, 0x10, struct cxprm_dct)
#define CXPRM_IOC_DCT_QUERY     _IOWR(CXPRM_IOC_MAGIC, 0x11, struct cxprm_dct)
#define CXPRM_IOC_DCT_DRAIN     _IOWR(CXPRM_IOC_MAGIC, 0x12, struct cxprm_dct)
#define CXPRM_IOC_DCT_DESTROY   _IOWR(CXPRM_IOC_MAGIC, 0x13, struct cxprm_dct)
#define CXPRM_IOC_OBJ_CREATE    _IOWR(CXPRM_IOC_MAGIC, 0x14, struct cxprm_obj)
#define CXPRM_IOC_OBJ_QUERY     _IOWR(CXPRM_IOC_MAGIC, 0x15, struct cxprm_obj)
#define CXPRM_IOC_OBJ_DESTROY   _IOWR(CXPRM_IOC_MAGIC, 0x16, struct cxprm_obj)
#define CXPRM_IOC_QP_MODIFY     _IOWR(CXPRM_IOC_MAGIC, 0x17, struct cxprm_qp_modify)
#define CXPRM_IOC_BATCH         _IOWR(CXPRM_IOC_MAGIC, 0x18, struct cxprm_batch)
#define CXPRM_IOC_STATS         _IOWR(CXPRM_IOC_MAGIC, 0x20, struct cxprm_stats)
#define CXPRM_IOC_RAW           _IOWR(CXPRM_IOC_MAGIC, 0x30, struct cxprm_raw_cmd)
#define CXPRM_IOC_SUBSCRIBE     _IOW(CXPRM_IOC_MAGIC, 0x40, struct cxprm_subscribe)

#endif /* _UAPI_LINUX_CXPRM_H */
