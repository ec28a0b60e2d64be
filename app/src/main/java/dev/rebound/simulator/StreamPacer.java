package dev.rebound.simulator;

import java.io.IOException;
import java.util.List;

/**
 * Sends tokens at a steady rate. Token {@code i} is due {@code i / rate} seconds after the first, on an absolute
 * schedule, so sleeping late never makes the stream slower on average. Every token due when the pacer wakes goes out in
 * one chunk, and the pacer sleeps at least {@link #MIN_SLEEP_NANOS} between chunks: at 2,000 tokens/s that is about
 * 20 tokens per chunk and 100 chunks per second instead of 2,000 tiny writes. A rate of 0 sends everything at once,
 * {@value #UNPACED_CHUNK_TOKENS} tokens per chunk.
 */
final class StreamPacer {
    /** The shortest pause between two chunks. */
    static final long MIN_SLEEP_NANOS = 10_000_000;
    /** Tokens per chunk when the rate is 0 (as fast as possible). */
    static final int UNPACED_CHUNK_TOKENS = 32;

    private static final double NANOS_PER_SECOND = 1e9;

    /** Receives the chunks. */
    @FunctionalInterface
    interface ChunkSink {
        void send(String text) throws IOException;
    }

    private final Ticker ticker;

    StreamPacer(Ticker ticker) {
        this.ticker = ticker;
    }

    /**
     * Sends the tokens, blocking until the last is sent.
     *
     * @param tokensPerSecond the rate; 0 or less for as fast as possible
     */
    void send(List<String> tokens, double tokensPerSecond, ChunkSink sink) throws IOException, InterruptedException {
        int n = tokens.size();
        if (tokensPerSecond <= 0) {
            for (int from = 0; from < n; from += UNPACED_CHUNK_TOKENS) {
                sink.send(join(tokens, from, Math.min(n, from + UNPACED_CHUNK_TOKENS)));
            }
            return;
        }
        double nanosPerToken = NANOS_PER_SECOND / tokensPerSecond;
        long start = ticker.nanoTime();
        int sent = 0;
        while (sent < n) {
            long elapsed = ticker.nanoTime() - start;
            // In doubles, clamped before the cast: a huge rate must not overflow into a negative count.
            int due = (int) Math.min(n, Math.floor(elapsed / nanosPerToken) + 1);
            if (due > sent) {
                sink.send(join(tokens, sent, due));
                sent = due;
            }
            if (sent < n) {
                long nextDue = start + (long) Math.ceil(sent * nanosPerToken);
                ticker.sleepNanos(Math.max(MIN_SLEEP_NANOS, nextDue - ticker.nanoTime()));
            }
        }
    }

    private static String join(List<String> tokens, int from, int to) {
        if (to - from == 1) {
            return tokens.get(from);
        }
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append(tokens.get(i));
        }
        return text.toString();
    }
}
