#!/usr/bin/env bash
# Plays the centre every time: legal once at most, then "occupied".
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    ((to_move)) && echo "$((size / 2)),$((size / 2))"
done
