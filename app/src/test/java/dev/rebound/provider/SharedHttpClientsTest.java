package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rebound.provider.openai.ChatCompletionsWire;
import dev.rebound.retry.Classification;
import dev.rebound.retry.ClassifierInput;
import dev.rebound.retry.ErrorClassifier;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import java.util.Map;
import mockwebserver3.MockResponse;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** TLS only when an https URL is called; a plain-http server that redirects to https gets the address named. */
class SharedHttpClientsTest {
    private final SharedHttpClients clients = SharedHttpClients.create();
    private final WireFixture fixture = new WireFixture(
            new ChatCompletionsWire(), ProviderApi.OPENAI_COMPLETIONS, "sk-redirect-0123456789", Map.of());

    @AfterEach
    void close() {
        clients.close();
        fixture.close();
    }

    @Test
    void aPlainHttpCallSetsUpNoTls() {
        OkHttpClient plain = clients.clientFor(HttpUrl.get("http://127.0.0.1:8080/v1/chat/completions"));

        assertThatThrownBy(plain::sslSocketFactory).hasMessageContaining("CLEARTEXT-only");
        assertThat(plain.connectionSpecs()).extracting(spec -> spec.isTls()).containsOnly(false);
        assertThat(clients.tlsReady()).isFalse();
    }

    @Test
    void anHttpsCallSetsUpTlsOnceOnTheSamePoolAndDispatcher() {
        OkHttpClient plain = clients.clientFor(HttpUrl.get("http://127.0.0.1:8080/v1"));
        OkHttpClient tls = clients.clientFor(HttpUrl.get("https://api.openai.com/v1"));

        assertThat(clients.tlsReady()).isTrue();
        assertThat(tls.connectionSpecs()).anyMatch(spec -> spec.isTls());
        assertThat(tls.connectionPool()).isSameAs(plain.connectionPool());
        assertThat(tls.dispatcher()).isSameAs(plain.dispatcher());
        assertThat(clients.clientFor(HttpUrl.get("https://api.anthropic.com/v1")))
                .isSameAs(tls);
    }

    @Test
    void tlsCanBePreparedAheadOnAnotherThread() {
        clients.prepareTls(Runnable::run);

        assertThat(clients.tlsReady()).isTrue();
    }

    @Test
    void theUnpooledVariantSharesTheDispatcherButKeepsNoIdleConnection() {
        SharedHttpClients unpooled = clients.unpooled();
        HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/v1");

        assertThat(unpooled.clientFor(url).dispatcher())
                .isSameAs(clients.clientFor(url).dispatcher());
        assertThat(unpooled.clientFor(url).connectionPool())
                .isNotSameAs(clients.clientFor(url).connectionPool());
    }

    @Test
    void noRedirectOfAPromptIsFollowedToHttpsOrAsAGetEachNamesWhereItPoints() {
        int[] statuses = {301, 302, 303, 307, 308};
        for (int status : statuses) {
            String target = status % 2 == 0
                    ? "https://api.example.com/v1/chat/completions"
                    : fixture.baseUrl("/moved/chat/completions");
            fixture.enqueue(new MockResponse.Builder()
                    .code(status)
                    .addHeader("Location", target)
                    .build());
            ProviderConfig config = fixture.config(fixture.baseUrl("/v1"), "gpt-4.1");

            AssistantMessage message =
                    fixture.stream(fixture.request(config, "gpt-4.1")).message();

            assertThat(message.failure().kind()).as("status %d", status).isEqualTo(FailureKind.PROTOCOL);
            assertThat(message.errorMessage())
                    .as("status %d", status)
                    .contains("redirected the request (" + status + " ")
                    .contains(target)
                    .contains("baseUrl");
            Classification verdict = new ErrorClassifier().classify(new ClassifierInput(message, message.api(), false));
            assertThat(verdict.verdict()).as("status %d", status).isEqualTo(Classification.Verdict.TERMINAL);
        }
        assertThat(fixture.server.getRequestCount())
                .as("one request per prompt: no follow-up GET, no https attempt")
                .isEqualTo(statuses.length);
    }
}
