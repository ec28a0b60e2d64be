package dev.rebound.retry;

import static dev.rebound.retry.EngineHarness.http;
import static dev.rebound.retry.EngineHarness.ok;

import dev.rebound.expiry.SlowDisk;
import dev.rebound.session.ChatSession;
import dev.rebound.settings.RetrySettings.RevertPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How long what {@code get_state} reads of a chat takes while a credential block of a retry decision is still being
 * written (the disk holds the write for the whole measurement): for the chat whose engine blocked the key, and for
 * another chat sharing the stores. Named {@code *Benchmark}, so the build never runs it; run on demand (see
 * docs/benchmarks.md):
 *
 * <pre>./mvnw -pl plugin-api,app test -Dtest=GetStateUnderSlowDiskBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class GetStateUnderSlowDiskBenchmark {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;

    @Test
    void getStateWhileACredentialBlockIsBeingWritten() throws Exception {
        Path dir = Files.createTempDirectory("rebound-bench");
        try (SlowDisk disk = new SlowDisk();
                PoolHarness h = new PoolHarness(
                        dir,
                        PoolHarness.retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()),
                        PoolHarness.twoKeys(),
                        disk);
                ChatSession other = h.otherChat()) {
            h.script(
                    http(
                            429,
                            "Too Many Requests",
                            "You've hit your usage limit for this plan.",
                            null,
                            null,
                            Map.of("retry-after", "1800")),
                    ok("from b"));
            h.prompt("hi");
            if (!disk.awaitWriting()) {
                throw new AssertionError("the block was never written");
            }
            report("same chat", measure(h.session));
            report("other chat", measure(other));
            System.out.println("disk writes still held: " + (Files.exists(h.blocks.file()) ? "no" : "yes"));
        }
    }

    private static long[] measure(ChatSession chat) {
        long sink = 0;
        for (int i = 0; i < WARM_UP; i++) {
            sink += read(chat);
        }
        long[] nanos = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            long start = System.nanoTime();
            sink += read(chat);
            nanos[i] = System.nanoTime() - start;
        }
        if (sink == 42) {
            System.out.println();
        }
        Arrays.sort(nanos);
        return nanos;
    }

    /** What get_state reads (RpcServer.state()). */
    private static long read(ChatSession chat) {
        return chat.state().messageCount()
                + chat.retryStatus().attempt()
                + (chat.fallback().isPresent() ? 1 : 0)
                + (chat.title() == null ? 0 : 1);
    }

    private static void report(String what, long[] sorted) {
        System.out.printf(
                "get_state reads, %s, %d calls while the write is held: median %.1f us, p99 %.1f us, "
                        + "max %.1f us%n",
                what,
                sorted.length,
                sorted[sorted.length / 2] / 1e3,
                sorted[(int) (sorted.length * 0.99)] / 1e3,
                sorted[sorted.length - 1] / 1e3);
    }
}
