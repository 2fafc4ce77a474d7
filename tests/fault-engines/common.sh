# Shared by the fault engines: a board of occupied points and the first free point in reading order.
# Each fault engine sources this, then defines what it does wrong.
declare -A occupied
size=15
reset_board() { occupied=(); }
mark() { occupied["$1,$2"]=1; }
first_free() {
    local x y
    for ((y = 0; y < size; y++)); do
        for ((x = 0; x < size; x++)); do
            if [[ -z "${occupied[$x,$y]:-}" ]]; then
                echo "$x,$y"
                return
            fi
        done
    done
}
# Reads one protocol line into $line, without the CR; returns 1 at end of input.
next_line() { IFS= read -r line || return 1; line="${line%$'\r'}"; }
# Handles START/BOARD/TURN bookkeeping; sets $to_move=1 when a move is asked for.
track() {
    to_move=0
    case "$line" in
        START*) size="${line#START }"; reset_board; echo OK ;;
        BEGIN) to_move=1 ;;
        TURN*) local c="${line#TURN }"; mark "${c%,*}" "${c#*,}"; to_move=1 ;;
        BOARD)
            while next_line && [[ "$line" != DONE ]]; do
                IFS=, read -r x y _ <<< "$line"
                mark "$x" "$y"
            done
            to_move=1 ;;
        ABOUT) echo 'name="fault"' ;;
    esac
}
