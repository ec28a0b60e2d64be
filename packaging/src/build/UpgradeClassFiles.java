import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Rewrites a jar's class files older than Java 6 (class-file version 50) as Java 8 class files (version 52) with
 * stack maps, in place, for the package only (docs/packaging.md, "The AOT caches"): run by package.sh as
 * {@code java UpgradeClassFiles.java NOTE JAR...}. It leaves a jar without such classes as it is, and prints the
 * names of the jars it has modified (now or in an earlier build over the same files).
 *
 * <p>Why: the JDK's AOT cache does not store classes older than version 50, and the JVM checks such classes with the
 * old type-inferring verifier, so picocli (built for Java 5) was parsed and verified at every start: a fifth of a
 * {@code -p} run. Each method's code is re-emitted through the class-file API, dead code included, which computes
 * the stack maps that version 50 and later carry (it may re-encode a jump's offset; the instructions' meaning is the
 * same). A class whose code cannot be re-emitted (for example one with the {@code jsr} instruction, which later
 * versions forbid) fails the build rather than ship half-rewritten, and so does a signed jar.
 * The jar's manifest gains {@code Rebound-Modified}, the notice the Apache License asks of a changed file.
 */
public final class UpgradeClassFiles {
    private static final int TARGET_MAJOR = ClassFile.JAVA_8_VERSION;
    private static final String MODIFIED = "Rebound-Modified";
    private static final java.util.regex.Pattern SIGNATURE =
            java.util.regex.Pattern.compile("META-INF/[^/]+\\.(SF|RSA|DSA|EC)", java.util.regex.Pattern.CASE_INSENSITIVE);

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: java UpgradeClassFiles.java NOTE JAR...");
            System.exit(2);
        }
        for (int i = 1; i < args.length; i++) {
            Path jar = Path.of(args[i]);
            Path upgraded = jar.resolveSibling(jar.getFileName() + ".upgraded");
            int count;
            try {
                count = upgrade(jar, upgraded, args[0]);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(upgraded);
                throw e;
            }
            if (count > 0) {
                Files.move(upgraded, jar, StandardCopyOption.REPLACE_EXISTING);
                System.err.printf("%s: %d class files rewritten as version %d%n", jar.getFileName(), count, TARGET_MAJOR);
            }
            if (modified(jar)) {
                System.out.println(jar.getFileName());
            }
        }
    }

    /** Writes {@code out} and returns how many class files it rewrote, or returns 0 and writes nothing. */
    private static int upgrade(Path in, Path out, String note) throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        Manifest manifest;
        try (JarInputStream jar = new JarInputStream(Files.newInputStream(in))) {
            manifest = jar.getManifest();
            for (JarEntry e; (e = jar.getNextJarEntry()) != null; ) {
                if (SIGNATURE.matcher(e.getName()).matches()) {
                    throw new IOException(in + " is signed: rewriting its classes would break the signature");
                }
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                    classes.put(e.getName(), jar.readAllBytes());
                }
            }
        }
        ClassFile plain = ClassFile.of();
        if (classes.values().stream().allMatch(b -> plain.parse(b).majorVersion() >= ClassFile.JAVA_6_VERSION)) {
            return 0;
        }
        ClassHierarchyResolver inJar = ClassHierarchyResolver.ofResourceParsing(desc -> {
                    byte[] bytes = classes.get(internalName(desc) + ".class");
                    return bytes == null ? null : new ByteArrayInputStream(bytes);
                })
                .orElse(ClassHierarchyResolver.defaultResolver())
                .cached();
        // Dead code is kept as it is (the API would otherwise replace it with nop ... athrow); a class whose stack maps
        // cannot be computed then fails the build.
        ClassFile files =
                ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(inJar), ClassFile.DeadCodeOption.KEEP_DEAD_CODE);
        ClassTransform upgrade = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                .andThen((builder, element) -> {
                    if (element instanceof ClassFileVersion) {
                        builder.withVersion(TARGET_MAJOR, 0);
                    } else {
                        builder.with(element);
                    }
                });

        if (manifest == null) {
            manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        }
        manifest.getMainAttributes().putValue(MODIFIED, note);
        int upgraded = 0;
        try (JarInputStream jar = new JarInputStream(Files.newInputStream(in));
                OutputStream file = Files.newOutputStream(out);
                JarOutputStream target = new JarOutputStream(file, manifest)) {
            for (JarEntry e; (e = jar.getNextJarEntry()) != null; ) {
                byte[] bytes = jar.readAllBytes();
                JarEntry copy = new JarEntry(e.getName());
                copy.setTime(e.getTime());
                if (classes.containsKey(e.getName())) {
                    ClassModel model = files.parse(bytes);
                    if (model.majorVersion() < ClassFile.JAVA_6_VERSION) {
                        try {
                            bytes = files.transformClass(model, upgrade);
                        } catch (IllegalArgumentException | IllegalStateException failed) {
                            throw new IOException(
                                    "cannot rewrite " + e.getName() + " of " + in + ": " + failed.getMessage(), failed);
                        }
                        verify(files, bytes, e.getName());
                        upgraded++;
                    }
                }
                target.putNextEntry(copy);
                target.write(bytes);
                target.closeEntry();
            }
        }
        return upgraded;
    }

    private static boolean modified(Path jar) throws IOException {
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            Manifest m = in.getManifest();
            return m != null && m.getMainAttributes().getValue(MODIFIED) != null;
        }
    }

    /** The class-file API's own verifier over the result, so a bad stack map fails the build, not a user's start. */
    private static void verify(ClassFile files, byte[] bytes, String name) throws IOException {
        var errors = files.verify(bytes);
        if (!errors.isEmpty()) {
            throw new IOException("the rewritten " + name + " does not verify: " + errors.getFirst().getMessage());
        }
    }

    private static String internalName(ClassDesc desc) {
        String d = desc.descriptorString();
        return d.substring(1, d.length() - 1);
    }

    private UpgradeClassFiles() {}
}
