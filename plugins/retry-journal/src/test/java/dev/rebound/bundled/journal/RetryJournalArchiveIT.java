package dev.rebound.bundled.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.rebound.api.SessionEventListener;
import dev.rebound.api.SessionRef;
import dev.rebound.plugintest.LoadedPlugin;
import dev.rebound.plugintest.SessionScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built archive, loaded by PF4J with its bundled Jackson, journals real chains. */
class RetryJournalArchiveIT {

    @TempDir
    Path work;

    @Test
    void theBuiltArchiveJournalsAnOverloadChainThatSucceedsAndOneThatFails() throws Exception {
        SessionScript script = new SessionScript(new SessionRef("chat-1", null), 1_764_579_600_000L);
        Path journal;

        try (LoadedPlugin plugin = LoadedPlugin.load(LoadedPlugin.builtArchive(), "0.2.0", work)) {
            assertThat(plugin.wrapper().getPluginId()).isEqualTo("retry-journal");
            assertThat(plugin.listenerClasses())
                    .extracting(Class::getName)
                    .containsExactly(RetryJournalListener.class.getName());
            assertThat(plugin.classesNotFromArchive(RetryJournalListener.class.getName(), JsonMapper.class.getName()))
                    .isEmpty();

            journal = plugin.dataDirectory().resolve("retry-journal.jsonl");
            SessionEventListener listener = plugin.newListener(Map.of());
            script.overloadedThenSucceeds("turn-1", 3).forEach(listener::dispatch);
            script.answeredAtOnce("turn-2").forEach(listener::dispatch);
            script.overloadedUntilExhausted("turn-3", 2).forEach(listener::dispatch);
        }

        List<String> lines = Files.readAllLines(journal);
        assertThat(lines).hasSize(2);
        JsonNode succeeded = JsonMapper.builder().build().readTree(lines.get(0));
        assertThat(succeeded.get("turnId").asText()).isEqualTo("turn-1");
        assertThat(succeeded.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(succeeded.get("attempts")).hasSize(3);
        assertThat(succeeded.get("attempts").get(2).get("delayMs").asLong()).isEqualTo(1750);
        JsonNode failed = JsonMapper.builder().build().readTree(lines.get(1));
        assertThat(failed.get("outcome").asText()).isEqualTo("gave_up");
        assertThat(failed.get("giveUpReason").asText()).isEqualTo("exhausted");
        assertThat(failed.get("finalError").asText()).isEqualTo(SessionScript.OVERLOADED);
        assertThat(failed.get("attempts").get(2).get("httpStatus").asInt()).isEqualTo(529);
    }
}
