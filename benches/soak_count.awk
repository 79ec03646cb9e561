# Count what went wrong for one engine in a cutechess-cli run watched with `-debug all`
# (benches/soak.sh feeds it the whole output). Reads:
#   "<ms> >Name(id): command" / "<ms> <Name(id): line"   the debug transcript of every engine
#   "Finished game N (White vs Black): RESULT {reason}"   one line per finished game
# and prints KEY=VALUE lines for soak.sh to tabulate, then the unsearched moves found.
#
# Variables (-v): engine=NAME (our engine's cutechess name), opponent=NAME.
#
# An engine move is "unsearched" when no search report came from that engine process since the
# command that started its search (UCI `go`; XBoard `go`, `usermove`, `new`, `setboard`): for
# UCI an `info` line with a depth, for XBoard a thinking line `ply score time nodes pv`.
# Game endings are classed by cutechess-cli's result text ("White loses on time", "Black makes
# an illegal move", "White disconnects", "Black's connection stalls"; anything else that is not
# decided on the board, such as "Result error" or a rejected result claim, counts as "other").

function side_of(name) { return name == engine ? "ours" : (name == opponent ? "theirs" : "") }

function count_forfeit(kind, loser_colour,    who) {
    who = loser_colour == "White" ? white_name : (loser_colour == "Black" ? black_name : "")
    who = side_of(who)
    if (who == "") who = "either"
    n[who "_" kind]++
    n[who "_forfeits"]++
}

BEGIN {
    split("ours theirs either", sides, " ")
    split("forfeits time illegal disconnect stall other", kinds, " ")
}

# The debug transcript: "<ms> >Name(id): text" (to the engine) or "<ms> <Name(id): text".
/^[0-9]+ [<>][^:]*\([0-9]+\): / {
    dir = substr($2, 1, 1)
    process = substr($2, 2)
    sub(/:$/, "", process)
    name = process
    sub(/\([0-9]+\)$/, "", name)
    if (name != engine) next
    text = $0
    sub(/^[0-9]+ [<>][^:]*\([0-9]+\): /, "", text)
    if (dir == ">") {
        if (text ~ /^(go|usermove|new|setboard|ucinewgame)( |$)/) reported[process] = 0
        next
    }
    if ((text ~ /^info / && text !~ /^info string/ && text ~ / depth [0-9]/) \
        || text ~ /^[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+/) {
        reported[process] = 1
        next
    }
    if (text ~ /^(bestmove|move) /) {
        n["moves"]++
        if (!reported[process]) {
            n["unsearched"]++
            if (examples < 20) unsearched_list[++examples] = $1 " ms " process ": " text
        }
        reported[process] = 0
    }
    next
}

/^Finished game [0-9]+ \(/ {
    line = $0
    players = line
    sub(/^Finished game [0-9]+ \(/, "", players)
    sub(/\): .*/, "", players)
    split(players, names, " vs ")
    white_name = names[1]; black_name = names[2]
    result = line
    sub(/^[^)]*\): /, "", result)
    score = result
    sub(/ .*/, "", score)
    reason = result
    sub(/^[^{]*\{/, "", reason)
    sub(/\}[^}]*$/, "", reason)
    n["games"]++
    ours_white = (white_name == engine)
    if (score == "1/2-1/2") n["draws"]++
    else if ((score == "1-0") == ours_white && score != "*") n["wins"]++
    else if (score != "*") n["losses"]++
    else n["unfinished"]++
    colour = reason                     # the side the reason names: "White loses on time"
    sub(/[ '].*/, "", colour)
    if (reason ~ /^(White|Black) wins/) colour = colour == "White" ? "Black" : "White"  # the loser
    if (reason ~ /loses on time/) count_forfeit("time", colour)
    else if (reason ~ /^Draw by timeout/) count_forfeit("time", "")
    else if (reason ~ /makes an illegal move/) count_forfeit("illegal", colour)
    else if (reason ~ /disconnects/) count_forfeit("disconnect", colour)
    else if (reason ~ /^Draw by disconnection/) count_forfeit("disconnect", "")
    else if (reason ~ /connection stalls/) count_forfeit("stall", colour)
    else if (reason ~ /^Draw by stalled connection/) count_forfeit("stall", "")
    else if (reason ~ /Result error|[Cc]laim|forfeit|[Cc]rash|terminat/) count_forfeit("other", colour)
    else if (reason ~ /by adjudication/) n["adjudicated"]++
    reasons[reason]++
    if (n["games"] % 25 == 0)
        printf "  %d games: our forfeits %d, unsearched moves %d of %d\n", n["games"], \
            n["ours_forfeits"], n["unsearched"], n["moves"] > "/dev/stderr"
    next
}

END {
    printf "games=%d wins=%d losses=%d draws=%d unfinished=%d adjudicated=%d moves=%d unsearched=%d\n", \
        n["games"], n["wins"], n["losses"], n["draws"], n["unfinished"], n["adjudicated"], n["moves"], n["unsearched"]
    for (s = 1; s <= 3; s++) {
        line = ""
        for (k = 1; k <= 6; k++) line = line sprintf("%s_%s=%d ", sides[s], kinds[k], n[sides[s] "_" kinds[k]])
        print line
    }
    for (r in reasons) printf "reason %5d  %s\n", reasons[r], r
    for (i = 1; i <= examples; i++) print "unsearched: " unsearched_list[i]
}
