package dev.rebound.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.JsonFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the desktop window remembers between runs ({@code state/desktop.json} in the config directory): for now the
 * theme. A missing or unreadable file means the defaults; the file is a convenience, never a reason not to start.
 */
public final class UiPreferences {
    private static final Logger LOG = LoggerFactory.getLogger(UiPreferences.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private volatile boolean dark;

    private UiPreferences(Path file, boolean dark) {
        this.file = file;
        this.dark = dark;
    }

    /** Reads the file (small; called before the window opens). */
    public static UiPreferences load(Path file) {
        try {
            JsonNode root = JSON.readTree(Files.readString(file));
            return new UiPreferences(
                    file, root != null && "dark".equals(root.path("theme").asText()));
        } catch (NoSuchFileException e) {
            return new UiPreferences(file, false);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} could not be read; the window starts with its default look", file, e);
            return new UiPreferences(file, false);
        }
    }

    public boolean dark() {
        return dark;
    }

    /** Remembers the theme; call off the FX thread (it writes the file). */
    public void saveDark(boolean isDark) {
        this.dark = isDark;
        ObjectNode root = JSON.createObjectNode().put("theme", isDark ? "dark" : "light");
        try {
            AtomicFiles.writeAtomically(file, JsonFiles.prettyBytes(JSON, root), null);
        } catch (IOException e) {
            LOG.warn("The theme could not be saved to {}", file, e);
        }
    }
}
