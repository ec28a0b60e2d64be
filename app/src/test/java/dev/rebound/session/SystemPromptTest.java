package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system prompt on the real session core and a loopback provider: the settings' default, a chat's own prompt that
 * replaces it, kept in the chat file and restored with the chat, and cleared back to the default.
 */
class SystemPromptTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path configDir;

    private final MockWebServer server = new MockWebServer();
    private DesktopHarness harness;
    private ChatSession session;

    @BeforeEach
    void start() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{}");
        assertThat(harness.context(null).settings().update(JSON.readTree("{\"systemPrompt\": \"Be brief.\"}")))
                .isInstanceOf(dev.rebound.settings.SettingsUpdate.Applied.class);
        session = harness.newChat();
    }

    @AfterEach
    void close() throws Exception {
        session.close();
        harness.close();
        server.close();
    }

    private JsonNode send(ChatSession chat, String text) throws Exception {
        server.enqueue(Sse.reply("ok"));
        PromptResult result = chat.prompt(text, null);
        ((PromptResult.Accepted) result).completion().get(10, TimeUnit.SECONDS);
        RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
        return JSON.readTree(request.getBody().utf8());
    }

    @Test
    void theDefaultGoesFirstUntilTheChatHasItsOwnWhichIsKeptInTheFileAndRestored() throws Exception {
        JsonNode first = send(session, "One");
        assertThat(first.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(first.at("/messages/0/content").asText()).isEqualTo("Be brief.");

        session.setSystemPrompt("Answer in French.");
        JsonNode second = send(session, "Two");
        assertThat(second.at("/messages/0/content").asText()).isEqualTo("Answer in French.");
        assertThat(second.toString()).doesNotContain("Be brief.");
        assertThat(Files.readString(session.sessionFile()))
                .contains("{\"type\":\"system_prompt\"", "\"prompt\":\"Answer in French.\"");

        SessionFactory.Opened reopened = harness.context(null).sessions().resume(session.sessionFile());
        try {
            assertThat(reopened.session().systemPrompt()).isEqualTo("Answer in French.");
            assertThat(send(reopened.session(), "Three")
                            .at("/messages/0/content")
                            .asText())
                    .isEqualTo("Answer in French.");
            reopened.session().setSystemPrompt("  ");
            assertThat(reopened.session().systemPrompt()).isNull();
            assertThat(send(reopened.session(), "Four")
                            .at("/messages/0/content")
                            .asText())
                    .isEqualTo("Be brief.");
        } finally {
            reopened.session().close();
        }
    }

    @Test
    void withNeitherADefaultNorAChatPromptNoSystemMessageIsSent() throws Exception {
        assertThat(harness.context(null).settings().update(JSON.readTree("{\"systemPrompt\": null}")))
                .isInstanceOf(dev.rebound.settings.SettingsUpdate.Applied.class);

        JsonNode body = send(session, "Hi");

        assertThat(body.at("/messages/0/role").asText()).isEqualTo("user");
        assertThat(body.at("/messages").size()).isEqualTo(1);
    }
}
