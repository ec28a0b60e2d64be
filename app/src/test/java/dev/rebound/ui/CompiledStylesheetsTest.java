package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.ui.settings.SettingsWindow;
import dev.rebound.ui.view.ChatWindow;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import javafx.css.CssParser;
import javafx.css.Declaration;
import javafx.css.Rule;
import javafx.css.Stylesheet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The build writes each stylesheet's binary form beside it (app/src/build/CompileStylesheets.java), which JavaFX loads
 * in its place: it must say exactly what the text says.
 */
class CompiledStylesheetsTest {

    @ParameterizedTest
    @ValueSource(strings = {"view/rebound", "settings/settings"})
    void theBinaryFormBesideAStylesheetHasItsRulesAndDeclarations(String sheet) throws Exception {
        Class<?> owner = sheet.startsWith("view/") ? ChatWindow.class : SettingsWindow.class;
        String name = sheet.substring(sheet.indexOf('/') + 1);
        URL css = owner.getResource(name + ".css");
        URL bss = owner.getResource(name + ".bss");
        assertThat(css).isNotNull();
        assertThat(bss).as("the build's binary form of " + name + ".css").isNotNull();

        List<String> text = flatten(new CssParser().parse(css));
        List<String> binary = flatten(Stylesheet.loadBinary(bss));

        assertThat(text).hasSizeGreaterThan(20);
        assertThat(binary).isEqualTo(text);
    }

    /** Each rule's selectors, then each of its declarations with its parsed value, in order. */
    private static List<String> flatten(Stylesheet stylesheet) {
        List<String> lines = new ArrayList<>();
        for (Rule rule : stylesheet.getRules()) {
            lines.add(rule.getSelectors().toString());
            for (Declaration d : rule.getDeclarations()) {
                lines.add(d.getProperty() + ": " + d.getParsedValue() + (d.isImportant() ? " !important" : ""));
            }
        }
        return lines;
    }
}
