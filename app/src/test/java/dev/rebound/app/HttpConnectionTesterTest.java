package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.ApiKeySource;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.Secret;
import dev.rebound.provider.HttpClients;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.ui.settings.model.ConnectionTester.Result;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Test connection against a real loopback server: the request it sends and the sentence it reports. */
class HttpConnectionTesterTest {
    @TempDir
    Path dir;

    private final MockWebServer server = new MockWebServer();
    private final OkHttpClient http = HttpClients.newSharedClient();
    private CredentialStore credentials;
    private HttpConnectionTester tester;

    @BeforeEach
    void start() throws Exception {
        server.start();
        credentials = CredentialStore.open(ConfigDirectory.at(dir), Map.of(), Clock.systemUTC());
        tester = new HttpConnectionTester(http, credentials);
    }

    @AfterEach
    void stop() {
        server.close();
        http.dispatcher().executorService().shutdown();
    }

    private String baseUrl() {
        return server.url("/v1").toString();
    }

    @Test
    void aModelsListAnsweredWithTheSavedKeyIsReportedAsConnected() throws Exception {
        credentials.put("local", "work", new ApiKeySource.Literal(new Secret("sk-saved-key-1234")));
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("{\"object\":\"list\",\"data\":[{\"id\":\"a\"},{\"id\":\"b\"}]}")
                .build());

        Result result = tester.test("local", "openai-completions", baseUrl(), null);

        assertThat(result.ok()).isTrue();
        assertThat(result.message())
                .isEqualTo("Connected to " + server.getHostName() + " with the key 'work'; it offers 2 models.");
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getTarget()).isEqualTo("/v1/models");
        assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-saved-key-1234");
    }

    @Test
    void aRefusedKeyIsReportedWithoutTheKeyOrTheBody() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"error\":\"bad key sk-typed-9999\"}")
                .build());

        Result result = tester.test("local", "openai-completions", baseUrl(), "sk-typed-9999");

        assertThat(result.ok()).isFalse();
        assertThat(result.message())
                .contains("refused the request with the key you typed (HTTP 401)")
                .doesNotContain("sk-typed");
    }

    @Test
    void anthropicGetsItsKeyHeaderAndVersionedPath() throws Exception {
        server.enqueue(
                new MockResponse.Builder().code(200).body("{\"data\":[]}").build());

        tester.test("claude", "anthropic-messages", server.url("/").toString(), "sk-ant-key");

        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getTarget()).isEqualTo("/v1/models");
        assertThat(request.getHeaders().get("x-api-key")).isEqualTo("sk-ant-key");
        assertThat(request.getHeaders().get("anthropic-version")).isNotBlank();
    }

    @Test
    void aPortWhereNothingListensSaysSo() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        Result result = tester.test("local", "openai-completions", "http://127.0.0.1:" + port + "/v1", null);

        assertThat(result.ok()).isFalse();
        assertThat(result.message()).startsWith("Could not connect to 127.0.0.1:" + port);
    }
}
