package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import java.util.Objects;
import javafx.css.CssParser;
import javafx.css.Rule;
import javafx.css.Selector;
import javafx.css.Stylesheet;
import org.junit.jupiter.api.Test;

/**
 * The stylesheets parse without an error, and the rules near their ends are really there: an unclosed brace earlier
 * in a file makes JavaFX's parser swallow every rule after it silently (it once took zoom, search and selection).
 */
class StylesheetTest {

    private static List<String> selectors(String resource) throws Exception {
        URL url = Objects.requireNonNull(StylesheetTest.class.getResource(resource), resource);
        CssParser.errorsProperty().clear();
        Stylesheet sheet = new CssParser().parse(url);
        assertThat(CssParser.errorsProperty())
                .as("parse errors in %s", resource)
                .isEmpty();
        return sheet.getRules().stream()
                .map(Rule::getSelectors)
                .flatMap(List::stream)
                .map(Selector::toString)
                .toList();
    }

    @Test
    void theChatStylesheetParsesAndHoldsTheRulesOfEveryFeature() throws Exception {
        List<String> selectors = selectors("rebound.css");

        assertThat(String.join("\n", selectors))
                .contains(
                        "zoom-125",
                        "zoom-badge",
                        "search-hit",
                        "text-selection",
                        "retry-timeline",
                        "system-prompt-chip",
                        "tok-keyword",
                        "editing-line");
    }

    @Test
    void theSettingsStylesheetParses() throws Exception {
        assertThat(selectors("/dev/rebound/ui/settings/settings.css")).isNotEmpty();
    }
}
