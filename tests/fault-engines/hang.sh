#!/usr/bin/env bash
# Answers START, then never answers a move: the referee must score "no answer in time" and go on.
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    [[ "$line" == END ]] && exit 0
done
