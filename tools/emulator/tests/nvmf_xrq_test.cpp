// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CREATE_XRQ with NVMF offload and CREATE_NVMF_BACKEND_CTRL as the vendor
// driver sends them (prm/nvmf.h, prm-notes-nvmf.rst "NVMF offload"): the stride
// in log2 bytes, a linked list, read/write/flush offload, a staging buffer
// after the queue's pas; the backend's SQ address at +64.  Each strict
// refusal has its lenient knob (NvmfProfile).
#include "object_builders.h"

namespace cxprm::emu::test {
namespace {

using Spec = ObjectBuilder::XrqSpec;

struct NvmfXrqTest : ObjectsFixture {
	explicit NvmfXrqTest(Profile p = quiet()) : ObjectsFixture(std::move(p)) {}
	// CREATE_XRQ of x on the set's PD and CQ answers status and syndrome.
	void expect(const Spec &x, uint8_t status, uint32_t syndrome)
	{
		ObjectsFixture::expect(b.create_xrq(o.pd, o.cqn, x), status, syndrome);
	}
};

// Every NVMF CREATE_XRQ knob lenient, nothing else.
struct NvmfXrqLenient : NvmfXrqTest {
	NvmfXrqLenient()
		: NvmfXrqTest(quiet_with([](Profile &p) {
			  p.nvmf.xrq_min_stride_32 = false;
			  p.nvmf.xrq_linked_list_only = false;
			  p.nvmf.xrq_requires_staging = false;
			  p.nvmf.xrq_rwf_offload_only = false;
		  }))
	{
	}
};

TEST_F(NvmfXrqTest, VendorShapeTaken)
{
	Answer a = b.create_xrq(o.pd, o.cqn, Spec{});
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	uint32_t xrqn = (uint32_t)prm::get<prm::create_xrq_out::xrqn>(a.as<prm::create_xrq_out>());
	XrqInfo i;
	ASSERT_TRUE(emu.xrq_info(xrqn, &i));
	EXPECT_EQ(i.log_stride, 8u);
	EXPECT_EQ(i.queue_pages, 1u) << "256 B x 16: log2 bytes, not 16 << n";
	EXPECT_EQ(i.staging_pages, 2u);
	EXPECT_EQ(i.staging_pa, b.last_staging) << "staging pas at entry 8, after the padded queue list";
	EXPECT_EQ(i.offload_type, prm::NVMF_OFFLOAD_READ_WRITE_FLUSH);
}

TEST_F(NvmfXrqTest, StrideIsLog2Bytes)
{
	Spec x;
	x.log_stride = 4; // 16 B: the old "16 << n" drivers' n
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_BAD_STRIDE);
	x.log_stride = 10; // 1 KiB: above the profile's max_wqe_sz_rq (512)
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_BAD_STRIDE);
	x.log_stride = 9;
	expect(x, st::OK, 0);
	x.log_stride = 5;
	x.log_sz = 7; // 32 B x 128: one page
	expect(x, st::OK, 0);
}

TEST_F(NvmfXrqTest, CyclicRefused)
{
	Spec x;
	x.wq_type = prm::WQ_TYPE_CYCLIC;
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_NOT_LINKED_LIST);
}

TEST_F(NvmfXrqTest, StagingBufferRequired)
{
	Spec x;
	x.staging_pages = 0;
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_NO_STAGING);
	x.staging_pages = 2;
	x.staging_pas = false; // counted, but no pas after the queue's
	expect(x, st::BAD_INP_LEN_ERR, synd::XRQ_STAGING_INLEN);
}

TEST_F(NvmfXrqTest, OnlyReadWriteFlushOffload)
{
	Spec x;
	for (uint8_t t : {0, 1, 2, 3, 5}) {
		x.offload_type = t;
		expect(x, st::BAD_PARAM_ERR, synd::XRQ_BAD_OFFLOAD_TYPE);
	}
}

TEST_F(NvmfXrqLenient, KnobsTakeWhatIsUnknown)
{
	Spec x;
	x.log_stride = 4;
	expect(x, st::OK, 0);
	x.log_stride = 3; // cannot hold a data segment: refused even here
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_BAD_STRIDE);
	x = Spec{};
	x.wq_type = prm::WQ_TYPE_CYCLIC;
	expect(x, st::OK, 0);
	x.wq_type = 2;
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_NOT_LINKED_LIST);
	x = Spec{};
	x.staging_pages = 0;
	expect(x, st::OK, 0);
	x = Spec{};
	x.offload_type = 1;
	expect(x, st::OK, 0);
	x.offload_type = 5;
	expect(x, st::BAD_PARAM_ERR, synd::XRQ_BAD_OFFLOAD_TYPE);
}

TEST_F(NvmfXrqTest, BackendSqAtPlus64)
{
	uint32_t xrqn = b.xrq(o.pd, o.cqn);
	uint16_t id = b.backend(xrqn);
	NvmfBackendInfo be;
	ASSERT_TRUE(emu.nvmf_backend(xrqn, id, &be));
	EXPECT_EQ(be.cq, b.last_cq);
	EXPECT_EQ(be.sq, b.last_sq);
	// The old layout (CQ, SQ in adjacent 8-byte entries) is too short.
	Answer a = b.create_backend(xrqn, {.list_bytes = 16});
	EXPECT_EQ(a.status, st::BAD_INP_LEN_ERR);
	EXPECT_EQ(a.syndrome, synd::NVMF_BE_PAS_INLEN);
	a = b.create_backend(xrqn, {.list_bytes = 72}); // up to the SQ address, not the whole list
	EXPECT_EQ(a.syndrome, synd::NVMF_BE_PAS_INLEN);
}

TEST(NvmfXrqProfile, MakeLenientFlipsTheKnobs)
{
	Profile p = Profile::connectx7();
	EXPECT_TRUE(p.nvmf.xrq_min_stride_32 && p.nvmf.xrq_linked_list_only && p.nvmf.xrq_requires_staging &&
		    p.nvmf.xrq_rwf_offload_only);
	p.make_lenient();
	EXPECT_FALSE(p.nvmf.xrq_min_stride_32 || p.nvmf.xrq_linked_list_only || p.nvmf.xrq_requires_staging ||
		     p.nvmf.xrq_rwf_offload_only);
}

} // namespace
} // namespace cxprm::emu::test
