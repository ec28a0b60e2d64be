package dev.rebound.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.files.AtomicFiles;
import dev.rebound.files.JsonFiles;
import dev.rebound.ui.model.ZoomModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the desktop window remembers between runs ({@code state/desktop.json} in the config directory): the theme
 * ({@code "theme": "dark"} or {@code "light"}), the chat's zoom level ({@code "zoomPercent": 125}) and the chat the
 * window last started with ({@code "startChat": "<session id>"}, reopened at the next start if it still holds
 * nothing). A missing or
 * unreadable file, or a member with a bad value, means the default for what cannot be read; the file is a
 * convenience, never a reason not to start. Members this version does not know are kept when the file is written.
 */
public final class UiPreferences {
    private static final Logger LOG = LoggerFactory.getLogger(UiPreferences.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String THEME = "theme";
    private static final String ZOOM = "zoomPercent";
    private static final String START_CHAT = "startChat";

    private final Path file;
    /** The file as read, so members of other versions survive a write. */
    private final ObjectNode read;
    /** The file exists but could not be read: only what the user changes (theme, zoom) may overwrite it. */
    private final boolean unreadable;

    private volatile boolean dark;
    private volatile int zoomPercent;
    private volatile String startChat;

    private UiPreferences(Path file, ObjectNode read, boolean unreadable) {
        this.file = file;
        this.read = read;
        this.unreadable = unreadable;
        this.dark = "dark".equals(read.path(THEME).asText());
        this.zoomPercent = zoom(read.get(ZOOM), file);
        JsonNode start = read.get(START_CHAT);
        this.startChat = start != null && start.isTextual() ? start.asText() : null;
    }

    /** Reads the file (small; called before the window opens). */
    public static UiPreferences load(Path file) {
        try {
            JsonNode root = JSON.readTree(Files.readString(file));
            if (root instanceof ObjectNode object) {
                return new UiPreferences(file, object, false);
            }
            LOG.warn("{} does not hold a JSON object; the window starts with its default look", file);
        } catch (NoSuchFileException e) {
            // The first start.
            return new UiPreferences(file, JSON.createObjectNode(), false);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} could not be read; the window starts with its default look", file, e);
        }
        return new UiPreferences(file, JSON.createObjectNode(), true);
    }

    /** The zoom level in the file: a number is taken to the nearest zoom step; anything else means 100 %. */
    private static int zoom(JsonNode node, Path file) {
        if (node == null || node.isNull()) {
            return ZoomModel.ACTUAL;
        }
        if (!node.isNumber() || !Double.isFinite(node.doubleValue())) {
            LOG.warn("{}: {} is not a number of percent; the chat starts at 100 %", file, ZOOM);
            return ZoomModel.ACTUAL;
        }
        return ZoomModel.nearestStep(Math.round(node.doubleValue()));
    }

    public boolean dark() {
        return dark;
    }

    /** The chat's zoom level in percent, one of {@link ZoomModel#STEPS}. */
    public int zoomPercent() {
        return zoomPercent;
    }

    /**
     * Takes a new zoom level to remember (cheap; call on the FX thread, in the order the levels were chosen), then call
     * {@link #save()} off the FX thread.
     */
    public void setZoomPercent(int percent) {
        this.zoomPercent = ZoomModel.nearestStep(percent);
    }

    /** The chat the window last started with, or null (a first start, or a value that is not text). */
    public String startChat() {
        return startChat;
    }

    /**
     * Remembers the chat the window starts with now; call off the FX thread (it writes the file). Not written to a
     * file that could not be read: the user's hand-edited theme and zoom there would be lost to the defaults, without
     * the user doing anything (the next start then makes a new chat, as without this).
     */
    public void saveStartChat(String sessionId) {
        this.startChat = sessionId;
        if (unreadable) {
            LOG.debug("{} could not be read, so the start chat is not written to it", file);
            return;
        }
        save();
    }

    /** Remembers the theme; call off the FX thread (it writes the file). */
    public void saveDark(boolean isDark) {
        this.dark = isDark;
        save();
    }

    /**
     * Writes what is remembered now; call off the FX thread. Saves running at once write one after another, each the
     * latest values, so the file ends with the last ones taken whatever order the saves run in.
     */
    public synchronized void save() {
        ObjectNode root = read.deepCopy();
        root.put(THEME, dark ? "dark" : "light");
        root.put(ZOOM, zoomPercent);
        String chat = startChat;
        if (chat != null) {
            root.put(START_CHAT, chat);
        }
        try {
            AtomicFiles.writeAtomically(file, JsonFiles.prettyBytes(JSON, root), null);
        } catch (IOException e) {
            LOG.warn("The window's preferences could not be saved to {}", file, e);
        }
    }
}
