// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm ioctls: INFO, QUERY_CAPS, ESW_FUNCTIONS, NVMF_NS (error paths; the
 * happy path is cxprm_nvmf_test), STATS, and what every ioctl does with
 * unknown numbers, bad user pointers and nonzero reserved fields.
 * Run as root against the emulated device (see run_guest_tests.sh).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

FIXTURE(dev) {
	int fd;
	struct emuctl emu;
	int have_emu;
	const struct emu_profile *prof;
	struct cxprm_info info;
};

FIXTURE_SETUP(dev)
{
	self->fd = dev_open_info(_metadata, &self->info);
	self->have_emu = emu_open_profile(&self->emu, &self->info, &self->prof);
}

FIXTURE_TEARDOWN(dev)
{
	emuctl_close(&self->emu);
	if (self->fd >= 0)
		close(self->fd);
}

static int sysfs_hex(const char *bdf, const char *attr)
{
	char path[600], buf[32];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", bdf, attr);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	return (int)strtol(buf, NULL, 16);
}

/* ------------------------------------------------------------------ INFO */

TEST_F(dev, info_fields)
{
	const char *bdf = cxprm_bdf();
	struct cxprm_info i;
	char want[300];
	unsigned int k;

	memset(&i, 0xa5, sizeof(i));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));

	ASSERT_NE(NULL, memchr(i.pci_addr, 0, sizeof(i.pci_addr))) TH_LOG("pci_addr not NUL-terminated");
	ASSERT_NE(NULL, memchr(i.dev_name, 0, sizeof(i.dev_name))) TH_LOG("dev_name not NUL-terminated");
	EXPECT_STREQ(bdf, i.pci_addr);
	snprintf(want, sizeof(want), "cxprm/%s", bdf);
	EXPECT_STREQ(want, i.dev_name);
	EXPECT_EQ(sysfs_hex(bdf, "vendor"), i.vendor_id);
	EXPECT_EQ(sysfs_hex(bdf, "device"), i.device_id);

	EXPECT_EQ(CXPRM_STATE_UP, i.state);
	EXPECT_EQ(CXPRM_INFO_EMULATED, i.flags & CXPRM_INFO_EMULATED) TH_LOG("flags 0x%x", i.flags);
	EXPECT_EQ(0, i.flags & ~(CXPRM_INFO_EMULATED | CXPRM_INFO_EVENT_MODE | CXPRM_INFO_IRQ |
				 CXPRM_INFO_ECPF | CXPRM_INFO_CMD_CHECKSUM))
		TH_LOG("unknown flags 0x%x", i.flags);
	EXPECT_EQ(5, i.cmdif_rev);
	EXPECT_EQ(32, i.cmdq_entries);   /* profile: log_cmdq_size 5 */
	EXPECT_EQ(6, i.cmdq_log_stride); /* 64-byte entries */
	EXPECT_EQ(1, i.issi);
	EXPECT_EQ(0, i.health_syndrome);
	EXPECT_NE(0, i.commands);
	EXPECT_NE(~0u, i.async_eqn) TH_LOG("no async EQ: events cannot be delivered");
	EXPECT_GT(256, i.async_eqn);
	EXPECT_LE(i.pages_reclaimed, i.pages_given);

	/* Reserved output is zero (the 0xa5 fill must be gone). */
	EXPECT_EQ(0, i.reserved0);
	for (k = 0; k < ARRAY_SIZE(i.reserved); k++) {
		uint32_t r = i.reserved[k];

		EXPECT_EQ(0, r) TH_LOG("reserved[%u] = 0x%x", k, r);
	}

	ASSERT_NE(NULL, self->prof) TH_LOG("unknown emulator profile (fw %u.%u.%u)",
					   i.fw_major, i.fw_minor, i.fw_subminor);
	EXPECT_EQ(self->prof->fw_major, i.fw_major);
	EXPECT_EQ(self->prof->fw_minor, i.fw_minor);
	EXPECT_EQ(self->prof->fw_subminor, i.fw_subminor);
	/* Boot and init pages are given before INIT_HCA. */
	EXPECT_LE(self->prof->boot_pages + self->prof->init_pages, i.pages_given);
}

TEST_F(dev, info_matches_emulator)
{
	struct cxprm_info i;
	long long held;

	if (!self->have_emu)
		SKIP(return, "no emulator control page (boot the guest with iomem=relaxed)");
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(1, emuctl_query(&self->emu, CXPRM_EMUD_Q_ISSI, 0, 0, 0));
	EXPECT_EQ(2, emuctl_query(&self->emu, CXPRM_EMUD_Q_HCA_STATE, 0, 0, 0)) TH_LOG("HCA not INITIALIZED");
	held = emuctl_query(&self->emu, CXPRM_EMUD_Q_PAGES_HELD, 0, 0, 0);
	EXPECT_EQ((long long)(i.pages_given - i.pages_reclaimed), held)
		TH_LOG("driver: given %llu reclaimed %llu; emulator holds %lld",
		       (unsigned long long)i.pages_given, (unsigned long long)i.pages_reclaimed, held);
	EXPECT_EQ((long long)i.pages_given, emuctl_query(&self->emu, CXPRM_EMUD_Q_PAGES_GIVEN, 0, 0, 0));
	EXPECT_EQ((uint32_t)(self->prof->fw_major << 24 | self->prof->fw_minor << 16 | self->prof->fw_subminor),
		  emuctl_rd(&self->emu, CXPRM_EMUD_CTRL_FW_REV));
}

TEST_F(dev, info_counts_commands)
{
	struct cxprm_info a, b;
	struct cxprm_caps *c = malloc(sizeof(*c));
	long long t0, t1;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &a));
	t0 = stats_total(self->fd);
	ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, 0, c));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &b));
	t1 = stats_total(self->fd);
	/* INFO and STATS send no command; QUERY_CAPS sends one. */
	EXPECT_EQ(a.commands + 1, b.commands);
	EXPECT_EQ(t0 + 1, t1);
	EXPECT_EQ((long long)b.commands, t1);
	free(c);
}

/* ------------------------------------------------------------------ CAPS */

static void check_status_ok(struct __test_metadata *_metadata, const struct cxprm_cmd_status *st,
			    uint16_t opcode)
{
	EXPECT_EQ(0, st->delivery);
	EXPECT_EQ(ST_OK, st->status) TH_LOG("status 0x%x syndrome 0x%08x", st->status, st->syndrome);
	EXPECT_EQ(opcode, st->opcode);
	EXPECT_EQ(0, st->syndrome);
	EXPECT_LT(0, st->latency_ns);
	EXPECT_GT(10000000000ull, st->latency_ns);
}

TEST_F(dev, caps_general_match_profile)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	int max;
	unsigned int k;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, self->prof);
	for (max = 0; max <= 1; max++) {
		memset(c, 0xa5, sizeof(*c));
		c->cap_type = CAP_GENERAL;
		c->max = max;
		c->reserved0 = 0;
		c->reserved1 = 0;
		ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, c)) TH_LOG("%s", strerror(errno));
		check_status_ok(_metadata, &c->st, OP_QUERY_HCA_CAP);
		EXPECT_EQ(CAP_GENERAL, c->cap_type);
		EXPECT_EQ(max, c->max);
		EXPECT_EQ(0, c->reserved0);
		EXPECT_EQ(0, c->reserved1);
		for (k = 0; k < ARRAY_SIZE(self->prof->caps) && self->prof->caps[k].f; k++) {
			const struct cap_expect *x = &self->prof->caps[k];
			uint64_t v = prm_get(c->caps, x->f->off, x->f->width);

			EXPECT_EQ(max ? x->max : x->cur, v)
				TH_LOG("%s %s: got %llu", max ? "MAX" : "CUR", x->f->name,
				       (unsigned long long)v);
		}
	}
	/* MAX cmdif_checksum is 3 on both profiles (CUR is the driver's choice). */
	ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, 1, c));
	EXPECT_EQ(3, prm_get(c->caps, CAP_cmdif_checksum.off, CAP_cmdif_checksum.width));
	/* CUR: MAX's value with cmd_checksum=1, else 0 (as Linux). */
	ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, 0, c));
	EXPECT_EQ(cxprm_param("cmd_checksum") > 0 ? 3 : 0,
		  prm_get(c->caps, CAP_cmdif_checksum.off, CAP_cmdif_checksum.width));
	free(c);
}

TEST_F(dev, caps_other_types)
{
	struct cxprm_caps *c = malloc(sizeof(*c));

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, query_caps(self->fd, CAP_ESWITCH, 0, c));
	check_status_ok(_metadata, &c->st, OP_QUERY_HCA_CAP);
	EXPECT_EQ(1, prm_get(c->caps, ESWCAP_esw_functions_changed.off, 1));

	ASSERT_EQ(0, query_caps(self->fd, CAP_NVMF, 1, c));
	check_status_ok(_metadata, &c->st, OP_QUERY_HCA_CAP);
	EXPECT_EQ(1, prm_get(c->caps, NVMFCAP_frontend_namespace_context.off, 1));
	EXPECT_EQ(1, prm_get(c->caps, NVMFCAP_last_req_latency.off, 1));
	free(c);
}

/* A firmware error is the ioctl's success: status/syndrome tell (never EREMOTEIO). */
TEST_F(dev, caps_unknown_type_is_firmware_status)
{
	struct cxprm_caps *c = malloc(sizeof(*c));

	ASSERT_NE(NULL, c);
	errno = 0;
	ASSERT_EQ(0, query_caps(self->fd, 0x3f, 0, c)) TH_LOG("ioctl failed: %s", strerror(errno));
	EXPECT_EQ(0, c->st.delivery);
	EXPECT_EQ(ST_BAD_PARAM_ERR, c->st.status);
	EXPECT_EQ(SYND_QUERY_CAP_BAD_TYPE, c->st.syndrome);
	EXPECT_EQ(OP_QUERY_HCA_CAP, c->st.opcode);
	free(c);
}

TEST_F(dev, caps_reserved_nonzero)
{
	struct cxprm_caps *c = malloc(sizeof(*c));

	ASSERT_NE(NULL, c);
	memset(c, 0, sizeof(*c));
	c->reserved0 = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, c));
	memset(c, 0, sizeof(*c));
	c->reserved1 = 0x80000000u;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, c));
	/* max is 0 or 1. */
	memset(c, 0, sizeof(*c));
	c->max = 2;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, c));
	/* op_mod = type << 1 | mode is 16 bits: type 0x8000 does not fit. */
	memset(c, 0, sizeof(*c));
	c->cap_type = 0x8000;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, c)) TH_LOG("type 0x8000: status 0x%x", c->st.status);
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	free(c);
}

/* ---------------------------------------------------------- ESW_FUNCTIONS */

TEST_F(dev, esw_functions)
{
	struct cxprm_esw_functions f;
	unsigned int k;

	ASSERT_NE(NULL, self->prof);
	memset(&f, 0, sizeof(f));
	memset(&f.st, 0xa5, sizeof(f.st));
	memset(f.sf_enable, 0xa5, sizeof(f.sf_enable));
	f.host_total_vfs = 0xa5a5;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f)) TH_LOG("%s", strerror(errno));
	check_status_ok(_metadata, &f.st, OP_QUERY_ESW_FUNCTIONS);
	EXPECT_EQ(self->prof->total_vfs, f.host_total_vfs);
	EXPECT_EQ(self->prof->esw_pci_bus, f.host_pci_bus);
	EXPECT_EQ(0, f.host_number);
	EXPECT_EQ(0, f.host_pf_disabled);
	EXPECT_EQ(0, f.host_pf_not_exist);
	EXPECT_EQ(0, f.host_pci_device);
	EXPECT_EQ(0, f.host_pci_function);
	EXPECT_EQ(0, f.reserved0);
	EXPECT_EQ(0, f.reserved1);
	for (k = 0; k < CXPRM_ESW_MAX_SF_WORDS; k++)
		EXPECT_EQ(0, f.sf_enable[k]);
	if (self->have_emu)
		EXPECT_EQ(emuctl_query(&self->emu, CXPRM_EMUD_Q_NUM_VFS, 0, 0, 0), f.host_num_of_vfs);
}

TEST_F(dev, esw_num_vfs_follows_emulator)
{
	struct cxprm_esw_functions f;
	uint32_t n, want[] = { 3, 0 };

	if (!self->have_emu)
		SKIP(return, "no emulator control page");
	for (n = 0; n < ARRAY_SIZE(want); n++) {
		ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, want[n]));
		memset(&f, 0, sizeof(f));
		ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
		EXPECT_EQ(ST_OK, f.st.status);
		EXPECT_EQ(want[n], f.host_num_of_vfs);
	}
	/* More than total: the emulator refuses, nothing changes. */
	EXPECT_EQ(CXPRM_EMUD_ST_REFUSED, emuctl_set_num_vfs(&self->emu, self->prof->total_vfs + 1));
}

TEST_F(dev, esw_reserved_nonzero)
{
	struct cxprm_esw_functions f;

	memset(&f, 0, sizeof(f));
	f.reserved0 = 1;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_EQ(EINVAL, errno);
	memset(&f, 0, sizeof(f));
	f.reserved1 = 0x8000;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_EQ(EINVAL, errno);
}

/* ---------------------------------------------------------------- NVMF_NS */

TEST_F(dev, nvmf_unknown_namespace_is_firmware_status)
{
	struct nvmf_objs o;
	struct cxprm_nvmf_ns n;

	ASSERT_NE(NULL, self->prof);
	/* An XRQ (with its backend) of this file, no namespace attached. */
	ASSERT_EQ(0, nvmf_objs_on_ssd(self->fd, &self->emu, 1, &o)) TH_LOG("PD, CQ, XRQ, backend: %s", strerror(errno));
	memset(&n, 0, sizeof(n));
	n.xrqn = o.xrqn;
	n.nsid = 0x7777;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_NVMF_NS, &n)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, n.st.delivery);
	EXPECT_EQ(ST_BAD_RES_ERR, n.st.status);
	EXPECT_EQ(SYND_NVMF_NS_UNKNOWN_QUERY, n.st.syndrome);
	EXPECT_EQ(OP_QUERY_NVMF_NAMESPACE_CONTEXT, n.st.opcode);
	EXPECT_EQ(o.xrqn, n.xrqn);
	EXPECT_EQ(0x7777, n.nsid);

	/* An XRQ the profile does not have. */
	memset(&n, 0, sizeof(n));
	n.xrqn = 1;
	n.nsid = 1;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_NVMF_NS, &n));
	EXPECT_EQ(ST_BAD_RES_ERR, n.st.status);
	EXPECT_EQ(SYND_NVMF_BAD_XRQN, n.st.syndrome);
}

TEST_F(dev, nvmf_bad_input)
{
	struct cxprm_nvmf_ns n;

	/* xrqn is a 24-bit PRM field. */
	memset(&n, 0, sizeof(n));
	n.xrqn = 0x1000000;
	n.nsid = 1;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_NVMF_NS, &n));
	EXPECT_EQ(EINVAL, errno);

	memset(&n, 0, sizeof(n));
	n.xrqn = self->prof ? self->prof->first_xrqn : 0x80;
	n.nsid = 1;
	n.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_NVMF_NS, &n));
	EXPECT_EQ(EINVAL, errno);
}

/* ------------------------------------------------------------------ STATS */

TEST_F(dev, stats_table)
{
	struct cxprm_opcode_stats e[64];
	struct cxprm_stats s;
	uint64_t sum = 0;
	uint32_t k;
	int seen_caps = 0, seen_init = 0;

	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	EXPECT_EQ(0, s.count);
	EXPECT_LT(0, s.total);

	memset(e, 0xa5, sizeof(e));
	memset(&s, 0, sizeof(s));
	s.capacity = ARRAY_SIZE(e);
	s.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	ASSERT_LT(0, s.count);
	ASSERT_GE(ARRAY_SIZE(e), s.count);
	EXPECT_EQ(ARRAY_SIZE(e), s.capacity);
	for (k = 0; k < s.count; k++) {
		if (k)
			EXPECT_LT(e[k - 1].opcode, e[k].opcode) TH_LOG("not sorted/unique at %u", k);
		EXPECT_LT(0, e[k].count) TH_LOG("opcode 0x%x with count 0", e[k].opcode);
		EXPECT_GE(e[k].count, e[k].errors);
		EXPECT_LE(e[k].lat_min_ns, e[k].lat_avg_ns) TH_LOG("opcode 0x%x", e[k].opcode);
		EXPECT_LE(e[k].lat_avg_ns, e[k].lat_max_ns) TH_LOG("opcode 0x%x", e[k].opcode);
		EXPECT_EQ(0, e[k].reserved);
		sum += e[k].count;
		seen_caps |= e[k].opcode == OP_QUERY_HCA_CAP;
		seen_init |= e[k].opcode == OP_INIT_HCA;
	}
	/* Untouched past count. */
	if (s.count < ARRAY_SIZE(e))
		EXPECT_EQ(0xa5a5, e[s.count].opcode);
	EXPECT_TRUE(seen_caps) TH_LOG("no QUERY_HCA_CAP in STATS");
	EXPECT_TRUE(seen_init) TH_LOG("no INIT_HCA in STATS (bring-up commands not counted?)");
	EXPECT_EQ(s.total, sum) TH_LOG("per-opcode counts do not add up to total");
}

TEST_F(dev, stats_grow_with_commands)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	struct cxprm_esw_functions f;
	long long caps0, esw0, t0;
	int k;

	ASSERT_NE(NULL, c);
	caps0 = stats_opcode_count(self->fd, OP_QUERY_HCA_CAP);
	esw0 = stats_opcode_count(self->fd, OP_QUERY_ESW_FUNCTIONS);
	t0 = stats_total(self->fd);
	ASSERT_LE(0, caps0);
	for (k = 0; k < 5; k++)
		ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, k & 1, c));
	for (k = 0; k < 3; k++) {
		memset(&f, 0, sizeof(f));
		ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	}
	EXPECT_EQ(caps0 + 5, stats_opcode_count(self->fd, OP_QUERY_HCA_CAP));
	EXPECT_EQ(esw0 + 3, stats_opcode_count(self->fd, OP_QUERY_ESW_FUNCTIONS));
	EXPECT_EQ(t0 + 8, stats_total(self->fd));
	free(c);
}

TEST_F(dev, stats_count_firmware_errors)
{
	struct cxprm_opcode_stats e[64];
	struct cxprm_stats s;
	struct cxprm_caps *c = malloc(sizeof(*c));
	uint64_t err0 = 0, err1 = 0;
	uint32_t k;
	int found = 0;

	ASSERT_NE(NULL, c);
	memset(&s, 0, sizeof(s));
	s.capacity = ARRAY_SIZE(e);
	s.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	for (k = 0; k < s.count; k++)
		if (e[k].opcode == OP_QUERY_HCA_CAP)
			err0 = e[k].errors;
	ASSERT_EQ(0, query_caps(self->fd, 0x3f, 0, c));
	ASSERT_EQ(ST_BAD_PARAM_ERR, c->st.status);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	for (k = 0; k < s.count; k++) {
		if (e[k].opcode != OP_QUERY_HCA_CAP)
			continue;
		found = 1;
		err1 = e[k].errors;
		EXPECT_EQ(ST_BAD_PARAM_ERR, e[k].last_status);
		EXPECT_EQ(0, e[k].last_delivery);
		EXPECT_EQ(SYND_QUERY_CAP_BAD_TYPE, e[k].last_syndrome);
	}
	EXPECT_TRUE(found);
	EXPECT_EQ(err0 + 1, err1);
	free(c);
}

TEST_F(dev, stats_small_capacity)
{
	struct cxprm_opcode_stats e[3];
	struct cxprm_stats s;

	memset(e, 0xa5, sizeof(e));
	memset(&s, 0, sizeof(s));
	s.capacity = 1;
	s.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	EXPECT_EQ(1, s.count);
	EXPECT_LT(0, s.total);
	EXPECT_NE(0xa5a5, e[0].opcode);
	EXPECT_EQ(0xa5a5, e[1].opcode) TH_LOG("STATS wrote past capacity");
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, e[1].count);
}

TEST_F(dev, stats_bad_entries_pointer)
{
	struct cxprm_stats s;

	memset(&s, 0, sizeof(s));
	s.capacity = 4;
	s.entries = (uintptr_t)bad_ptr();
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	EXPECT_EQ(EFAULT, errno);
}

/* --------------------------------------------- unknown ioctls, bad pointers */

struct sized16 { char b[16]; };

TEST_F(dev, unknown_ioctl_enotty)
{
	struct cxprm_info i;
	char buf[8192];
	const struct {
		const char *what;
		unsigned long cmd;
	} bad[] = {
		{ "unused nr", _IO(CXPRM_IOC_MAGIC, 0x7f) },
		{ "unused nr with data", _IOWR(CXPRM_IOC_MAGIC, 0x21, struct cxprm_stats) },
		{ "other magic", _IOR('x', 0x00, struct cxprm_info) },
		{ "INFO with the wrong size", _IOR(CXPRM_IOC_MAGIC, 0x00, struct sized16) },
		{ "INFO with the wrong direction", _IOW(CXPRM_IOC_MAGIC, 0x00, struct cxprm_info) },
		{ "QUERY_CAPS with the wrong size", _IOWR(CXPRM_IOC_MAGIC, 0x01, struct sized16) },
		{ "RAW with the wrong size", _IOWR(CXPRM_IOC_MAGIC, 0x30, struct sized16) },
		{ "DCT_CREATE with the wrong size", _IOWR(CXPRM_IOC_MAGIC, 0x10, struct cxprm_dctc) },
		{ "SUBSCRIBE as _IOR", _IOR(CXPRM_IOC_MAGIC, 0x40, struct cxprm_subscribe) },
		{ "STATS as _IO", _IO(CXPRM_IOC_MAGIC, 0x20) },
	};
	size_t k;

	memset(buf, 0, sizeof(buf));
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, bad[k].cmd, buf)) TH_LOG("%s (0x%lx) succeeded", bad[k].what, bad[k].cmd);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("%s (0x%lx): %s", bad[k].what, bad[k].cmd, strerror(errno));
	}
	/* The fd still works. */
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
}

static const struct {
	const char *name;
	unsigned long cmd;
} all_ioctls[] = {
	{ "INFO", CXPRM_IOC_INFO },
	{ "QUERY_CAPS", CXPRM_IOC_QUERY_CAPS },
	{ "NVMF_NS", CXPRM_IOC_NVMF_NS },
	{ "ESW_FUNCTIONS", CXPRM_IOC_ESW_FUNCTIONS },
	{ "DCT_CREATE", CXPRM_IOC_DCT_CREATE },
	{ "DCT_QUERY", CXPRM_IOC_DCT_QUERY },
	{ "DCT_DRAIN", CXPRM_IOC_DCT_DRAIN },
	{ "DCT_DESTROY", CXPRM_IOC_DCT_DESTROY },
	{ "STATS", CXPRM_IOC_STATS },
	{ "RAW", CXPRM_IOC_RAW },
	{ "SUBSCRIBE", CXPRM_IOC_SUBSCRIBE },
};

TEST_F(dev, bad_arg_pointer_efault)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(all_ioctls); k++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, all_ioctls[k].cmd, bad_ptr()))
			TH_LOG("%s with an unmapped argument succeeded", all_ioctls[k].name);
		EXPECT_EQ(EFAULT, errno) TH_LOG("%s unmapped: %s", all_ioctls[k].name, strerror(errno));
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, all_ioctls[k].cmd, NULL))
			TH_LOG("%s with NULL succeeded", all_ioctls[k].name);
		EXPECT_EQ(EFAULT, errno) TH_LOG("%s NULL: %s", all_ioctls[k].name, strerror(errno));
	}
}

/* The argument starts in a mapped page and runs into an unmapped one. */
TEST_F(dev, straddling_arg_efault)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t k;

	ASSERT_NE(MAP_FAILED, two);
	ASSERT_EQ(0, mprotect(two + pg, pg, PROT_NONE));
	memset(two, 0, pg);
	for (k = 0; k < ARRAY_SIZE(all_ioctls); k++) {
		size_t sz = _IOC_SIZE(all_ioctls[k].cmd);
		void *arg = two + pg - sz / 2;

		if (sz < 2)
			continue;
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, all_ioctls[k].cmd, arg))
			TH_LOG("%s straddling an unmapped page succeeded", all_ioctls[k].name);
		EXPECT_EQ(EFAULT, errno) TH_LOG("%s: %s", all_ioctls[k].name, strerror(errno));
	}
	munmap(two, 2 * pg);
}

/* Any number of descriptors see the same device. */
TEST_F(dev, info_on_second_descriptor)
{
	struct cxprm_info a, b;
	int fd2 = cxprm_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &a));
	ASSERT_EQ(0, ioctl(fd2, CXPRM_IOC_INFO, &b));
	EXPECT_STREQ(a.pci_addr, b.pci_addr);
	EXPECT_EQ(a.fw_major, b.fw_major);
	close(fd2);
}

TEST_HARNESS_MAIN
