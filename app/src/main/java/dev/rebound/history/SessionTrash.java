package dev.rebound.history;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Where deleted session files go. */
@FunctionalInterface
public interface SessionTrash {
    /**
     * Moves a file to the trash.
     *
     * @return where it is now when that is known (a trash folder), or empty when the platform's trash took it
     */
    Optional<Path> moveToTrash(Path file) throws IOException;

    /** The platform's trash where the desktop offers one, else the folder {@code trashDir}. */
    static SessionTrash platformOr(Path trashDir) {
        return new PlatformTrash(new FolderTrash(trashDir));
    }
}
