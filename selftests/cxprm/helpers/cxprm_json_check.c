// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_json_check: a strict RFC 8259 JSON syntax checker for shell tests
 * (the guest has no python).  Reads one JSON text (or, with -l, one per
 * line) from stdin; exit 0 if valid, 1 (with the byte offset) if not.
 *
 *   cxprm_json_check [-l] [-t TYPE] [-g PATH]...
 *     -l       JSON lines: every non-empty line is one JSON text
 *     -t TYPE  the top-level value must be object|array|string|number|bool|null
 *     -g PATH  print the value at PATH (a.b.0.c: object keys and array
 *              indexes), strings unquoted and unescaped only for plain ASCII,
 *              others as their JSON text; exit 3 if PATH is absent
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct p {
	const char *s, *end, *err;
	int depth;
};

enum kind { K_BAD, K_OBJ, K_ARR, K_STR, K_NUM, K_BOOL, K_NULL };

static void ws(struct p *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int fail(struct p *p, const char *why)
{
	if (!p->err)
		p->err = why;
	return K_BAD;
}

static int hex4(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Validates UTF-8 of one code point at s; returns its length or 0. */
static int utf8_len(const unsigned char *s, const unsigned char *end)
{
	int n, i;
	unsigned int c = s[0], cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (end - s < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static int string(struct p *p)
{
	p->s++; /* opening quote */
	while (p->s < p->end) {
		unsigned char c = (unsigned char)*p->s;

		if (c == '"') {
			p->s++;
			return K_STR;
		}
		if (c < 0x20)
			return fail(p, "control character in string");
		if (c == '\\') {
			p->s++;
			if (p->s >= p->end)
				break;
			switch (*p->s) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				p->s++;
				break;
			case 'u':
				if (p->end - p->s < 5 || !hex4(p->s + 1))
					return fail(p, "bad \\u escape");
				p->s += 5;
				break;
			default:
				return fail(p, "bad escape");
			}
			continue;
		}
		{
			int n = utf8_len((const unsigned char *)p->s, (const unsigned char *)p->end);

			if (!n)
				return fail(p, "invalid UTF-8");
			p->s += n;
		}
	}
	return fail(p, "unterminated string");
}

static int number(struct p *p)
{
	const char *s = p->s;

	if (s < p->end && *s == '-')
		s++;
	if (s >= p->end)
		return fail(p, "bad number");
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (s < p->end && isdigit((unsigned char)*s))
			s++;
	else
		return fail(p, "bad number");
	if (s < p->end && *s == '.') {
		s++;
		if (s >= p->end || !isdigit((unsigned char)*s))
			return fail(p, "bad fraction");
		while (s < p->end && isdigit((unsigned char)*s))
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || !isdigit((unsigned char)*s))
			return fail(p, "bad exponent");
		while (s < p->end && isdigit((unsigned char)*s))
			s++;
	}
	p->s = s;
	return K_NUM;
}

static int lit(struct p *p, const char *w, int k)
{
	size_t n = strlen(w);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
		return fail(p, "bad literal");
	p->s += n;
	return k;
}

/*
 * Parses one value.  If 'path' is non-NULL and non-empty, records in *hit
 * the span of the value it names (path consumed component by component).
 */
static int value(struct p *p, const char *path, const char **hs, const char **he);

static int matches(const char *path, const char *key, size_t klen, const char **rest)
{
	size_t n = strcspn(path, ".");

	if (n != klen || memcmp(path, key, n))
		return 0;
	*rest = path[n] ? path + n + 1 : "";
	return 1;
}

/* The closing character of a container: consumed (1), or not there (0). */
static int closes(struct p *p, char close)
{
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return 1;
	}
	return 0;
}

/* Past '{' or '[': 1 if the container is empty (and closed), 0 if not, -1 bad. */
static int opens(struct p *p, char close)
{
	p->s++;
	if (++p->depth > 512) {
		fail(p, "nested too deep");
		return -1;
	}
	ws(p);
	return closes(p, close);
}

/*
 * A member's value (*hs..*he span it when the path ends there), then ','
 * (0) or the closing character (1); -1 bad.
 */
static int member(struct p *p, int want, const char *rest, const char **hs, const char **he,
		  char close, const char *expected)
{
	ws(p);
	if (want && !*rest)
		*hs = p->s;
	if (value(p, want ? rest : NULL, hs, he) == K_BAD)
		return -1;
	if (want && !*rest)
		*he = p->s;
	ws(p);
	if (p->s < p->end && *p->s == ',') {
		p->s++;
		return 0;
	}
	if (closes(p, close))
		return 1;
	fail(p, expected);
	return -1;
}

static int object(struct p *p, const char *path, const char **hs, const char **he)
{
	int first = 1, r = opens(p, '}');

	while (r == 0) {
		const char *ks, *rest = NULL;
		int want;

		ws(p);
		if (p->s >= p->end || *p->s != '"')
			return fail(p, first ? "expected a key or }" : "expected a key");
		ks = p->s + 1;
		if (string(p) != K_STR)
			return K_BAD;
		want = path && *path && matches(path, ks, (size_t)(p->s - 1 - ks), &rest);
		ws(p);
		if (p->s >= p->end || *p->s != ':')
			return fail(p, "expected :");
		p->s++;
		r = member(p, want, rest, hs, he, '}', "expected , or }");
		first = 0;
	}
	return r < 0 ? K_BAD : K_OBJ;
}

static int array(struct p *p, const char *path, const char **hs, const char **he)
{
	long idx = 0;
	int r = opens(p, ']');

	while (r == 0) {
		char key[24];
		const char *rest = NULL;
		int want;

		snprintf(key, sizeof(key), "%ld", idx++);
		want = path && *path && matches(path, key, strlen(key), &rest);
		r = member(p, want, rest, hs, he, ']', "expected , or ]");
	}
	return r < 0 ? K_BAD : K_ARR;
}

static int value(struct p *p, const char *path, const char **hs, const char **he)
{
	ws(p);
	if (p->s >= p->end)
		return fail(p, "unexpected end");
	switch (*p->s) {
	case '{': return object(p, path, hs, he);
	case '[': return array(p, path, hs, he);
	case '"': return string(p);
	case 't': return lit(p, "true", K_BOOL);
	case 'f': return lit(p, "false", K_BOOL);
	case 'n': return lit(p, "null", K_NULL);
	default:
		if (*p->s == '-' || isdigit((unsigned char)*p->s))
			return number(p);
		return fail(p, "unexpected character");
	}
}

static const char *kind_name(int k)
{
	static const char *const n[] = { "bad", "object", "array", "string", "number", "bool", "null" };

	return n[k];
}

/* Checks [s, end) as one JSON text; prints -g values.  0 ok, 1 bad, 3 missing path. */
static int check(const char *s, const char *end, const char *type, char **paths, int npaths, long line)
{
	struct p p = { s, end, NULL, 0 };
	const char *hs = NULL, *he = NULL;
	int k, i, rc = 0;

	k = value(&p, NULL, &hs, &he);
	ws(&p);
	if (k != K_BAD && p.s != p.end)
		k = fail(&p, "trailing characters");
	if (k == K_BAD) {
		fprintf(stderr, "cxprm_json_check: %s%.0ld%sinvalid JSON at byte %ld: %s\n",
			line ? "line " : "", line, line ? ": " : "", (long)(p.s - s), p.err);
		return 1;
	}
	if (type && strcmp(type, kind_name(k))) {
		fprintf(stderr, "cxprm_json_check: top-level value is %s, not %s\n", kind_name(k), type);
		return 1;
	}
	for (i = 0; i < npaths; i++) {
		struct p q = { s, end, NULL, 0 };

		hs = he = NULL;
		value(&q, paths[i], &hs, &he);
		if (!hs || !he) {
			fprintf(stderr, "cxprm_json_check: no %s\n", paths[i]);
			rc = 3;
			continue;
		}
		if (*hs == '"' && !memchr(hs, '\\', (size_t)(he - hs)))
			printf("%.*s\n", (int)(he - hs - 2), hs + 1);
		else
			printf("%.*s\n", (int)(he - hs), hs);
	}
	return rc;
}

int main(int argc, char **argv)
{
	char *buf = NULL, *paths[32];
	const char *type = NULL;
	size_t len = 0, cap = 0;
	int i, npaths = 0, lines = 0, rc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l"))
			lines = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			type = argv[++i];
		else if (!strcmp(argv[i], "-g") && i + 1 < argc && npaths < 32)
			paths[npaths++] = argv[++i];
		else {
			fprintf(stderr, "usage: cxprm_json_check [-l] [-t TYPE] [-g PATH]... < FILE\n");
			return 2;
		}
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				return 2;
		}
		n = fread(buf + len, 1, cap - len, stdin);
		if (!n)
			break;
		len += n;
	}
	if (!lines)
		return check(buf, buf + len, type, paths, npaths, 0);
	{
		char *s = buf, *end = buf + len;
		long ln = 0, texts = 0;

		while (s < end) {
			char *nl = memchr(s, '\n', (size_t)(end - s));
			char *e = nl ? nl : end;

			ln++;
			if (e > s && !(e - s == 1 && *s == '\r')) {
				int r = check(s, e, type, paths, npaths, ln);

				if (r > rc)
					rc = r;
				texts++;
			}
			s = nl ? nl + 1 : end;
		}
		if (!texts) {
			fprintf(stderr, "cxprm_json_check: no JSON lines\n");
			return 1;
		}
	}
	return rc;
}
