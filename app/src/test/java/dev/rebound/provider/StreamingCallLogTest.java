package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rebound.provider.openai.ChatCompletionsWire;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The debug line naming a call's URL holds neither the base URL's user:password nor its query. */
class StreamingCallLogTest {
    private static final String PASSWORD = "pw-log-canary-5e1f2a9b";
    private final WireFixture fixture = new WireFixture(
            new ChatCompletionsWire(), ProviderApi.OPENAI_COMPLETIONS, "sk-log-0123456789abcdef", Map.of());

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void theDebugLineOfACallHasNoUrlPasswordOrQuery() {
        Logger logger = (Logger) LoggerFactory.getLogger(StreamingCall.class);
        Level before = logger.getLevel();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.DEBUG);
        logger.setAdditive(false); // quiet: not to the console too
        try {
            fixture.enqueue(WireFixture.eventStream(
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n" + "data: [DONE]\n\n"));
            String baseUrl =
                    fixture.baseUrl("/v1?token=q-log-canary-77").replace("http://", "http://alice:" + PASSWORD + "@");
            ProviderConfig config = fixture.config(baseUrl, "m");

            fixture.stream(fixture.request(config, "m"));

            List<String> lines = appender.list.stream()
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
            assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("POST http://"));
            assertThat(String.join("\n", lines))
                    .doesNotContain(PASSWORD)
                    .doesNotContain("alice")
                    .doesNotContain("q-log-canary-77");
        } finally {
            logger.detachAppender(appender);
            logger.setLevel(before);
            logger.setAdditive(true);
        }
    }
}
