package dev.rebound.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.expiry.ExpiryStore.Entry;
import dev.rebound.files.FileProblem;
import dev.rebound.json.Json;
import dev.rebound.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpiryStoreTest {
    private static final ObjectMapper MAPPER = Json.newMapper();
    private static final Instant START = Instant.parse("2026-12-01T10:15:00Z");
    /** The name a corrupt file is kept under when the clock reads {@link #START}. */
    private static final String CORRUPT_COPY = "blocks.json.corrupt-20261201T101500Z";
    /** Far enough ahead that an entry outlives every test, even one run by another process on the real clock. */
    private static final long FAR_FUTURE = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(START);
    private Path dir;
    private Path file;

    @BeforeEach
    void setUp() {
        dir = tmp.resolve("state");
        file = dir.resolve("blocks.json");
    }

    private ExpiryStore open() {
        return ExpiryStore.open(file, clock);
    }

    private long in(Duration duration) {
        return clock.millis() + duration.toMillis();
    }

    private void write(String content) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    private JsonNode fileJson() throws Exception {
        return MAPPER.readTree(file.toFile());
    }

    private List<String> keysInFile() throws Exception {
        List<String> keys = new ArrayList<>();
        fileJson().get("entries").fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private List<String> filesInStateDir() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private boolean posix() throws Exception {
        return Files.getFileStore(tmp).supportsFileAttributeView("posix");
    }

    @Test
    void anEntryIsActiveUntilTheMillisecondBeforeItsUntil() {
        ExpiryStore store = open();
        long until = in(Duration.ofSeconds(30));

        store.put("openai/work", until, "usage_limit");

        clock.set(until - 1);
        assertThat(store.get("openai/work")).contains(new Entry("openai/work", until, "usage_limit"));
        assertThat(store.active()).containsOnlyKeys("openai/work");
        clock.set(until);
        assertThat(store.get("openai/work")).isEmpty();
        assertThat(store.active()).isEmpty();
    }

    @Test
    void anExpiredEntryIsForgottenAtOnceAndDroppedFromTheFileOnTheNextWrite() throws Exception {
        ExpiryStore store = open();
        store.put("openai/work", in(Duration.ofSeconds(30)), "usage_limit");
        store.put("openai/personal", in(Duration.ofMinutes(30)), "usage_limit");

        clock.advance(Duration.ofSeconds(30));

        assertThat(store.get("openai/work")).isEmpty();
        assertThat(keysInFile()).contains("openai/work");
        store.put("anthropic/claude-sonnet-4-5", in(Duration.ofMinutes(1)), "overloaded");
        assertThat(keysInFile()).containsExactly("anthropic/claude-sonnet-4-5", "openai/personal");
    }

    @Test
    void aLaterPutReplacesAnEarlierOneEvenWhenItEndsSooner() {
        ExpiryStore store = open();
        store.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");

        store.put("openai/work", in(Duration.ofSeconds(30)), "rate_limit");

        Entry expected = new Entry("openai/work", in(Duration.ofSeconds(30)), "rate_limit");
        assertThat(store.get("openai/work")).contains(expected);
        assertThat(open().get("openai/work")).contains(expected);
    }

    @Test
    void aPutThatHasAlreadyExpiredClearsTheKey() throws Exception {
        ExpiryStore store = open();
        store.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");

        store.put("openai/work", clock.millis(), "usage_limit");

        assertThat(store.get("openai/work")).isEmpty();
        assertThat(keysInFile()).isEmpty();
    }

    @Test
    void removeForgetsTheEntryInMemoryAndInTheFile() throws Exception {
        ExpiryStore store = open();
        store.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");
        store.put("openai/personal", in(Duration.ofMinutes(30)), "usage_limit");

        store.remove("openai/work");

        assertThat(store.get("openai/work")).isEmpty();
        assertThat(keysInFile()).containsExactly("openai/personal");
    }

    @Test
    void entriesSurviveARestart() {
        ExpiryStore before = open();
        before.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");
        before.put("anthropic/claude-sonnet-4-5", in(Duration.ofSeconds(60)), "overloaded");

        ExpiryStore after = open();

        assertThat(after.active()).isEqualTo(before.active()).hasSize(2);
        assertThat(after.problems()).isEmpty();
    }

    @Test
    void theFileHoldsTheDocumentedFormatSortedByKey() throws Exception {
        ExpiryStore store = open();
        store.put("openai/work", Instant.parse("2026-12-01T10:30:00Z").toEpochMilli(), "usage_limit");
        store.put(
                "anthropic/claude-sonnet-4-5",
                Instant.parse("2026-12-01T10:16:00.250Z").toEpochMilli(),
                "overloaded");

        String text = Files.readString(file, StandardCharsets.UTF_8);

        assertThat(MAPPER.readTree(text)).isEqualTo(MAPPER.readTree("""
                { "version": 1, "entries": {
                    "anthropic/claude-sonnet-4-5": { "until": 1796120160250, "until_iso": "2026-12-01T10:16:00.250Z",
                                                     "reason": "overloaded" },
                    "openai/work": { "until": 1796121000000, "until_iso": "2026-12-01T10:30:00Z",
                                     "reason": "usage_limit" } } }
                """));
        assertThat(keysInFile()).containsExactly("anthropic/claude-sonnet-4-5", "openai/work");
        assertThat(text).endsWith("}\n");
    }

    @Test
    void aMissingFileIsAnEmptyStoreAndReadingWritesNothing() {
        ExpiryStore store = open();

        assertThat(store.active()).isEmpty();
        assertThat(store.get("openai/work")).isEmpty();
        assertThat(store.problems()).isEmpty();
        assertThat(dir).doesNotExist();
    }

    @Test
    void twoStoresOnOneFileSeeEachOthersChanges() {
        ExpiryStore window = open();
        ExpiryStore script = open();

        window.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");
        assertThat(script.get("openai/work")).isPresent();

        script.remove("openai/work");
        assertThat(window.get("openai/work")).isEmpty();
    }

    @Test
    void interleavedPutsFromTwoStoresLoseNoEntry() throws Exception {
        ExpiryStore window = open();
        ExpiryStore script = open();

        window.put("a", in(Duration.ofMinutes(1)), "usage_limit");
        script.put("b", in(Duration.ofMinutes(1)), "usage_limit");
        window.put("c", in(Duration.ofMinutes(1)), "overloaded");
        script.put("d", in(Duration.ofMinutes(1)), "overloaded");

        assertThat(keysInFile()).containsExactly("a", "b", "c", "d");
        assertThat(window.active()).containsOnlyKeys("a", "b", "c", "d");
        assertThat(script.active()).containsOnlyKeys("a", "b", "c", "d");
    }

    @Test
    void aRemoveIsNotUndoneByAnotherStoreThatStillRemembersTheEntry() throws Exception {
        ExpiryStore window = open();
        ExpiryStore script = open();
        window.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");
        assertThat(script.get("openai/work")).isPresent();

        window.remove("openai/work");
        script.put("openai/personal", in(Duration.ofMinutes(30)), "usage_limit");

        assertThat(keysInFile()).containsExactly("openai/personal");
        assertThat(script.get("openai/work")).isEmpty();
        assertThat(window.get("openai/work")).isEmpty();
    }

    @Test
    void aShorterPutIsNotUndoneByAnotherStoreThatStillRemembersTheLongerOne() {
        ExpiryStore window = open();
        ExpiryStore script = open();
        window.put("openai/work", in(Duration.ofMinutes(30)), "usage_limit");
        assertThat(script.get("openai/work")).isPresent();

        window.put("openai/work", in(Duration.ofSeconds(30)), "rate_limit");
        script.put("openai/personal", in(Duration.ofMinutes(30)), "usage_limit");

        assertThat(script.get("openai/work")).map(Entry::until).contains(in(Duration.ofSeconds(30)));
        assertThat(open().get("openai/work")).map(Entry::until).contains(in(Duration.ofSeconds(30)));
    }

    @Test
    void concurrentPutsFromTwoStoresOnManyThreadsAllArrive() throws Exception {
        assertConcurrentPutsAllArrive(List.of(open(), open()));
    }

    @Test
    void storesReachingTheFileThroughASymbolicLinkShareItsLock() throws Exception {
        Files.createDirectories(dir);
        Path link = tmp.resolve("link");
        try {
            Files.createSymbolicLink(link, dir);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "no symbolic links here: " + e);
        }

        assertConcurrentPutsAllArrive(List.of(open(), ExpiryStore.open(link.resolve("blocks.json"), clock)));
    }

    private void assertConcurrentPutsAllArrive(List<ExpiryStore> stores) throws Exception {
        int threadsPerStore = 4;
        int putsPerThread = 25;
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<Void>> writers = new ArrayList<>();
        for (int s = 0; s < stores.size(); s++) {
            for (int t = 0; t < threadsPerStore; t++) {
                ExpiryStore store = stores.get(s);
                String prefix = "s" + s + "-t" + t + "-";
                writers.add(() -> {
                    start.await();
                    for (int i = 0; i < putsPerThread; i++) {
                        store.put(prefix + i, FAR_FUTURE, "usage_limit");
                    }
                    return null;
                });
            }
        }

        runAll(writers, start);

        int expected = stores.size() * threadsPerStore * putsPerThread;
        assertThat(open().active()).hasSize(expected);
        assertThat(stores).allSatisfy(store -> {
            assertThat(store.active()).hasSize(expected);
            assertThat(store.problems()).isEmpty();
        });
    }

    @Test
    void putsFromAnotherProcessAndFromThisOneAllArrive() throws Exception {
        int childPuts = 60;
        Path childLog = tmp.resolve("child.log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OtherProcess.class.getName(),
                        file.toString(),
                        "child-",
                        Integer.toString(childPuts))
                .redirectErrorStream(true)
                .redirectOutput(childLog.toFile())
                .start();
        ExpiryStore store = open();
        int parentPuts = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try {
            // Write for as long as the other process lives, so that both write the file at the same time.
            while (child.isAlive() && System.nanoTime() < deadline) {
                store.put("parent-" + parentPuts++, FAR_FUTURE, "usage_limit");
            }
            assertThat(child.waitFor(10, TimeUnit.SECONDS))
                    .as("the other process ended")
                    .isTrue();
        } finally {
            child.destroyForcibly();
        }

        assertThat(child.exitValue()).as(Files.readString(childLog)).isZero();
        Set<String> expected = new HashSet<>();
        IntStream.range(0, childPuts).forEach(i -> expected.add("child-" + i));
        IntStream.range(0, parentPuts).forEach(i -> expected.add("parent-" + i));
        assertThat(open().active().keySet()).isEqualTo(expected);
        assertThat(store.active().keySet()).isEqualTo(expected);
    }

    /** The other process of {@link #putsFromAnotherProcessAndFromThisOneAllArrive}: file, key prefix, put count. */
    static final class OtherProcess {
        public static void main(String[] args) {
            ExpiryStore store = ExpiryStore.open(Path.of(args[0]), Clock.systemUTC());
            for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                store.put(args[1] + i, FAR_FUTURE, "usage_limit");
            }
            if (!store.problems().isEmpty()) {
                throw new IllegalStateException(store.problems().toString());
            }
        }
    }

    @Test
    void manyThreadsOnOneStoreLoseNothing() throws Exception {
        ExpiryStore store = open();
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            String prefix = "t" + t + "-";
            workers.add(() -> {
                start.await();
                for (int i = 0; i < 20; i++) {
                    store.put(prefix + i, FAR_FUTURE, "overloaded");
                    assertThat(store.get(prefix + i)).isPresent();
                    assertThat(store.active()).containsKey(prefix + i);
                }
                return null;
            });
        }

        runAll(workers, start);

        assertThat(store.active()).hasSize(8 * 20);
        assertThat(keysInFile()).hasSize(8 * 20);
    }

    private static void runAll(List<Callable<Void>> tasks, CountDownLatch start) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> results = tasks.stream().map(pool::submit).toList();
            start.countDown();
            for (Future<Void> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileThatIsNotJsonGivesAWarningAtItsLineAndColumnAndAnEmptyStore() throws Exception {
        write("{\n  \"version\": 1,\n  \"entries\": { oops }\n}\n");

        ExpiryStore store = open();

        assertThat(store.active()).isEmpty();
        assertThat(store.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.severity()).isEqualTo(FileProblem.Severity.WARNING);
            assertThat(problem.message()).contains(file.toString(), "line 3, column 16", "blocks.json.corrupt-");
        });
    }

    @Test
    void aDamagedFileIsKeptByteForByteBeforeTheFirstWriteAndOnlyThen() throws Exception {
        byte[] original = "{ \"entries\": { \"openai/work\": \u00ff".getBytes(StandardCharsets.ISO_8859_1);
        Files.createDirectories(dir);
        Files.write(file, original);
        ExpiryStore store = open();
        store.get("openai/work");
        assertThat(filesInStateDir()).containsExactly("blocks.json");

        store.put("openai/personal", in(Duration.ofMinutes(30)), "usage_limit");
        store.put("openai/other", in(Duration.ofMinutes(30)), "usage_limit");

        assertThat(filesInStateDir()).containsExactly("blocks.json", CORRUPT_COPY, "blocks.json.lock");
        assertThat(dir.resolve(CORRUPT_COPY)).hasBinaryContent(original);
        assertThat(keysInFile()).containsExactly("openai/other", "openai/personal");
        assertThat(store.problems())
                .last()
                .extracting(FileProblem::message)
                .asString()
                .contains(dir.resolve(CORRUPT_COPY).toString());
    }

    @Test
    void theValidEntriesOfAFileWithBadEntriesAreKeptAndTheBadOnesReportedByKeyPath() throws Exception {
        String content = """
                { "version": 1, "extra": true, "entries": {
                    "good": { "until": %d, "until_iso": "not read", "reason": "usage_limit" },
                    "until-a-string": { "until": "tomorrow", "reason": "usage_limit" },
                    "until-a-fraction": { "until": 1.5, "reason": "usage_limit" },
                    "reason-a-number": { "until": %d, "reason": 42 },
                    "not-an-object": [1],
                    "bell\\u0007key": { "until": %d, "reason": "overloaded" },
                    "expired": { "until": %d, "reason": "overloaded" } } }
                """.formatted(FAR_FUTURE, FAR_FUTURE, FAR_FUTURE, clock.millis());
        write(content);

        ExpiryStore store = open();

        assertThat(store.active()).containsOnlyKeys("good");
        assertThat(store.problems())
                .extracting(FileProblem::keyPath)
                .containsExactlyInAnyOrder(
                        "blocks.json: entries.until-a-string.until",
                        "blocks.json: entries.until-a-fraction.until",
                        "blocks.json: entries.reason-a-number.reason",
                        "blocks.json: entries.not-an-object",
                        "blocks.json: entries");
        assertThat(store.problems()).allSatisfy(p -> assertThat(p.isError()).isFalse());
        store.put("new", FAR_FUTURE, "overloaded");
        assertThat(keysInFile()).containsExactly("good", "new");
        assertThat(dir.resolve(CORRUPT_COPY)).hasContent(content);
    }

    static Stream<Arguments> filesOfAnotherShape() {
        String kept = "\"kept\": { \"until\": 4102444800000, \"reason\": \"x\" }";
        return Stream.of(
                Arguments.of("[1, 2]", List.of()),
                Arguments.of("\"text\"", List.of()),
                Arguments.of("{ \"entries\": [] }", List.of()),
                Arguments.of("{ \"entries\": { " + kept + " } } trailing", List.of()),
                Arguments.of("{ \"version\": \"1\", \"entries\": { " + kept + " } }", List.of("kept")),
                Arguments.of("{ \"version\": 2, \"entries\": { " + kept + " } }", List.of("kept")));
    }

    @ParameterizedTest
    @MethodSource("filesOfAnotherShape")
    void aFileOfAnotherShapeIsAWarningKeepsWhatItCanAndIsCopiedBeforeItIsReplaced(String content, List<String> keptKeys)
            throws Exception {
        write(content);

        ExpiryStore store = open();

        assertThat(store.problems())
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.isError()).isFalse());
        assertThat(store.active().keySet()).containsExactlyElementsOf(keptKeys);
        store.put("new", FAR_FUTURE, "overloaded");
        assertThat(dir.resolve(CORRUPT_COPY)).hasContent(content);
        assertThat(keysInFile())
                .containsExactlyElementsOf(
                        Stream.concat(keptKeys.stream(), Stream.of("new")).toList());
    }

    @Test
    void keysAndReasonsAreWrittenExactlyAsGivenAndNothingElseIsWritten() throws Exception {
        String key = "openai/\"work\" \\ ünïcode 🔑 label";
        ExpiryStore store = open();

        store.put(key, FAR_FUTURE, "usage_limit");

        assertThat(open().active()).containsOnlyKeys(key);
        Set<String> texts = new HashSet<>();
        collectTexts(fileJson(), texts);
        assertThat(texts)
                .containsExactlyInAnyOrder(
                        "version",
                        "entries",
                        key,
                        "until",
                        "until_iso",
                        "reason",
                        "usage_limit",
                        Instant.ofEpochMilli(FAR_FUTURE).toString());
    }

    private static void collectTexts(JsonNode node, Set<String> texts) {
        if (node.isTextual()) {
            texts.add(node.textValue());
        }
        node.properties().forEach(member -> {
            texts.add(member.getKey());
            collectTexts(member.getValue(), texts);
        });
        if (node.isArray()) {
            node.forEach(element -> collectTexts(element, texts));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "line\nbreak", "nul\u0000", "del\u007f", "lone\uD800surrogate", "c1\u0085"})
    void keysThatCouldNotBeReadBackAsGivenAreRefused(String key) {
        ExpiryStore store = open();

        assertThatThrownBy(() -> store.put(key, FAR_FUTURE, "usage_limit"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.put("openai/work", FAR_FUTURE, key.isBlank() ? "tab\t" : key))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(dir).doesNotExist();
    }

    @Test
    void keysAndReasonsAreLimitedTo200CharactersAndNotQuotedWhenRefused() {
        ExpiryStore store = open();
        String longest = "k".repeat(200);
        store.put(longest, FAR_FUTURE, "r".repeat(200));

        assertThat(store.get(longest)).isPresent();
        assertThatThrownBy(() -> store.put("k".repeat(201), FAR_FUTURE, "usage_limit"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("201")
                .hasMessageNotContaining("kkkk");
        assertThatThrownBy(() -> store.put("openai/work", FAR_FUTURE, "r".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFileItsLockAndItsCorruptCopyAreOwnerOnly() throws Exception {
        assumeTrue(posix());
        write("not json");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        ExpiryStore store = open();

        store.put("openai/work", FAR_FUTURE, "usage_limit");

        for (String name : List.of("blocks.json", "blocks.json.lock", CORRUPT_COPY)) {
            assertThat(Files.getPosixFilePermissions(dir.resolve(name)))
                    .as(name)
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void aFailedWriteKeepsTheChangeAndSavesItWithTheNextOne() throws Exception {
        Files.createDirectories(file);
        ExpiryStore store = open();

        store.put("openai/work", FAR_FUTURE, "usage_limit");

        assertThat(store.get("openai/work")).isPresent();
        assertThat(store.problems()).anySatisfy(p -> assertThat(p.message()).startsWith("could not save " + file));
        Files.delete(file);
        store.put("openai/personal", FAR_FUTURE, "usage_limit");
        assertThat(open().active()).containsOnlyKeys("openai/work", "openai/personal");
    }

    @Test
    void deletingTheFileClearsEveryEntry() throws Exception {
        ExpiryStore store = open();
        store.put("openai/work", FAR_FUTURE, "usage_limit");

        Files.delete(file);

        assertThat(store.get("openai/work")).isEmpty();
        assertThat(store.problems()).isEmpty();
    }

    @Test
    void readsTrustAnUnchangedStatButAWriteAlwaysRereadsTheFile() throws Exception {
        ExpiryStore store = open();
        store.put("a", FAR_FUTURE, "usage_limit");
        FileTime modified = Files.getLastModifiedTime(file);
        String sameSize = Files.readString(file).replace("\"a\"", "\"b\"");
        Files.writeString(file, sameSize);
        Files.setLastModifiedTime(file, modified);

        assertThat(store.get("a")).as("an unchanged stat is trusted: no reread").isPresent();
        store.put("c", FAR_FUTURE, "usage_limit");
        assertThat(keysInFile()).containsExactly("b", "c");
        assertThat(store.active()).containsOnlyKeys("b", "c");
    }
}
