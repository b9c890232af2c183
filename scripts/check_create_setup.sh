#!/bin/sh
# benchdnn_lite -v2's create= is the library's creation only (primitive_desc and primitive, which
# the library's own prim_verbose,create line times from inside), and setup= the driver's reorders
# of the inputs into the chosen layouts: on a case with 20 MB of data, create covers the
# library's figure and stays below the set-up, which it used to include.
#   scripts/check_create_setup.sh BENCHDNN_LITE
set -e
out=$(PRIM_VERBOSE=2 "$1" --conv --mode=P -v2 --max-ms-per-prb=1 mb1ic64ih200oc64oh198kh3 | grep -v dispatch)
echo "$out"
echo "$out" | awk -F'[,= ]+' '
    /^prim_verbose,create,convolution,/ { lib = $NF }
    /^  impl=/ { for (i = 1; i < NF; ++i) { if ($i == "create") c = $(i + 1); if ($i == "setup") s = $(i + 1) } }
    END {
        sub(/ms$/, "", c); sub(/ms$/, "", s)
        if (lib == "" || c == "" || s == "") { print "create_setup: a line is missing"; exit 1 }
        if (c + 0 < lib + 0) { print "create_setup: create=" c " is below the library'"'"'s " lib; exit 1 }
        if (c + 0 >= s + 0) { print "create_setup: create=" c " is not below setup=" s; exit 1 }
        print "create_setup: OK (library " lib " ms, create " c " ms, setup " s " ms)"
    }'
