package dev.rebound.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store that writes behind: changes hold at once for every reader, and no reader waits on the disk. */
class ExpiryStoreWriteBehindTest {
    private static final long FAR_FUTURE = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:15:00Z"));
    private final SlowDisk disk = new SlowDisk();
    private final ExecutorService readers = Executors.newSingleThreadExecutor();

    @AfterEach
    void close() {
        disk.close();
        readers.shutdownNow();
    }

    private Path file() {
        return dir.resolve("credential-blocks.json");
    }

    @Test
    void aChangeHoldsAtOnceForEveryReaderWhileTheDiskIsStillWritingIt() throws Exception {
        ExpiryStore store = disk.open(file(), clock);

        store.extend("openai/work", FAR_FUTURE, "usage_limit");
        assertThat(disk.awaitWriting()).isTrue();

        // Another thread reads the store while the write holds the file's locks: it must not wait for the disk.
        CompletableFuture<Boolean> read = CompletableFuture.supplyAsync(
                () -> store.get("openai/work").isPresent()
                        && store.active().size() == 1
                        && store.problems().isEmpty(),
                readers);
        assertThat(read.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(file()).doesNotExist();

        disk.release();
        store.flush();
        assertThat(keysInFile()).containsExactly("openai/work");
    }

    @Test
    void changesMadeWhileAWriteRunsAreWrittenTogetherByTheNextOne() throws Exception {
        ExpiryStore store = disk.open(file(), clock);
        store.put("openai/work", FAR_FUTURE, "usage_limit");
        assertThat(disk.awaitWriting()).isTrue();

        store.put("openai/personal", FAR_FUTURE, "usage_limit");
        store.put("anthropic/main", FAR_FUTURE, "usage_limit");
        store.remove("openai/work");
        assertThat(store.active()).containsOnlyKeys("openai/personal", "anthropic/main");

        disk.release();
        store.flush();
        assertThat(keysInFile()).containsExactly("anthropic/main", "openai/personal");
        assertThat(disk.writes()).isLessThanOrEqualTo(2);
    }

    @Test
    void anotherStoreOfTheFileSeesTheChangeOnceItIsWritten() throws Exception {
        ExpiryStore mine = disk.open(file(), clock);
        ExpiryStore theirs = ExpiryStore.open(file(), clock);

        mine.extend("openai/work", FAR_FUTURE, "usage_limit");
        assertThat(theirs.get("openai/work")).isEmpty();
        disk.release();
        mine.flush();

        assertThat(theirs.get("openai/work")).isPresent();
    }

    @Test
    void aFailedWriteKeepsTheChangeAndTheNextChangeWritesBoth() throws Exception {
        disk.failNext(1);
        ExpiryStore store = disk.open(file(), clock);
        disk.release();

        store.extend("openai/work", FAR_FUTURE, "usage_limit");
        store.flush();
        assertThat(store.problems())
                .singleElement()
                .satisfies(
                        p -> assertThat(p.describe()).contains("could not save").contains("No space left on device"));
        assertThat(store.get("openai/work")).isPresent();

        store.extend("openai/personal", FAR_FUTURE, "usage_limit");
        store.flush();
        assertThat(keysInFile()).containsExactly("openai/personal", "openai/work");
    }

    @Test
    void whenTheWriterHasStoppedAChangeIsWrittenOnTheCallersThread() throws Exception {
        ExecutorService stopped = Executors.newSingleThreadExecutor();
        stopped.shutdown();
        ExpiryStore store = ExpiryStore.open(file(), clock, stopped);

        store.put("openai/work", FAR_FUTURE, "usage_limit");

        assertThat(keysInFile()).containsExactly("openai/work");
    }

    private List<String> keysInFile() throws Exception {
        List<String> keys = new ArrayList<>();
        new ObjectMapper()
                .readTree(Files.readString(file()))
                .get("entries")
                .fieldNames()
                .forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aShorterExtendMadeWhileALongerOneWaitsToBeWrittenNeverShortensIt() throws Exception {
        ExpiryStore store = disk.open(file(), clock);
        store.extend("openai/other", FAR_FUTURE, "usage_limit");
        assertThat(disk.awaitWriting()).isTrue();
        long hour = clock.millis() + 3_600_000;
        long minute = clock.millis() + 60_000;

        store.extend("openai/work", hour, "usage_limit");
        store.extend("openai/work", minute, "usage_limit");
        assertEndsOnceWritten(store, "openai/work", hour);
    }

    @Test
    void anUnwrittenExtendThatExpiresLeavesALongerEntryOfAnotherStoreAlone() throws Exception {
        ExpiryStore theirs = ExpiryStore.open(file(), clock);
        theirs.extend("anthropic/claude", clock.millis() + 600_000, "overloaded");
        ExpiryStore mine = disk.open(file(), clock);
        mine.extend("openai/other", FAR_FUTURE, "usage_limit");
        assertThat(disk.awaitWriting()).isTrue();

        mine.extend("anthropic/claude", clock.millis() + 1_000, "overloaded");
        clock.advance(java.time.Duration.ofSeconds(2));
        assertThat(mine.active()).containsKey("anthropic/claude"); // a read while the extend waits, after it expired
        disk.release();
        mine.flush();

        assertThat(ExpiryStore.open(file(), clock).get("anthropic/claude"))
                .as("the other store's 10 min cooldown")
                .isPresent();
    }

    @Test
    void anExtendAfterAnUnwrittenRemoveReplacesTheFilesLongerEntry() throws Exception {
        ExpiryStore.open(file(), clock).put("openai/work", FAR_FUTURE, "usage_limit");
        ExpiryStore store = disk.open(file(), clock);
        store.extend("openai/other", FAR_FUTURE, "usage_limit");
        assertThat(disk.awaitWriting()).isTrue();
        long hour = clock.millis() + 3_600_000;

        store.remove("openai/work");
        store.extend("openai/work", hour, "usage_limit");
        assertThat(store.get("openai/work"))
                .hasValueSatisfying(e -> assertThat(e.until()).isEqualTo(hour));
        assertEndsOnceWritten(store, "openai/work", hour);
    }

    /** Releases the disk, writes, and checks that the key ends then in this store and in the file. */
    private void assertEndsOnceWritten(ExpiryStore store, String key, long until) {
        disk.release();
        store.flush();
        assertThat(store.get(key)).hasValueSatisfying(e -> assertThat(e.until()).isEqualTo(until));
        assertThat(ExpiryStore.open(file(), clock).get(key))
                .hasValueSatisfying(e -> assertThat(e.until()).isEqualTo(until));
    }
}
