#!/usr/bin/env bash
# Records the README's GIF of cut_the_line: a release build played with a real (xdotool)
# mouse on a virtual display, captured by ffmpeg at 20 frames per second for 12 seconds, and
# written 800 pixels wide with a small palette (under 2 MB).
#
#   cargo build --release --example cut_the_line && bash scripts/record_gif.sh
#
# Needs: xvfb xauth mesa-vulkan-drivers xdotool ffmpeg (Debian packages). Not part of CI: the
# GIF is for people; scripts/play_examples.sh tests the game.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-docs/screenshots/cut_the_line_swipe.gif}
BIN=${BIN:-target/release/examples/cut_the_line}
if [ -z "${DISPLAY_READY:-}" ]; then
    exec env DISPLAY_READY=1 xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" "$@"
fi
export BEVY_ASSET_ROOT="$PWD"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

CUT_THE_LINE_SEED=${CUT_THE_LINE_SEED:-3} CUT_THE_LINE_DATA_DIR="$work" EXAMPLE_SECONDS=40 \
    "$BIN" >"$work/log" 2>&1 &
game=$!
trap 'kill "$game" 2>/dev/null || true; rm -rf "$work"' EXIT
wid=$(timeout 60 xdotool search --sync --onlyvisible --name cut_the_line | head -1)
sleep 3
xdotool mousemove --window "$wid" 640 600 click 1 # classic
sleep 5 # the first lines drift in

# swipe X0 Y0 X1 Y1 STEPS: a stroke of STEPS moves, 30 ms apart.
swipe() {
    local x0=$1 y0=$2 x1=$3 y1=$4 steps=$5
    xdotool mousemove --window "$wid" "$x0" "$y0" mousedown 1
    for ((i = 1; i <= steps; i++)); do
        xdotool mousemove --window "$wid" $((x0 + (x1 - x0) * i / steps)) \
            $((y0 + (y1 - y0) * i / steps))
        sleep 0.03
    done
    xdotool mouseup 1
}

ffmpeg -loglevel error -f x11grab -framerate 20 -video_size 1280x720 -i "$DISPLAY" -t 12 \
    -c:v libx264 -preset ultrafast -qp 0 "$work/capture.mkv" &
recorder=$!
for round in 1 2 3; do
    swipe 100 80 1180 640 10
    sleep 0.4
    swipe 1180 120 120 600 6
    sleep 0.4
    for x in 320 640 960; do
        swipe "$x" 40 $((x + 80)) 690 5
        sleep 0.25
    done
    swipe 60 360 1220 330 3
    sleep 0.5
done
wait "$recorder"
kill "$game" 2>/dev/null || true
wait "$game" 2>/dev/null || true
ffmpeg -loglevel error -y -i "$work/capture.mkv" \
    -vf "fps=20,scale=800:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=48:stats_mode=diff[p];[b][p]paletteuse=dither=none:diff_mode=rectangle" \
    -loop 0 "$OUT"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$OUT")
echo "$OUT: $frames frames, $(du -k "$OUT" | cut -f1) kB"
