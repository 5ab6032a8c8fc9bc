// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the seed writers of fuzz_make_seeds (make_seeds.cpp, seeds_*.cpp)
// share: big-endian byte appenders, writing one seed file under the corpus
// root, and typed command outputs and inputs built with the core's layouts
// (seed_messages.cpp).
#ifndef CXPRM_FUZZ_SEEDS_SEED_BYTES_H
#define CXPRM_FUZZ_SEEDS_SEED_BYTES_H

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cxprm/layout.h"
#include "cxprm/prm/dct.h"

namespace cxprm::seeds {

using Bytes = std::vector<uint8_t>;

// The corpus root (main's argument); write() puts files under ROOT/TARGET/.
extern std::filesystem::path g_root;

inline void put8(Bytes &b, uint32_t v) { b.push_back((uint8_t)v); }
inline void put16(Bytes &b, uint32_t v) { put8(b, v >> 8), put8(b, v); }
inline void put32(Bytes &b, uint32_t v) { put16(b, v >> 16), put16(b, v); }
inline void put64(Bytes &b, uint64_t v) { put32(b, (uint32_t)(v >> 32)), put32(b, (uint32_t)v); }
inline void append(Bytes &b, const Bytes &x) { b.insert(b.end(), x.begin(), x.end()); }

void write(const char *target, const std::string &name, const Bytes &b);

template <class L> Bytes msg(u32 len = L::size_bytes) { return Bytes(len, 0); }
template <class L> prm::Ref<L> ref(Bytes &b) { return prm::Ref<L>(b.data()); }

// ---- typed outputs and inputs, as firmware / the core writes them ----
Bytes hca_cap_out(bool general);
Bytes adapter_out();
Bytes issi_out();
Bytes pages_out(int32_t n);
Bytes take_out(uint32_t n, uint32_t claimed);
Bytes esw_out(uint32_t words);
Bytes dctc_bytes(prm::Ref<prm::dctc> c);
Bytes query_dct_out_msg();
Bytes create_dct_in_msg();
Bytes create_eq_in_msg(uint32_t npas);
Bytes give_in_msg(uint32_t n, uint32_t claimed);
Bytes set_hca_cap_in_msg();
Bytes nvmf_out();
Bytes bad_status(Bytes b, uint8_t status, uint32_t syndrome);

// The seeds of each fuzz target.
void decoders();
void cmdq();
void eq();
void ioctl();
void cli();

} // namespace cxprm::seeds

#endif
