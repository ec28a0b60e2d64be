package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PluginLogLimiterTest {
    private final long[] now = {1_000_000};
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final PluginLogLimiter limiter = new PluginLogLimiter(5, () -> now[0]);

    @BeforeEach
    void install() {
        limiter.setContext(context);
        limiter.start();
        context.addTurboFilter(limiter);
        appender.setContext(context);
        appender.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(appender);
    }

    @Test
    void aFloodingPluginKeepsItsFirstLinesEachSecondAndTheAppKeepsAllOfItsOwn() throws Exception {
        Logger plugin = context.getLogger("com.example.Flood");
        Logger app = context.getLogger("dev.rebound.session.ChatSession");

        onThread("rebound-plugin-flood", () -> {
            for (int i = 0; i < 12; i++) {
                plugin.warn("flood {}", i);
            }
        });
        app.warn("the app's own warning");
        now[0] += 1_000;
        onThread("rebound-plugin-flood", () -> plugin.info("flood again"));

        assertThat(messages())
                .containsExactly(
                        "flood 0",
                        "flood 1",
                        "flood 2",
                        "flood 3",
                        "flood 4",
                        "the app's own warning",
                        "plugin flood: 7 lines suppressed (a plugin may log 5 lines per second)",
                        "flood again");
    }

    @Test
    void eachPluginHasItsOwnAllowanceAndDisabledLevelsAreNotCounted() throws Exception {
        Logger plugin = context.getLogger("com.example.Plugin");
        plugin.setLevel(Level.INFO);

        onThread("rebound-plugin-a", () -> {
            for (int i = 0; i < 100; i++) {
                plugin.debug("not logged {}", i);
            }
            for (int i = 0; i < 6; i++) {
                plugin.info("a {}", i);
            }
        });
        onThread("rebound-plugin-b", () -> plugin.info("b 0"));

        assertThat(messages()).containsExactly("a 0", "a 1", "a 2", "a 3", "a 4", "b 0");
    }

    @Test
    void onAnyOtherThreadAPluginIsRecognisedByAClassOfItsOnTheStack() {
        ClassLoader mine = PluginLogLimiterTest.class.getClassLoader();
        limiter.identifyPlugins(loader -> loader == mine ? Optional.of("own-thread") : Optional.empty());
        Logger plugin = context.getLogger("com.example.Worker");

        for (int i = 0; i < 8; i++) {
            plugin.info("worker {}", i);
        }

        assertThat(messages()).containsExactly("worker 0", "worker 1", "worker 2", "worker 3", "worker 4");
    }

    private List<String> messages() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static void onThread(String name, Runnable body) throws InterruptedException {
        Thread thread = Thread.ofPlatform().name(name).start(body);
        thread.join();
    }
}
