// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Human output: column tables and aligned "key: value" lists.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace cxprm::tool {

class Table {
public:
	struct Col {
		std::string name;
		bool right = false; // right-aligned (numbers)
	};
	explicit Table(std::vector<Col> cols) : cols_(std::move(cols)) {}
	void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
	bool empty() const { return rows_.empty(); }
	// Header line, then the rows; columns two spaces apart.
	void print(std::ostream &out, int indent = 0) const;

private:
	std::vector<Col> cols_;
	std::vector<std::vector<std::string>> rows_;
};

using KvList = std::vector<std::pair<std::string, std::string>>;

// "key:   value" with the values aligned.
void print_kv(std::ostream &out, const KvList &kv, int indent = 0);

// "section:" headings and indented blocks.
void print_lines(std::ostream &out, const std::vector<std::string> &lines, int indent = 0);

} // namespace cxprm::tool
