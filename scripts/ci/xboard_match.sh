#!/usr/bin/env bash
# A match in XBoard (CECP), run headless under Xvfb, with a screenshot of the
# board in mid-game and a replay of the saved PGN in pyffish.
#
#   GAMES=2 TC=0:10 INC=0.1 bash scripts/ci/xboard_match.sh
#
# Environment (defaults in brackets):
#   JANGGUN   engine A, first engine, White in game 1 [target/release/janggun]
#   OPPONENT  engine B [/usr/games/fairy-stockfish]
#   VARIANT   XBoard/pyffish variant name [janggi]
#   GAMES     games, colours alternating [2]
#   TC, INC   base time (M or M:SS) and increment in seconds [0:20, 0.2]
#   ST        if set, a fixed time per move in whole seconds instead of TC/INC
#   OUT       output folder [target/xboard]: games.pgn, xboard.debug,
#             board.png (the screenshot), xboard.log (XBoard's stdout/stderr)
#   SHOT_PLIES the screenshot is taken once the engines have played this many
#             moves [16], or SHOT_AT seconds after the start at the latest [60]
#   MAX_PLIES plies a game is assumed to last at most, for the timeout [500]
#   TIMEOUT   hard limit in seconds for the whole match [from the above]
#   ALLOW_AMBIGUOUS=1  a SAN in XBoard's PGN that fits two legal moves (XBoard
#             misjudges the first engine's pieces) is a warning, not a failure;
#             the debug log settles which move it was either way [0]
# Installs xboard, xvfb, x11-apps and imagemagick with apt-get if missing.
# Exit status 0 only if XBoard finished every game and scripts/ci/xboard_replay.py
# agrees with every move and result.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ENGINE_A=${JANGGUN:-target/release/janggun}
ENGINE_B=${OPPONENT:-/usr/games/fairy-stockfish}
VARIANT=${VARIANT:-janggi}
GAMES=${GAMES:-2}
TC=${TC:-0:20}
INC=${INC:-0.2}
ST=${ST:-}
OUT=${OUT:-target/xboard}
SHOT_PLIES=${SHOT_PLIES:-16}
SHOT_AT=${SHOT_AT:-60}
MAX_PLIES=${MAX_PLIES:-500}
XBOARD=/usr/games/xboard

die() { echo "xboard_match: $*" >&2; exit 2; }

# 1. Packages.
need=()
[ -x "$XBOARD" ] || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xwd >/dev/null || need+=(x11-apps)
[ -x /usr/bin/convert ] || need+=(imagemagick)
python3 -c 'import pyffish' 2>/dev/null || die "python3 cannot import pyffish (pip install pyffish)"
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}"
    apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q)
    [ "$(id -u)" -eq 0 ] || apt=(sudo "${apt[@]}")
    "${apt[@]}" install "${need[@]}" >/dev/null ||
        { "${apt[@]}" update >/dev/null && "${apt[@]}" install "${need[@]}" >/dev/null; } ||
        die "apt-get install ${need[*]} failed"
fi

# Engines as absolute paths (XBoard starts them from their -fd/-sd folder).
abspath() {
    local p=$1
    case $p in
        */*) [ -x "$p" ] || die "engine $p is not an executable file (for Janggun: cargo build --release)"
             echo "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")" ;;
        *) command -v "$p" || die "engine $p not found" ;;
    esac
}
ENGINE_A=$(abspath "$ENGINE_A")
ENGINE_B=$(abspath "$ENGINE_B")

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
pgn=$OUT/games.pgn
debug=$OUT/xboard.debug
shot=$OUT/board.png
log=$OUT/xboard.log
rm -f "$pgn" "$debug" "$shot" "$log"

# Time control and the hard timeout: per game both clocks' worth plus the
# increments over MAX_PLIES plies, plus start-up and the pause between games.
secs() { # M or M:SS -> seconds
    case $1 in *:*) echo $(( 10#${1%%:*} * 60 + 10#${1##*:} )) ;; *) echo $(( $1 * 60 )) ;; esac
}
if [ -n "$ST" ]; then
    st=${ST%.*}
    time_args=(-st "$(( st / 60 )):$(printf '%02d' $(( st % 60 )))")   # -st 1 would mean a minute
    per_game=$(awk -v s="$ST" -v p="$MAX_PLIES" 'BEGIN { printf "%d", s * p + 1 }')
    tc_text="st $ST s"
else
    base=$(secs "$TC")
    time_args=(-tc "$TC" -inc "$INC")
    per_game=$(awk -v b="$base" -v i="$INC" -v p="$MAX_PLIES" 'BEGIN { printf "%d", 2 * b + i * p + 1 }')
    tc_text="$TC+$INC"
fi
TIMEOUT=${TIMEOUT:-$(( GAMES * (per_game + 10) + 60 ))}

# 2. Xvfb on a free display, XBoard in a private HOME so no user settings
# are read or written.
tmp=$(mktemp -d)
xvfb_pid=; xboard_pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    # XBoard runs as the leader of its own process group, with its engines in it.
    if [ -n "$xboard_pid" ]; then kill -- "-$xboard_pid" 2>/dev/null || true; fi
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

disp=
for n in $(seq 90 199); do
    [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] && continue
    Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 100); do
        [ -e "/tmp/.X11-unix/X$n" ] && { disp=$n; break; }
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$disp" ] && break
    kill "$xvfb_pid" 2>/dev/null || true
    xvfb_pid=
done
[ -n "$disp" ] || { cat "$tmp/xvfb.log" >&2; die "could not start Xvfb on any display in 90..199"; }
export DISPLAY=":$disp"

themes=/usr/share/games/xboard/themes
look=()
if [ -f "$themes/textures/xqboard-9x10.png" ] && [ -d "$themes/xiangqi" ]; then
    look=(-useBoardTexture true -lbtf '~~/themes/textures/xqboard-9x10.png'
          -dbtf '~~/themes/textures/xqboard-9x10.png' -pid '~~/themes/xiangqi'
          -trueColors true -overrideLineGap 0)
fi

echo "XBoard on :$disp: $(basename "$ENGINE_A") vs $(basename "$ENGINE_B"), $VARIANT, $GAMES games, $tc_text, timeout ${TIMEOUT}s"
HOME=$tmp setsid "$XBOARD" \
    -fcp "$ENGINE_A" -fd "$OUT" -scp "$ENGINE_B" -sd "$OUT" \
    -variant "$VARIANT" -xlegal -mg "$GAMES" "${time_args[@]}" \
    -saveGameFile "$pgn" -debug -nameOfDebugFile "$debug" \
    -settingsFile "$tmp/xbrc" -saveSettingsFile "$tmp/xbrc" -saveSettingsOnExit false \
    -startupMessage "" -popupExitMessage false -popupMoveErrors false \
    -autoCallFlag true -matchPause 1000 -xponder \
    -soundProgram "" "${look[@]}" >"$log" 2>&1 &
xboard_pid=$!

# 3. Screenshot in mid-game.
start=$SECONDS
plies() { local n; n=$(grep -acE '^[0-9]+ <(first |second): move ' "$debug" 2>/dev/null); echo "${n:-0}"; }
while kill -0 "$xboard_pid" 2>/dev/null && [ $(( SECONDS - start )) -lt "$SHOT_AT" ] &&
      [ "$(plies)" -lt "$SHOT_PLIES" ]; do
    sleep 0.5
done
if kill -0 "$xboard_pid" 2>/dev/null; then
    if xwd -root -silent -display ":$disp" | /usr/bin/convert xwd:- -trim +repage "$shot" 2>>"$log"; then
        echo "screenshot after $(plies) moves: $shot"
    else
        echo "xboard_match: screenshot failed" >&2
    fi
fi

# 4. Wait for the match, killing XBoard if it outlasts the timeout.
status=0
while kill -0 "$xboard_pid" 2>/dev/null; do
    if [ $(( SECONDS - start )) -ge "$TIMEOUT" ]; then
        echo "xboard_match: XBoard still running after ${TIMEOUT}s, killing it" >&2
        kill "$xboard_pid" 2>/dev/null || true       # XBoard saves the game as * and quits
        for _ in 1 2 3 4 5; do kill -0 "$xboard_pid" 2>/dev/null || break; sleep 1; done
        kill -9 -- "-$xboard_pid" 2>/dev/null || true
        status=1
        break
    fi
    sleep 1
done
wait "$xboard_pid" 2>/dev/null || true
kill -- "-$xboard_pid" 2>/dev/null || true          # engines XBoard left behind
xboard_pid=
echo "XBoard finished after $(( SECONDS - start ))s"

echo "--- summary"
grep -h 'final score' "$log" || echo "XBoard printed no final score"
grep -aE '^(xboard: |Error|Illegal)' "$log" | grep -v 'final score' | sed 's/^/XBoard said: /' || true
# What went wrong between XBoard and the engines, from the debug log.
grep -aE '<(first |second): (Error|Illegal|tellusererror)|<(first |second): .*unknown command|Forfeit|[Ii]llegal move|did not send|not supported' "$debug" 2>/dev/null |
    grep -avE 'Error \(unkn?own command\): (random|post|computer)' | head -20 | sed 's/^/debug: /' || true
if [ ! -s "$pgn" ]; then
    echo "xboard_match: no games saved in $pgn" >&2
    tail -20 "$debug" >&2 2>/dev/null || true
    exit 1
fi
replay=(--variant "$VARIANT" --games "$GAMES" --debug-log "$debug")
# Rule sets pyffish lacks (kja, kojf) share janggi's moves: replay them as
# janggi and check that a result was given, not which.
if ! python3 -c "import pyffish, sys; sys.exit('$VARIANT' not in pyffish.variants())"; then
    echo "xboard_match: pyffish lacks $VARIANT: moves checked under janggi, results not judged"
    replay+=(--rules-as janggi --no-result)
fi
[ "${ALLOW_AMBIGUOUS:-0}" = 1 ] && replay+=(--allow-ambiguous)
python3 "$here/xboard_replay.py" "${replay[@]}" "$pgn" || status=1
[ -f "$shot" ] || shot=
echo "files: $pgn $debug $log${shot:+ $shot}"
if [ "$status" -eq 0 ]; then echo "xboard_match: OK"; else echo "xboard_match: FAILED"; fi
exit "$status"
