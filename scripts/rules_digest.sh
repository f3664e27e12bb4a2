#!/usr/bin/env bash
# The digest of a parameter header's rules, which a checkpoint records (src/checkpoint.c) so that
# a restart by a build of other rules is refused: the header and every header it includes,
# preprocessed (CC -E -dD: the code of its rule functions, its macros expanded, and its #define
# and #undef lines), less the compiler's own macros and the system headers, with comments gone
# and white space squeezed to one space where it separates two words or two operators (none
# elsewhere). So it changes with what the header's rules compile to, and not with its comments,
# its layout, its folder or the build's. Prints 16 hex digits (of SHA-256). The Makefile runs it
# with the build's flags.
#   scripts/rules_digest.sh CC HEADER [FLAGS...]
case "${1:-}" in -h|--help|"") sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cc=$1 header=$2
shift 2
# (line markers name the file that the lines after them come from; flag 3: a system header)
"$cc" "$@" -E -dD -x c "$header" |
    awk '/^# [0-9]+ "/ { skip = $3 ~ /^"</; for (i = 4; i <= NF; i++) if ($i == 3) skip = 1; next } !skip' |
    tr '\t\n\r\f\v' '     ' | tr -s ' ' |
    sed -E ':a; s/([A-Za-z0-9_]) ([^A-Za-z0-9_ ])/\1\2/g; s/([^A-Za-z0-9_ ]) ([A-Za-z0-9_])/\1\2/g; ta; s/^ //; s/ $//' |
    sha256sum | cut -c 1-16
