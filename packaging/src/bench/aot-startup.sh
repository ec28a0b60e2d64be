#!/usr/bin/env bash
# Start-up of the packaged launcher with and without its AOT cache (docs/packaging.md, "The AOT cache"), after
# ./mvnw -Ppackage -DskipTests package:   [xvfb-run -a] packaging/src/bench/aot-startup.sh [ROUNDS] [--prpc]
# Makes, in a temporary folder: a copy of the app-image without the cache (its two AOT options taken out of
# rebound.cfg), a hello-world app-image on the same jlink runtime (the baseline, started the same way), and with --prpc
# a copy whose cache is trained on -p and RPC only (no window); then runs startup.py, which prints a Markdown table.
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
rm "$work/none/lib/app/rebound.aot"
sed -i '/^java-options=-XX:AOTCache=/d; /^java-options=-Xlog:aot/d' "$work/none/lib/app/rebound.cfg"
images=(none="$work/none" full="$work/full")
if [ "${2:-}" = --prpc ]; then
  prpc="$work/prpc"
  cp -a "$image" "$prpc"
  rm "$prpc/lib/app/rebound.aot"
  cp "$prpc/bin/rebound" "$prpc/bin/rebound-aot-training"
  for mode in record create; do
    { sed -e 's/^app\.mainclass=.*/app.mainclass=dev.rebound.app.AotTraining/' -e '/^java-options=-XX:AOTCache=/d' \
        -e '/^java-options=-Xlog:aot/d' "$image/lib/app/rebound.cfg"
      printf 'java-options=%s\n' "-XX:AOTMode=$mode" "-XX:AOTConfiguration=$work/prpc.aotconfig" -Xlog:aot*=off \
        -Dglass.platform=Headless -Drebound.aotTraining.desktop=false
      [ "$mode" = create ] && echo "java-options=-XX:AOTCache=$prpc/lib/app/rebound.aot"; true
    } > "$prpc/lib/app/rebound-aot-training.cfg"
    "$prpc/bin/rebound-aot-training" > /dev/null 2>&1
  done
  images+=(prpc="$prpc")
fi
mkdir -p "$work/hello-src" "$work/hello-in"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' \
  > "$work/hello-src/Hello.java"
"$JAVA_HOME/bin/javac" -d "$work/hello-src" "$work/hello-src/Hello.java"
"$JAVA_HOME/bin/jar" cfe "$work/hello-in/hello.jar" Hello -C "$work/hello-src" Hello.class
"$JAVA_HOME/bin/jpackage" --type app-image --dest "$work/hello" --name hello --input "$work/hello-in" \
  --main-jar hello.jar --main-class Hello --runtime-image target/runtime
python3 src/bench/startup.py "$rounds" hello="$work/hello/hello/bin/hello" \
  hellojdk="$JAVA_HOME/bin/java -cp $work/hello-in/hello.jar Hello" "${images[@]}"
