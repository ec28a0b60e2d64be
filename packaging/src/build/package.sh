#!/usr/bin/env bash
# Builds the installable Rebound with the JDK's own tools; called by packaging/pom.xml in the `package` profile
# (./mvnw -Ppackage -DskipTests package), after maven-dependency-plugin has filled target/input (the app jar, its
# class-path libraries, the bundled plugin zips), target/javafx (JavaFX's platform jars) and target/dependencies.txt.
#
#   1. the icon (drawn by RenderIcon.java) and the THIRD-PARTY notice (ThirdPartyNotices.java, from the POMs), and
#      picocli's Java 5 class files rewritten as Java 8 ones (UpgradeClassFiles.java);
#   2. a jlink runtime of the modules jdeps finds in the app, its libraries and the plugins' libraries, plus the two
#      only reached through ServiceLoader or locale lookup, with JavaFX on its module path (so inside the runtime);
#   3. a jpackage app-image, target/image/rebound (launcher: bin/rebound, a script), its AOT cache lib/app/rebound.aot,
#      from a training run of the image itself;
#   4. a .deb when dpkg-deb and fakeroot exist, an .rpm when rpmbuild exists (jpackage's own installers).
#
# Environment (set by the pom): JAVA_HOME, REBOUND_VERSION (the project version), LOCAL_REPOSITORY (the local Maven
# repository, for the POMs), TARGET (packaging/target), SOURCES (packaging/src).
set -euo pipefail

: "${JAVA_HOME:?}" "${REBOUND_VERSION:?}" "${LOCAL_REPOSITORY:?}" "${TARGET:?}" "${SOURCES:?}"
bin="$JAVA_HOME/bin"
input="$TARGET/input"
work="$TARGET/work"
runtime="$TARGET/runtime"
image_root="$TARGET/image"
# jpackage takes a plain x.y.z: 0.2.0-SNAPSHOT becomes 0.2.0.
app_version="${REBOUND_VERSION%%-*}"
description="A chat app for large language models whose conversations survive provider failures"

# Modules no class names directly, so jdeps cannot see them:
#   jdk.localedata  dates and numbers in the user's locale (the chat list's dates); java.base holds English only
#   jdk.zipfs       the zip file system (found through ServiceLoader), through which PF4J reads a plugin jar's
#                   plugin.properties; without it such a plugin is refused ("Field 'id' cannot be empty")
extra_modules=jdk.localedata,jdk.zipfs

started=$(date +%s)
for required in "$input/rebound.jar" "$TARGET/dependencies.txt"; do
  [ -e "$required" ] || { echo "package.sh: $required is missing; run ./mvnw -Ppackage -DskipTests package" >&2; exit 1; }
done
ls "$TARGET"/javafx/javafx-graphics-*.jar > /dev/null 2>&1 \
  || { echo "package.sh: no JavaFX platform jars in $TARGET/javafx" >&2; exit 1; }

rm -rf "$work" "$runtime" "$image_root" "$TARGET"/*.deb "$TARGET"/*.rpm
mkdir -p "$work/resources" "$work/plugin-libs" "$input/legal"

# 1. Icon and notices.
"$bin/java" "$SOURCES/build/RenderIcon.java" "$work/rebound.png" 256
"$bin/java" "$SOURCES/build/ThirdPartyNotices.java" "$TARGET/dependencies.txt" "$LOCAL_REPOSITORY" \
  "$input/legal/THIRD-PARTY.txt" "$REBOUND_VERSION" "$SOURCES/legal" > /dev/null

# 1a. picocli, built for Java 5, rewritten as Java 8 class files with stack maps (UpgradeClassFiles.java): the AOT
# cache cannot hold older class files, which were parsed and verified at every start, a fifth of a -p run then
# (docs/packaging.md, "The AOT caches"). Only picocli, whose licence (Apache 2.0) the notice below is written for;
# JetBrains' annotations jar has such classes too, but they are never loaded. java -jar keeps the original jar.
note="class files rewritten from Java 5 to Java 8 (version 52) by Rebound's packaging: the same methods, re-emitted with stack maps"
modified=$("$bin/java" "$SOURCES/build/UpgradeClassFiles.java" "$note" "$input"/lib/picocli-*.jar | paste -sd' ')
[ -n "$modified" ] || { echo "package.sh: picocli's jar was not rewritten" >&2; exit 1; }
printf '\nModified by Rebound (Apache License 2.0, section 4(b)): %s: %s.\n' "$modified" "$note" \
  >> "$input/legal/THIRD-PARTY.txt"

# 2. The runtime: the JDK modules the app and its libraries use (jdeps, with the libraries and JavaFX as modules, as
# they declare themselves) and those the plugins' own libraries use (they run on this runtime: the metrics plugin's
# HTTP server needs jdk.httpserver), plus the extra ones above, and JavaFX's modules from its platform jars.
for zip in "$input"/plugins/*.zip; do
  (cd "$work/plugin-libs" && "$bin/jar" xf "$zip")
done
jdeps=("$bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25)
app_modules=$("${jdeps[@]}" --module-path "$TARGET/javafx:$input/lib" --add-modules ALL-MODULE-PATH "$input/rebound.jar")
plugin_jars=()
for jar in "$work"/plugin-libs/lib/*.jar; do
  # A library the app has too is on the app's side already (and twice on a module path is an error).
  [ -e "$input/lib/$(basename "$jar")" ] || plugin_jars+=("$jar")
done
plugin_modules=$("${jdeps[@]}" --class-path "$(IFS=:; echo "${plugin_jars[*]}")" "${plugin_jars[@]}")
echo "$app_modules,$plugin_modules,$extra_modules" | tr , '\n' | sort -u > "$work/modules.txt"
# No --compress: the .deb compresses the plain image better (43 MB against 67 MB with zip-6), and classes are not
# inflated at start-up; the cost is disk space (152 MB installed against 97 MB). Measured in docs/packaging.md.
# --generate-cds-archive: the runtime's own class-data-sharing archive of the JDK's classes, which jlink does not copy
# from the JDK; without it even the JDK's classes are parsed at every start the AOT cache does not cover (a hello-world
# took 0.19 s against 0.04 s). Its bin/java stays (no --strip-native-commands): the archive is made with it, and the
# launcher below starts it.
"$bin/jlink" --module-path "$TARGET/javafx" --add-modules "ALL-MODULE-PATH,$(paste -sd, "$work/modules.txt")" \
  --strip-debug --no-header-files --no-man-pages --generate-cds-archive --output "$runtime"

# 3. The app-image. The app stays on the class path; JavaFX is in the runtime. $APPDIR is the image's lib/app.
# -XX:CompileThresholdScaling=2: each JIT tier waits for twice the usual number of calls (and loop iterations) before
# it compiles a method, so that on two cores the compiler threads leave the start more of the CPU. The price is a
# later warm-up: hot code is compiled later, with longer profiles (40 RPC turns in a row did not show it; in the
# window, streaming at 2,000 tokens/s, the FX thread's work per frame was ~14 % higher for the first 90 s, no frame
# gap over 50 ms). The window's first frame took 571 against 674 ms, RPC to ready 181 against
# 201 ms, -p unchanged (6-12 alternating runs, 2026-12-03; docs/packaging.md, "The launcher").
# -XX:-AOTReplayTraining: the caches hold no method profiles (-XX:-AOTRecordTraining, 3b), so the thread that would
# replay them has nothing to do, yet it still cost each start CPU: RPC to ready 154 against 162 ms, -p 182 against
# 192 ms (25 runs each, alternating, 2026-12-03). A diagnostic option: a JDK that drops it fails the AOT training
# below (its launcher carries the same options), before any image is shipped.
common=(--name rebound --app-version "$app_version" --vendor Rebound --description "$description")
"$bin/jpackage" --type app-image --dest "$image_root" "${common[@]}" \
  --input "$input" --main-jar rebound.jar --main-class dev.rebound.app.Main \
  --runtime-image "$runtime" --icon "$work/rebound.png" \
  --java-options '--enable-native-access=javafx.graphics' \
  --java-options '-Drebound.bundledPluginsDir=$APPDIR/plugins' --java-options '-Xms32m' \
  --java-options '-XX:CompileThresholdScaling=2' \
  --java-options '-XX:+UnlockDiagnosticVMOptions' --java-options '-XX:-AOTReplayTraining' \
  --java-options '-XX:AOTCache=$APPDIR/rebound.aot' --java-options '-Xlog:aot*=off'

# 3a. The launcher, bin/rebound: a shell script, written here from the jpackage launcher's lib/app/rebound.cfg, that
# starts the image's own runtime with the same class path and JVM options. jpackage's native launcher asks rpm and
# dpkg which package owns it, twice, before it starts the JVM: about 0.13 s of every start on these machines
# (docs/packaging.md, "The launcher").
app_dir="$image_root/rebound/lib/app"
cfg="$app_dir/rebound.cfg"
app_classpath=$(sed -n 's/^app\.classpath=//p' "$cfg" | paste -sd:)
main_class=$(sed -n 's/^app\.mainclass=//p' "$cfg")
mapfile -t cfg_options < <(sed -n 's/^java-options=//p' "$cfg")
launcher_script() { # launcher_script MAIN-CLASS JVM-OPTION...: a launcher of the image running MAIN-CLASS
  printf '%s\n' '#!/bin/sh' \
    "# Rebound's launcher, written by package.sh from lib/app/rebound.cfg (docs/packaging.md, \"The launcher\")." \
    'self=$(readlink -f -- "$0") || self=$0' 'image=${self%/bin/*}' 'APPDIR=$image/lib/app' \
    'exec "$image/lib/runtime/bin/java" \'
  local option
  for option in "${@:2}"; do
    printf '  "%s" \\\n' "$option"
  done
  printf '  -cp "%s" %s "$@"\n' "$app_classpath" "$1"
}
# Two AOT caches (3b): the window's, and a smaller one for the headless modes, chosen from the command line. A wrong
# guess only costs time: both are valid for the same class path and options.
chooser=$(cat << 'CHOOSER'
# The AOT cache: the headless modes' smaller one (it maps faster and takes less memory) when the command line asks for
# one of them, else the window's. For a one-shot -p and for RPC mode, the JIT's first tier only: C2's compiler thread
# competes with the start for two cores, and a headless process's work (JSON, a stream, a file) is light enough that
# C1's code serves it (RPC: 200 turns took less CPU with C1 alone; 800 turns of a 2.7 MB context took 13 % more). For
# -p also the serial collector (G1's set-up and its concurrent threads cost more than its pauses would save a process
# that lives a fraction of a second). Long -p runs gain from both too: a 148 KB reply, and a --session of 3.4 MB
# sent back whole (docs/packaging.md, "The launcher"). A wrong guess costs time, never function.
cache=rebound.aot
jit=
prev=
for arg do
  case $prev/$arg in
    --mode/[Rr][Pp][Cc]|*/--mode=[Rr][Pp][Cc]) cache=rebound-cli.aot jit="${jit:--XX:TieredStopAtLevel=1}" ;;
  esac
  case $arg in
    -p*|--print|--print=*) cache=rebound-cli.aot jit="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" ;;
    simulate|-h|--help|-V|--version) cache=rebound-cli.aot ;;
  esac
  prev=$arg
done
# Transparent huge pages for the Java heap when the kernel offers them to programs that ask (its mode "always" or
# "madvise"): the heap a start fills is then faulted in 2 MiB at a time instead of 4 KiB, which on these machines
# cost the window ~80 ms and RPC ~27 ms in page faults, for ~22 MiB more resident memory in the window and ~7 MiB in
# -p (docs/packaging.md, "The launcher"). Asked only where it works: with THP off the JVM says so on stdout, where RPC
# frames and -p replies go; and -Xlog:pagesize=off keeps the JVM's other page-size messages (that log tag) off it too.
thp=
thp_mode=
read -r thp_mode 2>/dev/null < /sys/kernel/mm/transparent_hugepage/enabled
case $thp_mode in *'[always]'*|*'[madvise]'*) thp="-XX:+UseTransparentHugePages -Xlog:pagesize=off" ;; esac
CHOOSER
)
launcher_script "$main_class" "${cfg_options[@]}" \
  | sed -e 's|"-XX:AOTCache=$APPDIR/rebound.aot"|"-XX:AOTCache=$APPDIR/$cache"|' \
  | awk -v chooser="$chooser" '/^exec / { print chooser; print; print "  $jit $thp \\"; next } { print }' \
  > "$image_root/rebound/bin/rebound"
grep -q 'AOTCache=$APPDIR/$cache' "$image_root/rebound/bin/rebound" \
  || { echo "package.sh: the launcher has no AOT cache option to choose" >&2; exit 1; }
chmod 755 "$image_root/rebound/bin/rebound"

# 3b. The AOT caches (JDK 25, JEPs 483 and 514), lib/app/rebound.aot (the window's) and lib/app/rebound-cli.aot (-p,
# RPC and the rest), which the launcher maps with -XX:AOTCache: the classes Rebound loads as it starts, already parsed
# and linked. With a cache, every class in it is loaded at start, so one cache for all modes made -p and RPC load the
# window's classes too (18 MiB more peak memory, a slower start); hence two. A cache is valid only for the runtime,
# class path and module options it was trained with, so each is trained here, on this image, through a launcher
# written like bin/rebound but for the main class (dev.rebound.app.AotTraining: -p, RPC and, for the window's cache,
# the window, one after the other, in one JVM, the built-in simulator answering) and the recording options; then the
# same launcher assembles the cache (AOTMode=create). The training launcher goes before the installers are made.
# -Xlog:aot*=off in the cfg: if a cache cannot be used (a JVM option that does not match, a missing or damaged file),
# the JVM runs without it, and says so on stdout unless told not to, where RPC frames and -p replies go. The window
# trains headless (JavaFX's own Headless glass): no display is needed to build.
trainer="$image_root/rebound/bin/rebound-aot-training"
aot_log="$work/aot-training.log"
aot_started=$(date +%s)
training_options=()
for option in "${cfg_options[@]}"; do
  case "$option" in -XX:AOTCache=*|-Xlog:aot*) ;; *) training_options+=("$option") ;; esac
done
# -XX:-AOTRecordTraining: the caches hold classes, not the training's method profiles (JEP 515). Replaying those
# profiles makes the JIT compile early, and on two cores its compiler threads then compete with the start itself: the
# window's first frame took 705 ms with them against 615 ms without, -p 196 against 177 ms (8-12 runs each,
# alternating, 2026-12-03). The JIT still compiles what gets hot; it only learns it at run time again, so a long
# session warms up as without a cache. AOTRecordTraining is a diagnostic option of JDK 25: if an update drops it, this
# step fails loudly rather than silently.
aot_step() { # aot_step NAME MODE OPTION...: the image's launcher, its own AOT options replaced by the step's
  launcher_script dev.rebound.app.AotTraining "${training_options[@]}" "-XX:AOTMode=$2" \
    -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining \
    "-XX:AOTConfiguration=$work/$1.aotconfig" "-Xlog:aot*=warning:file=$aot_log.$1.$2" "${@:3}" > "$trainer"
  chmod 755 "$trainer"
  "$trainer" >> "$aot_log" 2>&1 || { echo "package.sh: the $1 AOT cache's $2 step failed:" >&2; tail -n 40 "$aot_log" >&2; exit 1; }
}
aot_cache() { # aot_cache NAME OPTION...: trains lib/app/NAME.aot with the training's options
  aot_step "$1" record -Dglass.platform=Headless "${@:2}"
  aot_step "$1" create "-XX:AOTCache=$app_dir/$1.aot"
  [ -s "$app_dir/$1.aot" ] || { echo "package.sh: no AOT cache $1 was written" >&2; tail -n 40 "$aot_log" >&2; exit 1; }
}
aot_cache rebound
aot_cache rebound-cli -Drebound.aotTraining.desktop=false
rm "$trainer"
echo "package.sh: AOT caches $(du -h "$app_dir/rebound.aot" | cut -f1) (window) and" \
  "$(du -h "$app_dir/rebound-cli.aot" | cut -f1) (headless), trained in $(($(date +%s) - aot_started)) s"

# 4. Installers, from that image.
installer() {
  "$bin/jpackage" --type "$1" --dest "$TARGET" "${common[@]}" --app-image "$image_root/rebound" \
    --linux-shortcut --linux-menu-group "Network;Chat;" \
    --license-file "$input/legal/THIRD-PARTY.txt" --resource-dir "$work/resources" "${@:2}"
}
# Resources that replace jpackage's: postinst/prerm (.deb) are its own plus /usr/bin/rebound; rebound.desktop names
# the menu entry "Rebound" with keywords. From an app-image jpackage ignores --icon for the package and installs its
# default icon, unless rebound.png is among these resources.
cp "$SOURCES"/jpackage-linux/* "$work/rebound.png" "$work/resources/"
made=("app-image $image_root/rebound ($(du -sh "$image_root/rebound" | cut -f1))")
if command -v dpkg-deb > /dev/null && command -v fakeroot > /dev/null; then
  # GTK 3 is what JavaFX's window toolkit loads; jpackage finds the rest (libxtst6, ...) from the runtime's libraries.
  installer deb --linux-app-category net --linux-package-deps "libgtk-3-0 | libgtk-3-0t64"
  deb=$(ls "$TARGET"/*.deb)
  # jpackage copies the image into the package without its files' times, and the AOT cache checks each class-path
  # jar's time and size: installed, the cache was refused ("Archived app classpath validation: failed"). So the
  # package is unpacked, its files given the image's times, and packed again, with jpackage's control files as they are.
  tree="$work/deb-tree"
  rm -rf "$tree"
  dpkg-deb -R "$deb" "$tree"
  (cd "$image_root/rebound" && find . -type f) | while IFS= read -r file; do
    touch -r "$image_root/rebound/$file" "$tree/opt/rebound/$file"
  done
  # xz at level 1: 22 s and 66 MB here, against 87 s and 59 MB at the default level 6.
  dpkg-deb --root-owner-group -Zxz -z1 -b "$tree" "$deb" > /dev/null
  rm -rf "$tree"
  made+=("deb $deb ($(du -h "$deb" | cut -f1))")
else
  echo "package.sh: no .deb: it needs dpkg-deb and fakeroot (apt-get install -y fakeroot)"
fi
if command -v rpmbuild > /dev/null; then
  installer rpm --linux-package-deps gtk3
  rpm=$(ls "$TARGET"/*.rpm)
  made+=("rpm $rpm ($(du -h "$rpm" | cut -f1))")
fi
echo "package.sh: built in $(($(date +%s) - started)) s, a runtime of $(sed -n "s/^MODULES=//p" "$runtime/release" | wc -w) modules:"
printf '  %s\n' "${made[@]}"
