#!/usr/bin/env bash
# Plays legal moves (the first free point), but ignores END and end of input, and SIGTERM too:
# only a kill of its process group ends it. The runner must not hang on it.
trap '' TERM
source "$(dirname "$0")/common.sh"
while true; do
    if ! next_line; then sleep 1; continue; fi
    track
    if ((to_move)); then
        m=$(first_free)
        mark "${m%,*}" "${m#*,}"
        echo "$m"
    fi
done
