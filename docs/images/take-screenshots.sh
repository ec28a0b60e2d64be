#!/usr/bin/env bash
# Takes every screenshot of docs/desktop.md and the README from the running app, light and dark, under Xvfb.
#
#   ./mvnw -B -q -DskipTests package && docs/images/take-screenshots.sh [SCENE...]
#
# SCENE is any of: empty chat record features failed failfast settings scaled (default: all). Each scene starts the real jar with a fresh temporary
# config directory and, where it needs failures, a scenario for the built-in simulator (no network, no key), types into
# the window with xdotool and saves it with ImageMagick's `import`. Needs xvfb, xdotool and imagemagick
# (apt-get install -y xvfb xdotool imagemagick). Not part of the test suite: it takes about two minutes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
jar=$here/../../app/target/rebound.jar
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && [ -z "${JAVA_HOME:-}" ] && java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java

if [ ! -f "$jar" ]; then
  echo "take-screenshots: $jar is missing; build it first: ./mvnw -B -q -DskipTests package" >&2
  exit 2
fi
for tool in xvfb-run xdotool import; do
  if ! command -v "$tool" > /dev/null; then
    echo "take-screenshots: '$tool' is missing; install it: apt-get install -y xvfb xdotool imagemagick" >&2
    exit 2
  fi
done

# Outside Xvfb: run the 100 % scenes on a 1400x900 screen and the 200 % one on a larger screen, then stop.
if [ -z "${REBOUND_SHOTS_INSIDE:-}" ]; then
  scenes=("$@")
  [ ${#scenes[@]} -eq 0 ] && scenes=(empty chat record features failed failfast settings scaled)
  normal=() scaled=()
  for scene in "${scenes[@]}"; do
    case $scene in
      empty | chat | record | features | failed | failfast | settings) normal+=("$scene") ;;
      scaled) scaled+=("$scene") ;;
      *) echo "take-screenshots: unknown scene '$scene' (empty, chat, record, features, failed, failfast, settings, scaled)" >&2; exit 2 ;;
    esac
  done
  export REBOUND_SHOTS_INSIDE=1
  if [ ${#normal[@]} -gt 0 ]; then xvfb-run -a -s "-screen 0 1400x900x24" "$0" "${normal[@]}"; fi
  if [ ${#scaled[@]} -gt 0 ]; then xvfb-run -a -s "-screen 0 2600x2000x24" "$0" "${scaled[@]}"; fi
  exit 0
fi

work=$(mktemp -d)
app=
cleanup() {
  if [ -n "$app" ]; then kill "$app" 2> /dev/null || true; wait "$app" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the jar on config directory $1 with theme $2 and the extra arguments after them; waits for the window.
start_app() {
  local config=$1 theme=$2 scale=1
  shift 2
  if [ "${1:-}" = --scale ]; then scale=$2; shift 2; fi
  mkdir -p "$config/state"
  printf '{"theme":"%s"}\n' "$theme" > "$config/state/desktop.json"
  "$java" -Dglass.gtk.uiScale="$scale" -jar "$jar" --config-dir "$config" "$@" > "$config/app.log" 2>&1 &
  app=$!
  window=$(wait_for_window '^Rebound$' 60)
  # The window's first frame holds its new chat; the wait lets layout, fonts and the sidebar's list settle.
  sleep 5
}

# Prints the id of the first window whose name matches $1, waiting up to $2 seconds.
wait_for_window() {
  local id
  for _ in $(seq 1 $(($2 * 2))); do
    if ! kill -0 "$app" 2> /dev/null; then
      echo "take-screenshots: the app exited; its log:" >&2
      cat "$config/app.log" >&2
      exit 1
    fi
    id=$(xdotool search --name "$1" 2> /dev/null | head -1) && [ -n "$id" ] && { echo "$id"; return; }
    sleep 0.5
  done
  echo "take-screenshots: no window named '$1' after $2 s" >&2
  exit 1
}

stop_app() {
  xdotool windowfocus --sync "$window" 2> /dev/null || true
  xdotool key ctrl+q 2> /dev/null || true
  for _ in $(seq 1 20); do kill -0 "$app" 2> /dev/null || break; sleep 0.5; done
  kill "$app" 2> /dev/null || true
  wait "$app" 2> /dev/null || true
  app=
}

# Types $1 into the composer (which has the focus when a chat opens) and presses Enter.
send() {
  xdotool windowfocus --sync "$window" 2> /dev/null || true
  xdotool type --delay 15 -- "$1"
  xdotool key Return
}

# Scrolls the chat list to its end with the mouse wheel (the list does not always follow a reply that ends in a
# failure or a cancel), then parks the pointer on the sidebar's empty part so no hover effect shows.
scroll_chat_to_end() {
  xdotool mousemove --window "$window" 680 300 click --repeat 20 --delay 30 5
  xdotool mousemove --window "$window" 130 600
  sleep 0.5
}

shot() {
  import -window "$window" "$here/$1.png"
  echo "take-screenshots: $1.png"
}

# The first start: the welcome view over an empty chat, nothing scripted (so the Simulate failures menu shows no count).
scene_empty() {
  local theme=$1 config=$work/empty-$1
  mkdir -p "$config"
  start_app "$config" "$theme"
  shot "desktop-empty-$theme"
  stop_app
}

# A streamed reply, the retry banner mid-countdown and a cancelled retry.
scene_chat() {
  local theme=$1 config=$work/chat-$1
  mkdir -p "$config"
  cat > "$config/scenario.json" << 'EOF'
{ "steps": [ "ok", { "fault": "rate-limit", "retryAfterSeconds": 40 } ] }
EOF
  start_app "$config" "$theme" --scenario "$config/scenario.json"
  send "How should a client retry an overloaded API?"
  sleep 5
  shot "desktop-reply-$theme"
  send "And what happens on a rate limit?"
  sleep 4
  shot "desktop-banner-$theme"
  xdotool key Escape
  sleep 1.5
  scroll_chat_to_end
  shot "desktop-cancelled-$theme"
  stop_app
}

# A reply that survived three overloads: its record line, then its timeline unfolded by a click on that line.
scene_record() {
  local theme=$1 config=$work/record-$1
  mkdir -p "$config"
  echo '{ "retry": { "baseDelayMs": 400 } }' > "$config/settings.json"
  echo '{ "steps": [ { "fault": "overload", "times": 3 }, "ok" ] }' > "$config/scenario.json"
  start_app "$config" "$theme" --scenario "$config/scenario.json"
  send "Why do retries need jitter?"
  sleep 9
  shot "desktop-record-$theme"
  # Scrolled to the top, the record line sits under the reply's header, below the prompt; its height above the list
  # varies by a few pixels, so the likely places are clicked in turn until the window changes (the timeline opened).
  xdotool mousemove --window "$window" 680 300 click --repeat 20 --delay 30 4
  sleep 0.5
  import -window "$window" "$work/before.png"
  for y in 172 180 188 196; do
    xdotool mousemove --window "$window" 420 "$y" click 1
    sleep 1
    import -window "$window" "$work/after.png"
    changed=$(compare -metric AE "$work/before.png" "$work/after.png" null: 2>&1 || true)
    [ "${changed%% *}" -gt 5000 ] 2> /dev/null && break
  done
  xdotool mousemove --window "$window" 130 600
  sleep 0.5
  shot "desktop-timeline-$theme"
  stop_app
}

# Saved chats (docs/images/demo-chats.py writes them; needs python3): highlighted code under a retried reply's record
# line, the sidebar's search, a selection, and editing the last message.
scene_features() {
  local theme=$1 config=$work/features-$1
  mkdir -p "$config"
  echo '{ "systemPrompt": "Answer briefly; show code when it helps." }' > "$config/settings.json"
  python3 "$here/demo-chats.py" "$config" > /dev/null
  start_app "$config" "$theme" --session "$config/sessions/demo-jitter.jsonl"
  xdotool mousemove --window "$window" 680 300 click --repeat 20 --delay 30 4
  xdotool mousemove --window "$window" 130 600
  sleep 1
  shot "desktop-code-$theme"
  # A drag over the first paragraph of the reply selects part of it.
  xdotool mousemove --window "$window" "${SELECT_FROM_X:-330}" "${SELECT_Y:-200}" mousedown 1
  xdotool mousemove --window "$window" 480 "${SELECT_Y:-200}" sleep 0.2 mousemove --window "$window" "${SELECT_TO_X:-640}" "${SELECT_Y:-200}" mouseup 1
  sleep 0.5
  shot "desktop-select-$theme"
  # Ctrl+K searches every chat.
  xdotool key ctrl+k
  sleep 0.5
  xdotool type --delay 40 -- "json"
  sleep 2
  shot "desktop-search-$theme"
  xdotool key Escape
  sleep 0.5
  # Up in the empty composer edits the last message.
  xdotool mousemove --window "$window" 600 710 click 1
  sleep 0.3
  xdotool key Up
  sleep 1
  shot "desktop-edit-$theme"
  xdotool key Escape
  stop_app
}

# A chain that runs out of retries (two retries, short backoff, so it fails within seconds).
scene_failed() {
  local theme=$1 config=$work/failed-$1
  mkdir -p "$config"
  echo '{ "retry": { "maxRetries": 2, "baseDelayMs": 300 } }' > "$config/settings.json"
  echo '{ "steps": [ "ok", { "fault": "overload", "times": 3 } ] }' > "$config/scenario.json"
  start_app "$config" "$theme" --scenario "$config/scenario.json"
  send "Why do retries need jitter?"
  sleep 4
  send "And when should a client give up?"
  sleep 5
  scroll_chat_to_end
  shot "desktop-failed-$theme"
  stop_app
}

# A provider that asks for an hour's wait: more than retry.maxDelayMs, so nothing is retried, and the reply says why.
scene_failfast() {
  local theme=$1 config=$work/failfast-$1
  mkdir -p "$config"
  echo '{ "steps": [ "ok", { "fault": "rate-limit", "retryAfterSeconds": 3600 } ] }' > "$config/scenario.json"
  start_app "$config" "$theme" --scenario "$config/scenario.json"
  send "Why do retries need jitter?"
  sleep 4
  send "And when should a client give up?"
  sleep 3
  scroll_chat_to_end
  shot "desktop-failfast-$theme"
  stop_app
}

# A config directory with two providers, two chains (one naming an unconfigured model), a literal and an environment
# credential and two plugin entries, so that every tab of the settings window has something to show.
settings_config() {
  local config=$1
  mkdir -p "$config"
  cat > "$config/settings.json" << 'EOF'
{
  "model": "openai/gpt-4.1-mini",
  "systemPrompt": "You are a careful assistant. Answer briefly, show code when it helps, and say when you are unsure.",
  "providers": {
    "azure": { "api": "openai-completions",
               "baseUrl": "https://contoso.openai.azure.com/openai/deployments/gpt-4o",
               "models": [ { "id": "gpt-4o" } ],
               "headers": { "api-key": { "credential": true } },
               "query": { "api-version": "2024-10-21" } },
    "openai": { "api": "openai-responses", "baseUrl": "https://api.openai.com/v1",
                "models": [ { "id": "gpt-4.1-mini" }, { "id": "gpt-4.1-nano" } ] },
    "anthropic": { "api": "anthropic-messages", "baseUrl": "https://api.anthropic.com",
                   "models": [ { "id": "claude-sonnet-4-5" } ] },
    "gemini": { "api": "google-gemini", "baseUrl": "https://generativelanguage.googleapis.com",
                "models": [ { "id": "gemini-2.5-flash" } ] },
    "ollama": { "api": "openai-completions", "baseUrl": "http://127.0.0.1:11434/v1",
                "models": [ { "id": "llama3.2" } ] }
  },
  "retry": {
    "maxRetries": 8,
    "fallbackChains": {
      "default": [ "openai/gpt-4.1-mini", "ollama/llama3.2" ],
      "openai/*": [ "ollama/llama3.2", "anthropic/claude-sonnet-4-5" ]
    }
  },
  "plugins": { "audit-log": { "enabled": true }, "desktop-notify": { "enabled": false } }
}
EOF
  cat > "$config/credentials.json" << 'EOF'
{ "openai": [ { "label": "work", "apiKey": "sk-shots-not-a-real-key-7f3a" },
              { "label": "personal", "apiKeyEnv": "REBOUND_SHOTS_UNSET_KEY" } ],
  "azure": [ { "label": "contoso", "apiKey": "az-shots-not-a-real-key-91c2" } ] }
EOF
  chmod 600 "$config/credentials.json"
}

# Opens the settings window (Ctrl+,) over the chat window and prints its id.
open_settings() {
  xdotool windowfocus --sync "$window" 2> /dev/null || true
  xdotool key --window "$window" ctrl+comma
  settings=$(wait_for_window '^Rebound settings$' 20)
  sleep 2
}

# Each tab of the settings window; in light, also a value refused as typed.
scene_settings() {
  local theme=$1 config=$work/settings-$1
  settings_config "$config"
  start_app "$config" "$theme"
  open_settings
  local main=$window
  window=$settings
  for tab in retry chains providers chat plugins; do
    shot "settings-$tab-$theme"
    if [ "$tab" = providers ]; then
      # The Add provider menu (Alt+P), with the kinds it fills in.
      xdotool windowfocus --sync "$settings" 2> /dev/null || true
      xdotool key --window "$settings" alt+p
      sleep 1.5
      # The menu is a window of its own: crop the screen to the settings window instead of shooting that window.
      eval "$(xdotool getwindowgeometry --shell "$settings")"
      import -window root -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" +repage "$here/settings-providers-add-$theme.png"
      echo "take-screenshots: settings-providers-add-$theme.png"
      xdotool key Escape
      sleep 1
    fi
    xdotool windowfocus --sync "$settings" 2> /dev/null || true
    xdotool key --window "$settings" ctrl+Tab
    sleep 1.5
  done
  if [ "$theme" = light ]; then
    # Back on the Retry tab: click into Max retries and type -1 to show the reason at the field.
    xdotool mousemove --window "$settings" 285 98 click 1
    sleep 0.5
    xdotool key ctrl+a
    xdotool type -- "-1"
    sleep 1.5
    shot "settings-retry-invalid-light"
  fi
  xdotool key Escape
  window=$main
  stop_app
}

# At 200 % scaling (-Dglass.gtk.uiScale=2), light: the chat window on its first start, then the settings window's
# Retry and Providers tabs.
scene_scaled() {
  local config=$work/scaled-empty
  mkdir -p "$config"
  start_app "$config" light --scale 2
  shot desktop-empty-light-200
  stop_app
  config=$work/scaled
  settings_config "$config"
  start_app "$config" light --scale 2
  open_settings
  local main=$window
  window=$settings
  shot settings-retry-light-200
  xdotool key --window "$settings" ctrl+Tab ctrl+Tab
  sleep 1.5
  shot settings-providers-light-200
  xdotool key Escape
  window=$main
  stop_app
}

for scene in "$@"; do
  case $scene in
    scaled) scene_scaled ;;
    *) for theme in light dark; do "scene_$scene" "$theme"; done ;;
  esac
done
