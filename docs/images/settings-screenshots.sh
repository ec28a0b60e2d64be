#!/bin/bash
# Takes the settings window screenshots of docs/desktop.md from the running app under Xvfb.
# Needs xvfb, xdotool and imagemagick; build the jar first: ./mvnw -B -o package -pl plugin-api,app -DskipTests
# Usage: xvfb-run -a -s "-screen 0 2600x2000x24" docs/images/settings-screenshots.sh CONFIG_DIR light|dark [1|2]
set -euo pipefail
config=$1; theme=$2; scale=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/../../app/target/rebound.jar
mkdir -p "$config/state"
echo "{\"theme\":\"$theme\"}" > "$config/state/desktop.json"
java -Dglass.gtk.uiScale="$scale" -jar "$jar" --config-dir "$config" > /dev/null 2>&1 &
app=$!
trap 'kill $app' EXIT
for _ in $(seq 1 60); do xdotool search --name '^Rebound$' > /dev/null 2>&1 && break; sleep 0.5; done
sleep 3
main=$(xdotool search --name '^Rebound$' | head -1)
xdotool windowfocus --sync "$main" || true
xdotool key --window "$main" ctrl+comma
for _ in $(seq 1 40); do xdotool search --name 'Rebound settings' > /dev/null 2>&1 && break; sleep 0.5; done
sleep 2
win=$(xdotool search --name 'Rebound settings' | head -1)
suffix=$theme
[ "$scale" != 1 ] && suffix=$theme-200
for tab in retry chains providers plugins; do
  import -window "$win" "$here/settings-$tab-$suffix.png"
  xdotool windowfocus --sync "$win" || true
  xdotool key --window "$win" ctrl+Tab
  sleep 1.5
done
if [ "$theme" = light ] && [ "$scale" = 1 ]; then
  # Back on the Retry tab: type -1 into Max retries to show a reason at its field.
  xdotool mousemove --window "$win" 285 98 click 1
  sleep 0.5
  xdotool key ctrl+a
  xdotool type -- "-1"
  sleep 1.5
  import -window "$win" "$here/settings-retry-invalid-light.png"
fi
