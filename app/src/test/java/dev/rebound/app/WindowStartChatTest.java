package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat a window starts with ({@link SessionFactory#reuseEmptyOrCreate}): the chat it started with last time when
 * that one still holds nothing, so starting and closing the app without a message does not leave an empty chat behind
 * each time.
 */
class WindowStartChatTest {
    @TempDir
    Path configDir;

    private DesktopHarness harness;

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void aStartAfterOneClosedWithoutAMessageOpensTheSameChatAndMakesNoFile() throws Exception {
        SessionFactory sessions = start();
        String first;
        try (ChatSession chat = sessions.reuseEmptyOrCreate(null).session()) {
            first = chat.id();
        }

        try (ChatSession chat = sessions.reuseEmptyOrCreate(first).session()) {
            assertThat(chat.id()).isEqualTo(first);
            assertThat(sessionFiles()).containsExactly(first + ".jsonl");
            send(chat, "hello");
        }
        assertThat(Files.readAllLines(configDir.resolve("sessions/" + first + ".jsonl")))
                .as("the reused chat's messages follow its header in its own file")
                .hasSizeGreaterThan(2);
    }

    @Test
    void aNewChatIsMadeWhenTheLastStartsChatHoldsAMessage() throws Exception {
        SessionFactory sessions = start();
        String used;
        try (ChatSession chat = sessions.reuseEmptyOrCreate(null).session()) {
            used = chat.id();
            send(chat, "hello");
        }

        try (ChatSession chat = sessions.reuseEmptyOrCreate(used).session()) {
            assertThat(chat.id()).isNotEqualTo(used);
            assertThat(sessionFiles()).containsExactlyInAnyOrder(used + ".jsonl", chat.id() + ".jsonl");
        }
    }

    @Test
    void anEmptyChatTheWindowDidNotStartWithIsLeftAlone() throws Exception {
        SessionFactory sessions = start();
        String other;
        try (ChatSession rpcLike = sessions.create().session()) {
            other = rpcLike.id();
        }

        try (ChatSession chat = sessions.reuseEmptyOrCreate(null).session()) {
            assertThat(chat.id()).isNotEqualTo(other);
        }
    }

    @Test
    void anEmptyChatThatIsStillOpenIsNotTakenByASecondWindow() throws Exception {
        SessionFactory sessions = start();
        try (ChatSession open = sessions.reuseEmptyOrCreate(null).session();
                ChatSession second = sessions.reuseEmptyOrCreate(open.id()).session()) {
            assertThat(second.id()).isNotEqualTo(open.id());
        }
    }

    @Test
    void aRememberedIdThatIsNoSessionIdOrHasNoFileMakesANewChat() throws Exception {
        SessionFactory sessions = start();
        for (String id : new String[] {"../sessions/x", "", "no-such-chat"}) {
            try (ChatSession chat = sessions.reuseEmptyOrCreate(id).session()) {
                assertThat(chat.id()).as(id).isNotEqualTo(id);
            }
        }
    }

    private SessionFactory start() throws Exception {
        harness = DesktopHarness.startOffline(configDir, "{}");
        return harness.context(null).sessions();
    }

    private static void send(ChatSession chat, String text) throws Exception {
        PromptResult result = chat.prompt(text, null);
        assertThat(result).isInstanceOf(PromptResult.Accepted.class);
        assertThat(((PromptResult.Accepted) result)
                        .completion()
                        .get(10, TimeUnit.SECONDS)
                        .succeeded())
                .isTrue();
    }

    private List<String> sessionFiles() throws Exception {
        try (Stream<Path> files = Files.list(configDir.resolve("sessions"))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".jsonl"))
                    .toList();
        }
    }
}
