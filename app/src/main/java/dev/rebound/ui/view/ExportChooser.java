package dev.rebound.ui.view;

import java.nio.file.Path;
import java.util.Optional;
import javafx.stage.Window;

/** Asks where a chat's Markdown goes: a save dialog in the app, a fixed answer in tests. Called on the FX thread. */
@FunctionalInterface
public interface ExportChooser {
    /**
     * @param fileName the name proposed ({@code <title>.md})
     * @param folder the folder to start in, or null for the user's home folder
     * @return the file chosen, or empty when the user cancelled
     */
    Optional<Path> choose(Window owner, String fileName, Path folder);

    /** The platform's save dialog, for Markdown files. */
    static ExportChooser saveDialog() {
        return (owner, fileName, folder) -> {
            javafx.stage.FileChooser chooser = new javafx.stage.FileChooser();
            chooser.setTitle("Export chat as Markdown");
            chooser.getExtensionFilters()
                    .addAll(
                            new javafx.stage.FileChooser.ExtensionFilter("Markdown", "*.md"),
                            new javafx.stage.FileChooser.ExtensionFilter("All files", "*"));
            chooser.setInitialFileName(fileName);
            Path start = folder != null ? folder : Path.of(System.getProperty("user.home", "."));
            if (java.nio.file.Files.isDirectory(start)) {
                chooser.setInitialDirectory(start.toFile());
            }
            return Optional.ofNullable(chooser.showSaveDialog(owner)).map(java.io.File::toPath);
        };
    }
}
