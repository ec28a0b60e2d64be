package dev.rebound.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Unpacks a plugin zip ({@code plugin.properties}, {@code classes/}, {@code lib/}) into a folder of the host's own, so
 * that the plugins folders themselves are only ever read. The folder is emptied first; an entry that would land
 * outside it ({@code ../}) makes the archive invalid.
 */
final class ArchiveUnpacker {
    private ArchiveUnpacker() {}

    static Path unpack(Path zip, Path target) throws IOException {
        deleteTree(target);
        Files.createDirectories(target);
        Path root = target.toAbsolutePath().normalize();
        boolean any = false;
        try (InputStream raw = Files.newInputStream(zip);
                ZipInputStream in = new ZipInputStream(raw)) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                any = true;
                Path out = root.resolve(entry.getName()).normalize();
                if (!out.startsWith(root)) {
                    throw new IOException("the entry " + entry.getName() + " points outside the archive");
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        if (!any) {
            throw new IOException("it is not a zip archive, or an empty one");
        }
        return target;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
