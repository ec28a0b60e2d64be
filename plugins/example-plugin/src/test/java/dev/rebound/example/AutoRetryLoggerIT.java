package dev.rebound.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.rebound.api.SessionEventListener;
import dev.rebound.api.SessionRef;
import dev.rebound.plugintest.LoadedPlugin;
import dev.rebound.plugintest.LogCapture;
import dev.rebound.plugintest.SessionScript;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's example, built into its archive and loaded by PF4J, logs every scheduled retry. The logger name comes
 * from the listener class and the plugin id from the {@code plugin.id} system property (the pom's, passed by the
 * parent's failsafe configuration), so a copied module only renames the class here.
 */
class AutoRetryLoggerIT {
    private static final String PLUGIN_ID = System.getProperty("plugin.id");

    @TempDir
    Path work;

    @Test
    void theBuiltArchiveLogsEachRetryOfAnOverloadChainThatSucceedsAndOfOneThatFails() throws Exception {
        SessionScript script = new SessionScript(new SessionRef("chat-1", null), 1_764_579_600_000L);

        try (LoadedPlugin plugin = LoadedPlugin.load(LoadedPlugin.builtArchive(), "0.2.0", work);
                LogCapture log = LogCapture.of(AutoRetryLogger.class.getName())) {
            assertThat(plugin.listenerClasses())
                    .extracting(Class::getName)
                    .containsExactly(AutoRetryLogger.class.getName());
            SessionEventListener listener = plugin.newListener(Map.of());

            script.overloadedThenSucceeds("turn-1", 3).forEach(listener::dispatch);
            script.overloadedUntilExhausted("turn-2", 1).forEach(listener::dispatch);

            String from = " ms after a transient error from anthropic/claude-sonnet-4-5";
            assertThat(log.messages(Level.INFO))
                    .containsExactly(
                            "auto_retry_start: chat chat-1 retry 1/10 in 438" + from,
                            "auto_retry_start: chat chat-1 retry 2/10 in 875" + from,
                            "auto_retry_start: chat chat-1 retry 3/10 in 1750" + from,
                            "auto_retry_start: chat chat-1 retry 1/1 in 438" + from);
        }
    }

    @Test
    void anAppOlderThanPluginRequiresDoesNotStartIt() {
        assertThatThrownBy(() -> LoadedPlugin.load(LoadedPlugin.builtArchive(), "0.0.9", work)
                        .close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(PLUGIN_ID + " DISABLED");
    }
}
