package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeded soak of issue 18: back-to-back retry chains in one real Rebound process, retries on with short delays,
 * against a server that fails at random (seeded: 429/500/503/529 with {@code retry-after}, a reset mid-stream, a
 * server that never answers, a good reply). Checked: exactly one end per chain (one final {@code agent_end}, one
 * {@code retry_chain_end}, one {@code auto_retry_end} when the chain retried), no leaked threads ({@code /proc/PID/task})
 * or sockets ({@code /proc/PID/fd}), no heap growth (used heap after a full GC, first vs last quartile), and the chat
 * file reloads whole with every prompt in it. The canary secrets ride along and are swept afterwards.
 *
 * <p>CI runs {@code -Dsoak.chains} (default 40, seed {@code -Dsoak.seed}, default 18); the full run of
 * docs/reliability.md: {@code ./mvnw -B -ntp -o -pl plugin-api,app verify -Dit.test=SoakIT -Dsoak.chains=1000
 * -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false}. Figures go to stdout and target/soak-figures.txt.
 */
class SoakIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int CHAINS = Integer.getInteger("soak.chains", 40);
    private static final long SEED = Long.getLong("soak.seed", 18);

    @TempDir
    Path configDir;

    private final Map<String, AtomicInteger> injected = new ConcurrentHashMap<>();

    /** One seeded random answer per request. */
    private FaultServer.Handler randomAnswer(Random random) {
        return x -> {
            int pick;
            synchronized (random) {
                pick = random.nextInt(100);
            }
            String kind;
            if (pick < 40) {
                kind = "good";
                FaultServer.sse(Sse.chunk("answer ") + Sse.chunk("number " + pick) + Sse.finish())
                        .serve(x);
            } else if (pick < 50) {
                kind = "429";
                x.write(errorWithRetryAfter(429, "{\"error\":{\"message\":\"Rate limit reached, slow down\"}}"));
            } else if (pick < 58) {
                kind = "500";
                FaultServer.status(500, "application/json", "{\"error\":{\"message\":\"internal\"}}")
                        .serve(x);
            } else if (pick < 66) {
                kind = "503";
                x.write(errorWithRetryAfter(503, "{\"error\":{\"message\":\"unavailable\"}}"));
            } else if (pick < 76) {
                kind = "529";
                x.write(errorWithRetryAfter(
                        529,
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
            } else if (pick < 84) {
                kind = "reset before any text";
                x.write(FaultServer.head(200, "text/event-stream", -1) + ": keep-alive\n\n");
                x.socket.setSoLinger(true, 0);
                x.close = true;
            } else if (pick < 90) {
                kind = "reset mid-stream";
                x.write(FaultServer.head(200, "text/event-stream", -1) + Sse.chunk("partial "));
                x.socket.setSoLinger(true, 0);
                x.close = true;
            } else if (pick < 96) {
                kind = "timeout";
                x.awaitClientClose();
            } else {
                kind = "echoes the key";
                FaultServer.sse(Sse.chunk("key " + FaultSuiteIT.KEY) + Sse.finish())
                        .serve(x);
            }
            injected.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        };
    }

    private static String errorWithRetryAfter(int status, String body) {
        return "HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nretry-after: 0\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    /** Threads, open descriptors, RSS (KiB) and heap used after a full GC (KiB) of a live process. */
    record Sample(int chain, int threads, int fds, long rssKiB, long heapKiB) {}

    private static Sample sample(int chain, long pid) throws IOException, InterruptedException {
        String jcmd = jcmd();
        run(jcmd, Long.toString(pid), "GC.run");
        String heap = run(jcmd, Long.toString(pid), "GC.heap_info");
        long used = 0;
        Matcher m = Pattern.compile("total \\d+K, used (\\d+)K").matcher(heap);
        while (m.find()) {
            used += Long.parseLong(m.group(1));
        }
        long rss = 0;
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        int threads;
        int fds;
        try (Stream<Path> t = Files.list(Path.of("/proc/" + pid + "/task"));
                Stream<Path> f = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            threads = (int) t.count();
            fds = (int) f.count();
        }
        return new Sample(chain, threads, fds, rss, used);
    }

    private static String jcmd() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static double mean(List<Sample> samples, java.util.function.ToLongFunction<Sample> f) {
        return samples.stream().mapToLong(f).average().orElseThrow();
    }

    @Test
    void chainsAgainstARandomlyFailingServerEachEndOnceLeakNothingAndLeaveAValidChatFile() throws Exception {
        assertThat(CHAINS).as("-Dsoak.chains").isGreaterThanOrEqualTo(8);
        try (FaultServer server = new FaultServer()) {
            server.fallback(randomAnswer(new Random(SEED)));
            FaultSuiteIT.configure(configDir, server.url("/v1"), """
                    "retry": { "enabled": true, "baseDelayMs": 5, "maxDelayMs": 60000, "maxRetries": 6 },
                    "timeouts": { "connectMs": 2000, "firstByteMs": 400, "idleMs": 400 }""");
            // -Dsoak.nmt=true: Native Memory Tracking in the child, to say what RSS growth is made of (diagnostic).
            boolean nmt = Boolean.getBoolean("soak.nmt");
            ReboundProcess rebound = ReboundProcess.start(
                    configDir,
                    nmt ? Map.of("JAVA_TOOL_OPTIONS", "-XX:NativeMemoryTracking=summary") : Map.of(),
                    "--mode",
                    "rpc");
            try {
                assertThat(rebound.next(WAIT).path("type").asText()).isEqualTo("ready");
                long started = System.nanoTime();
                List<Sample> samples = new ArrayList<>();
                int sampleEvery = Math.max(1, CHAINS / Integer.getInteger("soak.samples", 8));
                Map<String, Integer> outcomes = new TreeMap<>();
                int retries = 0;
                for (int chain = 0; chain < CHAINS; chain++) {
                    List<JsonNode> frames = rebound.wholeTurn("chain " + chain, WAIT);
                    Map<String, Integer> counts = new TreeMap<>();
                    for (JsonNode f : frames) {
                        String type = f.path("type").asText();
                        if (type.equals("agent_end")) {
                            type += f.path("willRetry").asBoolean() ? "(retry)" : "(final)";
                        }
                        counts.merge(type, 1, Integer::sum);
                    }
                    int retryStarts = counts.getOrDefault("auto_retry_start", 0);
                    retries += retryStarts;
                    assertThat(counts.getOrDefault("agent_end(final)", 0))
                            .as("chain %d: one final agent_end %s", chain, counts)
                            .isEqualTo(1);
                    assertThat(counts.getOrDefault("retry_chain_end", 0))
                            .as(
                                    "chain %d: one retry_chain_end when it retried, at most one otherwise %s",
                                    chain, counts)
                            .isBetween(retryStarts > 0 ? 1 : 0, 1);
                    assertThat(counts.getOrDefault("auto_retry_end", 0))
                            .as("chain %d: one auto_retry_end when it retried %s", chain, counts)
                            .isEqualTo(retryStarts > 0 ? 1 : 0);
                    assertThat(counts.getOrDefault("agent_end(retry)", 0))
                            .as("chain %d: each retry announced once %s", chain, counts)
                            .isEqualTo(retryStarts);
                    JsonNode last = frames.stream()
                            .filter(f -> f.path("type").asText().equals("message_end"))
                            .reduce((a, b) -> b)
                            .orElseThrow()
                            .path("message");
                    outcomes.merge(
                            last.path("stopReason").asText() + "/"
                                    + last.path("failure").path("kind").asText("-"),
                            1,
                            Integer::sum);
                    if (chain % sampleEvery == sampleEvery - 1) {
                        samples.add(sample(chain + 1, rebound.pid()));
                        if (nmt && samples.size() == 1) {
                            run(jcmd(), Long.toString(rebound.pid()), "VM.native_memory", "baseline");
                        }
                    }
                }
                long seconds = (System.nanoTime() - started) / 1_000_000_000;
                String nativeGrowth = nmt
                        ? run(jcmd(), Long.toString(rebound.pid()), "VM.native_memory", "summary.diff", "scale=KB")
                        : "";
                rebound.send("{\"type\":\"get_state\",\"id\":\"s\"}");
                JsonNode state = rebound.until(f -> "s".equals(f.path("id").asText()), WAIT);
                Path chatFile = Path.of(state.path("data").path("sessionFile").asText());
                rebound.closeStdin();
                assertThat(rebound.waitForExit(WAIT)).isZero();

                int quarter = Math.max(1, samples.size() / 4);
                List<Sample> first = samples.subList(0, quarter);
                List<Sample> lastQ = samples.subList(samples.size() - quarter, samples.size());
                String figures =
                        "SOAK seed=%d chains=%d in %d s, requests=%d, retries=%d, faults injected=%s, outcomes=%s%n"
                                        .formatted(
                                                SEED,
                                                CHAINS,
                                                seconds,
                                                server.requests.get(),
                                                retries,
                                                new TreeMap<>(injected),
                                                outcomes)
                                + "  first quartile: threads %.1f fds %.1f heap %.0f KiB rss %.0f KiB%n"
                                        .formatted(
                                                mean(first, Sample::threads),
                                                mean(first, Sample::fds),
                                                mean(first, Sample::heapKiB),
                                                mean(first, Sample::rssKiB))
                                + "  last quartile:  threads %.1f fds %.1f heap %.0f KiB rss %.0f KiB%n"
                                        .formatted(
                                                mean(lastQ, Sample::threads),
                                                mean(lastQ, Sample::fds),
                                                mean(lastQ, Sample::heapKiB),
                                                mean(lastQ, Sample::rssKiB))
                                + "  samples: " + samples + "\n" + nativeGrowth;
                System.out.print(figures);
                Files.writeString(Path.of("target", "soak-figures.txt"), figures);

                assertThat(mean(lastQ, Sample::threads))
                        .as("no leaked threads\n%s", figures)
                        .isLessThanOrEqualTo(mean(first, Sample::threads) + 3);
                assertThat(mean(lastQ, Sample::fds))
                        .as("no leaked sockets or files\n%s", figures)
                        .isLessThanOrEqualTo(mean(first, Sample::fds) + 3);
                assertThat(mean(lastQ, Sample::heapKiB))
                        .as("no heap growth beyond the chat's own size\n%s", figures)
                        .isLessThanOrEqualTo(mean(first, Sample::heapKiB) * 1.25 + 4096);
                assertThat(injected.keySet())
                        .as("every fault kind was injected")
                        .hasSizeGreaterThanOrEqualTo(8);

                LoadedSession loaded = new SessionLoader().load(chatFile);
                assertThat(loaded.problems())
                        .as("the chat file reloads without damage")
                        .isEmpty();
                // Per chain, in file order: its prompt, and its assistant messages not marked as retried (the
                // answer, or the failure that ended the chain).
                Map<String, Integer> prompts = new TreeMap<>();
                Map<String, Integer> finalReplies = new TreeMap<>();
                Set<String> retried = loaded.retriedMessageIds();
                String chainOfMessage = null;
                for (JournalEntry e : loaded.entries()) {
                    if (!(e instanceof MessageEntry m)) {
                        continue;
                    }
                    if (m.message() instanceof dev.rebound.transcript.UserMessage u) {
                        chainOfMessage = u.text();
                        prompts.merge(u.text(), 1, Integer::sum);
                    } else if (m.message().role().equals("assistant")
                            && !retried.contains(m.message().id())) {
                        finalReplies.merge(String.valueOf(chainOfMessage), 1, Integer::sum);
                    }
                }
                Map<String, Integer> oncePerChain = new TreeMap<>();
                for (int chain = 0; chain < CHAINS; chain++) {
                    oncePerChain.put("chain " + chain, 1);
                }
                assertThat(prompts).as("every prompt saved exactly once").isEqualTo(oncePerChain);
                assertThat(finalReplies)
                        .as("one final assistant message per chain (the others are marked retried)")
                        .isEqualTo(oncePerChain);
                SecretSweep.assertNowhere(FaultSuiteIT.SECRETS, rebound, configDir);
            } finally {
                rebound.close();
            }
        }
    }
}
