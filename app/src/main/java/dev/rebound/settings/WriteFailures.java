package dev.rebound.settings;

import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Says in plain words why a file could not be written and what to do about it. The exception (with its temporary
 * file names) is for the log; people get one of these sentences.
 */
public final class WriteFailures {
    private WriteFailures() {}

    /** The cause of a failed write of {@code file}, as a sentence that ends with what to do. */
    public static String explain(Path file, Exception failure) {
        String detail = messages(failure);
        Path folder = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)
                || failure instanceof DirectoryNotEmptyException
                || detail.contains("is a directory")) {
            return file + " is a folder, not a file. Move or rename that folder, then try again.";
        }
        if (failure instanceof AccessDeniedException
                || detail.contains("permission denied")
                || detail.contains("access is denied")
                || detail.contains("read-only file system")) {
            return "Rebound may not write to " + folder + ". Give your user write permission on that folder (and on "
                    + file.getFileName() + "), then try again.";
        }
        if (detail.contains("no space left")
                || detail.contains("not enough space")
                || detail.contains("disk full")
                || detail.contains("quota exceeded")) {
            return "The disk holding " + folder + " is full. Free some space, then try again.";
        }
        if (failure instanceof OverlappingFileLockException
                || detail.contains("used by another process")
                || detail.contains("locked")) {
            return file.getFileName() + " is in use by another program. Close that program, then try again.";
        }
        return file + " could not be written. Check that its folder exists and is writable and that the disk has "
                + "room, then try again; the log has the details.";
    }

    /** The messages of the failure and its causes, lower case, for matching what the operating system said. */
    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException fs && fs.getReason() != null) {
                all.append(fs.getReason()).append('\n');
            }
            if (t.getMessage() != null) {
                all.append(t.getMessage()).append('\n');
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return all.toString().toLowerCase(Locale.ROOT);
    }
}
