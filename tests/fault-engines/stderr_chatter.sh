#!/usr/bin/env bash
# Plays the first free point, but writes a warning to stderr just before each move: harmless where the
# manager discards or logs stderr, a malformed answer under Piskvork, which gives stderr the stdout pipe.
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    [[ "$line" == END ]] && exit 0
    if ((to_move)); then
        mv="$(first_free)"
        mark "${mv%,*}" "${mv#*,}"
        echo "Warning: thought past the hard limit" >&2
        echo "$mv"
    fi
done
