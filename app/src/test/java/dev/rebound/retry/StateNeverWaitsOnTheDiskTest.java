package dev.rebound.retry;

import static dev.rebound.retry.EngineHarness.http;
import static dev.rebound.retry.EngineHarness.ok;
import static dev.rebound.retry.EngineHarness.overloaded;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.expiry.SlowDisk;
import dev.rebound.session.ChatSession;
import dev.rebound.session.FallbackStatus;
import dev.rebound.session.RetryStatus;
import dev.rebound.session.SessionState;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.RetrySettings.RevertPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry decision that blocks a key or cools a model down never waits on the disk, and neither does anyone asking
 * for a chat's state meanwhile ({@code get_state}, the banner, the fallback chip): the state files are on a disk that
 * holds every write until the test releases it, and everything here must finish while it is still held.
 */
class StateNeverWaitsOnTheDiskTest {
    private static final long WAIT_SECONDS = 10;

    @TempDir
    Path dir;

    private final SlowDisk disk = new SlowDisk();
    private final ExecutorService host = Executors.newSingleThreadExecutor();
    private PoolHarness h;
    private ChatSession other;

    @AfterEach
    void close() {
        disk.close();
        host.shutdownNow();
        if (other != null) {
            other.close();
        }
        if (h != null) {
            h.close();
        }
    }

    /** What get_state reads of a chat, asked from a host thread: it must come back while the disk is held. */
    private State stateOf(ChatSession chat) throws Exception {
        return CompletableFuture.supplyAsync(
                        () -> new State(chat.state(), chat.retryStatus(), chat.fallback(), chat.title()), host)
                .get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private record State(SessionState session, RetryStatus retry, Optional<FallbackStatus> fallback, String title) {}

    @Test
    void aKeySwitchedAfterAUsageLimitAnswersAndEveryChatsStateIsReadWhileTheBlockIsStillBeingWritten()
            throws Exception {
        h = new PoolHarness(
                dir,
                PoolHarness.retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, Map.of()),
                PoolHarness.twoKeys(),
                disk);
        other = h.otherChat();
        h.script(
                http(
                        429,
                        "Too Many Requests",
                        "You've hit your usage limit for this plan.",
                        null,
                        null,
                        Map.of("retry-after", "1800")),
                ok("from b"));

        TurnOutcome outcome = h.prompt("hi");

        assertThat(disk.awaitWriting()).as("the block is being written").isTrue();
        assertThat(outcome.finalMessage().text()).isEqualTo("from b");
        assertThat(h.all(CredentialSwitched.class))
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo("b"));
        assertThat(stateOf(h.session).retry()).isEqualTo(RetryStatus.IDLE);
        assertThat(stateOf(other).session().turnRunning()).isFalse();
        assertThat(h.pool.allBlocked("anthropic")).isFalse();
        assertThat(h.blocks.get("anthropic/a"))
                .as("in force for every chat before it is on disk")
                .isPresent();
        assertThat(Files.exists(h.blocks.file())).isFalse();

        disk.release();
        h.blocks.flush();
        assertThat(Files.readString(h.blocks.file())).contains("\"anthropic/a\"");
    }

    @Test
    void aFallbackWhoseCooldownIsStillBeingWrittenIsShownAtOnceInItsChatAndTheOther() throws Exception {
        h = new PoolHarness(
                dir,
                PoolHarness.retry(300_000, 600_000, RevertPolicy.COOLDOWN_EXPIRY, PoolHarness.defaultChain()),
                PoolHarness.twoKeys(),
                disk);
        other = h.otherChat();
        h.script(overloaded(), ok("from gpt"));

        TurnOutcome outcome = h.prompt("hi");

        assertThat(disk.awaitWriting()).as("the cooldown is being written").isTrue();
        assertThat(outcome.finalMessage().text()).isEqualTo("from gpt");
        assertThat(h.all(RetryFallbackApplied.class)).hasSize(1);
        State mine = stateOf(h.session);
        assertThat(mine.fallback()).hasValueSatisfying(f -> {
            assertThat(f.current()).isEqualTo(PoolHarness.GPT.selector());
            assertThat(f.revertAt()).isGreaterThan(h.clock.millis());
        });
        assertThat(stateOf(other).fallback())
                .as("the other chat never fell back")
                .isEmpty();
        assertThat(h.cooldowns.isSuppressed(PoolHarness.CLAUDE))
                .as("cooling for every chat")
                .isTrue();
        assertThat(Files.exists(h.cooldownStore.file())).isFalse();

        disk.release();
        h.cooldownStore.flush();
        assertThat(Files.readString(h.cooldownStore.file())).contains("anthropic/claude-sonnet-4-5");
    }

    @Test
    void theStatusOfAChatIsReadWithoutWaitingForADecisionInProgress() throws Exception {
        CountDownLatch deciding = new CountDownLatch(1);
        CountDownLatch decide = new CountDownLatch(1);
        ModelFallback slowPolicy = (failed, classification, hintMs) -> {
            deciding.countDown();
            try {
                decide.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        };
        try (EngineHarness engine = new EngineHarness(slowPolicy)) {
            engine.script(overloaded(), ok("done"));
            var turn = engine.promptAsync("hi");
            assertThat(deciding.await(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("a decision is in progress")
                    .isTrue();

            State state = stateOf(engine.session);
            assertThat(state.retry()).as("the chain has not been decided yet").isEqualTo(RetryStatus.IDLE);
            assertThat(state.session().turnRunning()).isTrue();

            decide.countDown();
            assertThat(turn.completion()
                            .get(WAIT_SECONDS, TimeUnit.SECONDS)
                            .finalMessage()
                            .text())
                    .isEqualTo("done");
        } finally {
            decide.countDown();
        }
    }
}
