#!/usr/bin/env bash
# Plays the first free point after thinking 90% of its turn, unless it was given INFO max_node and its
# first argument is "honour": then at once. With "ignore" it thinks its whole turn whatever the count,
# as an engine that ignores INFO max_node does.
source "$(dirname "$0")/common.sh"
mode=${1:-ignore}
turn=1000
limited=0
while next_line; do
    track
    case "$line" in
        END) exit 0 ;;
        "INFO timeout_turn "*) turn="${line#INFO timeout_turn }" ;;
        "INFO max_node "*) [[ "$mode" == honour ]] && limited=1 ;;
    esac
    if ((to_move)); then
        ((limited)) || sleep "$(awk "BEGIN { print $turn * 0.9 / 1000 }")"
        mv="$(first_free)"
        mark "${mv%,*}" "${mv#*,}"
        echo "$mv"
    fi
done
