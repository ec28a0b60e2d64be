import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Writes the THIRD-PARTY notice of the package from the resolved dependency list (maven-dependency-plugin's
 * {@code list} goal) and the POMs in the local Maven repository: for each bundled library its name, coordinates and
 * version, home page, and every licence its POM (or the nearest parent POM that has one) declares, with the licence's
 * address. Fails, naming the library, when a library declares no licence anywhere: a notice must not be guessed.
 *
 * <p>Beside the notice, in its folder: {@code licenses/} with the full text of each licence the libraries are
 * distributed under here whose text their jars do not carry (Apache 2.0, LGPL 2.1; from {@code LICENCE_TEXTS}), and
 * {@code <artifact>-<version>/} with the licence and notice files each jar carries itself (its {@code LICENSE},
 * {@code NOTICE}...), which Apache 2.0 §4(d) and the MIT and BSD licences ask to pass on. Each library's entry names
 * the files that apply to it.
 *
 * <p>Usage: {@code java ThirdPartyNotices.java DEPENDENCY_LIST LOCAL_REPOSITORY OUT_FILE PRODUCT_VERSION LICENCE_TEXTS}
 */
public final class ThirdPartyNotices {
    /** One library: where it goes in the package decides its section. */
    record Library(String group, String artifact, String version, String scope) {
        String key() {
            return group + ":" + artifact;
        }

        String section() {
            if (group.equals("org.openjfx")) {
                return "In the Java runtime as modules (lib/runtime)";
            }
            return scope.equals("provided")
                    ? "Inside the bundled plugins (lib/app/plugins/*.zip, each in its lib/)"
                    : "On the application's class path (lib/app/lib)";
        }
    }

    record Licence(String name, String url) {}

    record Described(String name, String url, List<Licence> licences) {}

    /** A jar's own licence and notice files: at its root or in META-INF/, any name holding one of these words. */
    static final Pattern NOTICE_FILE =
            Pattern.compile("(META-INF/)?[^/]*(licen[cs]e|notice|copying)[^/]*", Pattern.CASE_INSENSITIVE);

    /** The full licence texts shipped in licenses/, by the words that name the licence in a POM. */
    static final Map<String, String> TEXTS = Map.of(
            "apache", "Apache-2.0.txt",
            "lgpl-2.1", "LGPL-2.1.txt",
            "lesser general public license, version 2.1", "LGPL-2.1.txt");

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println(
                    "usage: java ThirdPartyNotices.java DEPENDENCY_LIST LOCAL_REPOSITORY OUT_FILE VERSION LICENCE_TEXTS");
            System.exit(2);
        }
        Path repository = Path.of(args[1]);
        Path legal = Path.of(args[2]).toAbsolutePath().getParent();
        Path texts = Path.of(args[4]);
        Files.createDirectories(legal.resolve("licenses"));
        for (String text : new java.util.TreeSet<>(TEXTS.values())) {
            Files.copy(texts.resolve(text), legal.resolve("licenses").resolve(text), StandardCopyOption.REPLACE_EXISTING);
        }
        Map<String, Library> libraries = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            Library library = parse(line);
            if (library != null && !library.group().equals("dev.rebound")) {
                // The same library through the app and a plugin: the app's copy is the one listed.
                libraries.merge(library.key(), library, (a, b) -> a.scope().equals("provided") ? b : a);
            }
        }
        if (libraries.isEmpty()) {
            throw new IllegalStateException("no library in " + args[0] + ": is it maven-dependency-plugin's list?");
        }
        Map<String, List<String>> sections = new LinkedHashMap<>();
        sections.put("On the application's class path (lib/app/lib)", new ArrayList<>());
        sections.put("In the Java runtime as modules (lib/runtime)", new ArrayList<>());
        sections.put("Inside the bundled plugins (lib/app/plugins/*.zip, each in its lib/)", new ArrayList<>());
        List<String> undeclared = new ArrayList<>();
        for (Library library : libraries.values()) {
            Described described = describe(repository, library.group(), library.artifact(), library.version());
            if (described.licences().isEmpty()) {
                undeclared.add(library.key() + ":" + library.version());
                continue;
            }
            StringBuilder entry = new StringBuilder();
            entry.append(described.name())
                    .append(" ")
                    .append(library.version())
                    .append(" (")
                    .append(library.key())
                    .append(")\n");
            if (described.url() != null) {
                entry.append("  Home page: ").append(described.url()).append('\n');
            }
            for (Licence licence : described.licences()) {
                entry.append("  Licence: ").append(licence.name());
                if (licence.url() != null) {
                    entry.append(" - ").append(licence.url());
                }
                entry.append('\n');
            }
            for (String text : textsOf(described.licences())) {
                entry.append("  Licence text: licenses/").append(text).append('\n');
            }
            if (!library.group().equals("org.openjfx")) {
                List<String> own = copyNoticeFiles(repository, library, legal);
                if (!own.isEmpty()) {
                    entry.append("  From its jar: ").append(String.join(", ", own)).append('\n');
                } else if (textsOf(described.licences()).isEmpty()) {
                    // An MIT or BSD library whose jar carries no LICENSE: its copyright line is only in its project.
                    entry.append("  Copyright notice: not carried by its jar; in the licence file at the address above\n");
                }
            } else {
                // JavaFX's jars carry no legal files; its licence is OpenJDK's, whose text jlink put in the runtime.
                entry.append("  Licence text: ../../runtime/legal/java.base/LICENSE (OpenJDK's, the same licence)\n");
            }
            sections.get(library.section()).add(entry.toString());
        }
        if (!undeclared.isEmpty()) {
            System.err.println("ThirdPartyNotices: no licence is declared in the POM (or any parent POM) of "
                    + String.join(", ", undeclared) + "; find each one's licence and teach this script.");
            System.exit(1);
        }
        StringBuilder out = new StringBuilder();
        out.append("Rebound ")
                .append(args[3])
                .append(": third-party software in this package\n\n")
                .append("Each library below is distributed under its own licence, named here with the address of its\n")
                .append("text, as its Maven POM declares it. Paths are relative to this file's folder: licenses/ holds\n")
                .append("the full text of the licences the libraries' jars do not carry themselves, and\n")
                .append("<artifact>-<version>/ the licence and notice files a library's jar carries (its copyright\n")
                .append("notices among them). A library under two licences (Logback: EPL 2.0 or LGPL 2.1) is passed\n")
                .append("on under the one whose text is here. The Java runtime in lib/runtime is OpenJDK, licensed\n")
                .append("under the GNU General Public License version 2 with the Classpath Exception; the notices of\n")
                .append("each of its Java modules are in lib/runtime/legal/. JavaFX, on the runtime's module path, is\n")
                .append("under the same licence; its jars carry no notice files.\n");
        int count = 0;
        for (Map.Entry<String, List<String>> section : sections.entrySet()) {
            if (section.getValue().isEmpty()) {
                continue;
            }
            out.append("\n== ").append(section.getKey()).append(" ==\n\n");
            for (String entry : section.getValue()) {
                out.append(entry).append('\n');
                count++;
            }
        }
        Path target = Path.of(args[2]);
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
        Files.writeString(target, out.toString(), StandardCharsets.UTF_8);
        System.out.println("ThirdPartyNotices: " + count + " libraries in " + target);
    }

    /** The licence texts in licenses/ that the POM's licences name, in the order first named. */
    static List<String> textsOf(List<Licence> licences) {
        List<String> out = new ArrayList<>();
        for (Licence licence : licences) {
            String words = (licence.name() + " " + licence.url()).toLowerCase(Locale.ROOT);
            for (Map.Entry<String, String> text : new TreeMap<>(TEXTS).entrySet()) {
                if (words.contains(text.getKey()) && !out.contains(text.getValue())) {
                    out.add(text.getValue());
                }
            }
        }
        return out;
    }

    /**
     * Copies the licence and notice files the library's jar carries to {@code <artifact>-<version>/} beside the notice
     * and returns their paths relative to it; none for a jar that carries none.
     */
    static List<String> copyNoticeFiles(Path repository, Library library, Path legal) throws IOException {
        Path jar = repository
                .resolve(library.group().replace('.', '/'))
                .resolve(library.artifact())
                .resolve(library.version())
                .resolve(library.artifact() + "-" + library.version() + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IOException("no jar at " + jar + " for " + library.key());
        }
        String folder = library.artifact() + "-" + library.version();
        List<String> copied = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || name.endsWith(".class") || !NOTICE_FILE.matcher(name).matches()) {
                    continue;
                }
                String file = name.substring(name.lastIndexOf('/') + 1);
                Path target = legal.resolve(folder).resolve(file);
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                copied.add(folder + "/" + file);
            }
        }
        copied.sort(null);
        return copied;
    }

    /**
     * A line of the dependency list, {@code group:artifact:type[:classifier]:version:scope}, optionally followed by
     * {@code " -- module ..."}; null for any other line.
     */
    static Library parse(String line) {
        String text = line.strip();
        int comment = text.indexOf(" -- ");
        if (comment >= 0) {
            text = text.substring(0, comment).strip();
        }
        String[] parts = text.split(":");
        if (text.contains(" ") || (parts.length != 5 && parts.length != 6)) {
            return null;
        }
        String scope = parts[parts.length - 1];
        if (!List.of("compile", "runtime", "provided", "system").contains(scope)) {
            return null;
        }
        return new Library(parts[0], parts[1], parts[parts.length - 2], scope);
    }

    /** The POM's name and home page, and the licences of the nearest POM up the parent chain that declares any. */
    static Described describe(Path repository, String group, String artifact, String version) throws Exception {
        Element pom = read(repository, group, artifact, version);
        String name = substitute(text(pom, "name"), artifact, version);
        String url = substitute(text(pom, "url"), artifact, version);
        Element current = pom;
        for (int depth = 0; depth < 10 && current != null; depth++) {
            List<Licence> licences = licences(current);
            if (!licences.isEmpty()) {
                return new Described(name == null ? artifact : name, url, licences);
            }
            Element parent = child(current, "parent");
            current = parent == null
                    ? null
                    : read(repository, text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"));
            if (url == null && current != null) {
                url = substitute(text(current, "url"), artifact, version);
            }
        }
        return new Described(name == null ? artifact : name, url, List.of());
    }

    private static Element read(Path repository, String group, String artifact, String version) throws Exception {
        Path file = repository
                .resolve(group.replace('.', '/'))
                .resolve(artifact)
                .resolve(version)
                .resolve(artifact + "-" + version + ".pom");
        if (!Files.isRegularFile(file)) {
            throw new IOException("no POM at " + file);
        }
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setExpandEntityReferences(false);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(file.toFile());
        return document.getDocumentElement();
    }

    private static List<Licence> licences(Element pom) {
        List<Licence> out = new ArrayList<>();
        Element licences = child(pom, "licenses");
        if (licences == null) {
            return out;
        }
        for (Node node = licences.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element licence && licence.getTagName().equals("license")) {
                String name = text(licence, "name");
                String url = text(licence, "url");
                if (name != null || url != null) {
                    out.add(new Licence(name == null ? url : name, url));
                }
            }
        }
        return out;
    }

    /** A direct child element, not a descendant: a dependency's own {@code <name>} must not be taken. */
    private static Element child(Element parent, String tag) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(tag)) {
                return element;
            }
        }
        return null;
    }

    private static String text(Element parent, String tag) {
        Element element = child(parent, tag);
        if (element == null) {
            return null;
        }
        String value = element.getTextContent().strip().replaceAll("\\s+", " ");
        return value.isEmpty() ? null : value;
    }

    /** The two properties POM names and addresses use; anything else unresolved is dropped rather than printed. */
    private static String substitute(String value, String artifact, String version) {
        if (value == null) {
            return null;
        }
        String out = value.replace("${project.artifactId}", artifact).replace("${project.version}", version);
        return out.contains("${") ? null : out;
    }
}
