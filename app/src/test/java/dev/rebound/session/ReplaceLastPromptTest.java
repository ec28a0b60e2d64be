package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import dev.rebound.history.Branches;
import dev.rebound.history.RewindEntry;
import dev.rebound.transcript.ChatMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regenerate and edit-and-resend on the real session core, its real file and a loopback provider: what the provider is
 * sent, what the file keeps (everything, append-only) and what a reopened chat shows (the current branch).
 */
class ReplaceLastPromptTest {
    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private DesktopHarness harness;
    private ChatSession session;

    @BeforeEach
    void start() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{}");
        session = harness.newChat();
    }

    @AfterEach
    void close() throws Exception {
        if (session != null) {
            session.close();
        }
        harness.close();
        server.close();
    }

    private void answered(PromptResult result) throws Exception {
        assertThat(result).isInstanceOf(PromptResult.Accepted.class);
        ((PromptResult.Accepted) result).completion().get(10, TimeUnit.SECONDS);
    }

    private String body() throws Exception {
        RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        return request.getBody().utf8();
    }

    private static List<String> texts(List<ChatMessage> messages) {
        return messages.stream()
                .map(m -> m instanceof dev.rebound.transcript.UserMessage u
                        ? "user: " + u.text()
                        : "assistant: " + ((dev.rebound.transcript.AssistantMessage) m).text())
                .toList();
    }

    @Test
    void regenerateSendsTheSamePromptWithoutTheReplacedReplyAndTheFileKeepsBoth() throws Exception {
        server.enqueue(Sse.reply("First answer"));
        server.enqueue(Sse.reply("Fine, thanks"));
        server.enqueue(Sse.reply("Second answer"));
        answered(session.prompt("Hello", null));
        answered(session.prompt("How are you?", null));
        body();
        body();

        answered(session.replaceLastPrompt(session.lastPromptText(), RewindEntry.REGENERATE, null));

        String regenerated = body();
        assertThat(regenerated)
                .contains("Hello", "First answer", "How are you?")
                .doesNotContain("Fine, thanks");
        assertThat(regenerated.split("How are you\\?", -1))
                .as("the prompt is sent once")
                .hasSize(2);
        assertThat(texts(session.messages()))
                .containsExactly(
                        "user: Hello", "assistant: First answer", "user: How are you?", "assistant: Second answer");
        String file = Files.readString(session.sessionFile(), StandardCharsets.UTF_8);
        assertThat(file).contains("Fine, thanks", "Second answer", "\"type\":\"rewind\"", "\"reason\":\"regenerate\"");

        SessionFactory.Opened reopened = harness.context(null).sessions().resume(session.sessionFile());
        try {
            assertThat(texts(reopened.session().messages())).isEqualTo(texts(session.messages()));
            assertThat(HistoryReplay.events(reopened.session().history()).toString())
                    .doesNotContain("Fine, thanks")
                    .contains("Second answer");
        } finally {
            reopened.session().close();
        }
    }

    @Test
    void anEditedPromptReplacesTheLastOneAndTheReopenedChatShowsOnlyTheNewBranch() throws Exception {
        server.enqueue(Sse.reply("A joke"));
        server.enqueue(Sse.reply("A pun"));
        answered(session.prompt("Tell me a joke", null));
        body();

        answered(session.replaceLastPrompt("Tell me a pun", RewindEntry.EDIT, null));

        assertThat(body()).contains("Tell me a pun").doesNotContain("joke", "A joke");
        assertThat(texts(session.messages())).containsExactly("user: Tell me a pun", "assistant: A pun");
        assertThat(Branches.rewound(session.history())).isTrue();
        SessionFactory.Opened reopened = harness.context(null).sessions().resume(session.sessionFile());
        try {
            assertThat(texts(reopened.session().messages())).containsExactly("user: Tell me a pun", "assistant: A pun");
            assertThat(reopened.session().lastPromptText()).isEqualTo("Tell me a pun");
        } finally {
            reopened.session().close();
        }
    }

    @Test
    void nothingIsReplacedWhileATurnRunsOrBeforeThereIsAPrompt() throws Exception {
        assertThat(session.replaceLastPrompt("x", RewindEntry.REGENERATE, null))
                .isEqualTo(new PromptResult.Rejected("There is no message to send again yet."));
        assertThat(session.lastPromptText()).isNull();

        server.enqueue(
                Sse.reply("Slow").newBuilder().headersDelay(1, TimeUnit.SECONDS).build());
        PromptResult running = session.prompt("Hi", null);
        assertThat(session.replaceLastPrompt("Hi", RewindEntry.REGENERATE, null))
                .isInstanceOf(PromptResult.Rejected.class);
        answered(running);
        assertThat(texts(session.messages())).containsExactly("user: Hi", "assistant: Slow");
    }
}
