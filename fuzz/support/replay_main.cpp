// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The replay driver of a fuzz target without libFuzzer: feeds every file
// named on the command line, or found below a named directory (sorted), to
// LLVMFuzzerTestOneInput once.  Built with the ordinary compiler, so the
// committed corpus and regression inputs run in every `make check`.
// Exit 0 when every input ran (a crash aborts); 1 when there was no input
// at all (a missing path is skipped: regressions/<target>/ may not exist).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char **argv)
{
	std::vector<fs::path> files;
	for (int i = 1; i < argc; i++) {
		fs::path p(argv[i]);
		std::error_code ec;
		if (fs::is_directory(p, ec)) {
			for (const auto &e : fs::recursive_directory_iterator(p))
				if (e.is_regular_file())
					files.push_back(e.path());
		} else if (fs::is_regular_file(p, ec)) {
			files.push_back(p);
		} else {
			// A target without regressions yet has no directory for them.
			std::fprintf(stderr, "replay: %s: none (skipped)\n", argv[i]);
		}
	}
	std::sort(files.begin(), files.end());
	if (files.empty()) {
		std::fprintf(stderr, "replay: no inputs\n");
		return 1;
	}
	for (const fs::path &f : files) {
		std::ifstream in(f, std::ios::binary);
		std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
		std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.c_str(), data.size());
		LLVMFuzzerTestOneInput(data.data(), data.size());
	}
	std::printf("replay: %zu inputs, no crash\n", files.size());
	return 0;
}
