package dev.rebound.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopReason;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

/**
 * A 307 or 308 answer to a prompt: OkHttp cannot follow it (the request body is one-shot, so that a prompt is never
 * sent twice), so it came back as a bare "307 Temporary Redirect (no body)" HTTP failure that the classifier did not
 * know as terminal, and a redirect loop looked like one such answer. Found by the fault suite (issue 18). It must say
 * what it is and where the server points, and never be retried.
 */
class RedirectTest extends WithCompletionsFixture {

    @Test
    void aRedirectOfThePromptSaysWhereItPointsAndIsTerminal() {
        for (int status : new int[] {307, 308}) {
            fixture.enqueue(new MockResponse.Builder()
                    .code(status)
                    .addHeader("Location", "https://elsewhere.example/v2/chat/completions")
                    .build());

            AssistantMessage message = fixture.stream().message();

            assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
            assertThat(message.failure().kind()).as(message.errorMessage()).isEqualTo(FailureKind.PROTOCOL);
            assertThat(message.errorMessage())
                    .contains("redirected")
                    .contains("https://elsewhere.example/v2/chat/completions")
                    .contains("baseUrl");
        }
        assertThat(fixture.server.getRequestCount()).isEqualTo(2);
    }
}
