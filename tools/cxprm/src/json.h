// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A tiny JSON value and writer.  Objects keep their keys in insertion order
// (so output is stable and diffable); set() on an existing key replaces the
// value in place.  Strings are escaped per RFC 8259, invalid UTF-8 bytes
// become U+FFFD, so the output always parses.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cxprm::tool {

class Json {
public:
	enum class Kind { NUL, BOOL, UINT, INT, STR, ARR, OBJ };

	Json() = default; // null
	static Json null() { return Json(); }
	static Json object() { Json j; j.kind_ = Kind::OBJ; return j; }
	static Json array() { Json j; j.kind_ = Kind::ARR; return j; }
	static Json str(std::string s) { Json j; j.kind_ = Kind::STR; j.s_ = std::move(s); return j; }
	static Json boolean(bool b) { Json j; j.kind_ = Kind::BOOL; j.u_ = b; return j; }
	static Json num(uint64_t v) { Json j; j.kind_ = Kind::UINT; j.u_ = v; return j; }
	static Json snum(int64_t v) { Json j; j.kind_ = Kind::INT; j.i_ = v; return j; }

	// Any scalar: bool, integers, strings.
	template <class T> static Json of(const T &v)
	{
		if constexpr (std::is_same_v<T, Json>)
			return v;
		else if constexpr (std::is_same_v<T, bool>)
			return boolean(v);
		else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
			return snum(v);
		else if constexpr (std::is_integral_v<T>)
			return num(v);
		else
			return str(std::string(v));
	}

	// Object member (appends, or replaces an existing key in place).
	template <class T> Json &set(const std::string &key, const T &v) { return set_json(key, of(v)); }
	Json &set_json(const std::string &key, Json v);
	// Array element.
	template <class T> Json &push(const T &v) { return push_json(of(v)); }
	Json &push_json(Json v);

	Kind kind() const { return kind_; }
	bool is_null() const { return kind_ == Kind::NUL; }
	size_t size() const { return kind_ == Kind::OBJ ? members_.size() : items_.size(); }
	// Member by key, or null when absent (objects only).
	const Json *get(const std::string &key) const;
	const std::vector<std::pair<std::string, Json>> &members() const { return members_; }
	const std::vector<Json> &items() const { return items_; }
	const std::string &as_str() const { return s_; }
	uint64_t as_uint() const { return u_; }
	int64_t as_int() const { return i_; }

	// Pretty: two-space indent, one member or element per line.  Compact:
	// one line (for JSON lines output).
	std::string dump(bool pretty = true) const;

private:
	void write(std::string &out, bool pretty, int depth) const;

	Kind kind_ = Kind::NUL;
	uint64_t u_ = 0;
	int64_t i_ = 0;
	std::string s_;
	std::vector<Json> items_;
	std::vector<std::pair<std::string, Json>> members_;
};

// A JSON string literal for s, with quotes.
std::string json_quote(const std::string &s);

} // namespace cxprm::tool
