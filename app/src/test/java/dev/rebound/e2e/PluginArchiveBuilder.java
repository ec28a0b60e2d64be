package dev.rebound.e2e;

import dev.rebound.api.SessionEventListener;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Builds real PF4J plugin archives from the sources under {@code app/src/it-plugins/<name>/}: compiles them with the
 * JDK's compiler against {@code plugin-api}, PF4J and SLF4J, runs PF4J's {@code ExtensionAnnotationProcessor}
 * explicitly (so {@code META-INF/extensions.idx} is the real processor's output), and packs either a jar whose MANIFEST
 * holds the descriptor or a zip with {@code plugin.properties} and {@code classes/}.
 */
final class PluginArchiveBuilder {
    private static final String PROCESSOR = "org.pf4j.processor.ExtensionAnnotationProcessor";

    private final Path sources;
    private final Map<String, String> descriptor = new LinkedHashMap<>();
    private String extensionsIndex;

    private PluginArchiveBuilder(Path sources, String id) {
        this.sources = sources;
        descriptor.put("Id", id);
        descriptor.put("Version", "1.0.0");
        descriptor.put("Provider", "Rebound tests");
    }

    /** A plugin built from {@code it-plugins/<folder>}, with the folder's name as its id and version 1.0.0. */
    static PluginArchiveBuilder of(String folder) {
        Path root = Path.of(System.getProperty("rebound.itPlugins", "src/it-plugins"));
        Path dir = root.resolve(folder);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no test plugin sources at " + dir.toAbsolutePath());
        }
        return new PluginArchiveBuilder(dir, folder);
    }

    PluginArchiveBuilder id(String id) {
        descriptor.put("Id", id);
        return this;
    }

    /** Names the plugin's {@code org.pf4j.Plugin} subclass ({@code Plugin-Class}). */
    PluginArchiveBuilder pluginClass(String className) {
        descriptor.put("Class", className);
        return this;
    }

    PluginArchiveBuilder requires(String requires) {
        descriptor.put("Requires", requires);
        return this;
    }

    /** Replaces what the annotation processor wrote to {@code META-INF/extensions.idx}. */
    PluginArchiveBuilder extensionsIndex(String content) {
        this.extensionsIndex = content;
        return this;
    }

    /** Builds {@code <dir>/<file>}, a jar with the descriptor in its MANIFEST. */
    Path jar(Path dir, String file) throws IOException {
        Path classes = compile();
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        descriptor.forEach((key, value) -> main.putValue("Plugin-" + key, value));
        Path jar = dir.resolve(file);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            copyTree(classes, "", out);
        }
        return jar;
    }

    /** Builds {@code <dir>/<file>}, a zip with {@code plugin.properties} and {@code classes/}. */
    Path zip(Path dir, String file) throws IOException {
        Path classes = compile();
        Path zip = dir.resolve(file);
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("plugin.properties"));
            StringBuilder properties = new StringBuilder();
            descriptor.forEach((key, value) -> properties
                    .append("plugin.")
                    .append(key.toLowerCase(Locale.ROOT))
                    .append('=')
                    .append(value)
                    .append('\n'));
            out.write(properties.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.closeEntry();
            copyTree(classes, "classes/", out);
        }
        return zip;
    }

    private Path compile() throws IOException {
        Path classes = Files.createTempDirectory("rebound-it-plugin-classes");
        List<Path> javaFiles;
        try (Stream<Path> files = Files.walk(sources)) {
            javaFiles = files.filter(f -> f.toString().endsWith(".java")).toList();
        }
        String classpath = String.join(
                java.io.File.pathSeparator,
                location(SessionEventListener.class),
                location(org.pf4j.Extension.class),
                location(org.slf4j.Logger.class));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter output = new StringWriter();
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "-d",
                    classes.toString(),
                    "-classpath",
                    classpath,
                    "-processorpath",
                    location(org.pf4j.Extension.class),
                    "-processor",
                    PROCESSOR,
                    "-proc:full",
                    "--release",
                    "25",
                    "-encoding",
                    "UTF-8");
            boolean ok = javac.getTask(
                            output, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(javaFiles))
                    .call();
            if (!ok) {
                throw new IllegalStateException(
                        "test plugin " + sources + " did not compile: " + diagnostics.getDiagnostics() + output);
            }
        }
        Path index = classes.resolve("META-INF/extensions.idx");
        if (!Files.isRegularFile(index)) {
            throw new IllegalStateException("PF4J's annotation processor wrote no " + index + ": " + output);
        }
        if (extensionsIndex != null) {
            Files.writeString(index, extensionsIndex);
        }
        return classes;
    }

    private static void copyTree(Path root, String prefix, ZipOutputStream out) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        for (Path file : files) {
            String name = prefix + root.relativize(file).toString().replace('\\', '/');
            out.putNextEntry(new ZipEntry(name));
            Files.copy(file, (OutputStream) out);
            out.closeEntry();
        }
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
