package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamPacerTest {

    /** Time that passes only when the pacer sleeps (plus an optional cost per chunk sent). */
    private static final class FakeTicker implements Ticker {
        long now = 1_000_000_000L;
        int sleeps;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepNanos(long nanos) {
            sleeps++;
            now += nanos;
        }
    }

    private record Chunk(long at, String text) {}

    private static List<Chunk> run(FakeTicker ticker, int tokens, double rate, long costPerChunkNanos)
            throws Exception {
        List<Chunk> chunks = new ArrayList<>();
        new StreamPacer(ticker).send(Collections.nCopies(tokens, "x"), rate, text -> {
            chunks.add(new Chunk(ticker.now, text));
            ticker.now += costPerChunkNanos;
        });
        return chunks;
    }

    @Test
    void twoThousandTokensPerSecondForSixtySecondsTakesSixtySecondsInAboutSixThousandChunks() throws Exception {
        FakeTicker ticker = new FakeTicker();
        long start = ticker.now;

        List<Chunk> chunks = run(ticker, 120_000, 2000, 0);

        long elapsedMs = (ticker.now - start) / 1_000_000;
        assertThat(elapsedMs).isBetween(59_990L, 60_010L);
        assertThat(chunks.stream().mapToInt(c -> c.text().length()).sum()).isEqualTo(120_000);
        assertThat(chunks).hasSizeBetween(5_990, 6_010);
    }

    @Test
    void sendingLateCatchesUpInsteadOfDriftingSlower() throws Exception {
        FakeTicker ticker = new FakeTicker();
        long start = ticker.now;

        // Every write costs 3 ms, as a slow client would make it.
        run(ticker, 20_000, 2000, 3_000_000);

        assertThat((ticker.now - start) / 1_000_000).isBetween(9_990L, 10_020L);
    }

    @Test
    void aSlowRateSendsEachTokenOnItsOwnAtEvenIntervals() throws Exception {
        FakeTicker ticker = new FakeTicker();
        long start = ticker.now;

        List<Chunk> chunks = run(ticker, 5, 10, 0);

        assertThat(chunks).extracting(c -> (c.at() - start) / 1_000_000).containsExactly(0L, 100L, 200L, 300L, 400L);
        assertThat(chunks).allSatisfy(c -> assertThat(c.text()).isEqualTo("x"));
    }

    @Test
    void rateZeroSendsEverythingAtOnceWithoutSleeping() throws Exception {
        FakeTicker ticker = new FakeTicker();

        List<Chunk> chunks = run(ticker, 100, 0, 0);

        assertThat(ticker.sleeps).isZero();
        assertThat(chunks).extracting(c -> c.text().length()).containsExactly(32, 32, 32, 4);
    }

    @Test
    void aRateTooHighForLongArithmeticStillSendsEveryTokenAndEnds() {
        FakeTicker ticker = new FakeTicker();

        List<Chunk> chunks = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> run(ticker, 1_000, 1e22, 0));

        assertThat(chunks.stream().mapToInt(c -> c.text().length()).sum()).isEqualTo(1_000);
    }

    @Test
    void aRateAboveAMillionTokensPerSecondIsRefusedWithTheRange() {
        SimulatorServer.checkRate(SimulatorServer.MAX_TOKENS_PER_SECOND);

        assertThatThrownBy(() -> SimulatorServer.checkRate(1e22))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokens per second must be from 0 (as fast as possible) to 1,000,000, not "
                        + "10000000000000000000000");
        assertThatThrownBy(() -> new SimulatorServer.Config(0, Double.NaN, 1)).hasMessageEndingWith("not NaN");
    }
}
