package dev.rebound.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A plugin archive's id and version, read straight from the archive ({@code plugin.properties} at the root of a zip,
 * the {@code Plugin-Id} and {@code Plugin-Version} of a jar's manifest) without unpacking or loading it: enough to
 * decide that a plugin stays off. The full reading, and every report of a bad descriptor, stays with PF4J.
 */
record ArchiveDescriptor(String id, String version) {

    /** The archive's id and version, or empty when they cannot be read this way. */
    static Optional<ArchiveDescriptor> peek(Path archive) {
        String name = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            if (name.endsWith(".zip")) {
                return fromZip(archive);
            }
            if (name.endsWith(".jar")) {
                return fromJar(archive);
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<ArchiveDescriptor> fromZip(Path archive) throws IOException {
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            ZipEntry entry = zip.getEntry("plugin.properties");
            if (entry == null) {
                return Optional.empty();
            }
            Properties properties = new Properties();
            try (InputStream in = zip.getInputStream(entry)) {
                properties.load(in);
            }
            return of(properties.getProperty("plugin.id"), properties.getProperty("plugin.version"));
        }
    }

    private static Optional<ArchiveDescriptor> fromJar(Path archive) throws IOException {
        try (JarFile jar = new JarFile(archive.toFile(), false)) {
            Manifest manifest = jar.getManifest();
            if (manifest == null) {
                return Optional.empty();
            }
            Attributes main = manifest.getMainAttributes();
            return of(main.getValue("Plugin-Id"), main.getValue("Plugin-Version"));
        }
    }

    private static Optional<ArchiveDescriptor> of(String id, String version) {
        if (id == null || id.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ArchiveDescriptor(id.strip(), version == null ? null : version.strip()));
    }
}
