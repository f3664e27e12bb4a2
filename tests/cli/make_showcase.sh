#!/usr/bin/env bash
# make showcase NAME=...: NAME is text, never run by a shell nor expanded by make, and must be a
# name of scripts/showcase.sh --list; anything else stops make (status 2) with one line that
# names the valid showcases.
source "$(dirname "$0")/lib.sh"

# (as a user types it: not inside another make's jobs, whose MAKEFLAGS would add a jobserver
# warning when the tests run under make -j2 check)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

# injected commands (through the shell or make's own functions), several words, an empty name
# or a pattern: refused in one line, nothing run, nothing built
test_make_showcase_name_not_run() {
    local name
    for name in "--list;touch $D/X" "foam;touch $D/X" "foam\$(touch $D/X)" "foam\`touch $D/X\`" \
        "\$(shell touch $D/X)" "foam bar" "" "%" "foam'x" "nosuch"; do
        status 2 errs "$D/err" mk showcase "NAME=$name" "QUICK=\$(shell touch $D/X)"
        [ ! -e "$D/X" ] || fail "make showcase NAME='$name' ran the command in it"
        [ "$(wc -l < "$D/err")" = 1 ] || fail "NAME='$name': not one line: $(cat "$D/err")"
        has "$D/err" "is not a showcase" "$(scripts/showcase.sh --list | tr '\n' ' ' | sed 's/ $//')"
    done
    [ ! -e outputs/--list ] || fail "a showcase ran into outputs/--list"
}

# a valid name goes to scripts/showcase.sh quoted (make -n shows the command without running it)
test_make_showcase_valid_name() {
    mk -n showcase NAME=foam QUICK=1 > "$D/cmd"
    [ "$(cat "$D/cmd")" = "scripts/showcase.sh 'foam' --quick" ] || fail "make -n showcase NAME=foam: $(cat "$D/cmd")"
    mk -n showcase NAME=hex_packing > "$D/cmd"
    [ "$(cat "$D/cmd")" = "scripts/showcase.sh 'hex_packing' " ] || fail "make -n showcase NAME=hex_packing: $(cat "$D/cmd")"
}

run_file "$@"
