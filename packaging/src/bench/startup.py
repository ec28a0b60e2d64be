#!/usr/bin/env python3
"""Start-up runs of packaged launchers, paired (docs/packaging.md, "The AOT caches"; run by aot-startup.sh).
usage: startup.py ROUNDS hello=LAUNCHER [hellojdk="COMMAND"] none=IMAGE NAME=IMAGE...
Each round runs every case once (a hello-world launcher; -p, RPC to ready and the window to shown for each image), in
an order rotated by one each round. Reports for each case the median and min-max of: seconds to its event (exit for
hello and -p, the first RPC frame, the log line "Desktop window shown": on $DISPLAY if set, else JavaFX's headless platform), wall seconds
and peak RSS (GNU time %e %M), and the medians of the per-round ratios to the image "none" and to hello."""
import os, subprocess, sys, tempfile, time, statistics, json, shutil, signal

rounds = int(sys.argv[1])
images = dict(a.split("=", 1) for a in sys.argv[2:])
hello = images.pop("hello")
hello_jdk = images.pop("hellojdk", None)
PROMPT = "hi"

def timed(cmd, stdin=None, until_line=False, until_log=None):
    """Returns (seconds to the event, wall seconds, peak RSS KiB) of one run under GNU time."""
    fd, tf = tempfile.mkstemp()
    os.close(fd)
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%e %M", "-o", tf] + cmd, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    event = None
    if until_line:
        p.stdout.readline()
        event = time.perf_counter() - t0
        p.stdin.close()
        p.stdout.read()
    elif until_log:
        p.stdin.close()
        while event is None:
            try:
                with open(until_log) as f:
                    if "Desktop window shown" in f.read():
                        event = time.perf_counter() - t0
            except FileNotFoundError:
                pass
            if p.poll() is not None:
                raise SystemExit("desktop exited early: %s" % cmd)
            time.sleep(0.005)
        # the launcher is GNU time's child: end it (SIGTERM, as a logout would), and time reports
        with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
            for child in f.read().split():
                os.kill(int(child), signal.SIGTERM)
        p.stdout.read()
    else:
        p.stdin.close()
        p.stdout.read()
    rc = p.wait()
    wall = time.perf_counter() - t0
    with open(tf) as f:
        line = f.read().strip().splitlines()[-1]
    os.unlink(tf)
    if rc != 0 and not until_log:
        raise SystemExit("failed (%d): %s" % (rc, cmd))
    return (event if event is not None else wall), wall, int(line.split()[1])

def case(kind, name):
    d = tempfile.mkdtemp(prefix="rebound-bench-")
    try:
        if kind == "hello":
            return timed([hello])
        if kind == "hellojdk":
            return timed(hello_jdk.split())
        launcher = os.path.join(images[name], "bin", "rebound")
        if kind == "p":
            return timed([launcher, "--config-dir", d, "-p", PROMPT])
        if kind == "rpc":
            with open(os.path.join(d, "settings.json"), "w") as f:
                f.write('{ "plugins": { "prometheus-metrics": { "port": 0 } } }')
            return timed([launcher, "--mode", "rpc", "--config-dir", d], until_line=True)
        if kind == "desktop":
            with open(os.path.join(d, "settings.json"), "w") as f:
                f.write('{ "plugins": { "prometheus-metrics": { "port": 0 } } }')
            # With a display (xvfb-run), the real window toolkit; without, JavaFX's headless platform.
            if "DISPLAY" not in os.environ:
                os.environ["JAVA_TOOL_OPTIONS"] = "-Dglass.platform=Headless"
            try:
                return timed([launcher, "--config-dir", d], until_log=os.path.join(d, "logs", "rebound.log"))
            finally:
                os.environ.pop("JAVA_TOOL_OPTIONS", None)
    finally:
        shutil.rmtree(d, ignore_errors=True)

cases = [("hello", "hello")] + ([("hellojdk", "jdk")] if hello_jdk else []) + [(k, n) for k in ("p", "rpc", "desktop") for n in images]
results = {c: [] for c in cases}
for r in range(rounds):
    order = cases[r % len(cases):] + cases[:r % len(cases)]
    for c in order:
        results[c].append(case(*c))
    print("round %d done" % (r + 1), file=sys.stderr)

def fmt(xs, digits=2):
    return "%.*f (%.*f–%.*f)" % (digits, statistics.median(xs), digits, min(xs), digits, max(xs))

hello_runs = [x[0] for x in results[("hello", "hello")]]
print("| case | to event, s | wall, s | peak RSS, MiB | time ÷ no cache | RSS ÷ no cache | time × hello |")
print("|---|---|---|---|---|---|---|")
for c, xs in results.items():
    ev = [x[0] for x in xs]
    base = results.get((c[0], "none"))
    paired = base and c[1] != "none"
    to_none = fmt([a[0] / b[0] for a, b in zip(xs, base)]) if paired else ""
    rss_none = fmt([a[2] / b[2] for a, b in zip(xs, base)]) if paired else ""
    to_hello = fmt([a / h for a, h in zip(ev, hello_runs)], 1)
    print("| %s %s | %s | %s | %s | %s | %s | %s |" % (c[0], c[1], fmt(ev), fmt([x[1] for x in xs]),
          fmt([x[2] / 1024 for x in xs], 0), to_none, rss_none, to_hello))
if os.environ.get("STARTUP_JSON"):  # every run, for other ratios
    with open(os.environ["STARTUP_JSON"], "w") as f:
        json.dump({"%s/%s" % c: xs for c, xs in results.items()}, f)
