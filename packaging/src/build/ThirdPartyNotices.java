import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * <p>Usage: {@code java ThirdPartyNotices.java DEPENDENCY_LIST LOCAL_REPOSITORY OUT_FILE PRODUCT_VERSION}
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

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: java ThirdPartyNotices.java DEPENDENCY_LIST LOCAL_REPOSITORY OUT_FILE VERSION");
            System.exit(2);
        }
        Path repository = Path.of(args[1]);
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
                .append("text, as its Maven POM declares it. The Java runtime in lib/runtime is OpenJDK, licensed under\n")
                .append("the GNU General Public License version 2 with the Classpath Exception; the notices of each of\n")
                .append("its Java modules are in lib/runtime/legal/.\n");
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
