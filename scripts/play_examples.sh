#!/usr/bin/env bash
# Plays the examples as a person would, on a virtual X display with software rendering:
# starts cut_the_line, swipes a real (xdotool) mouse across it at several speeds, records a
# few frames of one swipe as a GIF, saves screenshots, and fails if the game panicked, exited
# with an error, or reports no cuts.
#
#   bash scripts/play_examples.sh            # after `cargo build --examples`
#
# Needs: xvfb xauth mesa-vulkan-drivers xdotool imagemagick (Debian packages; .ci/run installs
# them). Screenshots go to docs/screenshots/ (OUT=dir to change).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-docs/screenshots}
BIN=${BIN:-target/debug/examples}
mkdir -p "$OUT"
if [ -z "${DISPLAY_READY:-}" ]; then
    exec env DISPLAY_READY=1 xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" "$@"
fi
set -m
export BEVY_ASSET_ROOT="$PWD"
log=$(mktemp)
frames=$(mktemp -d)
trap 'rm -rf "$frames" "$log"' EXIT

# check_errors NAME: fails if the app logged an error (Bevy's log lines say " ERROR ").
check_errors() {
    if sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -q " ERROR "; then
        sed 's/\x1b\[[0-9;]*m//g' "$log" | grep " ERROR " | sort | uniq -c | head -5
        echo "FAIL: $1 logged errors"
        exit 1
    fi
}

EXAMPLE_SECONDS=26 \
    EXAMPLE_SCREENSHOTS="9.3:$OUT/cut_the_line.png,25.5:$OUT/cut_the_line_end.png" \
    "$BIN/cut_the_line" >"$log" 2>&1 &
game=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name cut_the_line | head -1)
echo "window $wid"
sleep 4 # the first lines drift in

# swipe Y X0 X1 STEPS PAUSE [frames]: hold the left button and move from X0 to X1 at height Y
# in STEPS moves, PAUSE seconds apart.
swipe() {
    local y=$1 x0=$2 x1=$3 steps=$4 pause=$5 record=${6:-}
    xdotool mousemove --window "$wid" "$x0" "$y"
    sleep 0.05
    xdotool mousedown 1
    for ((i = 1; i <= steps; i++)); do
        local x=$((x0 + (x1 - x0) * i / steps))
        local dy=$(((i % 3 - 1) * 25))
        xdotool mousemove --window "$wid" "$x" $((y + dy))
        if [ -n "$record" ]; then
            import -window root -resize 640x360 "$frames/$(printf %03d "$i").png"
        else
            sleep "$pause"
        fi
    done
    xdotool mouseup 1
}

# Slow, medium, fast and one-frame swipes through the middle, a few rounds as waves arrive.
for round in 1 2 3; do
    swipe 360 40 1240 24 0.02
    sleep 0.5
    swipe 250 1240 40 8 0.02
    sleep 0.5
    swipe 470 40 1240 2 0.0
    sleep 0.5
    swipe 300 1200 80 1 0.0
    sleep 1
done
# A recorded swipe for the GIF.
swipe 330 60 1220 14 0 record
wait "$game" && status=0 || status=$?
tail -5 "$log"
if [ "$status" -ne 0 ]; then
    echo "FAIL: cut_the_line exited with $status"
    exit 1
fi
if grep -q "panicked" "$log"; then
    echo "FAIL: cut_the_line panicked"
    exit 1
fi
check_errors cut_the_line
cuts=$(grep -o "cuts: [0-9]*" "$log" | tail -1 | grep -o "[0-9]*$" || echo 0)
echo "cut_the_line: $cuts cuts"
if [ "${cuts:-0}" -eq 0 ]; then
    echo "FAIL: no cuts"
    exit 1
fi
convert -delay 7 -loop 0 "$frames"/*.png -layers Optimize -colors 64 "$OUT/cut_the_line_swipe.gif"

# run NAME SECONDS [ARGS...]: an example on its own for a while, with a screenshot near the
# end; its exit line goes to $log.
run() {
    local name=$1 seconds=$2
    shift 2
    EXAMPLE_SECONDS=$seconds EXAMPLE_SCREENSHOTS="$((seconds - 1)).5:$OUT/$name.png" \
        "$BIN/$name" "$@" >"$log" 2>&1 && status=0 || status=$?
    tail -2 "$log"
    if [ "$status" -ne 0 ] || grep -q "panicked" "$log"; then
        echo "FAIL: $name exited with $status"
        exit 1
    fi
    check_errors "$name"
}

run bullets 7
hits=$(grep -o "hits: [0-9]*" "$log" | grep -o "[0-9]*$" || echo 0)
through=$(grep -o "pass-throughs: [0-9]*" "$log" | grep -o "[0-9]*$" || echo missing)
echo "bullets: $hits hits, $through pass-throughs"
if [ "${hits:-0}" -eq 0 ] || [ "$through" != "0" ]; then
    echo "FAIL: bullets should hit and never pass through"
    exit 1
fi

run showcase 7
started=$(grep -o "started: [0-9]*" "$log" | grep -o "[0-9]*$" || echo 0)
echo "showcase: $started contacts started"
if [ "${started:-0}" -eq 0 ]; then
    echo "FAIL: showcase saw no contacts"
    exit 1
fi

run terrain 7
hits=$(grep -o "terrain: [0-9]* bullets, [0-9]* hits, [0-9]* on the hills" "$log" | tail -1 || true)
echo "terrain: ${hits:-no summary}"
if [ -z "$hits" ] || echo "$hits" | grep -q " 0 on the hills"; then
    echo "FAIL: terrain's bullets hit nothing on the hills"
    exit 1
fi

# stress: 1,000 colliders, few enough for a software-rendered debug build (which runs the
# scene in slow motion: its 4 seconds take about 15 here); its exit line has the median
# sweep time per tick and the event rate.
run stress 4 1000
summary=$(grep -o "sweep median [0-9.]* ms.*" "$log" | tail -1 || true)
echo "stress: ${summary:-no summary}"
if [ -z "$summary" ] || ! grep -q "stress: 1000 colliders, " "$log" ||
    ! grep -q "events [1-9][0-9]*/s" "$log"; then
    echo "FAIL: stress logged no summary, or no events"
    exit 1
fi
# segment_vs_rect: drag the segment's end handle with the mouse, then its start handle.
EXAMPLE_SECONDS=14 EXAMPLE_SCREENSHOTS="13:$OUT/segment_vs_rect.png" \
    "$BIN/segment_vs_rect" >"$log" 2>&1 &
demo=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name segment_vs_rect | head -1)
sleep 4
# Slow on purpose: a software-rendered debug build runs a few frames a second, and the app
# must see the pointer over a handle before the press.
drag() { # drag X0 Y0 X1 Y1 (window pixels)
    xdotool mousemove --window "$wid" "$1" "$2"
    sleep 0.5
    xdotool mousedown 1
    sleep 0.3
    for i in 1 2 3 4 5 6 7 8; do
        xdotool mousemove --window "$wid" $(($1 + ($3 - $1) * i / 8)) $(($2 + ($4 - $2) * i / 8))
        sleep 0.2
    done
    xdotool mouseup 1
    sleep 0.5
}
drag 900 150 1060 600 # the end handle (world 260, 210) to the bottom right
drag 220 520 300 200   # the start handle (world -420, -160) to the upper left
wait "$demo" && status=0 || status=$?
if [ "$status" -ne 0 ] || grep -q "panicked" "$log"; then
    echo "FAIL: segment_vs_rect exited with $status"
    exit 1
fi
check_errors segment_vs_rect
echo "segment_vs_rect: ran and was dragged"
# Screenshots are committed: fewer colours keep them small without blurring text.
mogrify -strip -colors 128 "$OUT"/*.png
ls -la "$OUT"
