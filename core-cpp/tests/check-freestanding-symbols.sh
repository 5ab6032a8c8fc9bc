#!/bin/sh
# The freestanding core objects, taken together, may only need what the
# host interface and the kernel provide: memcpy/memset/memmove/memcmp and
# the retpoline/ftrace thunks.  Anything else (operator new, __cxa_*,
# libgcc helpers, guard variables, global constructors) fails this test.
set -eu
defined=$(nm --defined-only "$@" | awk 'NF==3 {print $3}' | sort -u)
needed=$(nm -u "$@" | awk 'NF==2 {print $2}' | sort -u)
bad=$(printf '%s\n' "$needed" | grep -vxF -e "$defined" |
      grep -Ev '^(memcpy|memset|memmove|memcmp|__x86_indirect_thunk_.*|__x86_return_thunk|__fentry__|__stack_chk_fail)$' || true)
ctors=$(for o in "$@"; do objdump -h "$o" | awk '{print $2}' | grep -E '^\.(init_array|ctors)' || true; done)
if [ -n "$bad" ] || [ -n "$ctors" ]; then
	echo "freestanding core needs symbols it may not use:"
	echo "$bad $ctors"
	exit 1
fi
echo "freestanding core: $# objects, only allowed external symbols"
