#!/usr/bin/env bash
# Plays the first free point in reading order: legal in gomoku, but under Pente its first stone is not
# on the centre (an illegal opening move).
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    if ((to_move)); then
        mv="$(first_free)"
        mark "${mv%,*}" "${mv#*,}"
        echo "$mv"
    fi
done
