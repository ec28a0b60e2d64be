package dev.rebound.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.transcript.AssistantMessage;
import java.util.List;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

/**
 * A server that echoes a configured key other than the one in use (the key used before a switch, another provider's)
 * never gets it into a reply or an error (issue 18, defect 4): every configured key is removed, not only the one sent.
 */
class OtherKeysRedactedTest extends WithCompletionsFixture {
    private static final String OTHER = "sk-other-key-0123456789abcdef";

    private ProviderRequest request() {
        ProviderRequest plain = fixture.request();
        return new ProviderRequest(
                plain.messageId(),
                plain.provider(),
                plain.model(),
                plain.context(),
                plain.credential(),
                plain.timeouts(),
                List.of(new Credential("openai", "personal", new Secret(OTHER))));
    }

    @Test
    void anotherConfiguredKeyEchoedInAStreamedReplyIsRemovedEvenSplitAcrossChunks() {
        fixture.enqueue(CompletionsFixture.eventStream(
                CompletionsFixture.text("your old key was sk-other-key-0123"),
                CompletionsFixture.text("456789abcdef, right?"),
                CompletionsFixture.finish("stop"),
                "[DONE]"));

        AssistantMessage reply = fixture.stream(request(), new CallControl()).message();

        assertThat(reply.text())
                .isEqualTo("your old key was [redacted], right?")
                .doesNotContain(OTHER);
    }

    @Test
    void anotherConfiguredKeyEchoedInAnErrorBodyIsRemoved() {
        fixture.enqueue(new MockResponse.Builder()
                .code(401)
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"Incorrect API key provided: " + OTHER
                        + ". You can find your API key at https://platform.openai.com/account/api-keys.\","
                        + "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}")
                .build());

        AssistantMessage reply = fixture.stream(request(), new CallControl()).message();

        assertThat(reply.errorMessage()).contains("[redacted]").doesNotContain(OTHER);
    }
}
