#!/usr/bin/env bash
# Start-up of the packaged launcher with and without its AOT caches (docs/packaging.md, "The AOT caches"), after
# ./mvnw -Ppackage -DskipTests package:   [xvfb-run -a] packaging/src/bench/aot-startup.sh [ROUNDS]
# Makes, in a temporary folder: a copy of the app-image without its AOT caches (the AOT options taken out of the
# bin/rebound script), a copy that maps the window's cache in every mode ("one"), the image as built ("two": the
# headless modes map their own cache), and a hello-world started like bin/rebound on the same runtime (the baseline);
# then runs startup.py, which prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-7}
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
image=target/image/rebound
[ -s "$image/lib/app/rebound.aot" ] || { echo "no packaged image with an AOT cache; build it first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$image" "$work/full"
cp -a "$image" "$work/none"
rm "$work/none/lib/app/"*.aot
sed -i '/-XX:AOTCache=/d; /-Xlog:aot/d' "$work/none/bin/rebound"
# "one": the window's cache for every mode, as before the headless modes had their own.
cp -a "$image" "$work/one"
sed -i 's/cache=rebound-cli\.aot/cache=rebound.aot/' "$work/one/bin/rebound"
images=(none="$work/none" one="$work/one" two="$work/full")
mkdir -p "$work/hello-src" "$work/hello-in"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' \
  > "$work/hello-src/Hello.java"
"$JAVA_HOME/bin/javac" -d "$work/hello-src" "$work/hello-src/Hello.java"
"$JAVA_HOME/bin/jar" cfe "$work/hello-in/hello.jar" Hello -C "$work/hello-src" Hello.class
# The baseline, started the way bin/rebound starts Rebound: a shell script that execs the image's runtime.
printf '#!/bin/sh\nexec "%s/lib/runtime/bin/java" -cp "%s" Hello "$@"\n' "$(cd "$image" && pwd)" \
  "$work/hello-in/hello.jar" > "$work/hello.sh"
chmod 755 "$work/hello.sh"
python3 src/bench/startup.py "$rounds" hello="$work/hello.sh" \
  hellojdk="$JAVA_HOME/bin/java -cp $work/hello-in/hello.jar Hello" "${images[@]}"
