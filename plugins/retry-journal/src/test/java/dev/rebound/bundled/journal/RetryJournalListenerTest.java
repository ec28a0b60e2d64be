package dev.rebound.bundled.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import ch.qos.logback.classic.Level;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import dev.rebound.api.SessionRef;
import dev.rebound.plugintest.LogCapture;
import dev.rebound.plugintest.SessionScript;
import dev.rebound.plugintest.TestPluginContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryJournalListenerTest {

    private static final long START = Instant.parse("2026-12-01T09:00:00Z").toEpochMilli();

    @TempDir
    Path dataDirectory;

    private static final SessionRef CHAT = new SessionRef("chat-1", "2026-12-01T09-00-00_chat1.jsonl");
    private final SessionScript script = new SessionScript(CHAT, START);

    @Test
    void aChainOfThreeOverloadsThenASuccessIsOneCompleteLine() throws IOException {
        feed(newListener(), script.overloadedThenSucceeds("turn-1", 3));

        // The recorded backoff: 438, 875 and 1750 ms (base 500 ms doubling, with the engine's jitter).
        String overloaded = SessionScript.OVERLOADED;
        assertThat(journalLines())
                .containsExactly("{\"time\":\"2026-12-01T09:00:03.063Z\",\"sessionId\":\"chat-1\","
                        + "\"chatFile\":\"2026-12-01T09-00-00_chat1.jsonl\",\"turnId\":\"turn-1\","
                        + "\"outcome\":\"succeeded\",\"giveUpReason\":null,\"attempts\":["
                        + attempt(0, 438, overloaded) + "," + attempt(1, 875, overloaded) + ","
                        + attempt(2, 1750, overloaded) + "],"
                        + "\"finalError\":null,\"startedAt\":\"2026-12-01T09:00:00Z\",\"durationMs\":3063,"
                        + "\"appVersion\":\"0.2.0-SNAPSHOT\"}");
    }

    @Test
    void anExhaustedChainRecordsItsLastFailureWithoutDelayAndWhyItGaveUp() throws IOException {
        feed(newListener(), script.overloadedUntilExhausted("turn-1", 2));

        String line = journalLines().getFirst();
        assertThat(line)
                .contains("\"outcome\":\"gave_up\",\"giveUpReason\":\"exhausted\"")
                .contains("{\"attempt\":2,\"errorKind\":\"transient\",\"httpStatus\":529,"
                        + "\"model\":\"anthropic/claude-sonnet-4-5\",\"credential\":\"work\",\"delayMs\":null,")
                .contains("\"finalError\":\"529 Overloaded:");
    }

    @Test
    void turnsWithoutRetryWriteNothingAndChainsAppendInOrderToWhatIsThere() throws IOException {
        Files.writeString(dataDirectory.resolve(RetryJournalListener.FILE_NAME), "{\"earlier\":true}\n");
        SessionEventListener listener = newListener();

        feed(listener, script.answeredAtOnce("turn-1"));
        feed(listener, script.overloadedThenSucceeds("turn-2", 1));
        feed(listener, script.answeredAtOnce("turn-3"));
        feed(listener, script.overloadedUntilExhausted("turn-4", 1));

        assertThat(journalLines()).hasSize(3);
        assertThat(journalLines().get(0)).isEqualTo("{\"earlier\":true}");
        assertThat(journalLines().get(1)).contains("\"turnId\":\"turn-2\"", "\"outcome\":\"succeeded\"");
        assertThat(journalLines().get(2)).contains("\"turnId\":\"turn-4\"", "\"outcome\":\"gave_up\"");
    }

    @Test
    void aJournalThatCannotBeWrittenIsLoggedOnceAndNeverThrows() throws IOException {
        Path notADirectory = Files.writeString(dataDirectory.resolve("occupied"), "a file, not a folder");
        SessionEventListener listener =
                new RetryJournalListener(TestPluginContext.of("retry-journal", notADirectory, Map.of()));

        try (LogCapture log = LogCapture.of("dev.rebound.bundled.journal")) {
            assertThatCode(() -> {
                        feed(listener, script.overloadedThenSucceeds("turn-1", 1));
                        feed(listener, script.overloadedThenSucceeds("turn-2", 1));
                    })
                    .doesNotThrowAnyException();

            assertThat(log.messages(Level.WARN))
                    .singleElement()
                    .asString()
                    .startsWith("Could not write the retry journal " + notADirectory.resolve("retry-journal.jsonl"))
                    .contains("Check that the folder exists");
        }
    }

    @Test
    void writingAgainAfterAFailureIsLoggedAndJournalsTheNextChain() throws IOException {
        Path later = dataDirectory.resolve("later");
        Files.writeString(later, "a file for now");
        SessionEventListener listener =
                new RetryJournalListener(TestPluginContext.of("retry-journal", later, Map.of()));

        try (LogCapture log = LogCapture.of("dev.rebound.bundled.journal")) {
            feed(listener, script.overloadedThenSucceeds("turn-1", 1));
            Files.delete(later);
            feed(listener, script.overloadedThenSucceeds("turn-2", 1));

            assertThat(log.messages(Level.INFO)).singleElement().asString().contains("can be written again");
        }
        assertThat(Files.readAllLines(later.resolve(RetryJournalListener.FILE_NAME)))
                .singleElement()
                .asString()
                .contains("\"turnId\":\"turn-2\"");
    }

    @Test
    void theJournalIsCreatedOwnerOnlyAndAnEarlierWorldReadableOneIsMadeOwnerOnly() throws IOException {
        Assumptions.assumeTrue(
                dataDirectory.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
        feed(newListener(), script.overloadedThenSucceeds("turn-1", 1));
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(dataDirectory.resolve(RetryJournalListener.FILE_NAME))))
                .as("error texts are journaled: the owner's only")
                .isEqualTo("rw-------");

        Path earlier = Files.createDirectories(dataDirectory.resolve("earlier"));
        Path old = Files.writeString(earlier.resolve(RetryJournalListener.FILE_NAME), "{\"earlier\":true}\n");
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
        feed(
                new RetryJournalListener(TestPluginContext.of("retry-journal", earlier, Map.of())),
                script.overloadedThenSucceeds("turn-1", 1));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(old)))
                .isEqualTo("rw-------");
        assertThat(Files.readAllLines(old)).hasSize(2);
    }

    private static String attempt(int number, long delayMs, String message) {
        return "{\"attempt\":" + number + ",\"errorKind\":\"transient\",\"httpStatus\":529,"
                + "\"model\":\"anthropic/claude-sonnet-4-5\",\"credential\":\"work\",\"delayMs\":" + delayMs
                + ",\"message\":\"" + message + "\"}";
    }

    private SessionEventListener newListener() {
        return new RetryJournalListener(TestPluginContext.of("retry-journal", dataDirectory, Map.of()));
    }

    private static void feed(SessionEventListener listener, List<SessionEvent> events) {
        events.forEach(listener::dispatch);
    }

    private List<String> journalLines() throws IOException {
        return Files.readAllLines(dataDirectory.resolve(RetryJournalListener.FILE_NAME));
    }
}
