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
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * distributed under here whose text their jars do not carry (Apache 2.0, LGPL 2.1, MPL 2.0, and the notices of
 * third-party work inside jars: Protocol Buffers, the Mesa and Khronos headers in JavaFX; {@link #TEXTS}, from
 * {@code LICENCE_TEXTS}, which also holds {@code embedded.tsv}, the third-party work found inside the jars), and
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

    /** The words that name an MIT or BSD licence in a POM. */
    static final Pattern NOTICE_LICENCE = Pattern.compile("\\bmit\\b|\\bbsd");

    /** The full licence texts shipped in licenses/ (from LICENCE_TEXTS). */
    static final List<String> TEXTS = List.of(
            "Apache-2.0.txt",
            "LGPL-2.1.txt",
            "MPL-2.0.txt",
            "protobuf-BSD-3-Clause.txt",
            "javafx-mesa3d.txt",
            "javafx-khronos-opengl.txt");

    /** A line of embedded.tsv: what a library's jar holds inside it, and the licence text in licenses/, if any. */
    record Embedded(String what, String text) {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println(
                    "usage: java ThirdPartyNotices.java DEPENDENCY_LIST LOCAL_REPOSITORY OUT_FILE VERSION "
                            + "LICENCE_TEXTS");
            System.exit(2);
        }
        Path repository = Path.of(args[1]);
        Path legal = Path.of(args[2]).toAbsolutePath().getParent();
        Path texts = Path.of(args[4]);
        Files.createDirectories(legal.resolve("licenses"));
        for (String text : TEXTS) {
            Path target = legal.resolve("licenses").resolve(text);
            Files.copy(texts.resolve(text), target, StandardCopyOption.REPLACE_EXISTING);
        }
        List<String> unshipped = new ArrayList<>();
        Map<String, List<Embedded>> embedded = new TreeMap<>();
        for (String line : Files.readAllLines(texts.resolve("embedded.tsv"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] columns = line.split("\t");
            if (columns.length != 3 || (!columns[2].equals("-") && !TEXTS.contains(columns[2]))) {
                throw new IllegalArgumentException("embedded.tsv: not artifact<TAB>what<TAB>text or -: " + line);
            }
            embedded.computeIfAbsent(columns[0], a -> new ArrayList<>())
                    .add(new Embedded(columns[1], columns[2]));
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
            List<String> shipped = textsOf(described.licences());
            for (String text : shipped) {
                entry.append("  Licence text: licenses/").append(text).append('\n');
            }
            // JavaFX's jars carry no legal files; its licence is OpenJDK's, whose text jlink put in the runtime. Any
            // other library passes its licence on through a text in licenses/ or, for MIT and BSD, its jar's own file.
            boolean javafx = library.group().equals("org.openjfx");
            List<String> own = javafx ? List.of() : copyNoticeFiles(repository, library, legal);
            boolean passedOn = javafx
                    ? described.licences().stream().allMatch(ThirdPartyNotices::isOpenJdkLicence)
                    : !shipped.isEmpty() || described.licences().stream().allMatch(ThirdPartyNotices::isNoticeLicence);
            if (!passedOn) {
                unshipped.add(library.key() + " (" + described.licences() + ")");
            }
            if (javafx) {
                entry.append("  Licence text: ../../runtime/legal/java.base/LICENSE (OpenJDK's, the same licence)\n");
            }
            if (!own.isEmpty()) {
                entry.append("  From its jar: ").append(String.join(", ", own)).append('\n');
            }
            if (!javafx && shipped.isEmpty() && passedOn && own.isEmpty()) {
                // MIT or BSD, and the jar carries no LICENSE: its copyright line is in its project only.
                entry.append("  Copyright notice: not carried by its jar; in the licence file at the address")
                        .append(" above\n");
            }
            for (Embedded inside : embedded.getOrDefault(library.artifact(), List.of())) {
                entry.append("  Contains ").append(inside.what()).append('\n');
                if (!inside.text().equals("-")) {
                    entry.append("  Licence text: licenses/").append(inside.text()).append('\n');
                }
            }
            embedded.remove(library.artifact());
            sections.get(library.section()).add(entry.toString());
        }
        if (!embedded.isEmpty()) {
            System.err.println("ThirdPartyNotices: embedded.tsv names libraries the package does not hold: "
                    + embedded.keySet() + "; remove those lines.");
            System.exit(1);
        }
        if (!unshipped.isEmpty()) {
            System.err.println("ThirdPartyNotices: no licence text is shipped for " + String.join(", ", unshipped)
                    + "; add its text to packaging/src/legal and to TEXTS, or teach this script how it is passed on.");
            System.exit(1);
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
                .append("text, as its Maven POM declares it. Paths are relative to lib/app/legal/ in the package\n")
                .append("(/opt/rebound/lib/app/legal/ once installed): licenses/ holds the full text of the licences\n")
                .append("the libraries' jars do not carry themselves, and <artifact>-<version>/ the licence and\n")
                .append("notice files a library's jar carries (its copyright notices among them). A library under\n")
                .append("two licences (Logback: EPL 2.0 or LGPL 2.1) is passed on under the one whose text is here.\n")
                .append("The Java runtime in lib/runtime is OpenJDK, licensed under the GNU General Public License\n")
                .append("version 2 with the Classpath Exception; the notices of each of its JDK modules are in\n")
                .append("lib/runtime/legal/. JavaFX, linked into that runtime from its Maven jars, is under the same\n")
                .append("licence; its jars carry no notice files, so the notices OpenJFX ships for the third-party\n")
                .append("code in its native libraries are not in lib/runtime/legal/; what is known of them is\n")
                .append("listed under JavaFX below.\n");
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
            shippedText(licence).filter(text -> !out.contains(text)).ifPresent(out::add);
        }
        return out;
    }

    /**
     * The text in licenses/ of a licence, recognised by its name or address: Apache only in version 2.0, the LGPL only
     * in version 2.1. Anything else has none, and the library must be passed on some other way or the build fails.
     */
    static Optional<String> shippedText(Licence licence) {
        String words = words(licence);
        if (words.contains("apache") && words.contains("2.0")) {
            return Optional.of("Apache-2.0.txt");
        }
        boolean lgpl = words.contains("lgpl") || words.contains("lesser general public license");
        if (lgpl && words.contains("2.1")) {
            return Optional.of("LGPL-2.1.txt");
        }
        return Optional.empty();
    }

    /** MIT and BSD licences: what is passed on is the copyright line and permission notice in the jar's own file. */
    static boolean isNoticeLicence(Licence licence) {
        return NOTICE_LICENCE.matcher(words(licence)).find();
    }

    /** OpenJDK's licence, the GPL 2 with the Classpath Exception, whose text the runtime carries. */
    static boolean isOpenJdkLicence(Licence licence) {
        String words = words(licence);
        return words.contains("gplv2+ce")
                || (words.contains("classpath") && words.replace("lgpl", "").contains("gpl"));
    }

    private static String words(Licence licence) {
        return (licence.name() + " " + licence.url()).toLowerCase(Locale.ROOT);
    }

    /**
     * Copies the licence and notice files the library's jar carries to {@code <artifact>-<version>/} beside the notice
     * and returns their paths relative to it; none for a jar that carries none.
     */
    static List<String> copyNoticeFiles(Path repository, Library library, Path legal) throws IOException {
        Path jar = artifactFile(repository, library.group(), library.artifact(), library.version(), "jar");
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
                // Kept at its path in the jar: a root LICENSE and a META-INF/LICENSE are two files.
                Path target = legal.resolve(folder).resolve(name);
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                copied.add(folder + "/" + name);
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

    /** A file of an artifact in the local Maven repository: its POM or its jar. */
    private static Path artifactFile(Path repository, String group, String artifact, String version, String extension) {
        return repository
                .resolve(group.replace('.', '/'))
                .resolve(artifact)
                .resolve(version)
                .resolve(artifact + "-" + version + "." + extension);
    }

    private static Element read(Path repository, String group, String artifact, String version) throws Exception {
        Path file = artifactFile(repository, group, artifact, version, "pom");
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
