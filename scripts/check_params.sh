#!/usr/bin/env bash
# Build-time check of a parameter header: every P_ macro it defines must be one the program
# knows (a parameter of params/default.h, or an optional one that src/params.c reads, such as
# P_CHEM_SPECIES or P_TYPE_ka), so that a misspelt `#define P_gama 1e4` stops the build naming
# the closest known name instead of being silently ignored. (The Makefile runs it before compiling
# src/params.c.)
#   scripts/check_params.sh CC HEADER
case "${1:-}" in -h|--help|"") sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cc=$1 header=$2
cd "$(dirname "$0")/.."
defined() { echo "#include \"$1\"" | "$cc" -E -dM -iquote . -Isrc -x c - | sed -n 's/^#define \(P_[A-Za-z0-9_]*\).*/\1/p' | sort -u; }
known=$( (defined params/default.h; grep -oh 'P_[A-Za-z0-9_]*' src/params.c src/params.h) | sort -u)
unknown=$(defined "$header" | comm -23 - <(echo "$known"))
[ -z "$unknown" ] && exit 0
# each unknown name with the known one nearest to it (edit distance, case ignored)
echo "$unknown" | awk -v header="$header" -v known="$known" '
    function dist(a, b,    i, j, la, lb, d, c, x) {
        a = tolower(a); b = tolower(b); la = length(a); lb = length(b)
        for (j = 0; j <= lb; j++) d[0, j] = j
        for (i = 1; i <= la; i++) {
            d[i, 0] = i
            for (j = 1; j <= lb; j++) {
                c = substr(a, i, 1) != substr(b, j, 1)
                x = d[i - 1, j - 1] + c
                if (d[i - 1, j] + 1 < x) x = d[i - 1, j] + 1
                if (d[i, j - 1] + 1 < x) x = d[i, j - 1] + 1
                d[i, j] = x
            }
        }
        return d[la, lb]
    }
    BEGIN { n = split(known, k, "\n") }
    { best = ""; bd = 1e9
      for (i = 1; i <= n; i++) if (k[i] !~ /_$/ && (x = dist($1, k[i])) < bd) { bd = x; best = k[i] }
      printf "%s: unknown parameter %s%s (it would be ignored silently; the names are those of params/default.h)\n",
             header, $1, bd <= 3 ? "; did you mean " best "?" : "" > "/dev/stderr" }'
exit 1
