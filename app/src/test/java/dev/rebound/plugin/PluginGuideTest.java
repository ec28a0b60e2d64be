package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plugin guide shows the template's real code, so the guide cannot drift from what builds and is tested. */
class PluginGuideTest {
    private static final Path REPOSITORY = Path.of("..");
    private static final String HEADING = "## 2. The listener";

    @Test
    void theGuidesListenerIsTheTemplatesAutoRetryLoggerToTheCharacter() throws IOException {
        String guide = Files.readString(REPOSITORY.resolve("docs/plugins.md"));
        String template = Files.readString(
                REPOSITORY.resolve("plugins/example-plugin/src/main/java/dev/rebound/example/AutoRetryLogger.java"));

        assertThat(firstJavaBlockUnder(guide, HEADING)).isEqualTo(template);
    }

    /** The content of the first {@code ```java} fenced block after the heading, with its line ends. */
    static String firstJavaBlockUnder(String markdown, String heading) {
        List<String> lines = markdown.lines().toList();
        int at = lines.indexOf(heading);
        assertThat(at).as("the heading %s in the guide", heading).isNotNegative();
        int open = at + 1;
        while (open < lines.size() && !lines.get(open).equals("```java")) {
            open++;
        }
        int close = open + 1;
        while (close < lines.size() && !lines.get(close).equals("```")) {
            close++;
        }
        assertThat(close).as("a closed ```java block under %s", heading).isLessThan(lines.size());
        StringBuilder block = new StringBuilder();
        lines.subList(open + 1, close).forEach(line -> block.append(line).append('\n'));
        return block.toString();
    }
}
