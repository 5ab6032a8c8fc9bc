// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_kunit.ko, suite cxprm_shim: the shim's host-interface pieces
 * (drivers/cxprm_host.c: coherent DMA, firmware pages, the EQ and its
 * events worker) on the real cxprm device bound in the guest, against
 * cxprm-emud's fault knobs.  The suite drives the emulator through its
 * control page (tools/emulator/daemon/control.h) in the last 4 KiB of the
 * ivshmem BAR, mapped here on its own so it outlives an unbind.
 *
 * Needs cxprm.ko loaded and an ivshmem device bound to it (the runner,
 * tools/kernel/run-kunit.sh, does that); cmd_timeout_ms=3000 keeps the
 * timeout case short.  The cases run in order; the last one unbinds and
 * rebinds the device.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/sizes.h>

#include "cxprm_kunit_hooks.h"
#include "../../tools/emulator/daemon/control.h"

#define CXPRM_KT_QUERY_HCA_CAP	0x100
#define CXPRM_KT_CAP_OUT	0x1010		/* header + 4096-byte capability */
#define CXPRM_KT_EVENT_ESW	0x0e		/* ESW_FUNCTIONS_CHANGED */
#define CXPRM_KT_WAIT_MS	10000

struct cxprm_kt_shim {
	struct cxprm_dev *cx;
	void __iomem *ctrl;
	u8 in[16];
	u8 *out;
};

/* ---- the emulator's control page ---- */

static u32 emu_rd(struct cxprm_kt_shim *s, u32 off)
{
	return ioread32(s->ctrl + off);
}

static void emu_wr(struct cxprm_kt_shim *s, u32 off, u32 v)
{
	iowrite32(v, s->ctrl + off);
}

/* One control command: CXPRM_EMUD_ST_*, or -ETIMEDOUT. */
static int emu_cmd(struct cxprm_kt_shim *s, u32 cmd, const u32 *args,
		   unsigned int nargs, u64 *result)
{
	u32 seq = emu_rd(s, CXPRM_EMUD_CTRL_ACK) + 1;
	unsigned long deadline = jiffies + 5 * HZ;
	unsigned int i;

	if (!seq)
		seq = 1;
	for (i = 0; i < nargs && i < CXPRM_EMUD_CTRL_NARGS; i++)
		emu_wr(s, CXPRM_EMUD_CTRL_ARG(i), args[i]);
	emu_wr(s, CXPRM_EMUD_CTRL_CMD, cmd);
	wmb();	/* arguments before the doorbell */
	emu_wr(s, CXPRM_EMUD_CTRL_SEQ, seq);
	while (emu_rd(s, CXPRM_EMUD_CTRL_ACK) != seq) {
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		usleep_range(50, 200);
	}
	rmb();	/* the answer after its ACK */
	if (result)
		*result = (u64)emu_rd(s, CXPRM_EMUD_CTRL_RESULT_HI) << 32 |
			  emu_rd(s, CXPRM_EMUD_CTRL_RESULT_LO);
	return emu_rd(s, CXPRM_EMUD_CTRL_STATUS);
}

static s64 emu_query(struct kunit *test, struct cxprm_kt_shim *s, u32 what,
		     u32 arg)
{
	u32 args[2] = { what, arg };
	u64 v = 0;
	int st = emu_cmd(s, CXPRM_EMUD_CMD_QUERY, args, 2, &v);

	KUNIT_EXPECT_EQ_MSG(test, st, CXPRM_EMUD_ST_OK, "query %u", what);
	return st ? -1 : (s64)v;
}

static void emu_fault(struct kunit *test, struct cxprm_kt_shim *s, u32 knob,
		      u32 v1, u32 v2)
{
	u32 args[3] = { knob, v1, v2 };

	KUNIT_EXPECT_EQ_MSG(test, emu_cmd(s, CXPRM_EMUD_CMD_FAULT, args, 3, NULL),
			    CXPRM_EMUD_ST_OK, "fault knob %u", knob);
}

static void emu_clear(struct kunit *test, struct cxprm_kt_shim *s)
{
	KUNIT_EXPECT_EQ(test, emu_cmd(s, CXPRM_EMUD_CMD_FAULT_CLEAR, NULL, 0, NULL),
			CXPRM_EMUD_ST_OK);
	emu_fault(test, s, CXPRM_EMUD_FAULT_ONLY_OPCODE, 0xffffffff, 0);
}

/* ---- the device ---- */

static int cxprm_kt_shim_init(struct kunit *test)
{
	struct cxprm_kt_shim *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct pci_dev *pdev;

	if (!s)
		return -ENOMEM;
	s->out = kunit_kzalloc(test, CXPRM_KT_CAP_OUT, GFP_KERNEL);
	if (!s->out)
		return -ENOMEM;
	s->cx = cxprm_kunit_get_dev();
	if (!s->cx) {
		kunit_err(test, "no device bound to cxprm\n");
		return -ENODEV;
	}
	pdev = s->cx->pdev;
	if (s->cx->kind != CXPRM_KIND_IVSHMEM) {
		kunit_err(test, "%s is not the emulated device\n", s->cx->bdf);
		cxprm_kunit_put_dev(s->cx);
		return -ENODEV;
	}
	s->ctrl = ioremap(pci_resource_start(pdev, s->cx->bar_idx) +
			  CXPRM_EMUD_CTRL_OFFSET(pci_resource_len(pdev, s->cx->bar_idx)),
			  CXPRM_EMUD_CTRL_SIZE);
	if (!s->ctrl || emu_rd(s, CXPRM_EMUD_CTRL_MAGIC) != CXPRM_EMUD_MAGIC) {
		kunit_err(test, "no cxprm-emud control page\n");
		if (s->ctrl)
			iounmap(s->ctrl);
		cxprm_kunit_put_dev(s->cx);
		return -ENODEV;
	}
	/* QUERY_HCA_CAP, general capabilities, current values. */
	s->in[0] = CXPRM_KT_QUERY_HCA_CAP >> 8;
	s->in[1] = CXPRM_KT_QUERY_HCA_CAP & 0xff;
	s->in[7] = 1;
	test->priv = s;
	return 0;
}

static void cxprm_kt_shim_exit(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;

	if (!s)
		return;
	emu_clear(test, s);
	iounmap(s->ctrl);
	cxprm_kunit_put_dev(s->cx);
}

static int query_caps(struct cxprm_kt_shim *s, struct cxprm_core_result *res)
{
	struct cxprm_core_result r;

	return cxprm_kunit_raw(s->cx, s->in, sizeof(s->in), s->out,
			       CXPRM_KT_CAP_OUT, res ? res : &r);
}

static struct cxprm_core_info info_of(struct kunit *test, struct cxprm_dev *cx)
{
	struct cxprm_core_info info = {};

	KUNIT_EXPECT_EQ(test, cxprm_kunit_info(cx, &info), 0);
	return info;
}

/* ---- cases ---- */

static void cxprm_shim_device_up(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_info info = info_of(test, s->cx);

	KUNIT_EXPECT_EQ(test, info.state, (u32)CXPRM_CORE_UP);
	KUNIT_EXPECT_EQ(test, info.events_running, 1);
	KUNIT_EXPECT_GT(test, info.cmdq_entries, 1);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_HCA_STATE, 0), 2);
	KUNIT_EXPECT_EQ(test, query_caps(s, NULL), 0);
	/* The emulator's answer: a capability page that is not all zero. */
	KUNIT_EXPECT_NOT_NULL(test, memchr_inv(s->out + 16, 0, 4096));
}

static void cxprm_shim_pages_tracked(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_info info = info_of(test, s->cx);

	KUNIT_EXPECT_GT(test, info.pages_live, 0);
	KUNIT_EXPECT_EQ(test, info.pages_given - info.pages_reclaimed,
			info.pages_live);
	/* Firmware holds exactly the pages the core tracks. */
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0),
			(s64)info.pages_live);
	/* Each page is one coherent buffer; the queue and the EQ are more. */
	KUNIT_EXPECT_GT(test, cxprm_kunit_dma_count(s->cx), info.pages_live);
}

static void cxprm_shim_dma_balanced_commands(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	unsigned long base;
	int i, fails = 0;

	/* Slot 0's mailbox chains grow to this size once, then stay. */
	KUNIT_ASSERT_EQ(test, query_caps(s, NULL), 0);
	base = cxprm_kunit_dma_count(s->cx);
	for (i = 0; i < 32; i++)
		fails += query_caps(s, NULL) != 0;
	KUNIT_EXPECT_EQ(test, fails, 0);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_dma_count(s->cx), base);
}

/*
 * err: the answer with checksums off (the default, as Linux: nothing
 * verifies a signature); err_ck: with cmd_checksum=1.  Tokens and the
 * output length are not read back (A12, Documentation/prm-notes-transport.rst).
 */
static const struct {
	const char *name;
	u32 knob, v1, v2;
	int err, err_ck;
} cxprm_kt_faults[] = {
	{ "entry signature", CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE, 1, 0, 0, -EBADMSG },
	{ "block signature", CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE, 2, 0, 0, -EBADMSG },
	{ "entry token", CXPRM_EMUD_FAULT_WRONG_TOKEN, 1, 0, 0, 0 },
	{ "block token", CXPRM_EMUD_FAULT_WRONG_TOKEN, 2, 0, 0, 0 },
	{ "delivery status", CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x7, 1, -EIO, -EIO },
	{ "output length lie", CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE, 64, 0, 0, 0 },
	{ "broken chain", CXPRM_EMUD_FAULT_BROKEN_CHAIN, 1, 0, -EPROTO, -EPROTO },
};

static void cxprm_shim_dma_balanced_faults(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	bool ck = info_of(test, s->cx).cmd_checksum;
	unsigned long base;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, query_caps(s, NULL), 0);
	base = cxprm_kunit_dma_count(s->cx);
	for (i = 0; i < ARRAY_SIZE(cxprm_kt_faults); i++) {
		struct cxprm_core_result res = {};
		u64 fired0 = emu_query(test, s, CXPRM_EMUD_Q_FAULTS_FIRED, 0);

		emu_clear(test, s);
		emu_fault(test, s, CXPRM_EMUD_FAULT_ONLY_OPCODE,
			  CXPRM_KT_QUERY_HCA_CAP, 0);
		emu_fault(test, s, CXPRM_EMUD_FAULT_ONCE, 1, 0);
		emu_fault(test, s, cxprm_kt_faults[i].knob, cxprm_kt_faults[i].v1,
			  cxprm_kt_faults[i].v2);
		KUNIT_EXPECT_EQ_MSG(test, query_caps(s, &res),
				    ck ? cxprm_kt_faults[i].err_ck :
					 cxprm_kt_faults[i].err,
				    "%s (checksums %s)", cxprm_kt_faults[i].name,
				    ck ? "on" : "off");
		/* The fault did fire, even where the answer is taken. */
		KUNIT_EXPECT_GT_MSG(test,
				    emu_query(test, s, CXPRM_EMUD_Q_FAULTS_FIRED, 0),
				    fired0, "%s fired", cxprm_kt_faults[i].name);
		/* Once: the next command goes through on the same buffers. */
		KUNIT_EXPECT_EQ_MSG(test, query_caps(s, &res), 0, "after %s",
				    cxprm_kt_faults[i].name);
		KUNIT_EXPECT_EQ_MSG(test, cxprm_kunit_dma_count(s->cx), base,
				    "DMA buffers after %s",
				    cxprm_kt_faults[i].name);
	}
}

static void cxprm_shim_stuck_owner_recovers(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_result res = {};
	struct cxprm_core_info info;
	u64 t0;

	emu_clear(test, s);
	emu_fault(test, s, CXPRM_EMUD_FAULT_ONLY_OPCODE,
		  CXPRM_KT_QUERY_HCA_CAP, 0);
	emu_fault(test, s, CXPRM_EMUD_FAULT_NEVER_COMPLETE, 1, 0);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, query_caps(s, &res), -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0, 1000ULL * NSEC_PER_MSEC);
	info = info_of(test, s->cx);
	KUNIT_EXPECT_GE(test, info.cmds_in_flight, 1);	/* the slot stays out */
	emu_clear(test, s);
	/* Recovery: later commands take another slot and complete. */
	KUNIT_EXPECT_EQ(test, query_caps(s, &res), 0);
	KUNIT_EXPECT_NE(test, res.slot, 0);
	KUNIT_EXPECT_EQ(test, query_caps(s, &res), 0);
	KUNIT_EXPECT_EQ(test, info_of(test, s->cx).state, (u32)CXPRM_CORE_UP);
}

/* Waits until cond holds (polling every 20 ms), at most CXPRM_KT_WAIT_MS. */
#define cxprm_kt_wait_until(cond) ({					\
	unsigned long __end = jiffies + msecs_to_jiffies(CXPRM_KT_WAIT_MS);	\
	bool __ok;							\
	while (!(__ok = (cond)) && time_before(jiffies, __end))	\
		msleep(20);						\
	__ok;								\
})

/* Firmware asks for n pages (n < 0: gives them back); the worker serves it. */
static void page_request(struct kunit *test, struct cxprm_kt_shim *s, int n,
			 u64 live_before)
{
	struct cxprm_core_info now = {};
	u32 arg = (u32)n;

	KUNIT_ASSERT_EQ(test, emu_cmd(s, CXPRM_EMUD_CMD_REQUEST_PAGES, &arg, 1, NULL),
			CXPRM_EMUD_ST_OK);
	KUNIT_EXPECT_TRUE(test, cxprm_kt_wait_until((now = info_of(test, s->cx)).pages_live ==
						    live_before + n));
	/*
	 * The driver counts a page as lent when it posts MANAGE_PAGES; the
	 * firmware holds it once the command ran.  On a loaded host the
	 * second may come a poll later: wait for the two to agree.
	 */
	KUNIT_EXPECT_TRUE(test, cxprm_kt_wait_until(emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0) ==
						    (s64)now.pages_live));
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0),
			(s64)now.pages_live);
}

static void cxprm_shim_page_requests(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_info before = info_of(test, s->cx);
	struct cxprm_core_event_stats st0 = {}, st = {};
	unsigned long dma0;

	KUNIT_ASSERT_EQ(test, cxprm_kunit_event_stats(s->cx, &st0), 0);
	/* Once, so the page slot's mailbox chains exist. */
	page_request(test, s, 16, before.pages_live);
	page_request(test, s, -16, before.pages_live + 16);
	dma0 = cxprm_kunit_dma_count(s->cx);
	/* 16 more pages: 16 more coherent buffers, then none. */
	page_request(test, s, 16, before.pages_live);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_dma_count(s->cx), dma0 + 16);
	page_request(test, s, -16, before.pages_live + 16);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_dma_count(s->cx), dma0);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_event_stats(s->cx, &st), 0);
	KUNIT_EXPECT_EQ(test, st.page_requests, st0.page_requests + 4);
	KUNIT_EXPECT_EQ(test, st.page_request_errors, st0.page_request_errors);
}

static void cxprm_shim_eq_phase_across_wraps(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_event_stats st0 = {}, st = {};
	u32 args[9] = { CXPRM_KT_EVENT_ESW, 0 };
	u32 entries, n, posted = 0, missed = 0;
	s64 overruns0, written0;
	u64 got;

	KUNIT_ASSERT_EQ(test, cxprm_kunit_event_stats(s->cx, &st0), 0);
	KUNIT_ASSERT_TRUE(test, st0.running);
	KUNIT_ASSERT_TRUE_MSG(test, st0.subscribed[0] & BIT_ULL(CXPRM_KT_EVENT_ESW),
			      "ESW_FUNCTIONS_CHANGED not subscribed");
	entries = 1U << st0.log_size;
	n = 2 * entries + 17;	/* past two wraps of the ring */
	overruns0 = emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
			      CXPRM_EMUD_COUNTER_EQ_OVERRUNS);
	written0 = emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
			     CXPRM_EMUD_COUNTER_EQES_WRITTEN);
	while (posted < n) {
		u32 batch = min(n - posted, 32U), i;

		for (i = 0; i < batch; i++) {
			args[2] = posted + i;	/* event data: a sequence number */
			if (emu_cmd(s, CXPRM_EMUD_CMD_POST_EVENT, args, 9, &got) ||
			    got != 1)
				missed++;
		}
		posted += batch;
		/* Let the worker drain it: a full ring would overrun. */
		KUNIT_ASSERT_TRUE(test, cxprm_kt_wait_until(!cxprm_kunit_event_stats(s->cx, &st) &&
						   st.by_type[CXPRM_KT_EVENT_ESW] >=
						   st0.by_type[CXPRM_KT_EVENT_ESW] + posted - missed));
	}
	KUNIT_EXPECT_EQ(test, missed, 0);
	KUNIT_EXPECT_EQ(test, st.by_type[CXPRM_KT_EVENT_ESW],
			st0.by_type[CXPRM_KT_EVENT_ESW] + n);
	KUNIT_EXPECT_EQ(test, st.total, st0.total + n);
	/* The consumer index moved by n and the phase follows its wraps. */
	KUNIT_EXPECT_EQ(test, st.consumer_index, st0.consumer_index + n);
	KUNIT_EXPECT_EQ(test, st.phase, (st.consumer_index >> st.log_size) & 1);
	KUNIT_EXPECT_GE(test, (st.consumer_index >> st.log_size) -
			(st0.consumer_index >> st0.log_size), 2);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
					CXPRM_EMUD_COUNTER_EQ_OVERRUNS), overruns0);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
					CXPRM_EMUD_COUNTER_EQES_WRITTEN), written0 + n);
}

static void cxprm_shim_teardown_reclaims(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct pci_dev *pdev = s->cx->pdev;
	struct cxprm_core_info before = info_of(test, s->cx), after;
	s64 leaked0 = emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
				CXPRM_EMUD_COUNTER_PAGES_LEAKED);
	struct cxprm_dev *cx;

	KUNIT_ASSERT_GT(test, before.pages_live, 0);
	/* remove(): TEARDOWN_HCA, page reclaim, DISABLE_HCA, frees. */
	device_release_driver(&pdev->dev);
	KUNIT_EXPECT_NULL(test, pdev->dev.driver);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0), 0);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_HCA_STATE, 0), 0);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_COUNTER,
					CXPRM_EMUD_COUNTER_PAGES_LEAKED), leaked0);

	/* And it comes up again. */
	KUNIT_ASSERT_EQ(test, device_attach(&pdev->dev), 1);
	cx = cxprm_kunit_get_dev();
	KUNIT_ASSERT_NOT_NULL(test, cx);
	after = info_of(test, cx);
	KUNIT_EXPECT_EQ(test, after.state, (u32)CXPRM_CORE_UP);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0),
			(s64)after.pages_live);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_HCA_STATE, 0), 2);
	cxprm_kunit_put_dev(cx);
}

/*
 * The PCI error handlers (cxprm_pm.c), driven as the PCI core's recovery
 * drives them: QEMU cannot inject an AER error into ivshmem, so this is
 * their test.  Between error_detected and slot_reset the emulator resets
 * the function, as the link reset would.
 */
static void cxprm_shim_pci_error_recovers(struct kunit *test)
{
	struct cxprm_kt_shim *s = test->priv;
	struct cxprm_core_info before = info_of(test, s->cx), after;
	unsigned long dma0 = cxprm_kunit_dma_count(s->cx);

	KUNIT_ASSERT_EQ(test, before.state, (u32)CXPRM_CORE_UP);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_pci_error_detected(s->cx),
			(int)PCI_ERS_RESULT_NEED_RESET);
	/* Unloaded: commands fail, every page freed (bus mastering off). */
	KUNIT_EXPECT_EQ(test, query_caps(s, NULL), -ENODEV);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_dma_count(s->cx), 0);
	KUNIT_EXPECT_EQ(test, emu_cmd(s, CXPRM_EMUD_CMD_FUNCTION_RESET, NULL, 0, NULL),
			CXPRM_EMUD_ST_OK);
	KUNIT_EXPECT_EQ(test, cxprm_kunit_pci_slot_reset(s->cx),
			(int)PCI_ERS_RESULT_RECOVERED);
	after = info_of(test, s->cx);
	KUNIT_EXPECT_EQ(test, after.state, (u32)CXPRM_CORE_UP);
	KUNIT_EXPECT_EQ(test, after.failed_err, 0);
	KUNIT_EXPECT_EQ(test, after.events_running, 1);
	KUNIT_EXPECT_EQ(test, query_caps(s, NULL), 0);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_PAGES_HELD, 0),
			(s64)after.pages_live);
	KUNIT_EXPECT_EQ(test, emu_query(test, s, CXPRM_EMUD_Q_HCA_STATE, 0), 2);
	/* The pages and the queue and EQ again; not what earlier tests added (a completion EQ). */
	KUNIT_EXPECT_GT(test, cxprm_kunit_dma_count(s->cx), after.pages_live);
	KUNIT_EXPECT_LE(test, cxprm_kunit_dma_count(s->cx), dma0);
}

static struct kunit_case cxprm_shim_cases[] = {
	KUNIT_CASE(cxprm_shim_device_up),
	KUNIT_CASE(cxprm_shim_pages_tracked),
	KUNIT_CASE(cxprm_shim_dma_balanced_commands),
	KUNIT_CASE(cxprm_shim_dma_balanced_faults),
	KUNIT_CASE(cxprm_shim_stuck_owner_recovers),
	KUNIT_CASE(cxprm_shim_page_requests),
	KUNIT_CASE(cxprm_shim_eq_phase_across_wraps),
	KUNIT_CASE(cxprm_shim_pci_error_recovers),
	KUNIT_CASE(cxprm_shim_teardown_reclaims),
	{}
};

static struct kunit_suite cxprm_shim_suite = {
	.name = "cxprm_shim",
	.init = cxprm_kt_shim_init,
	.exit = cxprm_kt_shim_exit,
	.test_cases = cxprm_shim_cases,
};

kunit_test_suites(&cxprm_shim_suite);

MODULE_DESCRIPTION("KUnit suites of cxprm: the core in the kernel build, the shim against cxprm-emud");
MODULE_LICENSE("GPL");
