import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javafx.css.Stylesheet;

/**
 * Build step of the app module (process-classes): writes beside each stylesheet in the build's classes folder its
 * binary form ({@code rebound.css} → {@code rebound.bss}), which JavaFX loads in place of the text when it finds one
 * (it looks for the {@code .bss} first, as for its own Modena): parsing the text took ~11 ms of the window's first
 * frame. The text stays beside it, and is what JavaFX parses if the binary is missing or unreadable.
 *
 * <p>Usage: {@code java -cp <JavaFX's jars> CompileStylesheets.java CLASSES_DIR}
 */
public final class CompileStylesheets {
    private CompileStylesheets() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java CompileStylesheets.java CLASSES_DIR");
            System.exit(2);
        }
        List<Path> sheets;
        try (Stream<Path> files = Files.walk(Path.of(args[0]))) {
            sheets = files.filter(f -> f.getFileName().toString().endsWith(".css")).toList();
        }
        if (sheets.isEmpty()) {
            System.err.println("CompileStylesheets: no .css file under " + args[0]);
            System.exit(1);
        }
        for (Path css : sheets) {
            String name = css.getFileName().toString();
            Path bss = css.resolveSibling(name.substring(0, name.length() - ".css".length()) + ".bss");
            File source = css.toFile();
            Stylesheet.convertToBinary(source, bss.toFile());
            if (Files.size(bss) == 0) {
                System.err.println("CompileStylesheets: " + bss + " is empty");
                System.exit(1);
            }
        }
    }
}
