/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxprm kernel shim: per-device state shared by the C files of drivers/.
 *
 * Lifetime: struct cxprm_dev is reference counted.  Probe holds one
 * reference until remove; every open file holds one, so a file that
 * outlives the device (unbind with the file open) still has a valid
 * struct to look at and gets -ENODEV for everything.
 *
 * Locking:
 *   rwsem       read: every ioctl and the release of a file, for as long
 *               as they use the core; write: remove, to stop them ('alive'
 *               goes false under it: no more ioctls; later, held across
 *               the sweep of the files' objects, 'cleanup_ok': no more
 *               cleanup by releases, once remove destroyed what was left).  Commands are bounded by the command timeout,
 *               so remove waits at most that long.
 *   files_lock  the list of open files (event fan-out, DCT cleanup).
 *   file dct_table_lock / ev_lock   per-file DCT table / event ring.
 *   The core's per-file locks serialise a file's DCT and object ioctls;
 *               the objects table pointer is taken with xchg() by release
 *               or remove, whichever comes first (no ioctl runs then).
 */
#ifndef CXPRM_DRV_H
#define CXPRM_DRV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <cxprm/capi.h>
#include <cxprm/host.h>

#include <uapi/linux/cxprm.h>

/* pci_device_id.driver_data: what sits behind the function. */
enum cxprm_kind {
	CXPRM_KIND_NONE = 0,	/* not in the id table (bound by override only) */
	CXPRM_KIND_CONNECTX,	/* ConnectX / BlueField: init segment at BAR0 */
	CXPRM_KIND_IVSHMEM,	/* QEMU ivshmem-plain: emulated device at BAR2 */
};
#define CXPRM_KIND_MASK		0xffUL
/* Linux MLX5_PCI_DEV_IS_VF: the id is a virtual function's. */
#define CXPRM_PCI_DEV_IS_VF	BIT(8)

struct cxprm_dev;

/* One debugfs file: which text of which device. */
struct cxprm_dbg_node {
	struct cxprm_dev *cx;
	int which;		/* enum cxprm_core_text */
};

struct cxprm_dev {
	struct kref kref;
	struct pci_dev *pdev;
	char bdf[32];
	enum cxprm_kind kind;
	bool is_vf;		/* by its id (cxprm_pci_ids.c), as Linux */
	int bar_idx;
	void __iomem *bar;
	resource_size_t bar_len;

	/* The C host interface handed to the C++ core. */
	struct cxprm_host host;
	/* DMA buffers handed out through the host interface. */
	struct mutex dma_lock;	/* dma_list, dma_count */
	struct list_head dma_list;
	unsigned long dma_count;

	struct cxprm_core *core;
	int bringup_err;	/* 0, or why bring-up failed */
	bool up;		/* bring-up succeeded: commands may be sent */

	struct rw_semaphore rwsem;
	bool alive;		/* accepting ioctls (under rwsem) */
	bool cleanup_ok;	/* releases may still destroy DCTs (under rwsem) */
	bool shutting_down;	/* the PCI shutdown callback runs (or ran) */
	bool pci_error;		/* between error_detected and resume: no reset */

	/* Events: async EQ polled by a worker, kicked by MSI-X when present. */
	bool events_on;
	bool stopping;		/* the worker must not requeue itself */
	struct workqueue_struct *wq;
	struct delayed_work poll_work;
	struct work_struct service_work;
	int irq;		/* Linux IRQ number of MSI-X vector 0, or -1 */
	bool msix;		/* vectors allocated */
	char irq_name[48];
	atomic_t event_seq;
	atomic64_t polls;	/* worker runs, for debugfs */
	atomic64_t irqs;

	/*
	 * Health poller: every health_poll_ms, cxprm_core_health_check() (a
	 * fatal sensor as Linux's health.c: reads all ones, nic_interface
	 * DISABLED/SW_RESET, rfr && synd marks the device failed in the core:
	 * commands waiting are woken, later ones fail at once).  A syndrome
	 * without rfr or a stalled counter the core calls new is reported
	 * (dmesg, a CXPRM_EVENT_HEALTH record) and the device kept.  Runs
	 * from bring-up to teardown.  Whether the device failed is the
	 * core's alone (cxprm_dev_failed()); it tells each change through
	 * the health_changed host op (cxprm_host.c: dmesg, wake readers).
	 */
	struct delayed_work health_work;
	bool health_on;		/* health_work initialised and queued */
	bool health_stopping;	/* must not requeue itself */
	unsigned int health_ms;	/* interval, read at probe */
	int failed_final;	/* the core's failure when remove destroyed it */

	/*
	 * Automatic recovery (cxprm_recover.c): the core asks for it through
	 * health_changed; the work runs cxprm_core_recover().  Remove,
	 * shutdown and suspend cancel it first ('recover_stopping').  The
	 * admin's recovery (debugfs 'recover') runs in the writer's task;
	 * recover_lock: one recovery at a time, and stop waits for it.
	 */
	struct work_struct recover_work;
	struct mutex recover_lock;
	bool recover_stopping;

	/* Open files. */
	struct mutex files_lock;	/* files */
	struct list_head files;
	/* Readers: woken by events, a failure and remove. */
	wait_queue_head_t wait;

	struct miscdevice misc;
	char misc_name[48];
	bool misc_registered;

	struct dentry *dbg;
	struct cxprm_dbg_node dbg_nodes[CXPRM_TEXT_COUNT];
};

/* cxprm_file.flags */
#define CXPRM_FILE_WROTE	0	/* a raw write was logged for this file */

/* Per open file of /dev/cxprm/<bdf>. */
struct cxprm_file {
	struct cxprm_dev *cx;
	struct list_head node;		/* cx->files */

	/*
	 * The core's part: its DCTs and objects (cxprm_core_ioctl()).  No
	 * lock is held across a command: obj_lock only makes the object
	 * table, and dct_table_lock guards the DCT table (core.dcts.lock),
	 * so that remove can take DCTs from it under files_lock without
	 * waiting for a command (whose event pump may need files_lock to
	 * deliver an event: see cxprm_cdev_shutdown()).
	 */
	struct cxprm_core_file core;
	unsigned long flags;		/* CXPRM_FILE_* bits */
	struct mutex obj_lock;		/* core.obj_lock */
	spinlock_t dct_table_lock;

	spinlock_t ev_lock;		/* mask and the event ring */
	u64 mask[4];			/* subscribed event types */
	u32 ev_head;			/* oldest record */
	u32 ev_count;
	u32 ev_lost;			/* dropped since the last read record */
	struct cxprm_event ev_ring[CXPRM_EVENT_QUEUE];
};

/* cxprm_pci_ids.c: the id table, driver_data of the entry probe matched. */
extern const struct pci_device_id cxprm_pci_ids[];
unsigned long cxprm_pci_id_data(struct pci_dev *pdev, const struct pci_device_id *id);
/*
 * After the BAR is mapped: a VF by its id, @id_data that driver_data
 * (ivshmem: the emulated function's, from the emulator's control page).
 */
bool cxprm_pci_is_vf(struct cxprm_dev *cx, unsigned long id_data);

/* cxprm_dev.c: the device object, its references and failure state. */
struct cxprm_dev *cxprm_dev_alloc(struct pci_dev *pdev, enum cxprm_kind kind);
void cxprm_dev_get(struct cxprm_dev *cx);
void cxprm_dev_put(struct cxprm_dev *cx);
/*
 * The errno of a device failed for good (0 while healthy, or while it
 * recovers): the core's failed word, or its last value once remove
 * destroyed the core.  No sleep.
 */
int cxprm_dev_failed(struct cxprm_dev *cx);

/* Wake every blocked reader (device failed or going away). */
void cxprm_dev_wake(struct cxprm_dev *cx);

/* cxprm_objs.c: the objects of open files (cxprm_cdev.c's). */
/* Destroys the objects of a table taken from a file; why: for the log. */
void cxprm_objs_destroy(struct cxprm_dev *cx, struct cxprm_core_objs *t,
			const char *why);
/* Remove: the objects of every open file, then those of closed ones. */
void cxprm_objs_shutdown(struct cxprm_dev *cx);

/* cxprm_events.c: per-file event rings. */
void cxprm_events_file_init(struct cxprm_file *f);
/* The oldest record of the file, with the count lost before it. */
bool cxprm_file_pop(struct cxprm_file *f, struct cxprm_event *ev);
/* Called by the core for every EQE (from the poll worker), and for health. */
void cxprm_event_listener(void *ctx, u8 type, u8 sub_type, const u8 *data);

/* cxprm_health.c */
void cxprm_health_start(struct cxprm_dev *cx);
void cxprm_health_stop(struct cxprm_dev *cx);

/* cxprm_eq.c: the async EQ's worker and interrupt. */
void cxprm_events_start(struct cxprm_dev *cx);
void cxprm_events_stop(struct cxprm_dev *cx);

/* cxprm_params.c: the bring-up's configuration, from the module parameters. */
void cxprm_bringup_config(struct cxprm_dev *cx, struct cxprm_core_config *cfg);

/* cxprm_load.c: the function loaded and unloaded, with their logs. */
void cxprm_bringup(struct cxprm_dev *cx);
void cxprm_fast_unload(struct cxprm_dev *cx);
void cxprm_teardown(struct cxprm_dev *cx);
/* Up: the EQ and the poller start (after a bring-up). */
void cxprm_start(struct cxprm_dev *cx);
/* Under cx->rwsem (write): poller and EQ stopped, files' objects forgotten. */
void cxprm_quiesce(struct cxprm_dev *cx);
/* Bring-up, then the recovery's rules and cxprm_start(). */
void cxprm_load(struct cxprm_dev *cx);
/* Under cx->rwsem (write): cxprm_quiesce(), then the teardown. */
void cxprm_unload(struct cxprm_dev *cx);

/* cxprm_pm.c: suspend/resume and the PCI error handlers. */
int cxprm_pm_suspend(struct pci_dev *pdev, pm_message_t state);
int cxprm_pm_resume(struct pci_dev *pdev);
extern const struct pci_error_handlers cxprm_err_handler;

/* cxprm_recover.c */
void cxprm_recover_init(struct cxprm_dev *cx);
/* After a bring-up: the recovery's rules from the module parameters. */
void cxprm_recover_setup(struct cxprm_dev *cx);
/* From health_changed (any context): the core asked for a recovery. */
void cxprm_recover_schedule(struct cxprm_dev *cx);
/* No recovery runs or starts after this (remove, shutdown, suspend). */
void cxprm_recover_stop(struct cxprm_dev *cx);
/* The admin's recovery of a failed device, in the caller's task: 0 or -errno. */
int cxprm_recover_now(struct cxprm_dev *cx);
/* Every open file forgets its firmware objects (recovery, suspend). */
void cxprm_files_forget(struct cxprm_dev *cx);

/* cxprm_host.c */
void cxprm_host_init(struct cxprm_dev *cx);
/* cxprm_host_parallel.c: the host's run_parallel. */
void cxprm_host_run_parallel(void *ctx, u32 n, void (*fn)(void *arg, u32 i), void *arg);
/* Frees what the core did not. */
void cxprm_host_fini(struct cxprm_dev *cx);

/* cxprm_cdev.c */
int cxprm_cdev_register(struct cxprm_dev *cx);
void cxprm_cdev_unregister(struct cxprm_dev *cx);
/* The device is going away: wake readers, destroy every file's DCTs. */
void cxprm_cdev_shutdown(struct cxprm_dev *cx);

/* cxprm_debugfs.c */
void cxprm_debugfs_init(void);
void cxprm_debugfs_exit(void);
void cxprm_debugfs_add(struct cxprm_dev *cx);
void cxprm_debugfs_remove(struct cxprm_dev *cx);

#endif /* CXPRM_DRV_H */
