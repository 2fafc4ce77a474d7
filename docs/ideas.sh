#!/bin/sh
# docs/ideas.tsv, one row an idea tried (columns: docs/strength.md, "Ideas tried").
#   docs/ideas.sh add "idea" commit "conditions" games W-L-D score elo verdict [control] [notes]
#   docs/ideas.sh summary
# Empty fields are given as "". IDEAS=FILE works on another file.
set -eu
file=${IDEAS:-$(dirname "$0")/ideas.tsv}

case ${1:-} in
add)
    shift
    [ $# -ge 8 ] && [ $# -le 10 ] || { echo "add: 8 to 10 fields, got $#" >&2; exit 2; }
    for f in "$@"; do
        case $f in *"$(printf '\t')"* | *"
"*) echo "add: a field holds a tab or a line break: $f" >&2; exit 2 ;; esac
    done
    games=$4 wld=$5
    case $games in '' | *[!0-9]*) [ -z "$games" ] || { echo "add: games must be a whole number" >&2; exit 2; } ;; esac
    if [ -n "$wld" ]; then
        echo "$wld" | grep -Eq '^[0-9]+-[0-9]+-[0-9]+$' || { echo "add: W-L-D like 120-90-10" >&2; exit 2; }
        sum=$(echo "$wld" | awk -F- '{ print $1 + $2 + $3 }')
        [ -z "$games" ] || [ "$sum" -eq "$games" ] || { echo "add: W-L-D adds up to $sum, not $games" >&2; exit 2; }
    fi
    [ -n "$1" ] && [ -n "$8" ] || { echo "add: the idea and the verdict are required" >&2; exit 2; }
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "${9:-}" "${10:-}" >>"$file"
    ;;
summary)
    awk -F'\t' 'NR > 1 { n++; count[$8]++; if ($8 == "kept") kept[++k] = $0 }
        END {
            printf "%d rows:", n
            m = split("kept dropped reverted replaced measure", order, " ")
            for (i = 1; i <= m; i++) if (order[i] in count) { printf " %s %d,", order[i], count[order[i]]; delete count[order[i]] }
            for (v in count) printf " %s %d,", v, count[v]
            print ""
            print "kept (idea | commit | games | score | elo):"
            for (i = 1; i <= k; i++) {
                split(kept[i], f, "\t")
                printf "  %s | %s | %s | %s | %s\n", f[1], f[2], f[4], f[6] == "" ? "" : f[6] "%", f[7]
            }
        }' "$file" | sed '1s/,$//'
    ;;
*)
    sed -n '2,5s/^# \{0,1\}//p' "$0" >&2
    exit 2
    ;;
esac
