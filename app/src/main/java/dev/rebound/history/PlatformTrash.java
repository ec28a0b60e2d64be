package dev.rebound.history;

import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop's trash through {@link Desktop#moveToTrash}, where the JDK supports it (Windows and macOS; not on Linux,
 * and never headless), else a fallback. The AWT desktop is only asked when a file is deleted, and never when headless.
 */
final class PlatformTrash implements SessionTrash {
    private static final Logger LOG = LoggerFactory.getLogger(PlatformTrash.class);

    private final SessionTrash fallback;

    PlatformTrash(SessionTrash fallback) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public Optional<Path> moveToTrash(Path file) throws IOException {
        if (desktopHasTrash() && Desktop.getDesktop().moveToTrash(file.toFile())) {
            LOG.info("moved {} to the platform's trash", file);
            return Optional.empty();
        }
        return fallback.moveToTrash(file);
    }

    private static boolean desktopHasTrash() {
        return !GraphicsEnvironment.isHeadless()
                && Desktop.isDesktopSupported()
                && Desktop.getDesktop().isSupported(Desktop.Action.MOVE_TO_TRASH);
    }
}
