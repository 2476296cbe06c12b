#!/usr/bin/env bash
# Plays the examples as a person would, on a virtual X display with software rendering:
# plays a whole round of cut_the_line with a real (xdotool) mouse and keyboard (title, swipes
# at several speeds, game over, play again, pause, quit), saves screenshots of the real
# window, and fails if the game panicked, logged an error, or its log shows no cuts, no game
# over, no second round or no saved best score; checks that the game run from its binary
# alone (no asset folder) logs no error either; then runs the demos. (The README's GIF is
# recorded by scripts/record_gif.sh.)
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
trap 'rm -f "$log"' EXIT

# log_has PATTERN: true if the app's log (without colours) has a line matching PATTERN.
# (grep reads the whole log: with -q it would stop at the first match, sed would die of a
# broken pipe, and pipefail would make a found line look missing.)
log_has() {
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c -- "$1" >/dev/null
}

# check_errors NAME: fails if the app logged an error (Bevy's log lines say " ERROR ").
check_errors() {
    if log_has " ERROR "; then
        sed 's/\x1b\[[0-9;]*m//g' "$log" | grep " ERROR " | sort | uniq -c | head -5
        echo "FAIL: $1 logged errors"
        exit 1
    fi
}

# cut_the_line run from its binary alone, as someone who copied it would run it: from another
# folder, without BEVY_ASSET_ROOT, so there is no assets/ folder where Bevy looks. It must
# play the waves compiled into it, without logging an error about the missing file.
bin=$(cd "$BIN" && pwd)
alone=$(mktemp -d)
(cd "$alone" && env -u BEVY_ASSET_ROOT -u CARGO_MANIFEST_DIR CUT_THE_LINE_DATA_DIR="$alone" \
    EXAMPLE_SECONDS=3 "$bin/cut_the_line") >"$log" 2>&1 && status=0 || status=$?
if [ "$status" -ne 0 ] || grep -q "panicked" "$log"; then
    echo "FAIL: cut_the_line run from its binary alone exited with $status"
    exit 1
fi
check_errors "cut_the_line run from its binary alone"
if ! grep -q "playing the waves compiled into the game" "$log"; then
    echo "FAIL: cut_the_line run from its binary alone did not say it plays its compiled-in waves"
    exit 1
fi
echo "cut_the_line from its binary alone: compiled-in waves, no error"
rm -rf "$alone"

# cut_the_line, a whole round as a player plays it: the title, a click for classic, swipes
# at several speeds, no more swipes until the lives run out, the game-over screen, a click to
# play again, a swipe, Esc (pause) and Q (quit). Screenshots are taken from the real window.
# The lines are repeatable (a fixed seed); the best scores go to a scratch folder.
data=$(mktemp -d)
CUT_THE_LINE_SEED=7 CUT_THE_LINE_DATA_DIR="$data" EXAMPLE_SECONDS=150 \
    RUST_LOG=info,cut_the_line=debug "$BIN/cut_the_line" >"$log" 2>&1 &
game=$!
trap 'kill "$game" 2>/dev/null || true; rm -f "$log"' EXIT
wid=$(timeout 60 xdotool search --sync --onlyvisible --name cut_the_line | head -1)
echo "window $wid"
xdotool windowfocus "$wid" 2>/dev/null || true

# shot NAME: the window as it is now.
shot() { import -window root "$OUT/$1.png"; }
# logged PATTERN SECONDS: waits until the game logs PATTERN; fails after SECONDS.
logged() {
    local pattern=$1 seconds=$2
    for ((k = 0; k < seconds * 4; k++)); do
        if log_has "$pattern"; then return 0; fi
        sleep 0.25
    done
    echo "FAIL: cut_the_line never logged '$pattern'"
    tail -20 "$log"
    exit 1
}
# swipe X0 Y0 X1 Y1 STEPS PAUSE: hold the left button and move from (X0, Y0) to (X1, Y1) in
# STEPS moves, PAUSE seconds apart.
swipe() {
    local x0=$1 y0=$2 x1=$3 y1=$4 steps=$5 pause=$6
    xdotool mousemove --window "$wid" "$x0" "$y0"
    sleep 0.05
    xdotool mousedown 1
    for ((i = 1; i <= steps; i++)); do
        xdotool mousemove --window "$wid" $((x0 + (x1 - x0) * i / steps)) $((y0 + (y1 - y0) * i / steps))
        sleep "$pause"
    done
    xdotool mouseup 1
}

sleep 3
shot cut_the_line_title
xdotool mousemove --window "$wid" 640 600 click 1 # classic
logged "new round: classic" 10
sleep 3 # the first lines drift in
# Slow, medium, fast and one-frame swipes, up and down the field, as the waves arrive.
for round in 1 2 3; do
    for x in 200 420 640 860 1080; do
        swipe "$x" 20 $((x + 60)) 700 12 0.02
        sleep 0.2
    done
    swipe 40 360 1240 300 6 0.02
    swipe 1240 200 40 520 2 0.0
    swipe 300 700 1000 20 1 0.0
    sleep 0.5
done
shot cut_the_line
swipe 60 330 1220 390 14 0.02
# No more cutting: the lines that leave uncut take the lives, and the round ends.
logged "round over: classic" 90
sleep 1.5
shot cut_the_line_end
round=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "round over: .*" | head -1)
echo "cut_the_line: $round"
# Play again, cut, pause and quit.
xdotool mousemove --window "$wid" 640 600 click 1
sleep 2
# One-move swipes straight across the field: the blade goes from A to B within one tick, so
# each cut it makes must lie on the segment A B and on the line where the sweep had it at that
# moment (both logged), within a pixel. Swipes until one has cut (lines keep coming).
checked=0
for y in 300 420 200 520 360 260 460 330 390 240 480 300 420 360; do
    before=$(wc -l <"$log")
    x0=4 x1=1276 y1=$((720 - y))
    xdotool mousemove --window "$wid" "$x0" "$y" mousedown 1
    sleep 0.2
    xdotool mousemove --window "$wid" "$x1" "$y1"
    sleep 0.3
    xdotool mouseup 1
    sleep 0.3
    cuts_now=$(tail -n +$((before + 1)) "$log" | sed 's/\x1b\[[0-9;]*m//g' | grep -o "cut at .*" || true)
    if [ -n "$cuts_now" ]; then
        echo "$cuts_now" | python3 -c '
import sys
# Window pixels to world units: the camera is at the origin of a 1280 x 720 window.
ax, ay, bx, by = [float(v) for v in sys.argv[1:5]]
a = (ax - 640.0, 360.0 - ay)
b = (bx - 640.0, 360.0 - by)
def distance(p, s, e):
    dx, dy = e[0] - s[0], e[1] - s[1]
    t = max(0.0, min(1.0, ((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / (dx * dx + dy * dy)))
    return ((p[0] - s[0] - t * dx) ** 2 + (p[1] - s[1] - t * dy) ** 2) ** 0.5
worst = 0.0
for row in sys.stdin:
    numbers = row.replace("(", " ").replace(")", " ").replace(",", " ").split()
    values = [float(v) for v in numbers if v.lstrip("-").replace(".", "", 1).replace("e-", "", 1).isdigit()]
    point, line = (values[0], values[1]), ((values[3], values[4]), (values[5], values[6]))
    off_swipe, off_line = distance(point, a, b), distance(point, *line)
    print(f"cut at {point[0]:.2f}, {point[1]:.2f}: {off_swipe:.3f} px off the swipe, {off_line:.3f} px off the line")
    worst = max(worst, off_swipe, off_line)
sys.exit(0 if worst <= 1.0 else 1)
' "$x0" "$y" "$x1" "$y1" || { echo "FAIL: a cut more than a pixel from where the geometry puts it"; exit 1; }
        checked=1
        break
    fi
    sleep 0.4
done
if [ "$checked" -eq 0 ]; then
    echo "FAIL: no one-move swipe cut a line"
    exit 1
fi
xdotool windowfocus "$wid" 2>/dev/null || true
xdotool key --window "$wid" Escape
sleep 1
xdotool key --window "$wid" q
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
rounds=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c "new round: classic" || true)
cuts=$(echo "$round" | grep -o "cuts [0-9]*" | grep -o "[0-9]*$" || echo 0)
score=$(echo "$round" | grep -o "score [0-9]*" | grep -o "[0-9]*$" || echo 0)
if [ "$rounds" -ne 2 ] || [ "${cuts:-0}" -eq 0 ]; then
    echo "FAIL: expected two rounds and cuts in the first ($rounds rounds, $cuts cuts)"
    exit 1
fi
if ! grep -qx "    classic: $score," "$data/best_scores.ron"; then
    echo "FAIL: the best score $score was not saved"
    cat "$data/best_scores.ron" || true
    exit 1
fi
if ! log_has "paused$" || ! log_has "quit from the pause screen"; then
    echo "FAIL: Esc did not pause, or Q did not quit from the pause screen"
    exit 1
fi
rm -rf "$data"

# finish NAME: waits for the example started in the background as $demo to quit by itself;
# fails if it failed, panicked or logged an error.
finish() {
    wait "$demo" && status=0 || status=$?
    if [ "$status" -ne 0 ] || grep -q "panicked" "$log"; then
        echo "FAIL: $1 exited with $status"
        exit 1
    fi
    check_errors "$1"
}

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

# platformer, played with the keyboard and the mouse: jump up through the one-way platform
# over the start and land on it, throw two balls, then run right: the low ledge is stepped up
# without a jump, the tile wall is jumped, and the hero runs on into the lift's shaft,
# landing on the lift (or walking onto it), which carries it.
# The hero jumps when the game logs that it ran into a wall, not at set times: a loaded
# machine runs the game slower than real time, and a jump timed for full speed may come
# just before the shaft and clear it.
EXAMPLE_SECONDS=90 RUST_LOG=info "$BIN/platformer" >"$log" 2>&1 &
demo=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name platformer | head -1)
sleep 4
xdotool windowfocus "$wid" 2>/dev/null || true
xdotool key --window "$wid" space
sleep 2
xdotool mousemove --window "$wid" 500 200 click 1
sleep 0.5
xdotool mousemove --window "$wid" 800 150 click 1
xdotool keydown --window "$wid" Right
# count PATTERN: how many lines of the app's log match PATTERN.
count() { sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c -- "$1" || true; }
walls=0 jumps=0 pressed=-100
for ((k = 0; k < 240; k++)); do
    if log_has "landed on the lift"; then break; fi
    # Jump at each new wall, and again each second until the game has counted a jump.
    if (($(count "against a wall") > walls)); then
        walls=$(count "against a wall") jumps=$(count "INFO platformer: jump$") pressed=-100
    fi
    if ((walls > 0 && $(count "INFO platformer: jump$") == jumps && (k - pressed) >= 4)); then
        xdotool key --window "$wid" space
        pressed=$k
    fi
    sleep 0.25
done
if ((walls > 0)) && ! log_has "INFO platformer: jump$"; then
    echo "FAIL: the platformer's log has no jump line for the script to count"
    exit 1
fi
sleep 0.3
import -window root "$OUT/platformer.png"
sleep 1.2
xdotool keyup --window "$wid" Right
sleep 1
xdotool key --window "$wid" Escape
finish platformer
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "platformer: [0-9]* coins.*" | tail -1 || true)
echo "${summary:-platformer: no summary}"
if ! echo "$summary" | grep -qE "[1-9][0-9]* coins, [1-9][0-9]* jumps, [1-9][0-9]* landings on one-way platforms, [1-9][0-9]* on the lift, rode it [1-9]"; then
    echo "FAIL: the platformer's hero should collect a coin, jump, land on a one-way platform and ride the lift"
    exit 1
fi

# breakout, played with the mouse: launch the ball from the paddle at several places, and
# double its speed (N) level by level up to 50,000 px/s. The ball must never end a tick
# outside the field or inside a brick.
EXAMPLE_SECONDS=42 EXAMPLE_SCREENSHOTS="20:$OUT/breakout.png" RUST_LOG=info \
    "$BIN/breakout" >"$log" 2>&1 &
demo=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name breakout | head -1)
sleep 4
xdotool windowfocus "$wid" 2>/dev/null || true
for level in 1 2 3 4 5 6 7 8; do
    for i in 1 2 3 4 5 6 7 8; do
        xdotool mousemove --window "$wid" $((200 + (i * 137 * level) % 880)) 650 click 1
        sleep 0.4
    done
    xdotool key --window "$wid" n
done
finish breakout
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "breakout: level .*" | tail -1 || true)
echo "${summary:-breakout: no summary}"
if ! echo "$summary" | grep -qE "top speed 50000 px/s, [1-9][0-9]* bounces, [1-9][0-9]* bricks hit, [0-9]* lost, 0 escapes, 0 inside a brick"; then
    echo "FAIL: breakout's ball should reach 50,000 px/s, hit bricks, and never escape"
    exit 1
fi

# marbles, played with the mouse: marbles pour into the bowl and pile up; the crate is
# dragged through the pile and back, and more are poured (Space). No marble may end a tick
# inside another, inside the crate, or out through the bowl; marbles must meet each other.
# (In a debug build the drag registered no tick here; the drag count is logged, not required.)
EXAMPLE_SECONDS=40 EXAMPLE_SCREENSHOTS="24:$OUT/marbles.png" RUST_LOG=info \
    "$BIN/marbles" >"$log" 2>&1 &
demo=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name marbles | head -1)
sleep 14
xdotool windowfocus "$wid" 2>/dev/null || true
# Grab the crate (top left of the bowl) and drag it through the pile and back.
xdotool mousemove --window "$wid" 400 160 mousedown 1
for x in 420 480 540 600 660 720 780 840 880 820 700 560 440; do
    xdotool mousemove --window "$wid" "$x" 560
    sleep 0.5
done
xdotool mouseup 1
xdotool key --window "$wid" space
finish marbles
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "marbles: [0-9]* ticks.*" | tail -1 || true)
echo "${summary:-marbles: no summary}"
if ! echo "$summary" | grep -qE "[1-9][0-9]* meetings, [1-9][0-9]* crate pushes, [0-9]* ticks dragged, 0 inside another, 0 inside the crate, 0 escaped"; then
    echo "FAIL: marbles should meet each other and the dragged crate, and never overlap or escape"
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
finish segment_vs_rect
echo "segment_vs_rect: ran and was dragged"

# run_across NAME COUNT: plays the level example NAME: holds the real Right key until its log
# says the hero crossed the level (at most a minute), then fails if it panicked, logged an
# error, did not cross, or did not log a line matching COUNT (what its level became).
run_across() {
    local name=$1 count=$2
    EXAMPLE_SECONDS=90 EXAMPLE_SCREENSHOTS="6:$OUT/$name.png" RUST_LOG=info \
        "$BIN/$name" >"$log" 2>&1 &
    local demo=$!
    local wid
    wid=$(timeout 60 xdotool search --sync --onlyvisible --name "$name" | head -1)
    sleep 3
    xdotool windowfocus "$wid" 2>/dev/null || true
    xdotool keydown --window "$wid" Right
    for ((k = 0; k < 240; k++)); do
        if log_has "crossed the level"; then break; fi
        sleep 0.25
    done
    xdotool keyup --window "$wid" Right
    sleep 1
    kill "$demo" 2>/dev/null || true
    wait "$demo" || true
    if grep -q "panicked" "$log"; then
        echo "FAIL: $name panicked"
        exit 1
    fi
    check_errors "$name"
    local made
    made=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "$count" | tail -1 || true)
    echo "${made:-$name: no count}"
    if ! log_has "the hero crossed the level" || [ -z "$made" ]; then
        echo "FAIL: $name's hero should cross the level"
        sed 's/\x1b\[[0-9;]*m//g' "$log" | tail -20
        exit 1
    fi
}

# tilemap: a bevy_ecs_tilemap level whose solid tiles are merged into few colliders; the hero
# runs up and down the steps.
run_across tilemap "tilemap: [0-9]* solid tiles as [0-9]* colliders"
# tiled: a Tiled map (assets/tiled/) through bevy_ecs_tiled's physics backend; the hero runs
# over a concave mound and a rock, and up a polyline ramp onto a block.
run_across tiled "tiled: the map is [0-9]* colliders.*"
# ldtk: an LDtk level (assets/ldtk/) through bevy_ecs_ldtk; the hero runs over crates and a
# step.
run_across ldtk "ldtk: [0-9]* wall cells as [0-9]* colliders.*"

# netplay, rollback netcode with bevy_ggrs. First its sync test in a window, played with the
# keyboard (both players get the same keys): throw, run right and jump, run back left while
# throwing. Every frame is rolled back 7 frames and re-simulated; a checksum mismatch is
# logged as an error and ends the game. The game quits once frame 1,200 is checked, with a
# summary line. (A player with its back to a wall or a step cannot throw: no room. The keys
# may outlast a fast game: a key sent to a window that is gone is no failure.)
EXAMPLE_SECONDS=300 EXAMPLE_SCREENSHOTS="12:$OUT/netplay.png" RUST_LOG=info \
    "$BIN/netplay" --synctest --frames 1200 >"$log" 2>&1 &
demo=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name netplay | head -1)
sleep 3
xdotool windowfocus "$wid" 2>/dev/null || true
# hold KEY SECONDS: a key held down long enough for a slow frame to see it.
hold() { xdotool keydown --window "$wid" "$1" && sleep "$2" && xdotool keyup --window "$wid" "$1"; }
{
    hold f 1.5
    xdotool keydown --window "$wid" d
    for i in 1 2 3 4 5; do
        hold space 0.3
        sleep 0.7
    done
    xdotool keyup --window "$wid" d
    xdotool keydown --window "$wid" a
    for i in 1 2 3; do
        hold f 0.8
        hold space 0.3
        sleep 0.2
    done
    xdotool keyup --window "$wid" a
} 2>/dev/null || true
finish netplay
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "netplay: frame .*" | tail -1 || true)
echo "netplay --synctest: ${summary:-no summary}"
if ! echo "$summary" | grep -qE "frame 1200 checksum [0-9a-f]+; .*balls thrown [1-9][0-9]*, .*escaped 0, .* [1-9][0-9]* rollbacks"; then
    echo "FAIL: netplay's sync test should check frame 1200, with balls thrown (none escaping) and rollbacks"
    exit 1
fi
# Then two processes on 127.0.0.1 in a P2P session over UDP, played by bots, with input
# delay 0 (every change of the other's input is predicted wrong and rolled back). bevy_ggrs
# checks their checksums against each other every 10 frames (a desync ends a game with an
# error); here both must end on frame 1,200 with the same checksum and tally.
peer_log=$(mktemp)
timeout 300 "$BIN/netplay" --local-port 7301 --remote 127.0.0.1:7302 --player 0 --bot --headless \
    --input-delay 0 --frames 1200 >"$peer_log" 2>&1 &
peer=$!
trap 'kill "$game" "$demo" "$peer" 2>/dev/null || true; rm -f "$log" "$peer_log"' EXIT
timeout 300 "$BIN/netplay" --local-port 7302 --remote 127.0.0.1:7301 --player 1 --bot \
    --headless --input-delay 0 --frames 1200 >"$log" 2>&1 && status=0 || status=$?
# (A player 1 that failed leaves player 0 waiting for it.)
if [ "$status" -ne 0 ]; then kill "$peer" 2>/dev/null || true; fi
wait "$peer" && peer_status=0 || peer_status=$?
if [ "$status" -ne 0 ] || [ "$peer_status" -ne 0 ]; then
    tail -3 "$log" "$peer_log"
    echo "FAIL: a netplay peer exited with $status / $peer_status"
    exit 1
fi
check_errors "netplay (player 1)"
mine=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "netplay: frame 1200 checksum .*" || true)
cp "$peer_log" "$log" && rm -f "$peer_log"
check_errors "netplay (player 0)"
theirs=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "netplay: frame 1200 checksum .*" || true)
echo "netplay player 0: ${theirs:-no summary}"
echo "netplay player 1: ${mine:-no summary}"
if [ -z "$mine" ] || [ "${mine%% times;*}" != "${theirs%% times;*}" ]; then
    echo "FAIL: the netplay peers should end frame 1200 with the same checksum"
    exit 1
fi
# (Which peer rolls back depends on which runs ahead; one may not.)
if ! echo "$mine $theirs" | grep -qE "[1-9][0-9]* rollbacks"; then
    echo "FAIL: with input delay 0 a netplay peer should have rolled back"
    exit 1
fi
# The bots play by the frame number: the same game in a sync test of one process ends frame
# 1,200 on the same checksum and tally.
timeout 300 "$BIN/netplay" --synctest --bot --headless --frames 1200 >"$log" 2>&1 || true
check_errors "netplay --synctest --bot"
alone=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o "netplay: frame 1200 checksum .*" || true)
echo "netplay --synctest --bot: ${alone:-no summary}"
if [ -z "$alone" ] || [ "${alone%% times;*}" != "${mine%% times;*}" ]; then
    echo "FAIL: the sync test should end frame 1200 as the two peers did"
    exit 1
fi
# Screenshots are committed: fewer colours keep them small without blurring text.
mogrify -strip -colors 128 "$OUT"/*.png
ls -la "$OUT"
