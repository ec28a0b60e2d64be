package dev.rebound.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder of one app process under {@code <config-dir>/plugin-cache/}, where its zip plugins are unpacked:
 * {@code <pid>-<random>}, so that two Rebound processes (the app and a {@code -p} run, say) never write into each
 * other's classes. Opening it first removes the folders of processes that are no longer running (a crash leaves its
 * folder behind); a folder whose process is alive is left alone. {@link #close()} removes the process's own folder.
 */
final class PluginCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginCache.class);
    private static final Pattern OWNED = Pattern.compile("(\\d+)-[0-9a-f]+");

    private final Path folder;

    private PluginCache(Path folder) {
        this.folder = folder;
    }

    /**
     * Sweeps the leftovers of dead processes and creates this process's folder.
     *
     * @param root {@code <config-dir>/plugin-cache}
     * @param self the process the folder belongs to
     * @param random where the folder name's random part comes from
     */
    static PluginCache open(Path root, ProcessHandle self, RandomGenerator random) throws IOException {
        Files.createDirectories(root);
        sweep(root);
        byte[] bytes = new byte[6];
        random.nextBytes(bytes);
        Path folder = Files.createDirectory(
                root.resolve(self.pid() + "-" + HexFormat.of().formatHex(bytes)));
        return new PluginCache(folder);
    }

    /** This process's folder. */
    Path folder() {
        return folder;
    }

    /** Removes this process's folder; a failure is logged (the next start sweeps it). */
    @Override
    public void close() {
        try {
            ArchiveUnpacker.deleteTree(folder);
        } catch (IOException e) {
            LOG.warn("Could not remove the plugin cache {}; the next start removes it", folder, e);
        }
    }

    private static void sweep(Path root) throws IOException {
        List<Path> children;
        try (Stream<Path> list = Files.list(root)) {
            children = list.toList();
        }
        for (Path child : children) {
            if (isLeftover(child)) {
                try {
                    ArchiveUnpacker.deleteTree(child);
                    LOG.info("Removed the plugin cache {} of a process that has ended", child);
                } catch (IOException e) {
                    LOG.warn("Could not remove the old plugin cache {}", child, e);
                }
            }
        }
    }

    /**
     * Whether a folder belongs to no running process: its process has ended, or its pid now names a process that
     * started after the folder was made. Anything not named {@code <pid>-<random>} (older versions unpacked into
     * {@code <n>-<name>} directly here) is a leftover too.
     */
    private static boolean isLeftover(Path child) throws IOException {
        Matcher name = OWNED.matcher(child.getFileName().toString());
        if (!name.matches()) {
            return true;
        }
        Optional<ProcessHandle> owner;
        try {
            owner = ProcessHandle.of(Long.parseLong(name.group(1)));
        } catch (NumberFormatException e) {
            return true;
        }
        if (owner.isEmpty() || !owner.get().isAlive()) {
            return true;
        }
        Optional<Instant> started = owner.get().info().startInstant();
        Instant made = Files.readAttributes(child, BasicFileAttributes.class)
                .creationTime()
                .toInstant();
        return started.isPresent() && started.get().isAfter(made.plusSeconds(1));
    }
}
